"""The ``pimc`` play policy: legal play (every hand replayed through the rules oracle),
records independent of threads and chunks, its own random streams, refusal where it cannot
play, and range checks of its parameters. Their one-line errors at the command line are tested
in tests/cli/test_pimc.py."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from pinochle_sim import hand_record
from pinochle_sim.agents.distill import STATE, _search_decision
from pinochle_sim.agents.duplicate import deal_table
from pinochle_sim.agents.players import DECISIONS, PolicyPlayer, view_args
from pinochle_sim.agents.stepwise import DONE, PLAY
from pinochle_sim.policies import REGISTRY, PolicySet
from pinochle_sim.policies.learned import MAX_FEATURES
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands
from tests.engines.auction.helpers import PRESETS as FOUR_SEAT
from tests.oracles.reference import ref_record_winners

# Late enough to keep the test quick (a full-deal solve is slow); four worlds keep ties rare.
FAST = ["play.worlds=4", "play.from_trick=8"]
HEAD = {**{name: p.head for name, p in FOUR_SEAT.items()}, "three-hand": "always"}


def pimc(*params: str) -> PolicySet:
    return PolicySet.from_options(play="pimc", params=[*FAST, *params])


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


def test_worlds_and_from_trick_are_range_checked() -> None:
    info = REGISTRY["play"]["pimc"]
    assert (info.params["worlds"].lo, info.params["from_trick"].lo) == (1, 1)
    assert info.params["from_trick"].hi == 16
    with pytest.raises(ValueError, match=r"play.worlds = 0 is out of range: pimc worlds takes 1"):
        PolicySet.from_options(play="pimc", params=["play.worlds=0"])
    with pytest.raises(ValueError, match="out of range"):
        PolicySet.from_options(play="pimc", params=[f"play.worlds={info.params['worlds'].hi + 1}"])
    with pytest.raises(ValueError, match="out of range"):
        PolicySet.from_options(play="pimc", params=["play.from_trick=17"])
    with pytest.raises(ValueError, match="only games with an auction"):
        engine_inputs("two-hand", PolicySet(play="pimc"))


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
