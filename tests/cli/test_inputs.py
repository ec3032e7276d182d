"""Bad and extreme input at the command line: each gives one clear line at once, with bounded
memory, and leaves the files it was given as they were; a closed pipe ends a command quietly;
a long wait (the cold compile) is announced, and rates leave it out."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path

import numba
import pytest
from click.testing import CliRunner, Result

import pinochle_sim.cli.progress as progress_module
from pinochle_sim.analysis.compare import parse_range
from pinochle_sim.cli.commands import main
from pinochle_sim.cli.group import EXIT_BROKEN_PIPE
from pinochle_sim.cli.progress import Progress
from pinochle_sim.rules import get_preset, load_ruleset, loads_ruleset
from pinochle_sim.runs.backends import local as local_backend
from pinochle_sim.runs.compile import warmup
from pinochle_sim.runs.inspect.show import hand_record
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands
from pinochle_sim.runs.simulate.pool import MAX_THREADS

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def user_error(result: Result, *needles: str) -> str:
    """Non-zero exit, exactly one ``Error:`` line holding every needle, no traceback."""
    out = result.output
    assert result.exit_code != 0, out
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in out
    errors = [line for line in out.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, out
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])
    return errors[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def bounded(func, seconds: float = 10.0, megabytes: float = 20.0):
    """Run ``func``: it must return at once (a generous ``seconds``, against the minutes the
    unchecked range took) having allocated at most ``megabytes``."""
    tracemalloc.start()
    t = time.perf_counter()
    try:
        value = func()
        elapsed = time.perf_counter() - t
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert elapsed < seconds, f"took {elapsed:.1f} s"
    assert peak < megabytes * 1e6, f"allocated {peak / 1e6:.0f} MB"
    return value


# ------------------------------------------------------------------------------ huge ranges


def test_show_huge_range_fails_at_once_with_bounded_memory():
    r = bounded(lambda: invoke("show", "--hand", "0:2000000000"))
    user_error(r, "2,000,000,000 hands", "at most 10,000")


def test_show_counts_every_range_together_and_checks_each_bound():
    user_error(invoke("show", "--hand", "0:6000", "--hand", "0:6000"), "12,000 hands")
    user_error(invoke("show", "--hand", "9223372036854775800:9223372036854775809"), "2**63 - 2")
    user_error(invoke("show", "--hand", "-5"), "between 0 and 2**63 - 2")
    user_error(invoke("show", "--hand", "7:3"), "A < B")


def test_sweep_huge_range_fails_at_once_with_bounded_memory():
    with pytest.raises(ValueError, match="1 to 200 values, got 1,000,000,001"):
        bounded(lambda: parse_range("bid.margin=0:1000000000:1"))
    with pytest.raises(ValueError, match="got 201"):
        parse_range("bid.margin=" + ",".join(["1"] * 201))
    assert parse_range("bid.margin=-40:40:10")[1] == [-40, -30, -20, -10, 0, 10, 20, 30, 40]
    user_error(invoke("sweep", "--param", "bid.margin=0:1000000000:1"), "1 to 200 values")


def test_too_many_deals_for_memory_are_refused_before_any_work(tmp_path):
    r = bounded(lambda: invoke("compare", "default", "default", "--hands", "1e11",
                               "--out", str(tmp_path / "c")))  # fmt: skip
    user_error(r, "GB of memory")
    assert not (tmp_path / "c").exists()
    r = invoke("sweep", "--param", "bid.margin=0:40:10", "--hands", "1e11")
    user_error(r, "x 5 values", "GB of memory")
    user_error(invoke("bench", "--hands", "1e11", "--no-end-to-end"), "GB of memory")
    with pytest.raises(ValueError, match="GB of memory"):
        bounded(lambda: play_hands(count=10**11))


# --------------------------------------------------------------------------- smaller inputs


@pytest.mark.parametrize("command", ["run", "compare", "sweep"])
def test_threads_help_and_check_agree(command):
    help_text = invoke(command, "--help").output
    assert f"Worker threads, 1 to {MAX_THREADS}" in help_text
    assert f"[1<=x<={MAX_THREADS}]" in help_text
    assert MAX_THREADS == numba.config.NUMBA_NUM_THREADS
    user_error(invoke(command, "--threads", str(MAX_THREADS + 1)), f"1<=x<={MAX_THREADS}")
    user_error(invoke(command, "--threads", "0"), f"1<=x<={MAX_THREADS}")


def test_the_largest_thread_count_the_help_allows_works(tmp_path):
    r = invoke("run", "--hands", "300", "--threads", str(MAX_THREADS), "--out",
               str(tmp_path / "r"), "--quiet")  # fmt: skip
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("hand", ["", "   ", ",,", " ; "])
def test_meld_without_cards_is_an_error(hand):
    user_error(invoke("meld", hand, "--trump", "H"), "holds no cards")


def test_empty_or_comment_only_rules_file_is_an_error(tmp_path):
    for text in ("", "\n\n", "# only a comment\n"):
        path = tmp_path / "empty.toml"
        path.write_text(text)
        before = digest(path)
        with pytest.raises(ValueError, match="sets no keys"):
            load_ruleset(path)
        user_error(invoke("rules", str(path)), "sets no keys", str(path))
        user_error(invoke("run", "--hands", "10", "--rules", str(path)), "sets no keys")
        assert digest(path) == before
    # a file that names its preset is the way to play it unchanged
    path.write_text('preset = "joedog"\n')
    assert load_ruleset(path) == get_preset("joedog")
    assert loads_ruleset("") == get_preset("partnership")  # the string API keeps its default


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "", "default"],
        ["compare", "default", "  "],
        ["sweep", "--param", "bid.margin=0:10:10", "--base", ""],
        ["sweep", "--param", "bid.margin=0:10:10", "--against", " "],
    ],
)
def test_empty_policy_spec_is_an_error(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    user_error(invoke(*args), "is empty")
    assert not list(tmp_path.iterdir())  # nothing written


# ---------------------------------------------------------------------------- broken pipes


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "pinochle_sim", *args]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT))


@pytest.mark.parametrize("args", [["rules", "joedog", "--toml"], ["schema", "--rules", "two-hand"]])
def test_closed_pipe_ends_quietly(args):
    """The reader is gone before the first line: no message, the status of a standard tool."""
    with subprocess.Popen(
        _cli(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), cwd=ROOT
    ) as p:
        p.stdout.close()
        err = p.stderr.read().decode()
        p.wait(timeout=60)
    assert p.returncode == EXIT_BROKEN_PIPE == 141
    assert err == "", err


def test_pipe_into_head_prints_nothing_on_stderr():
    hand_record(0, 0)  # trace kernel compiled and cached before the subprocess starts
    cmd = " ".join(_cli("show", "--hand", "0:300", "--json")) + " | head -n 1"
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {cmd}"], capture_output=True, text=True,
        env=_env(), cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert json.loads(done.stdout)["hand"] == 0
    assert done.returncode == EXIT_BROKEN_PIPE, done.stderr
    assert "Error" not in done.stderr and "Traceback" not in done.stderr
    assert "Exception ignored" not in done.stderr


# ----------------------------------------------------------------------- compile and progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_without_a_terminal_prints_about_every_tenth(monkeypatch, capsys):
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "perf_counter", clock)
    bar = Progress(100, tty=False)
    bar.compiling("auction hands", 31.6)
    clock.now = 30.0  # the compile took 30 s; the first update comes after it
    bar.update(0)
    clock.now = 31.0
    bar.update(10)  # 10 hands in 1 s after the compile: 10/s, 90 left: 9 s
    clock.now = 31.5
    bar.update(5)  # 15%: no line (the next is due at 20%)
    clock.now = 32.0
    bar.update(5)  # 20 hands in 2 s: 10/s, 80 left: 8 s
    bar.close()
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "compiling the engine for these policies (once a machine, about 32 s): auction hands",
        " 10% 10/100 hands  10 hands/s  ETA    9 s",
        " 20% 20/100 hands  10 hands/s  ETA    8 s",
    ]


def test_progress_after_a_resume_counts_only_new_hands(monkeypatch, capsys):
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "perf_counter", clock)
    bar = Progress(100, tty=False)
    clock.now = 5.0
    bar.update(50)  # already done before the resume: not in the rate
    clock.now = 7.0
    bar.update(10)  # 10 new hands in 2 s: 5/s; 40 left: 8 s
    assert capsys.readouterr().err.splitlines() == [" 60% 60/100 hands  5 hands/s  ETA    8 s"]


def test_cold_start_without_a_terminal_announces_the_compile(tmp_path, monkeypatch):
    record = tmp_path / "compile-seconds.json"
    record.write_text(json.dumps({"auction.play_chunk": 12.3}))
    monkeypatch.setattr(warmup, "COMPILE_RECORD", record)
    monkeypatch.setattr(warmup, "kernel_state", lambda kernel, args: "cold")
    r = invoke("run", "--hands", "2000", "--part-size", "200", "--out", str(tmp_path / "r"))
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    # the compile first: the estimate after it can time the run's own policies
    assert (
        lines[0]
        == "compiling the engine for these policies (once a machine, about 12 s): auction hands"
    )
    assert lines[1].startswith("estimated ") and "on disk and about" in lines[1]
    # ten parts of 200 hands: one line per part, at 10%, 20%, ... 100%
    shares = [line.split()[0] for line in lines if line.endswith(" s") and "%" in line]
    assert shares == [f"{k}%" for k in range(10, 101, 10)]
    # the cold compile's real duration is remembered for the next estimate
    assert json.loads(record.read_text())["auction.play_chunk"] < 12.3
    quiet = invoke("run", "--hands", "2000", "--out", str(tmp_path / "q"), "--quiet")
    assert quiet.exit_code == 0 and quiet.output == ""


def test_show_announces_a_cold_trace_compile(tmp_path, monkeypatch):
    monkeypatch.setattr(warmup, "COMPILE_RECORD", tmp_path / "compile-seconds.json")
    monkeypatch.setattr(warmup, "kernel_state", lambda kernel, args: "cold")
    r = invoke("show", "--hand", "3", "--json")
    assert r.exit_code == 0
    first, rest = r.output.split("\n", 1)
    assert first.startswith("compiling the engine for these policies (once a machine, about ")
    assert first.endswith("auction hand traces")
    assert json.loads(rest.splitlines()[-1])["hand"] == 3


def test_rates_leave_the_compile_out(tmp_path, monkeypatch):
    def slow_compile(inputs, entry, observer=None):
        time.sleep(1.0)
        return 1.0

    monkeypatch.setattr(local_backend, "warm", slow_compile)
    t = time.perf_counter()
    summary = run(3000, seed=2, out=str(tmp_path / "r"))
    wall = time.perf_counter() - t
    assert summary.compile_seconds == 1.0
    assert summary.seconds < wall - 0.95
    assert summary.hands_per_second == pytest.approx(3000 / summary.seconds)
    r = invoke("run", "--hands", "3000", "--seed", "2", "--out", str(tmp_path / "c"))
    assert "not counting 1.0 s to compile or load the engine" in r.output


def test_warm_up_call_is_the_call_a_run_makes():
    """The arguments the warm-up captures type exactly like the run's own kernel calls: after
    the library plays hands (and traces one), the state of those arguments is "compiled"."""
    inputs = engine_inputs("partnership")
    play_hands(seed=1, count=10)
    hand_record(1, 0)
    for entry in ("play_chunk", "trace_one"):
        args = warmup.kernel_args(inputs, entry)
        assert warmup.kernel_state(getattr(inputs.engine, entry), args) == "compiled", entry
        assert warmup.warm(inputs, entry) == 0.0


def test_kernel_state_tells_cold_compiled_and_cached_apart(tmp_path):
    """Generic over any numba dispatcher: a fresh one is cold, compiled once called, and a new
    process finds it cached on disk."""
    (tmp_path / "tiny_state_mod.py").write_text(
        textwrap.dedent(
            """
            from pinochle_sim.core.jit import jit

            @jit
            def twice(x):
                return 2 * x
            """
        )
    )
    script = textwrap.dedent(
        """
        import sys
        from pinochle_sim.runs.compile.warmup import kernel_state
        import tiny_state_mod as m
        before = kernel_state(m.twice, (3,))
        assert m.twice(3) == 6
        print(before, kernel_state(m.twice, (3,)), kernel_state(m.twice, (3.5,)))
        """
    )
    env = dict(_env(), NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])

    def states() -> list[str]:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, check=True)  # fmt: skip
        return done.stdout.split()

    assert states() == ["cold", "compiled", "cold"]
    assert states() == ["cached", "compiled", "cold"]


def as_typed(*args: str) -> Result:
    """The command as a user types it (the program named ``pinochle-sim``)."""
    return CliRunner().invoke(main, list(args), prog_name="pinochle-sim")


@pytest.mark.parametrize("command", sorted(main.commands))
def test_a_usage_error_is_one_line_that_says_where_help_is(command):
    """Every command: an unknown option is the whole output, one line, exit status 2."""
    r = as_typed(command, "--no-such-option")
    assert r.exit_code == 2
    assert r.output.splitlines() == [
        f"Error: No such option '--no-such-option'. (see 'pinochle-sim {command} --help')"
    ], r.output


def test_usage_errors_of_every_kind_are_one_line():
    cases = {
        ("run", "--hands"): "Error: Option '--hands' requires an argument. "
        "(see 'pinochle-sim run --help')",
        ("advise",): "Error: Missing argument 'CARDS...'. (see 'pinochle-sim advise --help')",
        ("nosuch",): "Error: No such command 'nosuch'. (see 'pinochle-sim --help')",
        ("--bogus",): "Error: No such option '--bogus'. (see 'pinochle-sim --help')",
    }
    for args, line in cases.items():
        r = as_typed(*args)
        assert r.exit_code == 2 and r.output.splitlines() == [line], (args, r.output)
    r = as_typed("bench", "--solver-deals", "-3")
    assert r.exit_code == 2 and len(r.output.splitlines()) == 1
    assert r.output.startswith("Error: Invalid value for '--solver-deals'")


def test_slow_work_gets_a_line_at_least_every_ten_seconds(monkeypatch, capsys):
    """Without a terminal a line comes at least every 10 s: from an update that crosses no
    tenth, and from the heartbeat while nothing finishes (a long solve); rates below 10 a
    second keep two digits, and a long ETA is in minutes or hours."""
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "perf_counter", clock)
    bar = Progress(300, unit="deals", tty=False, heartbeat=False)
    bar.update(0)
    clock.now = 9.0
    bar.tick()  # 9 s without a line: not yet
    clock.now = 10.5
    bar.tick()  # nothing done yet: the time so far, no rate
    clock.now = 16.0
    bar.update(4)  # 4 deals in 16 s, 1%: no tenth crossed, and the last line is 5.5 s old
    clock.now = 26.0
    bar.update(1)  # 5 deals in 26 s: 0.19 a second, 295 left: 1,534 s
    clock.now = 36.5
    bar.tick()
    bar.close()
    assert capsys.readouterr().err.splitlines() == [
        "  0% 0/300 deals     - deals/s  ETA    -  (10 s so far)",
        "  2% 5/300 deals  0.19 deals/s  ETA   26 min",
        "  2% 5/300 deals  0.19 deals/s  ETA   25 min",  # counted down, not a sinking rate
    ]
    assert progress_module._duration(3 * 3600 + 1800) == " 3.5 h"


def test_before_the_first_units_finish_the_eta_is_the_estimate(monkeypatch, capsys):
    """A part of slow work takes a minute: until it lands the lines count the estimate down."""
    from pinochle_sim.runs.estimate import RunEstimate

    clock = Clock()
    monkeypatch.setattr(progress_module.time, "perf_counter", clock)
    bar = Progress(3000, tty=False, heartbeat=False)
    bar.plan(RunEstimate(3000, 3000, 0, 150.0, None, 2))
    bar.update(0)
    clock.now = 10.5
    bar.tick()
    bar.close()
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1] == "  0% 0/3,000 hands     - hands/s  ETA    2 min (estimated, 10 s so far)"
    assert progress_module._duration(42) == "  42 s"


def test_the_heartbeat_thread_ends_with_its_bar():
    bar = Progress(10, tty=False)
    bar.update(0)
    assert bar.beat is not None and bar.beat.is_alive()
    bar.close()
    bar.beat.join(timeout=3)
    assert not bar.beat.is_alive()


def test_a_long_compile_gets_a_line_every_ten_seconds(monkeypatch, capsys):
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "perf_counter", clock)
    bar = Progress(100, tty=False, heartbeat=False)
    bar.compiling("auction hands", 80.0)
    clock.now = 5.0
    bar.tick()
    clock.now = 10.5
    bar.tick()
    clock.now = 21.0
    bar.tick()
    bar.compiled("auction hands", 21.0)
    clock.now = 40.0
    bar.tick()  # the compile is over: no more compile lines
    bar.close()
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "compiling the engine for these policies (once a machine, about 80 s): auction hands",
        "  still compiling: 10 s of about 80 s",
        "  still compiling: 21 s of about 80 s",
        "compiled in 21 s",
    ]


def test_an_overdue_eta_falls_back_to_the_pace_so_far(monkeypatch, capsys):
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "perf_counter", clock)
    bar = Progress(40, unit="deals", tty=False, heartbeat=False)
    bar.update(0)
    clock.now = 38.0
    bar.update(38)  # 1 a second: 2 left, 2 s
    clock.now = 60.0  # 22 s on, none more: not "ETA 0 s" but 2 at 38 in 60 s
    bar.tick()
    bar.close()
    assert capsys.readouterr().err.splitlines()[-1].endswith("ETA    3 s")
