"""What a command's start-up loads: neither pandas nor matplotlib (each costs about half a
second of every ``run``, ``show`` and ``advise``, and the warm-run target is about two seconds in
all).

Checked in a fresh interpreter, since this test process has loaded both long ago. The
pandas-free column reader this rests on is tested in tests/runs/test_startup.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import sys
from click.testing import CliRunner
from pinochle_sim.cli.commands import main
r = CliRunner().invoke(main, {args!r})
assert r.exit_code == 0, r.output
print(" ".join(m for m in ("pandas", "matplotlib", "pyarrow.dataset") if m in sys.modules))
"""


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--hands", "2000", "--out", "{tmp}/run"],
        ["show", "--seed", "1", "--hand", "2"],
        ["advise", "AS AS 10S KS QS JS 9S KH QH AD AC 9C", "--hands", "200"],
        ["solve", "--trump", "S", "--leader", "0", "--hands", "AS KS; 10S QS; JS 9S; AH 9H"],
    ],
    ids=["run", "show", "advise", "solve"],
)
def test_start_up_loads_no_pandas_or_matplotlib(args, tmp_path) -> None:
    args = [a.format(tmp=tmp_path) for a in args]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(args=args)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1:] in ([], [""]), done.stdout


def _loading_numba(pid: int) -> bool:
    """Whether process ``pid`` has mapped llvmlite's library: it is importing numba, which only
    the commands load (the entry point and the package top do not)."""
    with open(f"/proc/{pid}/maps") as f:
        return "llvmlite" in f.read()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_while_the_commands_load_is_one_line_and_status_130(tmp_path) -> None:
    """Ctrl-C while the commands and what they use are still loading (about half a second,
    nothing of the command run yet; the entry point has its handler by then): the one line
    ``Error: interrupted...`` and the status shells give an interrupt, never a traceback."""
    import signal
    import time

    def at_a_terminal() -> None:  # Ctrl-C taken, as at a terminal (a test worker ignores it)
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    cmd = [sys.executable, "-m", "pinochle_sim", "run", "--hands", "1000", "--out",
           str(tmp_path / "r")]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=at_a_terminal)  # fmt: skip
    deadline = time.monotonic() + 30
    while not _loading_numba(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.002)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (out, err)
    assert err.strip().splitlines()[-1].startswith("Error: interrupted"), err
    assert "Traceback" not in err and "Aborted" not in err, err
    assert not (tmp_path / "r").exists()
