"""Faults a run meets outside its folder: the disk estimate per engine and for games, and a
read-only compile cache (one warning, then a temporary cache folder).

Faults injected into run folders (a deleted, damaged, truncated or foreign part, a corrupt or
missing manifest, a folder left by an interrupted start, a disk too small) are checked through
the command line in tests/cli/test_faults.py."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pinochle_sim.runs.estimate import estimate
from pinochle_sim.runs.simulate.hands import engine_inputs

# ------------------------------------------------------------------------------ the disk size


def test_estimate_per_engine_and_for_games():
    # 56 bytes and 12 thread-seconds per million hands (auction); 54 and 32 (two-hand)
    p = estimate(engine_inputs("partnership"), 1_000_000, False, ".", 2)
    assert p.bytes == 56_000_000 and p.seconds == pytest.approx(6.0)
    t = estimate(engine_inputs("two-hand"), 1_000_000, False, ".", 1)
    assert t.bytes == 54_000_000 and t.seconds == pytest.approx(32.0)
    # games: 1500 points at 160 a deal -> 10 deals a game (joedog: 150 at 16 -> 10)
    g = estimate(engine_inputs("joedog"), 1000, True, ".", 2)
    assert g.rows == 10_000 and g.bytes == 560_000


# -------------------------------------------------------------------- a read-only compile cache


def test_read_only_cache_folder_warns_once_and_caches_in_a_temporary_folder(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    module = tmp_path / "tiny_kernel_mod.py"
    module.write_text(
        textwrap.dedent(
            """
            from pinochle_sim.core.jit import jit

            @jit
            def add_one(x):
                return x + 1
            """
        )
    )
    script = textwrap.dedent(
        """
        import contextlib, io
        import numba
        at_import = io.StringIO()
        with contextlib.redirect_stderr(at_import):
            import pinochle_sim.core.jit as j
        assert at_import.getvalue() == ""  # nothing is printed at import
        import tiny_kernel_mod
        assert tiny_kernel_mod.add_one(1) == 2
        from pinochle_sim.runs.compile import warmup
        from pinochle_sim.runs.observer import QUIET
        warmup._warn_once(QUIET)  # the warm-up before a compile says it, once per process
        warmup._warn_once(QUIET)
        print(numba.config.CACHE_DIR)
        """
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(blocker / "cache"))
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(Path(__file__).parents[2])])
    env["TMPDIR"] = str(tmp_path / "tmp")
    (tmp_path / "tmp").mkdir()
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    warnings = [line for line in done.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1, done.stderr
    assert "cannot be written" in warnings[0] and str(blocker / "cache") in warnings[0]
    used = Path(done.stdout.strip())
    assert used.is_relative_to(tmp_path / "tmp") and used.name.startswith("numba-")
    assert list(used.rglob("*.nbi")), "the kernel was not cached in the fallback folder"


def test_a_run_of_slow_policies_is_timed_and_one_over_an_hour_needs_force(tmp_path):
    """The estimate of a search player's run comes from a few of its own hands timed before it
    starts (the rate table knows only the bots, 10,000 times faster); a run estimated over an
    hour asks the observer (a terminal's user) and, refused, is one line that names --force;
    nothing is written."""
    from pinochle_sim import Observer, PolicySet, RunSpec, run
    from pinochle_sim.runs.store.files import RunFolderError

    class Refuses(Observer):
        def __init__(self) -> None:
            self.asked: list[str] = []
            self.plans: list = []

        def plan(self, estimate):
            self.plans.append(estimate)

        def confirm(self, question):
            self.asked.append(question)
            return False

    seen = Refuses()
    spec = RunSpec(hands=2_000_000, policies=PolicySet(play="pimc"))
    with pytest.raises(RunFolderError, match=r"would take about [\d.]+ (h|days) on") as err:
        run(spec, str(tmp_path / "slow"), observer=seen)
    assert "timed on" in str(err.value) and "--force" in str(err.value)
    assert len(seen.asked) == 1 and seen.asked[0].endswith("Start it?")
    assert seen.plans[0].timed_on.startswith("timed on") and seen.plans[0].seconds > 3600
    assert not (tmp_path / "slow").exists()
