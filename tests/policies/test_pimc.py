"""The ``pimc`` play policy: legal play (every hand replayed through the rules oracle),
records independent of threads and chunks, its own random streams, refusal where it cannot
play, range checks of its parameters, and the pacing of the slow matches it makes. Their
one-line errors at the command line are tested in tests/cli/test_pimc.py."""

from __future__ import annotations

import functools
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from pinochle_sim import Observer, WorkEstimate, hand_record
from pinochle_sim.agents.distill import STATE, _search_decision
from pinochle_sim.agents.duplicate import deal_table
from pinochle_sim.agents.players import DECISIONS, PolicyPlayer, view_args
from pinochle_sim.agents.stepwise import DONE, PLAY
from pinochle_sim.analysis import advise as advising
from pinochle_sim.analysis import session
from pinochle_sim.analysis.advise import advise
from pinochle_sim.analysis.compare import compare, sweep
from pinochle_sim.analysis.kept import kept_deals
from pinochle_sim.analysis.matches import (
    assemble,
    duplicate,
    duplicate_part,
    match_inputs,
    match_tasks,
)
from pinochle_sim.analysis.session import Session, slow
from pinochle_sim.cli.commands import main
from pinochle_sim.policies import REGISTRY, PolicySet
from pinochle_sim.policies.learned import MAX_FEATURES
from pinochle_sim.runs import runner
from pinochle_sim.runs.backends.local import LocalBackend
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.simulate.hands import CLUSTER_SEARCH_UNITS, engine_inputs, play_hands
from pinochle_sim.runs.spec import RunSpec
from pinochle_sim.runs.store.files import read_manifest
from tests.engines.auction.helpers import PRESETS as FOUR_SEAT
from tests.oracles.reference import ref_record_winners

# Late enough to keep the test quick (a full-deal solve is slow); four worlds keep ties rare.
FAST = ["play.worlds=4", "play.from_trick=8"]
HEAD = {**{name: p.head for name, p in FOUR_SEAT.items()}, "three-hand": "always"}


def pimc(*params: str) -> PolicySet:
    given = dict(p.split("=") for p in [*FAST, *params])  # later ones replace FAST's
    return PolicySet.from_options(play="pimc", params=given)


@functools.cache
def records(rules: str, hands: int = 6) -> list[dict]:
    return [hand_record(41, h, rules, pimc()) for h in range(hands)]


@pytest.mark.parametrize("rules", ["partnership", "joedog", "three-hand"])
def test_every_card_is_legal_under_the_rules_oracle(rules: str) -> None:
    played = 0
    for want, got in ref_record_winners(records(rules), HEAD[rules]):
        assert want == got
        played += 1
    assert played >= 3


@pytest.mark.parametrize("rules", ["partnership", "three-hand"])
def test_records_do_not_depend_on_threads_or_chunks(rules: str) -> None:
    one = play_hands(seed=9, count=12, rules=rules, policies=pimc(), threads=1, chunk=12)
    two = play_hands(seed=9, count=12, rules=rules, policies=pimc(), threads=2, chunk=5)
    assert one.keys() == two.keys()
    for k in one:
        assert np.array_equal(one[k], two[k]), k
    again = play_hands(seed=9, start=7, count=5, rules=rules, policies=pimc(), threads=1)
    for k in ("hand", "team_tricks_0", "score_0") if rules != "three-hand" else ("hand", "score_0"):
        assert np.array_equal(again[k], one[k][7:12]), k


def test_it_plays_differently_from_counting_only_from_its_trick_on() -> None:
    """Before ``from_trick`` it is ``counting``; from there it searches (and differs)."""
    counting = PolicySet.from_options(play="counting")
    differs_late = 0
    for h in range(6):
        a = hand_record(41, h, "partnership", counting)
        b = records("partnership")[h]
        if a["conceded"]:
            continue
        first_diff = next(
            (i for i, (x, y) in enumerate(zip(a["tricks"], b["tricks"], strict=True)) if x != y),
            None,
        )
        if first_diff is not None:
            assert first_diff >= 7  # trick 8 (index 7) is the first it plays by sampling
            differs_late += 1
    assert differs_late >= 1


