"""Charts over several runs (``pinochle_sim.charts``): every bin's numbers against a slow
recomputation from the whole records (pandas, by hand), the binning rule, and the files and
refusals of ``chart``. The command is tested in tests/cli/test_chart.py."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pinochle_sim import PolicySet, charts
from pinochle_sim.analysis.stats import Z95, wilson
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.spec import RunSpec

HANDS = 6_000
SUITS = "shdc"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Two partnership runs that differ in play, and a three-hand run."""
    base = tmp_path_factory.mktemp("overlay")
    out = []
    for name, play, rules in (("greedy", "greedy", "partnership"),
                              ("counting", "counting", "partnership"),
                              ("three", "greedy", "three-hand")):  # fmt: skip
        spec = RunSpec(rules=rules, hands=HANDS, seed=3, part_size=2_000,
                       policies=PolicySet(play=play))  # fmt: skip
        run(spec, base / name)
        out.append(str(base / name))
    return out


def greedy_bins(values: list[int], counts: list[int], min_n: int) -> list[tuple[int, int]]:
    """The binning rule, written again: walk up, close a bin at min_n, the rest joins the last."""
    bins: list[list[int]] = []
    held = 0
    for v, n in zip(values, counts, strict=True):
        if held == 0:
            bins.append([v, v])
        bins[-1][1] = v
        held += n
        if held >= min_n:
            held = 0
    if held and len(bins) > 1:
        last = bins.pop()
        bins[-1][1] = last[1]
    return [(a, b) for a, b in bins]


def frame(path: str) -> pd.DataFrame:
    return pd.read_parquet(path)


def test_binning_rule_by_hand():
    values, counts = np.array([250, 260, 270, 280, 300]), np.array([150, 60, 500, 10, 20])
    assert charts.choose_bins(values, counts, 200).tolist() == [[250, 260], [270, 300]]
    assert charts.choose_bins(values, counts, 10_000).tolist() == [[250, 300]]
    exact = charts.choose_bins(values, counts, 10)
    assert exact[:, 0].tolist() == [250, 260, 270, 280, 300]


@pytest.mark.parametrize("question,by", [("go-set", "bid"), ("made-rate", "needed"),
                                         ("go-set", "trumps")])  # fmt: skip
def test_proportions_match_a_recount_of_the_records(runs, question, by):
    table, infos = charts.overlay_table(question, runs[:2], by=by, min_n=300)
    assert [i.label for i in infos] == ["greedy", "counting"]
    for i, path in enumerate(runs[:2]):
        df = frame(path)
        bidder = df["bidder"].to_numpy()
        side = bidder % 2
        meld = np.where(side == 0, df["team_meld_0"], df["team_meld_1"])
        trump = df["trump"].to_numpy()
        lens = np.stack([df[f"len_{p}_{s}"] for p in range(4) for s in SUITS]).T
        rows = np.arange(len(df))
        trumps = lens[rows, bidder * 4 + trump] + lens[rows, ((bidder + 2) % 4) * 4 + trump]
        x = {"bid": df["bid"].to_numpy(), "needed": df["bid"].to_numpy() - meld,
             "trumps": trumps}[by]  # fmt: skip
        hit = df["made"].to_numpy().astype(bool)
        hit = hit if question == "made-rate" else ~hit
        values, counts = np.unique(x, return_counts=True)
        bins = greedy_bins(values.tolist(), counts.tolist(), 300)
        mine = table[table["run"] == i].reset_index(drop=True)
        assert list(zip(mine["x_lo"], mine["x_hi"], strict=True)) == bins
        for (lo, hi), (_, row) in zip(bins, mine.iterrows(), strict=True):
            inside = (x >= lo) & (x <= hi)
            n, k = int(inside.sum()), int(hit[inside].sum())
            assert (row["n"], row["k"]) == (n, k)
            assert row["n"] >= 300 or ((lo, hi) == bins[-1] and len(bins) == 1)
            assert math.isclose(row["estimate"], k / n)
            wlo, whi = wilson(k, n)
            assert math.isclose(row["ci_lo"], float(wlo)) and math.isclose(row["ci_hi"], float(whi))
            assert math.isclose(row["x"], float(x[inside].mean()))


def test_meld_by_trump_length_is_clustered_by_hand(runs):
    """Every seat and suit is an observation; the interval sums each hand's residuals (the
    cluster-robust standard error, with the C/(C-1) factor) - computed here in plain numpy."""
    table, _ = charts.overlay_table("meld-by-trump-length", runs[2:], min_n=100)
    df = frame(runs[2])
    players = 3
    x = np.concatenate([df[f"len_{p}_{s}"] for p in range(players) for s in SUITS]).astype(int)
    y = np.concatenate([df[f"meld_{p}_{s}"] for p in range(players) for s in SUITS]).astype(float)
    hand = np.tile(np.arange(len(df)), players * 4)
    for _, row in table.iterrows():
        inside = (x >= row["x_lo"]) & (x <= row["x_hi"])
        assert row["n"] == inside.sum()
        mean = y[inside].mean()
        assert math.isclose(row["estimate"], mean)
        resid = pd.Series(y[inside] - mean).groupby(hand[inside]).sum().to_numpy()
        c = len(resid)
        se = math.sqrt((resid**2).sum() * c / (c - 1)) / inside.sum()
        assert math.isclose(row["ci_hi"] - row["estimate"], Z95 * se, rel_tol=1e-9)


