"""The exact values the meld studies carry beside their estimates, the clustered tail
intervals, the self-check rules, and the two charts that draw truth and simulation together."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

from pinochle_sim.analysis import exact
from pinochle_sim.analysis.reports import charts_report, questions, selfcheck, write_report
from pinochle_sim.analysis.stats import clustered_tail, design_effect
from pinochle_sim.rules import get_preset
from pinochle_sim.runs.simulate.hands import play_hands
from pinochle_sim.runs.store.schema import COLUMNS

matplotlib.use("Agg")

META = {
    "rules": "partnership",
    "seed": 1,
    "run_hands": 20_000,
    "package_version": "x",
    "policies": {"bid": {"name": "estimate", "params": {}}},
}


def synthetic(rows: list[dict]) -> pd.DataFrame:
    """A tiny partnership run: every engine column 0 unless given."""
    df = pd.DataFrame(0, index=range(len(rows)), columns=list(COLUMNS), dtype=np.int64)
    for i, r in enumerate(rows):
        for k, v in r.items():
            df.loc[i, k] = v
    return df


def test_meld_by_trump_length_carries_the_exact_pooled_values() -> None:
    rows = [{"meld_0_s": 40, "len_0_s": 3, "meld_2_d": 60, "len_2_d": 3},
            {"meld_0_s": 20, "len_0_s": 3}]  # fmt: skip
    t = questions.meld_by_trump_length(synthetic(rows))
    r = t[(t["suits"] == "spades/diamonds") & (t["trump_length"] == 3)].iloc[0]
    s, d = (exact.exact_meld_distribution("partnership", x).given_length(3) for x in "SD")
    assert r["exact_mean"] == pytest.approx((s["mean"] + d["mean"]) / 2, rel=1e-12)
    assert r["z"] == pytest.approx((r["mean"] - r["exact_mean"]) / r["se"])
    h = exact.exact_meld_distribution("partnership", "H")
    hc = t[(t["suits"] == "hearts/clubs") & (t["trump_length"] == 0)].iloc[0]
    assert hc["exact_mean"] == pytest.approx(h.given_length(0)["mean"], rel=1e-12)
    assert (hc["exact_p10"], hc["exact_median"], hc["exact_p90"]) == tuple(
        float(h.quantile(q, 0)) for q in (0.1, 0.5, 0.9)
    )


def test_meld_distribution_fixed_trump_series_hand_computed() -> None:
    rows = [{"bidder": 0, "trump": 0, "meld_0_s": 100, "meld_0_h": 100, "meld_1_c": 20},
            {"bidder": 1, "trump": 1, "meld_3_d": 300}]  # fmt: skip
    t = questions.meld_distribution(synthetic(rows))
    f = t[t["stage"] == questions.FIXED_TRUMP].set_index("x")
    assert set(f["who"]) == {"seat"} and (f["n"] == 32).all()  # 2 deals x 4 seats x 4 suits
    assert (f.loc[20, "k"], f.loc[100, "k"], f.loc[110, "k"], f.loc[300, "k"]) == (4, 3, 1, 1)
    truth = [exact.exact_meld_distribution("partnership", s) for s in "SHDC"]
    assert f.loc[100, "exact_p"] == pytest.approx(np.mean([e.tail(100) for e in truth]))
    # Deal 0 holds two of the three observations >= 100: k_h = (2, 1), m = 16, p = 3/32.
    p, m, clusters = 3 / 32, 16, 2
    robust = ((2 - m * p) ** 2 + (1 - m * p) ** 2) / 32**2 * clusters / (clusters - 1)
    assert robust < p * (1 - p) / 32  # less spread than independent draws: no correction
    assert f.loc[100, "deff"] == 1.0
    k_h, p20 = np.array([3, 1]), 4 / 32  # x = 20: deal 0 has three, deal 1 one
    robust20 = ((k_h - m * p20) ** 2).sum() / 32**2 * clusters / (clusters - 1)
    assert f.loc[20, "deff"] > 1
    assert f.loc[20, "deff"] == pytest.approx(robust20 / (p20 * (1 - p20) / 32))
    se = math.sqrt(f.loc[100, "exact_p"] * (1 - f.loc[100, "exact_p"]) * f.loc[100, "deff"] / 32)
    assert f.loc[100, "z"] == pytest.approx((p - f.loc[100, "exact_p"]) / se)
    other = t[t["stage"] != questions.FIXED_TRUMP]
    assert other["exact_p"].isna().all()
    assert t["x"].max() == 1000 and (np.diff(f.index) == 10).all()  # the grid's least reach


def test_the_tail_grid_reaches_the_largest_meld() -> None:
    rows = [{"bidder": 0, "trump": 0, "meld_0": 1520, "meld_0_s": 1520}]
    t = questions.meld_distribution(synthetic(rows))
    assert t["x"].max() == 1520 and (t.loc[t["x"] == 1520, "k"] >= 1).all()


def test_clustered_tail_matches_the_design_effect_of_each_proportion() -> None:
    rng = np.random.default_rng(5)
    shared = rng.integers(0, 4, size=(3000, 1))
    values = shared * 10 + rng.integers(0, 25, size=(3000, 16))
    grid = np.array([0, 12, 30, 41])
    k, deff = clustered_tail(values, grid)
    clusters = np.repeat(np.arange(3000), 16)
    for j, x in enumerate(grid):
        hits = values.ravel() >= x
        assert k[j] == hits.sum()
        keys = np.zeros(hits.size, dtype=np.int64)
        expect = design_effect(keys, hits, 1, clusters)[0]  # sample variance: n / (n - 1)
        assert deff[j] == pytest.approx(expect, rel=1e-3)
    assert deff[0] == 1.0  # no spread
    assert deff[2] > 2  # the shared part makes a deal's observations move together


def test_self_check_rules() -> None:
    t = pd.DataFrame(
        {
            "suits": ["spades/diamonds"] * 3,
            "trump_length": [3, 4, 12],
            "n": [500, 500, 150],
            "mean": [41.0, 50.0, 9.0],
            "se": [1.0, 1.0, 1.0],
            "exact_mean": [40.0, 44.0, 0.0],
            "z": [1.0, 6.0, 9.0],
        }
    )
    c = selfcheck.meld_by_trump_length(t).assign(study="s")[selfcheck.COLUMNS]
    assert len(c) == 2  # the group of 150 is too small to be judged
    assert list(selfcheck.failures(c)["z"]) == [6.0]
    assert "Warning: the self-check failed." in selfcheck.summary_line(c)
    assert "Self-check passed" in selfcheck.summary_line(c.iloc[:1])
    tail = pd.DataFrame(
        {
            "stage": questions.FIXED_TRUMP,
            "x": [0, 10, 500],
            "n": 16_000,
            "deff": [1.0, 2.0, 2.0],
            "p": [1.0, 0.5, 0.0],
            "exact_p": [1.0, 0.5, 0.001],
            "z": [np.nan, 0.0, -3.0],
        }
    )
    assert list(selfcheck.meld_distribution(tail)["quantity"]) == [
        "P(meld ≥ 10), dealt hand, fixed trump"  # 16,000 / 2 x 0.001 = 8 expected: too few
    ]


@pytest.fixture(scope="module")
def frames() -> dict[str, pd.DataFrame]:
    out = {}
    for preset in ("partnership", "three-hand"):
        df = pd.DataFrame(play_hands(seed=31, count=20_000, rules=preset))
        df.attrs["rules"] = get_preset(preset)
        out[preset] = df
    return out


def test_charts_draw_the_exact_curves(frames: dict[str, pd.DataFrame]) -> None:
    t = questions.meld_by_trump_length(frames["partnership"])
    fig = charts_report.meld_by_trump_length(t, META)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert sum("exact mean" in x for x in labels) == 2
    assert sum("simulated mean" in x for x in labels) == 2
    d = questions.meld_distribution(frames["partnership"])
    fig = charts_report.meld_distribution(d, META)
    assert len(fig.axes) == 3 and fig.axes[0].get_title() == "dealt hand, trump fixed in advance"
    first = fig.axes[0].get_legend_handles_labels()[1]
    assert first[0].startswith("exact, no sampling") and "cut at" in first[0]
    ends = [line.get_xdata()[-1] for line in fig.axes[1].get_lines()]
    assert max(ends) > 1000  # the tail is drawn as far as 20 hands reach, not cut at 1000
    three = questions.meld_distribution(frames["three-hand"])
    assert len(charts_report.meld_distribution(three, META).axes) == 2


def test_three_hand_report_self_check(frames: dict[str, pd.DataFrame], tmp_path) -> None:
    df = frames["three-hand"]
    md = write_report(df, tmp_path, ("png",), ["meld_by_trump_length", "meld_distribution"],
                      strict=True).read_text()  # fmt: skip
    assert "Self-check passed" in md
    check = pd.read_csv(tmp_path / "self_check.csv")
    assert set(check["study"]) == {"meld_by_trump_length", "meld_distribution"}
    assert (check["z"].abs() <= selfcheck.Z_LIMIT).all()