FIRST_SAMPLED = {"partnership": 4, "partnership-classic": 4, "joedog": 5, "three-hand": 5}
"""The first trick ``pimc`` samples at its default (``from_trick`` = 0, by the rules): the
earliest at which 1,000 duplicate deals take at most 10 minutes on two cores, from the table
of measured costs in docs/speed.md (partnership from trick 4: 8.4 minutes, from 3 not timed;
joedog from 5: 2.5, from 4: 10.9; three-hand from 5: 8.1, from 4 not timed: each trick
earlier costs three to five times more)."""


@pytest.mark.parametrize("rules", list(FIRST_SAMPLED))
def test_by_default_it_samples_from_the_rules_own_first_trick(rules: str) -> None:
    """``play=pimc`` at its default ``from_trick`` plays the records of ``from_trick`` = K
    written out, K from the measured table; one trick later gives other records (so the
    comparison can tell the two apart)."""
    k = FIRST_SAMPLED[rules]
    assert REGISTRY["play"]["pimc"].params["from_trick"].default == 0

    def hands(*params: str) -> dict[str, np.ndarray]:
        policies = PolicySet.from_options(play="pimc", params=["play.worlds=2", *params])
        return play_hands(seed=3, count=4, rules=rules, policies=policies, threads=1)

    default, at_k, later = hands(), hands(f"play.from_trick={k}"), hands(f"play.from_trick={k + 1}")
    assert all(np.array_equal(default[c], at_k[c]) for c in default)
    assert not all(np.array_equal(default[c], later[c]) for c in default)


def test_worlds_and_from_trick_are_range_checked() -> None:
    info = REGISTRY["play"]["pimc"]
    assert (info.params["worlds"].lo, info.params["from_trick"].lo) == (1, 0)
    assert info.params["from_trick"].hi == 16
    with pytest.raises(ValueError, match="out of range"):
        PolicySet.from_options(play="pimc", params=["play.from_trick=-1"])
    with pytest.raises(ValueError, match=r"play.worlds = 0 is out of range: pimc worlds takes 1"):
        PolicySet.from_options(play="pimc", params=["play.worlds=0"])
    with pytest.raises(ValueError, match="out of range"):
        PolicySet.from_options(play="pimc", params=[f"play.worlds={info.params['worlds'].hi + 1}"])
    with pytest.raises(ValueError, match="out of range"):
        PolicySet.from_options(play="pimc", params=["play.from_trick=17"])
    with pytest.raises(ValueError, match="only games with an auction"):
        engine_inputs("two-hand", PolicySet(play="pimc"))


class _Seen(Observer):
    """What a match tells its observer."""

    def __init__(self) -> None:
        self.plans: list[WorkEstimate] = []
        self.updates: list[int] = []
        self.notices: list[str] = []

    def plan(self, estimate):  # type: ignore[override]
        self.plans.append(estimate)

    def notice(self, text: str) -> None:
        self.notices.append(text)

    def update(self, n: int) -> None:
        self.updates.append(n)


def test_a_slow_match_is_paced_and_plays_what_one_task_plays(monkeypatch) -> None:
    """A match of search players is timed on its first deals, the estimate told, and the rest
    played in tasks of about PACE_TASK_S (here the least: one share of 8 deals a thread), each
    reported as it lands; its rows are those of the match played as one task."""
    monkeypatch.setattr(session, "PACE_SAMPLE_S", 0.0)  # one step timed
    monkeypatch.setattr(session, "PACE_TASK_S", 1e-9)
    a, b = pimc("play.from_trick=11"), pimc("play.from_trick=12")
    seen = _Seen()
    got = duplicate("partnership", a, b, 40, seed=3, threads=2, observer=seen)
    (one,) = match_tasks("partnership", a, b, 40, 3, 0, Session(LocalBackend(2)))
    assert one.count == 40  # this process: one task unless paced
    pd.testing.assert_frame_equal(got, assemble([duplicate_part(one)]))
    (plan,) = seen.plans
    assert (plan.deals, plan.task, plan.units, plan.threads, plan.matches) == (16, 16, 80, 2, 1)
    assert plan.seconds > 0 and "timed on its first 16 deals" in plan.text()
    assert seen.updates == [0, 32, 32, 16]  # two plays a deal: 16 deals, 16, the last 8


