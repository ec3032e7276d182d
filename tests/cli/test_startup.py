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
from pinochle_sim.cli import main
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
