"""The compile helper (pinochle_sim.runs.compile.helper): its scheduling model against times worked
out by hand, the helper process compiling a plan into a cache the run then loads, the saved
plans matching the kernels, and cache saves from two processes keeping every entry."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from pinochle_sim.runs.compile import helper as compile_helper
from pinochle_sim.runs.compile import warmup
from pinochle_sim.runs.compile.helper import LOAD_S, Node
from pinochle_sim.runs.simulate.hands import engine_inputs


def tree(spec: list[tuple[str, int, float]]) -> list[Node]:
    """Nodes from (name, parent index, own seconds), in compile-start order."""
    nodes = [Node("m", name, (), None, parent, own) for name, parent, own in spec]
    for i, n in enumerate(nodes):
        if n.parent >= 0:
            nodes[n.parent].children.append(i)
    return nodes


# R(1) calls A(5) then B(3): the run compiles A during 0-5 s, the helper (from 0.5 s) has B done
# at 3.5 s, so the run loads B at 5 s and finishes R at 5 + LOAD + 1.
TWO = [("R", -1, 1.0), ("A", 0, 5.0), ("B", 0, 3.0)]


def test_without_a_helper_the_compile_is_the_sum_of_its_kernels():
    assert compile_helper.simulate(tree(TWO), []) == pytest.approx(9.0)


def test_a_kernel_the_helper_finished_first_is_loaded():
    assert compile_helper.simulate(tree(TWO), [2], start_s=0.5) == pytest.approx(6.0 + LOAD_S)


def test_a_kernel_both_reach_before_either_is_done_is_compiled_twice():
    # helping with A (the run's first callee): the run starts A at 0 s, the helper at 0.5 s
    assert compile_helper.simulate(tree(TWO), [1], start_s=0.5) == pytest.approx(9.0)


def test_choose_gives_the_helper_the_subtree_the_run_reaches_last():
    helper, serial, helped = compile_helper.choose(tree(TWO), start_s=0.5)
    assert (helper, serial, helped) == ([2], pytest.approx(9.0), pytest.approx(6.0 + LOAD_S))


# R(1) calls A(6), then B(1), which calls B1(4). The helper finishes B1 at 4.5 s and B at 5.5 s;
# the run reaches B at 6 s: given B, it loads it (7 + LOAD in all); given only B1, it loads B1,
# compiles B (1 s) and R (8 + LOAD).
NESTED = [("R", -1, 1.0), ("A", 0, 6.0), ("B", 0, 1.0), ("B1", 2, 4.0)]


def test_a_whole_subtree_beats_its_callee_alone():
    nodes = tree(NESTED)
    assert compile_helper.simulate(nodes, [2], start_s=0.5) == pytest.approx(7.0 + LOAD_S)
    assert compile_helper.simulate(nodes, [3], start_s=0.5) == pytest.approx(8.0 + LOAD_S)
    assert compile_helper.choose(nodes, start_s=0.5)[0] == [2]


def test_a_kernel_the_helper_cannot_name_is_never_chosen():
    nodes = tree(NESTED)
    nodes[2].named = False  # say, an overload's implementation
    helper, _, helped = compile_helper.choose(nodes, start_s=0.5)
    assert helper == [3]
    assert helped == pytest.approx(8.0 + LOAD_S)


def test_a_late_helper_is_no_help():
    helper, serial, helped = compile_helper.choose(tree(TWO), start_s=9.0)
    assert helper == [] and helped == serial


def test_a_plan_without_gain_has_no_kernels():
    nodes = tree([("R", -1, 1.0), ("A", 0, 0.1)])
    assert compile_helper.make_plan(nodes)["kernels"] == []


# The plans on file --------------------------------------------------------------------------

ENTRIES = warmup.ENTRIES


@pytest.mark.parametrize("rules", ["partnership", "partnership-classic", "joedog", "three-hand",
                                   "two-hand"])  # fmt: skip
@pytest.mark.parametrize("entry", ENTRIES)
def test_every_preset_has_a_plan_naming_live_kernels(rules, entry):
    """Fails when a kernel's arguments changed: run ``make compile-plans``."""
    plans = compile_helper.load_plans()
    key = warmup.plan_key(engine_inputs(rules), entry)
    assert key in plans, f"no compile plan for {rules} {entry}: run make compile-plans"
    for item in plans[key]["kernels"]:
        kernel = compile_helper.find_kernel(item["module"], item["kernel"])
        assert isinstance(kernel, numba.core.registry.CPUDispatcher), item["kernel"]
        assert isinstance(compile_helper._decode(item["argtypes"]), tuple)


@pytest.mark.parametrize("rules", ["partnership", "three-hand", "two-hand"])
def test_the_plan_names_signatures_the_run_compiles(rules):
    """After the run's kernel is compiled (or loaded), every kernel of its plan is in the cache
    with the plan's argument types: the helper compiles what the run would."""
    inputs = engine_inputs(rules)
    warmup.warm(inputs, "play_chunk")
    plan = compile_helper.load_plans()[warmup.plan_key(inputs, "play_chunk")]
    assert plan["kernels"], f"{rules}: the plan gives the helper nothing"
    for item in plan["kernels"]:
        kernel = compile_helper.find_kernel(item["module"], item["kernel"])
        argtypes = compile_helper._decode(item["argtypes"])
        cache = kernel._cache
        key = cache._index_key(argtypes, kernel.targetctx.codegen())
        assert key in cache._cache_file._load_index(), f"{item['kernel']}{argtypes} not cached"