def test_a_sweep_of_search_players_is_timed_once_for_all_its_matches(monkeypatch) -> None:
    monkeypatch.setattr(session, "PACE_SAMPLE_S", 0.0)
    monkeypatch.setattr(session, "PACE_TASK_S", 1e-9)
    seen = _Seen()
    base, against = SWEPT_TRICK, pimc("play.from_trick=12")
    table, diffs = sweep(
        "partnership", base, "play.from_trick", [11, 12], against, 24, seed=3, threads=2,
        observer=seen,
    )  # fmt: skip
    (plan,) = seen.plans
    assert (plan.matches, plan.units, plan.task, plan.noun) == (2, 96, 8, "matches")
    assert "2 matches in all, each counted at the first one's pace" in plan.text()
    (later,) = seen.notices  # the second match, timed at its own pace
    assert later.startswith("match 2 of 2: about") and "for its 24 deals" in later
    assert sum(seen.updates) == 96
    assert (diffs.loc[diffs["value"] == 12, "diff"] == 0).all()  # the same players both sides
    alone = duplicate("partnership", pimc("play.from_trick=11"), against, 24, seed=3, threads=2)
    assert list(diffs.loc[diffs["value"] == 11, "diff"]) == list(alone["diff"])
    assert table["value"].tolist() == [11, 12]


def test_a_cluster_run_of_search_players_says_it_is_untimed_and_writes_small_parts(
    tmp_path,
) -> None:
    """A cluster's search players are not timed from here: the estimate says its time is a
    lower bound, and the parts are small enough for progress to move; same records."""
    told: list[str] = []

    class Heard(Observer):
        def plan(self, estimate):  # type: ignore[override]
            told.append(estimate.text())

    spec = RunSpec(150, seed=4, policies=pimc("play.from_trick=12"))
    there = _Elsewhere(2)
    run(spec, tmp_path / "there", backend=there, observer=Heard())
    assert there.sizes == [64, 64, 22]
    (text,) = told
    assert "more than" in text and f"({runner.UNTIMED})" in text
    assert text.endswith(f"written in parts of {CLUSTER_SEARCH_UNITS}")
    assert read_manifest(tmp_path / "there")["settings"]["part_size"] == CLUSTER_SEARCH_UNITS
    run(spec, tmp_path / "here", threads=2)
    here, there = pd.read_parquet(tmp_path / "here"), pd.read_parquet(tmp_path / "there")
    pd.testing.assert_frame_equal(here.reset_index(drop=True), there.reset_index(drop=True))


def test_the_advisor_with_a_search_player_is_paced_and_advises_the_same(monkeypatch) -> None:
    monkeypatch.setattr(session, "PACE_SAMPLE_S", 0.0)
    monkeypatch.setattr(session, "PACE_TASK_S", 1e-9)
    hand, play = "AS AS 10S KS QS JS 9S KH QH AD AC 9C", pimc("play.from_trick=11")
    seen = _Seen()
    got = advise(hand, rules="partnership", hands=120, policies=play, threads=2, observer=seen)
    (plan,) = seen.plans
    assert (plan.matches, plan.noun, plan.deals, plan.units) == (4, "trumps", 16, 480)
    monkeypatch.setattr(advising, "slow", lambda s, inputs: False)  # one task a trump
    unpaced = _Seen()
    plain = advise(hand, rules="partnership", hands=120, policies=play, threads=2, observer=unpaced)
    assert not unpaced.plans and got.to_json() == plain.to_json()


class _StopAfter(Observer):
    """Ctrl-C once ``n`` units (plays of a deal) have landed."""

    def __init__(self, n: int) -> None:
        self.n, self.seen = n, 0

    def update(self, n: int) -> None:
        self.seen += n
        if self.seen >= self.n:
            raise KeyboardInterrupt


@pytest.fixture
def small_tasks(monkeypatch) -> None:
    monkeypatch.setattr(session, "PACE_SAMPLE_S", 0.0)  # one step timed
    monkeypatch.setattr(session, "PACE_TASK_S", 1e-9)  # tasks of 16 deals on two threads


