"""The training data of ``play=learned``: each recorded decision is ``pimc``'s (the card it
plays has the highest mean value, ties as ``pimc`` breaks them), its features are those the
seat's view gives (worked out again from the recorded view), and ``counting``'s card is
marked (the view itself is the policy players' :func:`~pinochle_sim.agents.players.seat_view`,
checked against the engine's hands in tests/agents/test_players.py)."""

from __future__ import annotations

import pandas as pd
import pytest

from pinochle_sim.agents.distill import (
    RECORD_COLUMNS,
    STATE,
    SearchRecorder,
    features_from_state,
    features_from_states,
)
from pinochle_sim.policies.learned import FEATURES
from pinochle_sim.policies.play import face_points, pack_points
from pinochle_sim.rules import PRESETS
from pinochle_sim.rules.arrays import RA_POINTS, rule_array

pytestmark = pytest.mark.slow  # pimc's kernels compile for a minute or more


@pytest.fixture(scope="module")
def records() -> pd.DataFrame:
    rec = SearchRecorder("partnership", worlds=4, from_trick=9, seed=77)
    frames = [pd.DataFrame(rec.record_hand(h)) for h in range(3)]
    return pd.concat(frames, ignore_index=True)


def test_each_decision_is_pimcs_best_mean(records: pd.DataFrame) -> None:
    points = pack_points(rule_array(PRESETS["partnership"])[RA_POINTS : RA_POINTS + 6])
    for _, d in records.groupby(["hand", "decision"]):
        assert len(d) >= 2 and d["pimc_pick"].sum() == 1 and d["counting_pick"].sum() == 1
        top = d[d["value"] == d["value"].max()]
        tie = top["card"].map(lambda f: face_points(points, f) * 64 + (f % 6) * 4 + f // 6)
        assert d.loc[d["pimc_pick"], "card"].item() == top.loc[tie.idxmin(), "card"]
        assert d["counting"].tolist() == d["counting_pick"].astype(int).tolist()
        assert (d["trick"] >= 9).all() and d["seat"].nunique() == 1


def test_features_come_back_from_the_recorded_view(records: pd.DataFrame) -> None:
    assert list(records.columns) == list(RECORD_COLUMNS)
    assert len(set(RECORD_COLUMNS)) == len(RECORD_COLUMNS) and set(STATE) <= set(records.columns)
    for _, row in records.sample(60, random_state=1).iterrows():
        again = features_from_state(row.to_dict(), "partnership")
        assert again.tolist() == row[list(FEATURES)].astype(int).tolist()


def test_every_rows_features_at_once(records: pd.DataFrame) -> None:
    """What the training script works out for data recorded before a feature existed."""
    again = features_from_states(records, "partnership")
    assert again.tolist() == records[list(FEATURES)].astype(int).to_numpy().tolist()