# The helper process --------------------------------------------------------------------------


def _hand_plan(tmp_path: Path) -> tuple[str, Path, tuple]:
    """A plan of one small kernel (the meld of a hand in every trump) written by hand."""
    tables = engine_inputs("partnership").kernel_args()[1]
    argtypes = (numba.typeof(0), numba.typeof(tables))
    key = "test.melds:0"
    plan = {
        "kernels": [
            {
                "module": "pinochle_sim.rules.meld",
                "kernel": "melds_by_trump",
                "argtypes": compile_helper._encode(argtypes),
                "inherited": compile_helper._encode({"nrt": False}),
            },
            {  # stale entries are skipped
                "module": "pinochle_sim.rules.meld",
                "kernel": "no_such_kernel",
                "argtypes": compile_helper._encode(argtypes),
                "inherited": compile_helper._encode(None),
            },
        ]
    }
    path = tmp_path / "plans.json"
    path.write_text(json.dumps({"plans": {key: plan}}))
    return key, path, argtypes


def _in_cache(cache_dir: Path, code: str) -> str:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir)}
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env, capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    return out.stdout.strip()


def test_the_helper_compiles_its_plan_into_the_cache_the_run_loads(tmp_path):
    key, path, _ = _hand_plan(tmp_path)
    cache = tmp_path / "cache"
    done = _in_cache(
        cache,
        f"""
        from pathlib import Path
        from pinochle_sim.runs.compile import helper as compile_helper
        print(compile_helper.compile_plan({key!r}, Path({str(path)!r})))
        """,
    )
    assert done == "['melds_by_trump']"
    # a fresh process compiling the same signature loads it (a cache hit, no compile)
    hits = _in_cache(
        cache,
        f"""
        from pathlib import Path
        from pinochle_sim.runs.compile import helper as compile_helper
        from pinochle_sim.rules.meld import melds_by_trump
        item = compile_helper.load_plans(Path({str(path)!r}))[{key!r}]["kernels"][0]
        sig = compile_helper._decode(item["argtypes"])
        melds_by_trump.compile(sig)
        print(sum(melds_by_trump._cache_hits.values()), sum(melds_by_trump._cache_misses.values()))
        """,
    )
    assert hits == "1 0"


def test_helping_starts_a_helper_and_stops_it_with_the_block(tmp_path, monkeypatch):
    key, path, _ = _hand_plan(tmp_path)
    monkeypatch.setenv(compile_helper.ENV, "1")
    monkeypatch.setattr(compile_helper, "helper_wanted", lambda: True)
    with compile_helper.helping(key, path) as proc:
        assert proc is not None
    assert proc.poll() is not None


def test_no_helper_when_turned_off_or_without_a_plan(tmp_path, monkeypatch):
    key, path, _ = _hand_plan(tmp_path)
    with compile_helper.helping("no.such:plan", path) as proc:
        assert proc is None
    monkeypatch.setenv(compile_helper.ENV, "0")
    assert not compile_helper.helper_wanted()
    with compile_helper.helping(key, path) as proc:
        assert proc is None


def test_the_recorder_sees_each_compile_once_with_its_callees(tmp_path):
    out = _in_cache(
        tmp_path / "cache",
        """
        from pinochle_sim.runs.compile import helper as compile_helper
        from pinochle_sim.runs.simulate import engine_inputs
        from pinochle_sim.rules.meld import melds_by_trump
        tables = engine_inputs("partnership").kernel_args()[1]
        nodes = compile_helper.record_tree(lambda: melds_by_trump(12345, tables))
        top = nodes[0]
        once = len({(n.qualname, n.argtypes) for n in nodes}) == len(nodes)
        print(top.qualname, top.parent, once,
              all(nodes[c].parent == 0 for c in top.children), all(n.own_s > 0 for n in nodes),
              "_suit_index" in {nodes[c].qualname for c in top.children}, top.named,
              nodes[top.children[0]].named)
        """,
    )
    # the twin Python calls cannot be named; the kernels it calls can
    assert out == "melds_by_trump.python -1 True True True True False True"


# Cache saves under the lock -----------------------------------------------------------------

SAVER = """
import sys
from numba.core.caching import IndexDataCacheFile
from pinochle_sim.core.jit import lock_saves
from pathlib import Path
folder, who, lock = sys.argv[1], sys.argv[2], Path(sys.argv[3])
f = IndexDataCacheFile(folder, "shared", ("stamp", 1))
lock_saves(f, lock)
for i in range(40):
    f.save((who, i), b"x" * 2000)
"""


def test_two_processes_saving_one_index_keep_every_entry(tmp_path):
    """numba's index is read, extended and written back; under the lock no save is lost."""
    lock = tmp_path / "save.lock"
    procs = [
        subprocess.Popen([sys.executable, "-c", SAVER, str(tmp_path), who, str(lock)])
        for who in ("a", "b")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    from numba.core.caching import IndexDataCacheFile

    index = IndexDataCacheFile(str(tmp_path), "shared", ("stamp", 1))._load_index()
    assert set(index) == {(w, i) for w in "ab" for i in range(40)}
    assert len(set(index.values())) == 80  # one data file each
