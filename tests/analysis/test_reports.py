"""Reports: each question against a hand-computed answer, interval coverage, charts, and the
statistical sanity of real simulated output. The ``report`` command is tested in
tests/cli/test_reports.py."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pinochle_sim.analysis.reports import STUDIES, questions, questions_two_hand, write_report
from pinochle_sim.analysis.stats import grouped_moments, grouped_quantiles, wilson
from pinochle_sim.rules import get_preset
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.simulate.hands import play_hands
from pinochle_sim.runs.store.schema import COLUMNS
from tests.analysis.test_dd_studies import frame as dd_frame

TWO_HAND_STUDIES = ("meld_laid", "early_tricks", "score_margin")
DD_STUDIES = ("card_play_cost", "go_set_dd", "makeable")


def two_hand_frame(seed: int, count: int) -> pd.DataFrame:
    """Simulated two-hand deals as a DataFrame that knows its rules."""
    df = pd.DataFrame(play_hands(seed=seed, count=count, rules="two-hand"))
    df.attrs["rules"] = get_preset("two-hand")
    return df


def synthetic(rows: list[dict]) -> pd.DataFrame:
    """A tiny run: every engine column 0 unless given."""
    df = pd.DataFrame(0, index=range(len(rows)), columns=list(COLUMNS), dtype=np.int64)
    for i, r in enumerate(rows):
        for k, v in r.items():
            df.loc[i, k] = v
    return df


# --------------------------------------------------------------------------- statistics


def test_wilson_known_values():
    lo, hi = wilson(50, 100)
    assert (round(float(lo), 4), round(float(hi), 4)) == (0.4038, 0.5962)
    lo, hi = wilson(0, 10)  # p = 0: lower bound 0, upper z^2/(n+z^2)
    z2 = 1.959963984540054**2
    assert float(lo) == 0 and math.isclose(float(hi), z2 / (10 + z2))
    lo, hi = wilson(0, 0)
    assert np.isnan(lo) and np.isnan(hi)
    lo, hi = wilson(np.array([0, 7, 2_000_000]), np.array([5, 7, 2_000_000]))
    assert lo[0] == 0.0 and hi[1] == 1.0 and hi[2] == 1.0  # exact ends, no rounding dust


def test_wilson_coverage_near_95_percent():
    rng = np.random.default_rng(1)
    for p, n in ((0.5, 50), (0.1, 200), (0.02, 1000), (0.75, 30)):
        k = rng.binomial(n, p, size=20_000)
        lo, hi = wilson(k, n)
        cover = np.mean((lo <= p) & (p <= hi))
        assert 0.93 <= cover <= 0.975, (p, n, cover)


def test_mean_interval_coverage():
    rng = np.random.default_rng(2)
    groups = 4000
    keys = np.repeat(np.arange(groups), 60)
    values = rng.exponential(40.0, size=keys.size)  # skewed, like meld
    m = grouped_moments(keys, values, groups)
    cover = np.mean((m["ci_lo"] <= 40.0) & (m["ci_hi"] >= 40.0))
    assert 0.92 <= cover <= 0.97
    assert np.all(m["n"] == 60)


def test_cluster_robust_interval_coverage():
    # Each cluster (hand) gives 8 strongly correlated observations: the naive interval is too
    # narrow, the clustered one covers the true mean about 95% of the time.
    rng = np.random.default_rng(4)
    reps, hands, per = 2000, 40, 8
    shared = rng.normal(0, 10, size=(reps, hands, 1))
    values = (shared + rng.normal(0, 2, size=(reps, hands, per))).reshape(reps, -1)
    clusters = np.repeat(np.arange(hands), per)
    cover_naive = cover_cluster = 0
    for r in range(reps):
        keys = np.zeros(hands * per, dtype=np.int64)
        naive = grouped_moments(keys, values[r], 1)
        clus = grouped_moments(keys, values[r], 1, clusters)
        cover_naive += naive["ci_lo"][0] <= 0 <= naive["ci_hi"][0]
        cover_cluster += clus["ci_lo"][0] <= 0 <= clus["ci_hi"][0]
    assert cover_naive / reps < 0.7
    assert 0.92 <= cover_cluster / reps <= 0.97


def test_grouped_quantiles_match_numpy_inverted_cdf():
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 5, size=5000)
    values = rng.integers(0, 300, size=5000)
    q = grouped_quantiles(keys, values, 6)
    for g in range(5):
        v = values[keys == g]
        expect = np.quantile(v, (0.1, 0.5, 0.9), method="inverted_cdf")
        assert np.array_equal(q[g], expect)
    assert np.isnan(q[5]).all()


# --------------------------------------------------------------------------- hand-computed answers


def test_meld_by_trump_length_hand_computed():
    # Two hands. Every seat-suit pair is one observation.
    rows = [
        {"meld_0_s": 40, "len_0_s": 3, "meld_1_h": 100, "len_1_h": 5, "meld_2_d": 60, "len_2_d": 3},
        {"meld_0_s": 20, "len_0_s": 3, "len_3_c": 5, "meld_3_c": 10},
    ]
    # every other seat-suit pair has length 0 and meld 0
    t = questions.meld_by_trump_length(synthetic(rows))
    sd3 = t[(t["suits"] == "spades/diamonds") & (t["trump_length"] == 3)].iloc[0]
    assert sd3["n"] == 3 and sd3["mean"] == pytest.approx(40.0)  # 40, 60, 20
    assert sd3["median"] == 40 and sd3["p10"] == 20 and sd3["p90"] == 60
    # Standard error clustered by hand: residuals 0 + 20 (hand 0) and -20 (hand 1);
    # var = (20^2 + 20^2) / 3^2 * C/(C-1) with C = 2 hands.
    assert sd3["se"] == pytest.approx(math.sqrt(800 / 9 * 2))
    hc5 = t[(t["suits"] == "hearts/clubs") & (t["trump_length"] == 5)].iloc[0]
    assert hc5["n"] == 2 and hc5["mean"] == pytest.approx(55.0)  # 100 (H), 10 (C)
    zero = t[t["trump_length"] == 0]
    assert int(zero["n"].sum()) == 2 * 16 - 5  # all other observations have length 0


def test_pass_value_and_partner_hand_computed():
    # Bidder seat 1, trump H (1). Seat 1 melds 60 dealt, 120 after; partner seat 3: 40 -> 20.
    rows = [
        {
            "bidder": 1,
            "trump": 1,
            "meld_1_h": 60,
            "meld_1": 120,
            "meld_3_h": 40,
            "meld_3": 20,
            "len_1_h": 5,
            "len_3_h": 2,
        },
        {
            "bidder": 0,
            "trump": 0,
            "meld_0_s": 100,
            "meld_0": 100,
            "meld_2_s": 0,
            "meld_2": 30,
            "len_0_s": 6,
            "len_2_s": 1,
        },
    ]
    t = questions.pass_value(synthetic(rows))
    allrow = t[t["team_trumps"] == "all"].set_index("measure")
    assert allrow.loc["bidder gain", "mean"] == pytest.approx((60 + 0) / 2)
    assert allrow.loc["team gain", "mean"] == pytest.approx(((140 - 100) + (130 - 100)) / 2)
    seven = t[(t["team_trumps"] == "7") & (t["measure"] == "team gain")].iloc[0]
    assert seven["n"] == 2 and seven["mean"] == pytest.approx(35.0)
    p = questions.partner_meld(synthetic(rows))
    auction = p[p["given"] == "bidder meld (auction)"].set_index("level")
    assert auction.loc["60-79", "mean"] == pytest.approx(140 - 60)  # team after - own dealt
    assert auction.loc["100-149", "mean"] == pytest.approx(130 - 100)


def test_go_set_and_auction_hand_computed():
    rows = [
        {"bidder": 0, "dealer": 3, "bid": 250, "made": 1, "team_meld_0": 200, "len_0_s": 6},
        {"bidder": 1, "dealer": 3, "bid": 250, "made": 0, "team_meld_1": 50, "len_1_s": 3},
        {
            "bidder": 3,
            "dealer": 3,
            "bid": 250,
            "stuck": 1,
            "made": 0,
            "conceded": 1,
            "team_meld_1": 0,
        },
        {"bidder": 2, "dealer": 3, "bid": 300, "made": 1, "team_meld_0": 260},
    ]
    t = questions.go_set(synthetic(rows))
    b250 = t[(t["by"] == "bid") & (t["level"] == "250")].iloc[0]
    assert (b250["n"], b250["k"]) == (3, 2) and b250["concede_p"] == pytest.approx(1 / 3)
    lo, hi = wilson(2, 3)
    assert b250["ci_lo"] == pytest.approx(float(lo)) and b250["ci_hi"] == pytest.approx(float(hi))
    allr = t[t["by"] == "all"].iloc[0]
    assert allr["p"] == pytest.approx(0.5)
    need = t[t["by"] == "needed from tricks"].set_index("level")
    assert need.loc["40..59", "n"] == 2  # 250-200 = 50 and 300-260 = 40
    a = questions.auction_summary(synthetic(rows))
    assert a[a["what"] == "stuck"].iloc[0]["p"] == pytest.approx(0.25)
    pos = a[a["what"] == "bidder position"].set_index("level")["k"]
    # (bidder - dealer) % 4: 1, 2, 0, 3
    assert pos.tolist() == [1, 1, 1, 1]
    bids = a[a["what"] == "winning bid"].set_index("level")["p"]
    assert bids["250"] == pytest.approx(0.75) and bids["300"] == pytest.approx(0.25)


def test_bid_vs_meld_and_tricks_hand_computed():
    rows = [
        {
            "bidder": 0,
            "bid": 300,
            "team_meld_0": 100,
            "team_tricks_0": 200,
            "aces_0": 2,
            "aces_2": 1,
            "trump": 2,
            "len_0_d": 4,
            "len_2_d": 3,
        },
        {
            "bidder": 3,
            "bid": 300,
            "team_meld_1": 140,
            "team_tricks_1": 150,
            "aces_3": 3,
            "trump": 2,
            "len_3_d": 7,
        },
        {"bidder": 1, "bid": 350, "team_meld_1": 300, "conceded": 1},
    ]
    t = questions.bid_vs_meld(synthetic(rows)).set_index("bid")
    assert t.loc[300, "mean"] == pytest.approx(120) and t.loc[300, "n"] == 2
    assert t.loc[350, "mean_needed_from_tricks"] == pytest.approx(50)
    tr = questions.bidding_side_tricks(synthetic(rows))
    assert tr["n"].sum() == 4  # the conceded hand is left out (2 hands x 2 breakdowns)
    seven = tr[(tr["by"] == "team trumps") & (tr["level"] == 7)]
    assert seven["mean"].tolist() == [175.0]  # both played hands have 7 team trumps
    aces = tr[tr["by"] == "team aces"].set_index("level")["mean"]
    assert aces[3] == pytest.approx(175.0)


def test_meld_distribution_hand_computed():
    rows = [
        {"bidder": 0, "trump": 0, "meld_0_s": 100, "meld_0": 150, "meld_2": 30},
        {"bidder": 1, "trump": 1, "meld_1_h": 20, "meld_1": 20},
    ]
    t = questions.meld_distribution(synthetic(rows))
    seat_post = t[(t["who"] == "seat") & (t["stage"] == "post-pass")].set_index("x")
    assert seat_post.loc[0, "n"] == 8 and seat_post.loc[20, "k"] == 3  # 150, 30, 20
    assert seat_post.loc[40, "k"] == 1
    team = t[(t["who"] == "bidding team") & (t["stage"] == "post-pass")].set_index("x")
    assert team.loc[180, "k"] == 1 and team.loc[190, "k"] == 0  # 150 + 30
    pre = t[(t["who"] == "bidder") & (t["stage"] == "pre-pass")].set_index("x")
    assert pre.loc[100, "k"] == 1 and pre.loc[20, "k"] == 2


def test_questions_read_only_needed_columns(tmp_path):
    out = tmp_path / "r"
    run(2000, seed=2, out=str(out))
    for name, f in ((n, st.question) for n, st in STUDIES.items()):
        if name == "widow_value":
            with pytest.raises(ValueError, match="widow games"):
                f(out)
            continue
        if name in TWO_HAND_STUDIES:
            with pytest.raises(ValueError, match="two-hand games"):
                f(out)
            continue
        if name == "win_probability":
            with pytest.raises(ValueError, match="needs a games run"):
                f(out)
            continue
        if name in DD_STUDIES:
            with pytest.raises(ValueError, match="no column"):  # a run without --dd
                f(out)
            continue
        t = f(out)
        assert len(t) and {"n"} <= set(t.columns), name
    with pytest.raises(ValueError, match="no column"):
        questions.go_set(pd.DataFrame({"bid": [250]}))


# --------------------------------------------------------------------------- real output


@pytest.fixture(scope="module")
def real() -> pd.DataFrame:
    return pd.DataFrame(play_hands(seed=99, count=40_000))


def test_expected_suit_length_is_three(real):
    lengths = np.concatenate([real[f"len_{p}_{s}"] for p in range(4) for s in "shdc"])
    m = grouped_moments(np.zeros(lengths.size, dtype=int), lengths, 1)
    assert m["ci_lo"][0] - 0.01 <= 3.0 <= m["ci_hi"][0] + 0.01
    t = questions.meld_by_trump_length(real)
    assert int(t["n"].sum()) == 16 * len(real)
    mean_len = (t["trump_length"] * t["n"]).sum() / t["n"].sum()
    assert mean_len == pytest.approx(3.0, abs=1e-12)  # exact: 12 cards per seat over 4 suits


def test_report_means_agree_with_columns(real):
    t = questions.meld_by_trump_length(real)
    overall = (t["mean"] * t["n"]).sum() / t["n"].sum()
    direct = np.mean([real[f"meld_{p}_{s}"].mean() for p in range(4) for s in "shdc"])
    assert overall == pytest.approx(direct)
    d = questions.meld_distribution(real)
    seat_post = d[(d["who"] == "seat") & (d["stage"] == "post-pass")].iloc[0]
    assert seat_post["mean"] == pytest.approx(np.mean([real[f"meld_{p}"].mean() for p in range(4)]))
    g = questions.go_set(real)
    assert g[g["by"] == "all"].iloc[0]["p"] == pytest.approx(1 - real["made"].mean())
    a = questions.auction_summary(real)
    pos = a[a["what"] == "bidder position"]
    assert pos["k"].sum() == len(real)


# --------------------------------------------------------------------------- charts


@pytest.mark.parametrize("name", list(STUDIES))
def test_chart_renders_png_and_svg(name, real, games_run, tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from pinochle_sim.analysis.reports.style import DPI, RC, save

    data = real
    if name == "widow_value":  # a three-hand question
        from pinochle_sim.rules import get_preset

        data = pd.DataFrame(play_hands(seed=98, count=20_000, rules="three-hand"))
        data.attrs["rules"] = get_preset("three-hand")
    if name in TWO_HAND_STUDIES:
        data = two_hand_frame(seed=97, count=20_000)
    if name == "win_probability":
        data = games_run[1]
    if name in DD_STUDIES:  # four hands worked by hand, with the dd columns
        data = dd_frame()
    table = STUDIES[name].question(data)
    meta = {
        "rules": "partnership",
        "seed": 99,
        "run_hands": len(real),
        "package_version": "x",
        "policies": {"bid": {"name": "estimate", "params": {}}},
    }
    fig = STUDIES[name].chart(table, meta)
    assert fig.get_size_inches().tolist() == [16, 9] and fig.dpi == 100
    assert fig._suptitle is not None and fig._suptitle.get_text().strip()
    for ax in fig.axes:
        twin = any(o is not ax and o.bbox.bounds == ax.bbox.bounds for o in fig.axes)
        if ax.get_label() != "<colorbar>":  # a twin axis shares its partner's x label
            assert (ax.get_xlabel() or twin) and ax.get_ylabel()
    paths = save(fig, str(tmp_path / name))
    from PIL import Image

    with Image.open(paths[0]) as im:
        assert im.size == (1600, 900)
    assert (tmp_path / f"{name}.svg").read_text().startswith("<?xml")
    # save lays the figure out itself, once, and then draws each format once: the same picture
    # as matplotlib's own savefig, which lays it out while it draws
    again = STUDIES[name].chart(table, meta)
    with matplotlib.rc_context(RC):
        again.savefig(tmp_path / "again.png", format="png", dpi=DPI)
    assert (tmp_path / "again.png").read_bytes() == Path(paths[0]).read_bytes()
    # SVG first: laid out by savefig with the SVG renderer, as matplotlib does
    save(STUDIES[name].chart(table, meta), str(tmp_path / "svg-first"), ("svg",))
    with matplotlib.rc_context(RC):
        STUDIES[name].chart(table, meta).savefig(
            tmp_path / "again.svg", format="svg", dpi=DPI, metadata={"Date": None}
        )
    assert (tmp_path / "again.svg").read_text() == (tmp_path / "svg-first.svg").read_text()


def test_write_report_rejects_bad_format(tmp_path):
    with pytest.raises(ValueError, match="chart format"):
        write_report(pd.DataFrame(), tmp_path, ("gif",))


def test_joedog_report_uses_its_own_scale(tmp_path):
    out = tmp_path / "j"
    run(3000, seed=3, rules="joedog", out=str(out))
    g = questions.go_set(out)
    need = g[g["by"] == "needed from tricks"]
    edges = list(range(-10, 31, 2))  # -100..300 in steps of 20, divided by ten
    inner = {f"{a}..{b - 1}" for a, b in itertools.pairwise(edges)}
    labels = {f"<{edges[1]}", f"{edges[-1]}+"} | inner
    assert need["level"].iloc[0] == "<-8" and set(need["level"]) <= labels
    d = questions.meld_distribution(out)
    assert d["x"].max() >= 100 and (d["x"] == 25).any() and (np.diff(d["x"].unique()) == 1).all()
    md = write_report(out, tmp_path / "rep", ("png",), ["bidding_side_tricks", "meld_distribution"])
    text = md.read_text()
    assert "half of the 25 available" in text and "at least 25 meld" in text


def test_meld_only_run_reports_without_error(tmp_path):
    from pinochle_sim.policies import PolicySet

    out = tmp_path / "p"
    run(2000, seed=4, out=str(out), policies=PolicySet.from_options(bid="pass"))
    md = write_report(out, tmp_path / "rep", ("png",), ["auction_summary", "go_set"])
    assert "stuck in 100.0%" in md.read_text()


def test_tiny_run_gets_a_clear_error(tmp_path):
    out = tmp_path / "t"
    run(100, seed=4, out=str(out))
    with pytest.raises(ValueError, match="the run has 100 hands; the smallest of its studies"):
        write_report(out, tmp_path / "rep")


def test_three_hand_report_hand_computed_and_end_to_end(tmp_path):
    rows = [
        {"bidder": 2, "trump": 0, "meld_2_s": 100, "meld_2": 160, "discard_points": 20,
         "len_2_s": 6, "dealt_0": 0},
        {"bidder": 0, "trump": 3, "meld_0_c": 50, "meld_0": 70, "discard_points": 0,
         "len_0_c": 6},
    ]  # fmt: skip
    cols = [c for c in play_hands(seed=1, count=1, rules="three-hand")]
    df = pd.DataFrame(0, index=range(2), columns=cols, dtype=np.int64)
    for i, r in enumerate(rows):
        for k, v in r.items():
            df.loc[i, k] = v
    df.attrs["rules"] = get_preset("three-hand")
    t = questions.widow_value(df)
    allr = t[t["trumps"] == "all"].set_index("measure")["mean"]
    assert allr["bidder gain"] == pytest.approx((60 + 20) / 2)
    assert allr["discard points"] == pytest.approx(10)
    pos = questions.auction_summary(df)
    assert len(pos[pos["what"] == "bidder position"]) == 3
    out = tmp_path / "t3"
    run(3000, seed=6, rules="three-hand", out=str(out))
    md = write_report(out, tmp_path / "rep", ("png",))
    text = md.read_text()
    assert "The value of the widow" in text and "value of the pass" not in text
    assert "partner" not in text.split("## The auction")[0].split("*Policies*")[1].split("\n", 1)[1]
    with pytest.raises(ValueError, match="does not apply"):
        write_report(out, tmp_path / "rep2", ("png",), ["pass_value"])


# --------------------------------------------------------------------------- two-hand


def two_hand_synthetic(rows: list[dict]) -> pd.DataFrame:
    """Two-hand deals: every column 0 unless given (all stock tricks won by seat 0)."""
    cols = list(play_hands(seed=1, count=1, rules="two-hand"))
    df = pd.DataFrame(0, index=range(len(rows)), columns=cols, dtype=np.int64)
    for i, r in enumerate(rows):
        for k, v in r.items():
            df.loc[i, k] = v
    df.attrs["rules"] = get_preset("two-hand")
    return df


def test_two_hand_questions_hand_computed():
    # Deal 0: dealer 0, trump H; seat 0 dealt 40 in hearts, lays 120, wins 7 stock tricks and
    # the deal 260-200. Deal 1: dealer 1, trump S; seat 1 dealt 150 in spades, lays 190, wins
    # 8 stock tricks; a 250-250 tie.
    rows = [
        {"dealer": 0, "trump": 1, "meld_0_h": 40, "meld_1_h": 10, "meld_0": 120, "meld_1": 60,
         "stock_tricks_0": 7, "stock_tricks_1": 5, "score_0": 260, "score_1": 200, "winner": 0,
         "trick_winner_01": 1, "meld_after_01": 20, "meld_after_02": 40},
        {"dealer": 1, "trump": 0, "meld_0_s": 0, "meld_1_s": 150, "meld_0": 30, "meld_1": 190,
         "stock_tricks_0": 4, "stock_tricks_1": 8, "score_0": 250, "score_1": 250, "winner": -1,
         "trick_winner_01": 1, "meld_after_01": 150},
    ]  # fmt: skip
    df = two_hand_synthetic(rows)
    m = questions_two_hand.meld_laid(df)
    a = m[m["by"] == "all"].iloc[0]
    assert a["n"] == 4 and a["mean"] == pytest.approx((120 + 60 + 30 + 190) / 4)
    assert a["dealt_mean"] == pytest.approx((40 + 10 + 0 + 150) / 4)
    dealt = m[m["by"] == "dealt meld in trump"].set_index("level")
    assert dealt.loc["0-19", "n"] == 2 and dealt.loc["0-19", "mean"] == pytest.approx(45)
    assert dealt.loc["150-199", "mean"] == 190 and dealt.loc["150-199", "dealt_mean"] == 150
    won = m[m["by"] == "stock tricks won"].set_index("level")["mean"]
    assert won.to_dict() == {"4": 30.0, "5": 60.0, "7": 120.0, "8": 190.0}

    e = questions_two_hand.early_tricks(df)
    first = e[e["level"] == 1].set_index("measure")
    # trick 1 won by seat 1 both times: margins 200 - 260 and 250 - 250
    assert first.loc["margin of the winner", "mean"] == pytest.approx(-30)
    assert first.loc["meld after the trick", "mean"] == pytest.approx(85)
    assert first.loc["winner wins the deal", "k"] == 0  # a loss and a tie
    second = e[e["level"] == 2].set_index("measure")  # won by seat 0 both times
    assert second.loc["margin of the winner", "mean"] == pytest.approx(30)
    assert second.loc["winner wins the deal", "p"] == pytest.approx(0.5)
    by_won = e[e["measure"] == "win by stock tricks"].set_index("level")
    assert by_won["n"].to_dict() == {4: 1, 5: 1, 7: 1, 8: 1}
    assert by_won["k"].to_dict() == {4: 0, 5: 0, 7: 1, 8: 0}

    s = questions_two_hand.score_margin(df)
    hist = s[(s["what"] == "histogram") & (s["side"] == "dealer - non-dealer")]
    assert hist.set_index("x")["k"].to_dict() == {0: 1, 60: 1}
    mean = s[s["what"] == "mean margin"].set_index("side")["mean"]
    assert mean["seat 0 - seat 1"] == pytest.approx(30) and mean["dealer - non-dealer"] == 30
    out = s[s["what"] == "outcome"].set_index("level")["k"]
    assert out.to_dict() == {"dealer wins": 1, "non-dealer wins": 0, "tie": 1}
    with pytest.raises(ValueError, match="two-hand games"):
        questions_two_hand.score_margin(synthetic(rows[:1]))


@pytest.fixture(scope="module")
def two_hand_run(tmp_path_factory) -> tuple:
    out = tmp_path_factory.mktemp("th") / "run"
    run(5000, seed=11, rules="two-hand", out=str(out))
    return out, pd.read_parquet(out)


def _ci_ordered(t: pd.DataFrame, centre: str) -> bool:
    r = t[t["n"] >= 2].dropna(subset=[centre])  # a single observation has no interval
    assert r[["ci_lo", "ci_hi"]].notna().all().all()
    return bool(((r["ci_lo"] <= r[centre] + 1e-9) & (r[centre] <= r["ci_hi"] + 1e-9)).all())


def test_two_hand_tables_agree_with_columns(two_hand_run):
    out, raw = two_hand_run
    n = len(raw)
    m = questions_two_hand.meld_laid(out)
    assert {"by", "level", "order", "n", "mean", "ci_lo", "ci_hi", "dealt_mean"} <= set(m.columns)
    for by in ("dealt meld in trump", "stock tricks won", "all"):
        assert m.loc[m["by"] == by, "n"].sum() == 2 * n
    assert _ci_ordered(m, "mean")
    laid = pd.concat([raw["meld_0"], raw["meld_1"]])
    assert m[m["by"] == "all"].iloc[0]["mean"] == pytest.approx(laid.mean())
    six = pd.concat([raw.loc[raw["stock_tricks_0"] == 6, "meld_0"],
                     raw.loc[raw["stock_tricks_1"] == 6, "meld_1"]])  # fmt: skip
    row = m[(m["by"] == "stock tricks won") & (m["level"] == "6")].iloc[0]
    assert row["n"] == len(six) and row["mean"] == pytest.approx(six.mean())

    e = questions_two_hand.early_tricks(out)
    assert {"measure", "level", "n", "mean", "k", "p", "ci_lo", "ci_hi"} <= set(e.columns)
    per_trick = e[e["measure"] != "win by stock tricks"]
    assert (per_trick["n"] == n).all() and len(per_trick) == 3 * 12
    assert e.loc[e["measure"] == "win by stock tricks", "n"].sum() == 2 * n
    assert _ci_ordered(e, "mean") and _ci_ordered(e, "p")
    w = raw["trick_winner_03"]
    margin = np.where(w == 0, 1, -1) * (raw["score_0"] - raw["score_1"])
    row = e[(e["measure"] == "margin of the winner") & (e["level"] == 3)].iloc[0]
    assert row["mean"] == pytest.approx(margin.mean())
    row = e[(e["measure"] == "winner wins the deal") & (e["level"] == 3)].iloc[0]
    assert row["k"] == (raw["winner"] == w).sum()

    s = questions_two_hand.score_margin(out)
    hist = s[s["what"] == "histogram"]
    assert (hist.groupby("side")["k"].sum() == n).all()
    assert (hist["x"] % 10 == 0).all()  # scores are multiples of 10
    assert _ci_ordered(s, "mean") and _ci_ordered(s, "p")
    outcome = s[s["what"] == "outcome"].set_index("level")
    assert outcome["k"].sum() == n and outcome.loc["tie", "k"] == (raw["winner"] == -1).sum()
    dealer_margin = np.where(raw["dealer"] == 0, 1, -1) * (raw["score_0"] - raw["score_1"])
    mean = s[s["what"] == "mean margin"].set_index("side")["mean"]
    assert mean["dealer - non-dealer"] == pytest.approx(dealer_margin.mean())
    assert outcome.loc["dealer wins", "k"] == (raw["winner"] == raw["dealer"]).sum()


# --------------------------------------------------------------------------- whole games


@pytest.fixture(scope="module")
def games_run(tmp_path_factory) -> tuple:
    """A partnership games run (a few hundred games) and its rows."""
    out = tmp_path_factory.mktemp("games") / "run"
    run(300, seed=21, games=True, out=str(out))
    df = pd.read_parquet(out)
    df.attrs["rules"] = get_preset("partnership")
    return out, df


def games_synthetic() -> pd.DataFrame:
    """Two partnership games of two deals each (game to 1500, bins of 75).

    Game 0, first dealer seat 0 (side 0): 0-0, then 200-100, then side 0 goes out 1500-150.
    Game 1, first dealer seat 1 (side 1): 0-0, side 0 set to -300-150, side 1 out -200-1550.
    """
    return pd.DataFrame(
        {
            "game": [0, 0, 1, 1],
            "deal": [0, 1, 0, 1],
            "dealer": [0, 1, 1, 2],
            "bidder": [0, 2, 0, 1],
            "score_0": [200, 1300, -300, 100],
            "score_1": [100, 50, 150, 1400],
            "total_0": [200, 1500, -300, -200],
            "total_1": [100, 150, 150, 1550],
            "game_winner": [-1, 0, -1, 1],
        }
    )


def test_win_probability_hand_computed():
    t = questions_two_hand.win_probability(games_synthetic())
    inf = -np.inf

    def cell(view, own, opp):
        r = t[(t["view"] == view) & (t["own_lo"] == own) & (t["opp_lo"] == opp)]
        return tuple(r[["n", "k"]].iloc[0]) if len(r) else (0, 0)

    assert (t["width"] == 75).all()
    assert cell("side 0", 0, 0) == (2, 1)  # both first deals; side 0 won game 0
    assert cell("side 0", 150, 75) == (1, 1)  # 200-100 is in [150, 225) x [75, 150)
    assert cell("side 0", inf, 150) == (1, 0)  # -300 joins the bin below 0
    assert cell("pooled", 0, 0) == (4, 2)
    assert cell("pooled", 75, 150) == (1, 0)  # side 1's view of 200-100, game 0 lost
    assert cell("pooled", 150, inf) == (1, 1)  # side 1's view of -300-150, game 1 won
    lead = t[t["view"] == "lead"].set_index("lead")
    # leads 0 (twice, both views), +-100 (bins centred on +-75) and -450/+450
    assert lead["n"].to_dict() == {-450.0: 1, -75.0: 1, 0.0: 4, 75.0: 1, 450.0: 1}
    assert lead.loc[75.0, "k"] == 1 and lead.loc[-450.0, "k"] == 0
    own = t[t["view"] == "lead, own side bids"].set_index("lead")["k"]
    assert own.to_dict() == {0.0: 1, 75.0: 1, 450.0: 1}  # side 0 bid twice, side 1 once
    first = t[t["view"] == "first deal"].iloc[0]
    assert (first["n"], first["k"]) == (2, 2)  # the first dealer's side won both games
    assert not (t["view"] == "end game").any()  # no deal with both sides at 1200+
    with pytest.raises(ValueError, match="without a winner"):
        questions_two_hand.win_probability(games_synthetic().iloc[:3])
    three = games_synthetic()
    three.attrs["rules"] = get_preset("three-hand")
    with pytest.raises(ValueError, match="two sides"):
        questions_two_hand.win_probability(three)


def test_win_probability_agrees_with_columns(games_run):
    out, raw = games_run
    t = questions_two_hand.win_probability(out)
    deals = len(raw)
    assert {"view", "own_lo", "opp_lo", "lead", "width", "n", "k", "p", "ci_lo", "ci_hi"} <= set(
        t.columns
    )
    n = t.groupby("view")["n"].sum()
    assert n["side 0"] == deals
    for view in ("pooled", "lead"):
        assert n[view] == 2 * deals
        assert n[f"{view}, own side bids"] == n[f"{view}, opponents bid"] == deals
    assert n["first deal"] == raw["game"].nunique() == 300
    assert _ci_ordered(t, "p")
    # pooled: a cell and its mirror image hold the same deals, seen from the other side
    pooled = t[t["view"] == "pooled"].set_index(["own_lo", "opp_lo"])
    mirror = pooled.swaplevel().reindex(pooled.index)
    assert (pooled["n"] == mirror["n"]).all()
    assert np.allclose(pooled["p"] + mirror["p"], 1)

    # Independently with pandas: the winner of each game, the scores before each deal.
    d = raw.assign(
        winner=raw.groupby("game")["game_winner"].transform("max"),
        before_0=raw["total_0"] - raw["score_0"],
        before_1=raw["total_1"] - raw["score_1"],
    )
    assert (d["winner"] >= 0).all()
    side0 = t[(t["view"] == "side 0") & np.isfinite(t["own_lo"]) & np.isfinite(t["opp_lo"])]
    row = side0.sort_values("n").iloc[-3]  # a well-filled cell
    inside = d[
        d["before_0"].between(row["own_lo"], row["own_lo"] + 74)
        & d["before_1"].between(row["opp_lo"], row["opp_lo"] + 74)
    ]
    assert row["n"] == len(inside) and row["k"] == (inside["winner"] == 0).sum()
    negative = t[(t["view"] == "side 0") & np.isneginf(t["own_lo"])]
    assert negative["n"].sum() == (d["before_0"] < 0).sum()
    first = d[d["deal"] == 0]
    row = t[t["view"] == "first deal"].iloc[0]
    assert row["k"] == (first["winner"] == first["dealer"] % 2).sum()
    late = d[(d["before_0"] >= 1200) & (d["before_1"] >= 1200)]
    end = t[t["view"] == "end game"]
    assert end["n"].sum() == len(late)
    if len(late):
        assert end["k"].iloc[0] == (late["winner"] == late["bidder"] % 2).sum()


def test_game_clustered_intervals_are_wider():
    # The same outcome seen in several observations of one game: the design effect widens the
    # interval; independent observations keep the plain Wilson interval.
    keys = np.zeros(400, dtype=np.int64)
    hits = np.repeat(np.arange(100) % 2, 4).astype(bool)
    index = pd.DataFrame({"g": ["all"]})
    plain = questions._props(keys, hits, 1, index)
    clustered = questions._props(keys, hits, 1, index, np.repeat(np.arange(100), 4))
    assert plain["n"].iloc[0] == clustered["n"].iloc[0] == 400
    width = (clustered["ci_hi"] - clustered["ci_lo"]).iloc[0]
    assert width == pytest.approx(2 * (plain["ci_hi"] - plain["ci_lo"]).iloc[0], rel=0.03)
    alone = questions._props(keys, hits, 1, index, np.arange(400))
    assert alone["ci_lo"].iloc[0] == pytest.approx(plain["ci_lo"].iloc[0], abs=2e-3)


def test_cluster_se_sparse_path_matches_brute_force():
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 30, 3000)
    values = rng.normal(size=3000)
    clusters = rng.integers(0, 2000, 3000)  # 2000 x 30 cells > 8 x 3000: the sparse path
    se = grouped_moments(keys, values, 30, clusters)["se"]
    for g in (0, 7, 29):
        v, c = values[keys == g], clusters[keys == g]
        resid = pd.Series(v - v.mean()).groupby(c).sum()
        var = (resid**2).sum() / len(v) ** 2 * len(resid) / (len(resid) - 1)
        assert se[g] == pytest.approx(math.sqrt(var))


def test_two_hand_games_report(tmp_path):
    out = tmp_path / "g2"
    run(400, seed=9, rules="two-hand", games=True, out=str(out))
    md = write_report(out, tmp_path / "rep", ("png",), ["win_probability"]).read_text()
    assert "first dealer's side wins" in md and "auction" not in md
    t = pd.read_csv(tmp_path / "rep" / "win_probability.csv")
    assert set(t["view"]) == {"side 0", "pooled", "lead", "first deal"}
    assert (t["width"] == 50).all()  # game to 1000 in 20 bins