def test_an_interrupted_advice_keeps_its_deals_and_resumes_to_the_same_advice(
    tmp_path, small_tasks
) -> None:
    """An advice of search players keeps each finished task's deals (a subfolder a trump);
    resumed, it plays only the rest and gives the advice of one go; kept deals are not taken
    by another advice, nor without --resume."""
    hand, play = "AS AS 10S KS QS JS 9S KH QH AD AC 9C", pimc("play.from_trick=11")
    keep = tmp_path / "a.partial"

    def advice(observer: Observer | None = None, **kw):
        return advise(hand, rules="partnership", hands=112, policies=play, threads=2,
                      observer=observer or _Seen(), **kw)  # fmt: skip

    with pytest.raises(KeyboardInterrupt):  # after trump 0 (7 tasks of 16) and two of trump 1
        advice(_StopAfter(144), keep=keep)
    assert kept_deals(keep) == 144
    assert sorted(p.name for p in keep.iterdir()) == ["match.json", "value=0", "value=1"]
    with pytest.raises(ValueError, match="holds the deals of an interrupted advice: pass --resume"):
        advice(keep=keep)
    with pytest.raises(ValueError, match=r"another advice \(it differs in --seed\)"):
        advice(keep=keep, resume=True, seed=4)
    seen = _Seen()
    got = advice(seen, keep=keep, resume=True)
    assert seen.updates[0] == 144 and sum(seen.updates) == 5 * 112  # 4 trumps and the auction
    assert got.to_json() == advice().to_json()
    bots = advise(hand, rules="partnership", hands=100, keep=tmp_path / "b.partial")
    assert bots.by_trump and not (tmp_path / "b.partial").exists()  # bots keep nothing


A_LATE, B_LATE = ("A", pimc("play.from_trick=11")), ("B", pimc("play.from_trick=12"))
SWEPT_TRICK = PolicySet.from_options(play="pimc", params=["play.worlds=4"])
"""The policies a sweep of ``play.from_trick`` is put on (the swept parameter left out)."""


def test_an_interrupted_slow_match_keeps_its_deals_and_resumes_to_the_same_rows(
    tmp_path, small_tasks
) -> None:
    keep = tmp_path / "m.partial"
    with pytest.raises(KeyboardInterrupt):  # after its second task of 16 deals
        compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, observer=_StopAfter(40), keep=keep)
    assert kept_deals(keep) == 32
    with pytest.raises(ValueError, match="holds the deals of an interrupted match: pass --resume"):
        compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, keep=keep)
    with pytest.raises(ValueError, match=r"another match \(it differs in --seed\)"):
        compare("partnership", A_LATE, B_LATE, 40, 4, threads=2, keep=keep, resume=True)
    (keep / "deals-0000000016.parquet").write_bytes(b"cut short")  # damaged: played again
    seen = _Seen()
    got = compare(
        "partnership", A_LATE, B_LATE, 40, 3, threads=2, observer=seen, keep=keep, resume=True
    )
    assert seen.updates[0] == 32  # the 16 deals (two plays each) still kept count as done
    assert sum(seen.updates[1:]) == 48
    whole = compare("partnership", A_LATE, B_LATE, 40, 3, threads=2)
    pd.testing.assert_frame_equal(got.pairs, whole.pairs)
    pd.testing.assert_frame_equal(got.summary, whole.summary)


