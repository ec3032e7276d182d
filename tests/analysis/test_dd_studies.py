"""The double-dummy studies (:mod:`pinochle_sim.analysis.reports.dd`) on four hands worked by
hand, the report adding them exactly when a run has the dd columns, and their charts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pinochle_sim.analysis.reports import charts_dd, dd_studies
from pinochle_sim.analysis.reports.catalog import STUDIES, _text_makeable
from pinochle_sim.rules import PRESETS

# bidder, bid, bidding side's meld, its trick points, conceded, dd_points. RULES.md 8: made
# when meld + tricks >= bid; dd_made when meld + dd_points >= bid.
HANDS = (
    (0, 250, 100, 160, False, 170),  # made (260); dd 270 made; cost 10
    (1, 300, 120, 150, False, 190),  # set (270); dd 310 made; cost 40
    (2, 350, 60, 0, True, 200),  # conceded (350 - 60 > 250); dd 260 set
    (3, 260, 200, 40, False, 50),  # set (240); dd 250 set; cost 10
)


def frame() -> pd.DataFrame:
    rows = []
    for bidder, bid, meld, tricks, conceded, ddp in HANDS:
        side = bidder % 2
        r = {"bidder": bidder, "bid": bid, "trump": 0, "conceded": conceded,
             "made": (not conceded) and meld + tricks >= bid, "dd_points": ddp,
             "dd_made": meld + ddp >= bid}  # fmt: skip
        for k in range(2):
            r[f"team_meld_{k}"] = meld if k == side else 30
            r[f"team_tricks_{k}"] = tricks if k == side else 250 - tricks
        for p in range(4):
            for s in "shdc":
                r[f"len_{p}_{s}"] = 0
        r[f"len_{bidder}_s"] = 5
        r[f"len_{(bidder + 2) % 4}_s"] = 3
        rows.append(r)
    return pd.DataFrame(rows)


def _at(t: pd.DataFrame, **where) -> pd.Series:
    m = np.ones(len(t), dtype=bool)
    for k, v in where.items():
        m &= (t[k] == v).to_numpy()
    assert m.sum() == 1, where
    return t[m].iloc[0]


def test_card_play_cost_by_hand() -> None:
    t = dd_studies.card_play_cost(frame())
    a = _at(t, by="all", level="all")
    assert a["n"] == 3 and a["mean"] == pytest.approx(20)  # (10 + 40 + 10) / 3, conceded out
    assert a["dd_mean"] == pytest.approx((170 + 190 + 50) / 3)
    assert a["bots_mean"] == pytest.approx((160 + 150 + 40) / 3)
    assert a["ci_lo"] < 20 < a["ci_hi"]
    assert _at(t, by="bid", level="290..309")["mean"] == pytest.approx(40)  # bids in 20s
    assert _at(t, by="team trumps", level="8")["n"] == 3


def test_go_set_bots_and_double_dummy_by_hand() -> None:
    t = dd_studies.go_set_dd(frame())
    bots = _at(t, who="bots", by="all", level="all")
    perfect = _at(t, who="double dummy", by="all", level="all")
    assert (bots["k"], bots["n"]) == (3, 4) and (perfect["k"], perfect["n"]) == (2, 4)
    assert bots["ci_lo"] < 0.75 < bots["ci_hi"]
    # points needed from tricks: 150, 180, 290, 60 (buckets of 40 from -100)
    need = t[(t["who"] == "double dummy") & (t["by"] == "needed from tricks")]
    assert sorted(need["level"]) == ["140..179", "180..219", "260..299", "60..99"]
    assert _at(need, level="60..99")["p"] == 1.0  # hand 4: needed 60, set double dummy


def test_makeable_by_what_the_bots_did() -> None:
    t = dd_studies.makeable(frame())
    assert _at(t, by="all", level="all")["p"] == 0.5
    assert _at(t, by="bots' result", level="made")["p"] == 1.0
    assert _at(t, by="bots' result", level="set in play")["p"] == 0.5
    assert _at(t, by="bots' result", level="conceded")["p"] == 0.0
    assert "50.0%" in _text_makeable(t, PRESETS["partnership"])


def test_report_adds_the_studies_only_with_dd_columns() -> None:
    r = PRESETS["partnership"]
    with_dd = list(frame().columns)
    without = [c for c in with_dd if not c.startswith("dd_")]
    for name in ("card_play_cost", "go_set_dd", "makeable"):
        assert STUDIES[name].fits(r, with_dd) and not STUDIES[name].fits(r, without)


def test_charts_have_titles_labels_and_counts() -> None:
    f = frame()
    cost = pd.concat(
        [
            dd_studies.card_play_cost(f).assign(policy="greedy"),
            dd_studies.card_play_cost(f).assign(policy="x"),
        ]
    )
    for chart, table in (
        (charts_dd.card_play_cost, cost),
        (charts_dd.go_set_dd, dd_studies.go_set_dd(f)),
        (charts_dd.makeable, dd_studies.makeable(f)),
    ):
        fig = chart(table, {})
        assert fig._suptitle.get_text().strip()
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel()
        assert any("hands" in t.get_text() for t in fig.texts)
