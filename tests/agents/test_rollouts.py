"""Rollout training data for ``play=learned``'s leads: each legal card of a recorded decision
is played and the hand played out by the same players. Checked against the batch engine's
duplicate match (another code path: the engines' kernels, not the stepwise table): the card
the side really played must carry that deal's score margin, and a side's trick points, so the
rows of the cards it did not play are the same hand with one card changed."""

from __future__ import annotations

import pandas as pd
import pytest

from pinochle_sim.agents.distill import ROLLOUT_RECORD_COLUMNS, RolloutRecorder
from pinochle_sim.analysis.matches import duplicate
from pinochle_sim.policies import PolicySet

TEAM = PolicySet(play="learned", params=(("play.model", 5),))
AGAINST = PolicySet(play="counting")


@pytest.fixture(scope="module")
def rows() -> pd.DataFrame:
    rec = RolloutRecorder("partnership", TEAM, AGAINST, 1, ("lead", "follow"), seed=4)
    return pd.concat([pd.DataFrame(rec.record_hand(d)) for d in range(4)], ignore_index=True)


def test_the_card_played_carries_the_engines_score_margin(rows: pd.DataFrame) -> None:
    match = duplicate("partnership", TEAM, AGAINST, 4, seed=4).set_index("deal")
    for (deal, side), d in rows.groupby(["hand", rows["seat"] % 2]):
        played = d[d["chosen"] == 1]
        assert played.groupby("decision").size().eq(1).all()  # one card played a decision
        margin = match.loc[deal, f"score_a_{side + 1}"] - match.loc[deal, f"score_b_{side + 1}"]
        assert (played["score"] == margin).all(), (deal, side)
        # trick points from a trick on can only shrink as the hand goes on
        assert played.sort_values("decision")["value"].is_monotonic_decreasing


def test_each_decision_values_every_legal_card(rows: pd.DataFrame) -> None:
    assert list(rows.columns) == list(ROLLOUT_RECORD_COLUMNS)
    for _, d in rows.groupby(["hand", rows["seat"] % 2, "decision"]):
        legal = [f for f in range(24) if (int(d["legal"].iloc[0]) >> f) & 1]
        assert sorted(d["card"]) == legal and len(legal) >= 2
        assert d["counting"].sum() == 1
        assert ((d["value"] >= 0) & (d["value"] <= 250)).all()  # 240 counters + the last trick
    leads = rows[rows["n_played"] == 0]
    assert len(leads) and (leads["trick"] >= 1).all()
    # some decision's cards differ in worth, or there would be nothing to learn
    assert (rows.groupby(["hand", "seat", "decision"])["score"].nunique() > 1).any()


def test_roles_and_presets_are_checked() -> None:
    rec = RolloutRecorder("partnership", TEAM, AGAINST, 11, ("lead",), seed=4)
    got = pd.DataFrame(rec.record_hand(0))
    assert (got["n_played"] == 0).all() and (got["trick"] >= 11).all()
    with pytest.raises(ValueError, match="four-hand partnership"):
        RolloutRecorder("three-hand", TEAM, AGAINST, 1, ("lead",), seed=4)
    with pytest.raises(ValueError, match="roles are lead, follow"):
        RolloutRecorder("partnership", TEAM, AGAINST, 1, ("leads",), seed=4)