def test_an_interrupted_slow_sweep_resumes_value_by_value(tmp_path, small_tasks) -> None:
    keep = tmp_path / "s.partial"
    base, against, values = SWEPT_TRICK, pimc("play.from_trick=12"), [11, 12]
    args = ("partnership", base, "play.from_trick", values, against, 24)
    with pytest.raises(KeyboardInterrupt):  # value 11 whole, then 16 deals of value 12
        sweep(*args, seed=3, threads=2, observer=_StopAfter(60), keep=keep)
    assert kept_deals(keep) == 40
    assert kept_deals(keep / "value=11") == 24
    (keep / "value=12" / "deals-0000000000.parquet").unlink()  # as if stopped after value 11
    with pytest.raises(ValueError, match="interrupted sweep: pass --resume"):
        sweep(*args, seed=3, threads=2, keep=keep)
    with pytest.raises(ValueError, match=r"another sweep \(it differs in --param's values\)"):
        sweep(*args[:3], [11, 12, 10], *args[4:], seed=3, threads=2, keep=keep, resume=True)
    with pytest.raises(ValueError, match="holds the deals of a sweep, not of this match"):
        compare("partnership", A_LATE, B_LATE, 24, 3, threads=2, keep=keep, resume=True)
    with pytest.raises(ValueError, match="holds the deals of a sweep, not of this match"):
        compare("partnership", A_LATE, B_LATE, 24, 3, threads=2, keep=keep)  # not "--resume"
    with pytest.raises(ValueError, match="is swept: leave it out of the policies"):
        sweep("partnership", pimc(), "play.worlds", [4, 8], against, 24, seed=3)
    seen = _Seen()
    table, diffs = sweep(*args, seed=3, threads=2, keep=keep, resume=True, observer=seen)
    (plan,) = seen.plans
    assert plan.units == 2 * 24 and plan.matches == 1  # value 12's deals; value 11 is kept
    table_whole, diffs_whole = sweep(*args, seed=3, threads=2)
    pd.testing.assert_frame_equal(table, table_whole)
    pd.testing.assert_frame_equal(diffs, diffs_whole)


def test_a_match_stopped_before_a_deal_finished_leaves_nothing(tmp_path, small_tasks) -> None:
    keep = tmp_path / "m.partial"
    with pytest.raises(KeyboardInterrupt):
        compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, observer=_StopAfter(0), keep=keep)
    assert not keep.exists()  # the same command starts afresh, no --resume needed
    with pytest.raises(KeyboardInterrupt):  # a sweep's first value stopped the same way
        sweep("partnership", SWEPT_TRICK, "play.from_trick", [11, 12], B_LATE[1], 24, seed=3,
              threads=2, observer=_StopAfter(0), keep=keep)  # fmt: skip
    assert not keep.exists()


def test_a_file_where_the_deals_are_kept_and_a_value_swept_twice_are_refused(tmp_path) -> None:
    keep = tmp_path / "m.partial"
    keep.write_text("mine")
    with pytest.raises(ValueError, match="is a file, where a slow match keeps its finished deals"):
        compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, keep=keep, resume=True)
    assert keep.read_text() == "mine"
    with pytest.raises(ValueError, match=r"play\.worlds takes each value once: 4 is given twice"):
        sweep("partnership", SWEPT_TRICK, "play.worlds", [4, 8, 4], B_LATE[1], 24, seed=3)


def test_compare_at_the_command_line_finishes_or_restarts_an_interrupted_match(
    tmp_path, small_tasks
) -> None:
    out = tmp_path / "m"
    specs = [f"play=pimc,play.worlds=4,play.from_trick={t}" for t in (11, 12)]
    args = ["compare", *specs, "--hands", "40", "--seed", "3", "--threads", "2", "--out", str(out)]

    def interrupt() -> None:
        with pytest.raises(KeyboardInterrupt):
            compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, observer=_StopAfter(40),
                    keep=f"{out}.partial")  # fmt: skip

    interrupt()
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "holds the deals of an interrupted match: pass --resume" in res.output
    res = CliRunner().invoke(main, [*args, "--resume"])
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "m.partial").exists()  # done: the kept deals are gone
    whole = compare("partnership", A_LATE, B_LATE, 40, 3, threads=2).pairs
    pd.testing.assert_frame_equal(pd.read_parquet(out / "pairs.parquet"), whole)
    interrupt()  # again, into the same folder: --overwrite starts afresh
    res = CliRunner().invoke(main, [*args, "--overwrite"])
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "m.partial").exists()
    pd.testing.assert_frame_equal(pd.read_parquet(out / "pairs.parquet"), whole)