def test_bid_vs_meld_means(runs):
    table, _ = charts.overlay_table("bid-vs-meld", runs[2:], min_n=250)
    df = frame(runs[2])
    bidder = df["bidder"].to_numpy()
    meld = np.stack([df[f"team_meld_{p}"] for p in range(3)]).T[np.arange(len(df)), bidder]
    for _, row in table.iterrows():
        inside = (df["bid"] >= row["x_lo"]) & (df["bid"] <= row["x_hi"])
        v = meld[inside.to_numpy()].astype(float)
        assert math.isclose(row["estimate"], v.mean())
        half = Z95 * v.std(ddof=1) / math.sqrt(len(v))
        assert math.isclose(row["ci_hi"] - row["estimate"], half, rel_tol=1e-9)


@pytest.mark.parametrize("which", [0, 2])
def test_trick_points_by_trumps_means(runs, which):
    """The bidding side's trick points (a team's in partnership, the bidder's alone in
    three-hand) by the trumps its seats were dealt, recounted from the records."""
    table, _ = charts.overlay_table("trick-points", [runs[which]], min_n=300)
    df = frame(runs[which])
    players = 3 if which == 2 else 4
    bidder = df["bidder"].to_numpy()
    trump = df["trump"].to_numpy()
    seats = [bidder] if players == 3 else [bidder, (bidder + 2) % 4]
    length = np.stack([df[f"len_{p}_{s}"] for p in range(players) for s in SUITS]).T
    rows = np.arange(len(df))
    trumps = sum(length[rows, seat * 4 + trump] for seat in seats)
    side = bidder if players == 3 else bidder % 2
    sides = 3 if players == 3 else 2
    points = np.stack([df[f"team_tricks_{k}"] for k in range(sides)]).T[rows, side]
    assert table["n"].sum() == len(df) and (table["x_lo"] <= table["x_hi"]).all()
    for _, row in table.iterrows():
        inside = (trumps >= row["x_lo"]) & (trumps <= row["x_hi"])
        v = points[inside].astype(float)
        assert row["n"] == len(v) >= 300 or row["x_hi"] == trumps.max()
        assert math.isclose(row["estimate"], v.mean())
        half = Z95 * v.std(ddof=1) / math.sqrt(len(v))
        assert math.isclose(row["ci_hi"] - row["estimate"], half, rel_tol=1e-9)


def test_chart_writes_the_figure_and_the_table_and_refuses_to_overwrite(runs, tmp_path):
    made = charts.chart("go-set", runs[:2], labels=["G", "C"], out=tmp_path / "set.svg",
                        formats=["svg", "png"])  # fmt: skip
    assert made.paths == tuple(str(tmp_path / f"set.{f}") for f in ("svg", "png", "csv"))
    back = pd.read_csv(tmp_path / "set.csv")
    assert set(back["label"]) == {"G", "C"} and len(back) == len(made.table)
    texts = [t.get_text() for t in made.figure.legends[0].get_texts()] if made.figure.legends \
        else [t.get_text() for t in made.figure.axes[0].get_legend().get_texts()]  # fmt: skip
    assert texts[0].startswith("G · play: greedy") and f"{HANDS:,} hands" in texts[0]
    assert "play" not in made.figure.texts[0].get_text()  # the subtitle: what both share
    with pytest.raises(ValueError, match="exists"):
        charts.chart("go-set", runs[:2], out=tmp_path / "set.svg")
    assert not list(tmp_path.glob("*.tmp-*"))


@pytest.mark.parametrize("kwargs,match", [
    ({"question": "nope"}, "unknown question"),
    ({"by": "trumps", "question": "bid-vs-meld"}, "broken down by bid"),
    ({"min_n": 0}, "positive whole number"),
    ({"labels": ["only one"]}, "one label per run"),
    ({"min_n": 10**6}, "fewer than one point"),
])  # fmt: skip
def test_bad_requests_are_one_line_errors(runs, kwargs, match):
    args = {"question": "go-set", "runs": runs[:2]} | kwargs
    with pytest.raises(ValueError, match=match) as e:
        charts.overlay_table(**args)
    assert "\n" not in str(e.value)


def test_the_docs_example_runs(runs, tmp_path, monkeypatch):
    """docs/runs.md's Python example of pinochle_sim.charts, on two small runs."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "runs.md").read_text(encoding="utf-8")
    section = text[text.index("### Charts over several runs") :]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    code = code.replace('"runs/greedy"', repr(runs[0])).replace('"runs/pimc"', repr(runs[1]))
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/runs.md", "exec"), {})
    assert (tmp_path / "blog" / "set.png").exists() and (tmp_path / "blog" / "set.csv").exists()
    assert (tmp_path / "blog" / "mine.png").exists()


def test_identical_runs_are_said_and_rules_without_a_kind_leave_it_out(runs):
    made = charts.chart("go-set", [runs[0], runs[0], runs[2]], labels=["a", "b", "c"])
    texts = [t.get_text() for t in made.figure.axes[0].get_legend().get_texts()]
    assert texts[1].endswith("(the same numbers as a)") and "same numbers" not in texts[2]
    assert not any("?" in t for t in texts)  # three-hand has no pass policy: none is named
    assert "rules three-hand" in texts[2] and "pass: standard" in texts[0]


def test_the_needed_axis_leaves_the_sparse_left_tail_off(runs):
    made = charts.chart("go_set", runs[:1], by="needed", min_n=20)  # go_set spelt as report does
    ax = made.figure.axes[0]
    assert "needing least are off the axis" in ax.get_xlabel()
    assert ax.get_xlim()[0] > made.table["x"].min()