def test_kept_deals_are_checked_when_read_back(tmp_path, small_tasks) -> None:
    """A part whose deals another holds, a match.json that is not a match's, and another
    engine version: each found, none taken for the match's deals."""
    keep = tmp_path / "m.partial"
    with pytest.raises(KeyboardInterrupt):
        compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, observer=_StopAfter(40), keep=keep)
    first = pq.read_table(keep / "deals-0000000000.parquet")
    second = pq.read_table(keep / "deals-0000000016.parquet")
    across = pa.concat_tables([first.slice(8), second.slice(0, 8)])  # deals 8..23
    pq.write_table(across, keep / "deals-0000000008.parquet")
    identity = json.loads((keep / "match.json").read_text())
    (keep / "match.json").write_text(json.dumps(identity | {"engine": 0}))
    with pytest.raises(ValueError, match=r"it differs in the engine version\)"):
        compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, keep=keep, resume=True)
    (keep / "match.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match=r"holds no readable match\.json: pass --overwrite"):
        compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, keep=keep, resume=True)
    (keep / "match.json").write_text(json.dumps(identity))
    got = compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, keep=keep, resume=True)
    assert not (keep / "deals-0000000008.parquet").exists()  # overlapping: played again
    whole = compare("partnership", A_LATE, B_LATE, 40, 3, threads=2)
    pd.testing.assert_frame_equal(got.pairs, whole.pairs)


def test_overwrite_drops_kept_deals_only_when_new_ones_are_kept(tmp_path, small_tasks) -> None:
    """``restart`` (--overwrite) keeps the old deals through a refusal, and a folder left with
    only an interrupted write's temporary files is one it may drop."""
    keep = tmp_path / "s.partial"
    base, against = SWEPT_TRICK, pimc("play.from_trick=12")
    with pytest.raises(KeyboardInterrupt):
        sweep("partnership", base, "play.from_trick", [11, 12], against, 24, seed=3, threads=2,
              observer=_StopAfter(30), keep=keep)  # fmt: skip
    with pytest.raises(ValueError, match="given twice"):
        sweep("partnership", base, "play.from_trick", [11, 11], against, 24, seed=3,
              keep=keep, restart=True)  # fmt: skip
    assert kept_deals(keep) == 16  # still there
    sweep("partnership", base, "play.from_trick", [11], against, 24, seed=3, threads=2,
          keep=keep, restart=True)  # fmt: skip
    assert json.loads((keep / "match.json").read_text())["values"] == [11]
    odd = tmp_path / "odd.partial"
    odd.mkdir()
    (odd / ".match.json.tmp-99").write_text("{")
    with pytest.raises(ValueError, match=r"holds no readable match\.json"):
        compare("partnership", A_LATE, B_LATE, 24, 3, threads=2, keep=odd, resume=True)
    compare("partnership", A_LATE, B_LATE, 24, 3, threads=2, keep=odd, restart=True)
    assert not (odd / ".match.json.tmp-99").exists()


def test_a_match_of_bots_leaves_a_slow_match_s_kept_deals_alone(tmp_path, small_tasks) -> None:
    out = tmp_path / "m"
    with pytest.raises(KeyboardInterrupt):
        compare("partnership", A_LATE, B_LATE, 40, 3, threads=2, observer=_StopAfter(40),
                keep=f"{out}.partial")  # fmt: skip
    bots = ["compare", "play=counting", "default", "--hands", "200", "--out", str(out)]
    res = CliRunner().invoke(main, bots)
    assert res.exit_code == 0, res.output
    assert kept_deals(f"{out}.partial") == 32
    (tmp_path / "f.partial").write_text("mine")  # a file where a slow match would keep deals
    res = CliRunner().invoke(main, [*bots[:-1], str(tmp_path / "f")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "f.partial").read_text() == "mine"


def test_only_search_players_on_this_process_are_paced() -> None:
    counting = PolicySet.from_options(play="counting")
    here = Session(LocalBackend(2))
    assert not slow(here, match_inputs("partnership", counting, PolicySet()))
    assert slow(here, match_inputs("partnership", counting, pimc()))

    assert not slow(Session(_Elsewhere(2)), match_inputs("partnership", counting, pimc()))


class _Elsewhere(LocalBackend):
    """A backend whose tasks run elsewhere, as a cluster's do (here, one after another)."""

    in_process = False

    def task_size(self, count: int) -> int:
        return 8192  # a cluster's least

    def map(self, fn, items, done=None, then=None):  # type: ignore[override]
        self.sizes = [t.units for t in items]
        return super().map(fn, items, done, then)


def test_search_players_on_a_cluster_get_small_tasks() -> None:
    """Not timed from here, a cluster's search players get tasks of CLUSTER_SEARCH_UNITS deals,
    so that progress moves; the bots keep the backend's size. Same rows either way."""
    counting = PolicySet.from_options(play="counting")
    there = _Elsewhere(2)
    a, b = pimc("play.from_trick=12"), pimc("play.from_trick=11")
    got = duplicate("partnership", a, b, 150, seed=2, backend=there)
    assert there.sizes == [128, 128, 44]  # two plays of 64, 64 and 22 deals
    pd.testing.assert_frame_equal(got, duplicate("partnership", a, b, 150, seed=2, threads=2))
    bots = match_tasks("partnership", counting, PolicySet(), 150, 2, 0, Session(there))
    assert [t.count for t in bots] == [150]


def test_the_estimate_of_a_slow_match_reads_as_a_sentence() -> None:
    e = WorkEstimate(units=4000, seconds=1100.0, threads=2, deals=16, task=48)
    assert e.text() == "estimated about 18 min on 2 threads (timed on its first 16 deals)"
    many = WorkEstimate(units=4000, seconds=30.0, threads=1, deals=1, task=8, matches=3)
    assert "1 thread (timed on its first 1 deal; 3 matches in all, each counted" in many.text()
    trumps = WorkEstimate(8, 9.0, 2, 16, 16, matches=4, noun="trumps")
    assert "(timed on its first 16 deals; 4 trumps in all, each" in trumps.text()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "worlds"), [("partnership", 1), ("joedog", 3), ("three-hand", 2)]
)
def test_world_best_picks_the_card_of_the_highest_total(rules: str, worlds: int) -> None:
    """``pimc`` tests most cards against the best so far instead of solving them; at every
    searched decision of these deals it picks the card of the highest exact total over the
    same worlds (``world_sums`` and ``best_total``, as the training data records it), equal
    totals included (one to three worlds make ties common)."""
    player = PolicyPlayer(pimc(f"play.worlds={worlds}", "play.from_trick=7"), seed=5)
    feats = np.zeros((24, MAX_FEATURES), dtype=np.int64)
    sums = np.zeros(24, dtype=np.int64)
    state = np.zeros(len(STATE), dtype=np.int64)
    decisions = 0
    for deal in range(8):
        t = deal_table(rules, 5, deal)
        while t.phase != DONE:
            seat = t.current_player()
            if t.phase == PLAY and len(t.tricks) >= 7 and len(t.legal_actions()) > 1:
                key = deal * DECISIONS + len(t.calls) + sum(len(c) for _, c in t.tricks)
                _, exact, _ = _search_decision(
                    player.bundle, t.tr.ra, t.tr.ma, seat, *view_args(t, seat), worlds,
                    player.seed, key, feats, sums, state,
                )  # fmt: skip
                pruned = player.decide(t, seat, deal)
                assert pruned == exact, (rules, deal, len(t.tricks))
                decisions += 1
            t.apply(player.decide(t, seat, deal))
    assert decisions >= 60


def test_ctrl_c_while_a_finished_match_is_written_says_what_is_kept(tmp_path, monkeypatch) -> None:
    """Ctrl-C after the last deal, while the files are written: the deals are all kept and the
    line says so (not a bare 'interrupted')."""
    import pinochle_sim

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pinochle_sim, "write_match", interrupted)
    out = tmp_path / "m"
    args = ["compare", "play=pimc,play.from_trick=11,play.worlds=2", "play=counting",
            "--hands", "20", "--out", str(out)]  # fmt: skip
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 1 and r.output.strip().splitlines()[-1] == (
        f"Error: interrupted: 20 of 20 deals are kept in '{out}.partial'; the same command "
        "with --resume finishes the match"
    ), r.output
