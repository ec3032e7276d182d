"""Reports and charts that never mislead: partial runs are refused or marked, hand
counts come from the rows read, and the pass, partner, sweep and compare charts draw what they
claim (axis limits, bins, one colour per quantity, legends clear of the data, per deal vs per
hand). The same at the command line (``report`` on partial runs, ``compare`` per hand) is tested
in tests/cli/test_report_honesty.py."""

from __future__ import annotations

import html
import itertools
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex

from pinochle_sim.analysis.compare import compare, summarise, sweep
from pinochle_sim.analysis.matches import duplicate
from pinochle_sim.analysis.reports import charts_report, questions, write_report
from pinochle_sim.analysis.reports.charts_compare import (
    match_chart,
    per_deal_definition,
    sweep_chart,
)
from pinochle_sim.analysis.reports.load import extent
from pinochle_sim.analysis.reports.style import PALETTE, policies_text, subtitle_from
from pinochle_sim.policies import REGISTRY, PolicySet
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.simulate.hands import play_hands
from pinochle_sim.runs.store.files import MANIFEST, part_name
from tests.analysis.test_reports import synthetic

COUNTING = PolicySet.from_options(play="counting")


def drawn(fig) -> None:
    """Lay the figure out as saving would, so extents are final."""
    FigureCanvasAgg(fig)
    fig.canvas.draw()


def overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def assert_legends_clear(fig) -> None:
    """No axes holds a legend, and every figure legend lies outside every axes' area."""
    drawn(fig)
    assert fig.legends, "the figure has no legend"
    for ax in fig.axes:
        assert ax.get_legend() is None, ax.get_title()
        for legend in fig.legends:
            assert not overlaps(legend.get_window_extent(), ax.get_window_extent())


def svg_texts(path: Path) -> str:
    """Every text of an SVG chart (the house style keeps text as text)."""
    return html.unescape(" ".join(re.findall(r">([^<>]+)</text>", path.read_text())))


# --------------------------------------------------------------------------- partial runs


@pytest.fixture(scope="module")
def three_parts(tmp_path_factory) -> Path:
    """A complete run of 3,000 hands in three parts of 1,000."""
    out = tmp_path_factory.mktemp("parts") / "run"
    run(3000, seed=31, out=str(out), part_size=1000)
    return out


def copy_run(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def interrupt(path: Path, keep: int, delete: bool = True) -> Path:
    """Make ``path`` look interrupted after ``keep`` parts: the manifest lists only those
    parts and is marked incomplete; the later part files are deleted unless ``delete`` is
    false (a part renamed into place just before the crash)."""
    man = json.loads((path / MANIFEST).read_text())
    man["parts"] = {k: v for k, v in man["parts"].items() if int(k) < keep}
    man["complete"] = False
    (path / MANIFEST).write_text(json.dumps(man))
    if delete:
        for k in range(keep, 3):
            (path / part_name(k)).unlink()
    return path


def test_extent_counts_the_rows_read(three_parts, tmp_path):
    full = extent(three_parts)
    assert (full.read, full.planned, full.partial) == (3000, 3000, False)
    missing = copy_run(three_parts, tmp_path / "missing")
    (missing / part_name(1)).unlink()  # the manifest still says complete
    e = extent(missing)
    assert (e.read, e.rows, e.planned, e.marked_complete) == (2000, 2000, 3000, True)
    assert e.partial and e.describe() == "2,000 of 3,000 hands"
    stopped = interrupt(copy_run(three_parts, tmp_path / "stopped"), keep=1)
    assert extent(stopped).read == 1000 and extent(stopped).partial
    orphan = interrupt(copy_run(three_parts, tmp_path / "orphan"), keep=2, delete=False)
    e = extent(orphan)  # every row is there, but the manifest marks the run incomplete
    assert e.read == 3000 and e.partial
    one = extent(three_parts / part_name(0))  # a part file alone: its provenance plans 3,000
    assert (one.read, one.planned, one.partial) == (1000, 3000, True)
    mixed = copy_run(three_parts, tmp_path / "mixed")
    shutil.copy(mixed / part_name(0), mixed / part_name(7))
    with pytest.raises(ValueError, match="another run"):
        extent(mixed)
    frame = pd.DataFrame({"hand": np.arange(10)})
    frame.attrs["pinochle_sim"] = {"run_hands": 40, "unit": "hands"}
    assert extent(frame).partial and extent(frame).describe() == "10 of 40 hands"


def test_games_extent_counts_games(tmp_path):
    out = tmp_path / "g"
    run(30, seed=3, games=True, out=str(out), part_size=10)
    rows = len(pd.read_parquet(out))
    assert (extent(out).read, extent(out).rows, extent(out).unit) == (30, rows, "games")
    (out / part_name(2)).unlink()
    e = extent(out)
    assert e.partial and e.read == 20 and e.rows < rows and e.describe() == "20 of 30 games"


def test_complete_report_has_no_partial_marks(three_parts, tmp_path):
    md = write_report(three_parts, tmp_path / "rep", ("svg",), ["go_set"]).read_text()
    assert md.startswith("# What 3,000 simulated Pinochle hands say\n") and "artial" not in md
    text = svg_texts(tmp_path / "rep" / "go_set.svg")
    assert "3,000 simulated hands · rules partnership" in text and "partial" not in text


# --------------------------------------------------------------------------- formats


@pytest.mark.parametrize(
    "formats, page, linked",
    [(("pdf",), "png", ["pdf"]), (("svg",), "svg", []), (("svg", "pdf"), "svg", ["pdf"]),
     (("pdf", "png"), "png", ["pdf"])],
)  # fmt: skip
def test_report_md_always_shows_an_image(three_parts, tmp_path, formats, page, linked):
    rep = tmp_path / "rep"
    md = write_report(three_parts, rep, formats, ["go_set"]).read_text()
    assert "![Go-set probability](go_set." + page + ")" in md
    assert (rep / f"go_set.{page}").exists()
    for fmt in formats:
        assert (rep / f"go_set.{fmt}").exists()
    for fmt in linked:
        assert f"[{fmt.upper()}](go_set.{fmt})" in md
    assert "](go_set.pdf)" not in md.replace("[PDF](go_set.pdf)", "")  # never as an image


# --------------------------------------------------------------------------- subtitles


def test_no_policy_word_is_doubled():
    defaults = {kind: next(iter(REGISTRY[kind])) for kind in REGISTRY}
    for kind in REGISTRY:
        for name in REGISTRY[kind]:
            chosen = defaults | {kind: name}
            text = policies_text({k: {"name": v, "params": {}} for k, v in chosen.items()})
            words = text.split()  # "bid: pass, pass: standard" keeps its punctuation
            assert all(a != b for a, b in itertools.pairwise(words)), text
            item = f"{'throw-in' if kind == 'concede' else kind}: {name}"
            assert item in text.split(", ")
    meta = {"rules": "partnership", "policies": {"concede": {"name": "concede", "params": {}}}}
    subtitle = subtitle_from(meta)
    assert "throw-in: concede" in subtitle and "concede concede" not in subtitle


# --------------------------------------------------------------------------- pass value


def test_pass_value_leaves_rare_trump_counts_off():
    """1,000,000 hands; 12 trumps in 250 of them (0.025%, under the 0.1% floor) meld 1,100."""
    rows = []
    counts = {4: 20_000, 6: 300_000, 8: 400_000, 10: 279_750, 12: 250}
    for measure, base in (("bidder gain", 30), ("team gain", 28), ("bidder meld before", 100),
                          ("bidder meld after", 140)):  # fmt: skip
        for x, n in counts.items():
            mean = 1100.0 if (x == 12 and measure == "bidder meld after") else base + 10 * x
            rows.append({"measure": measure, "team_trumps": str(x), "n": n, "mean": mean,
                         "ci_lo": mean - 2, "ci_hi": mean + 2})  # fmt: skip
        rows.append({"measure": measure, "team_trumps": "all", "n": 1_000_000, "mean": base,
                     "ci_lo": base - 1, "ci_hi": base + 1})  # fmt: skip
    fig = charts_report.pass_value(pd.DataFrame(rows), {})
    (ax,) = fig.axes
    lines = [ln for ln in ax.get_lines() if ln.get_label() and not ln.get_label().startswith("_")]
    assert len(lines) == 4
    for i, line in enumerate(lines):
        assert list(line.get_xdata()) == [4, 6, 8, 10]  # 12 trumps left off
        assert to_hex(line.get_color()) == PALETTE[i].lower()  # one colour per measure
    bottom, top = ax.get_ylim()
    assert bottom <= 0 and 242 <= top < 400  # the highest drawn interval is 240 + 2
    notes = " ".join(t.get_text() for t in fig.texts)
    assert "12 trumps left off (250 hands, 0.03%; in the CSV)" in notes


# --------------------------------------------------------------------------- partner meld


def test_partner_meld_bins_sit_at_their_mean_own_meld():
    # Spades trump: seat 0 melds 100 and 140 (bucket 100-149), its partner seat 2 30 and 50.
    # Hearts: seat 0 20 with partner 10. Clubs: seat 1 450 (the open 400+ bucket).
    rows = [
        {"meld_0_s": 100, "meld_2_s": 30, "len_0_s": 5, "meld_1_c": 450},
        {"meld_0_s": 140, "meld_2_s": 50, "meld_0_h": 20, "meld_2_h": 10},
    ]
    t = questions.partner_meld(synthetic(rows))
    own = t[t["given"] == "own meld"].set_index("level")
    assert own.loc["100-149", "x"] == pytest.approx(120)
    assert own.loc["100-149", "mean"] == pytest.approx(40)
    assert (own.loc["100-149", "lo"], own.loc["100-149", "hi"]) == (100, 149)
    # 20-39 holds seat 0's 20 in hearts (partner 10) and seat 2's 30 in spades (partner 100)
    assert own.loc["20-39", "x"] == pytest.approx(25)
    assert own.loc["20-39", "mean"] == pytest.approx(55)
    assert own.loc["400+", "x"] == 450 and np.isnan(own.loc["400+", "hi"])
    length = t[t["given"] == "own trump length"].set_index("order")
    assert (length["x"] == length.index).all()


@pytest.fixture(scope="module")
def partner_table() -> pd.DataFrame:
    return questions.partner_meld(pd.DataFrame(play_hands(seed=41, count=30_000)))


def test_partner_meld_chart_draws_the_true_spacing(partner_table):
    t = partner_table
    fig = charts_report.partner_meld(t, {})
    left, right = fig.axes[:2]
    named = {ln.get_label(): ln for ax in (left, right) for ln in ax.get_lines()}
    partner = named["partner's dealt meld, same trump (95% CI)"]
    shown = t[(t["given"] == "own meld") & (t["n"] >= charts_report.MIN_N)].sort_values("order")
    assert np.allclose(partner.get_xdata(), shown["x"])
    assert ((shown["x"] >= shown["lo"]) & (shown["x"] <= shown["hi"].fillna(np.inf))).all()
    gaps = np.diff(partner.get_xdata())
    assert gaps.max() > 2 * gaps.min()  # uneven buckets are not drawn evenly spaced
    assert left.get_ylim()[0] == 0 and right.get_ylim()[0] == 0
    assert left.get_ylim() == right.get_ylim()  # the same quantity on one scale
    colours = {ax: {to_hex(ln.get_color()) for ln in ax.get_lines()} for ax in (left, right)}
    assert colours[right] == {to_hex(partner.get_color())}  # same quantity, same colour
    auction = named["bidders: partner's meld + pass gain (95% CI)"]
    assert to_hex(auction.get_color()) != to_hex(partner.get_color())
    assert_legends_clear(fig)


# --------------------------------------------------------------------------- sweep


def test_sweep_gain_is_plays_times_the_score_gap():
    table, _ = sweep("partnership", PolicySet(), "bid.margin", [-40, 20], PolicySet(), 600, seed=2)
    gap = table["mean_score"] - table["opp_mean_score"]
    assert np.allclose(table["diff_per_deal"], 2 * gap)
    assert np.allclose(table["diff_per_hand"], gap)


def sweep_table() -> pd.DataFrame:
    """Four values; the gain peaks at 10 and the own mean score at 20."""
    x = np.array([0, 10, 20, 30])
    own = np.array([150.0, 170.0, 180.0, 160.0])
    opp = np.array([160.0, 160.0, 185.0, 190.0])
    diff = 2 * (own - opp)
    return pd.DataFrame(
        {
            "value": x, "hands": 2000, "deals": 1000, "plays": 2,
            "diff_per_deal": diff, "diff_lo": diff - 5, "diff_hi": diff + 5,
            "mean_score": own, "mean_score_lo": own - 3, "mean_score_hi": own + 3,
            "opp_mean_score": opp, "opp_mean_score_lo": opp - 3, "opp_mean_score_hi": opp + 3,
            "make_rate": [0.7, 0.75, 0.8, 0.85], "make_lo": 0.6, "make_hi": 0.9,
            "mean_bid": [320.0, 315, 310, 305], "mean_bid_lo": 300.0, "mean_bid_hi": 330.0,
            "bids_won": [1200, 1000, 800, 600],
        }
    )  # fmt: skip


def test_sweep_chart_explains_its_peaks_and_keeps_legends_clear():
    meta = {"param": "bid.margin", "deals": 1000, "rules": "partnership", "seed": 0}
    fig = sweep_chart(sweep_table(), meta)
    notes = " ".join(t.get_text().replace("\n", " ") for t in fig.texts)
    assert "summed over the 2 plays of a deal" in notes
    assert "2 x the gap between the two mean scores per hand" in notes
    assert "own mean score peaks at 20, the gain at 10" in notes
    assert "185.0 per hand at 20 and 160.0 at 10" in notes  # why: the opponent's scores
    (legend,) = fig.legends
    labels = [t.get_text() for t in legend.get_texts()]
    assert "swept side's mean score per hand" in labels
    assert "opponent's mean score per hand" in labels
    colours = [to_hex(h.get_color()) for h in legend.legend_handles]
    assert len(set(colours)) == len(colours)  # one colour per quantity
    gain_ax, score_ax = fig.axes[:2]
    assert gain_ax.get_ylim()[1] > 35  # room above the best interval (+25) for its label
    assert {to_hex(ln.get_color()) for ln in score_ax.get_lines()} == {
        colours[labels.index("swept side's mean score per hand")],
        colours[labels.index("opponent's mean score per hand")],
    }
    assert_legends_clear(fig)


def test_sweep_chart_same_peak():
    t = sweep_table()
    t["mean_score"] = [150.0, 190.0, 180.0, 160.0]
    notes = " ".join(x.get_text() for x in sweep_chart(t, {}).texts)
    assert "both peak at 10" in notes.replace("\n", " ")


# --------------------------------------------------------------------------- compare


@pytest.fixture(scope="module")
def counting_match():
    return compare("partnership", ("counting", COUNTING), ("greedy", PolicySet()), 600, seed=5)


def test_per_hand_is_half_a_deal_and_the_gap_of_the_means(counting_match):
    pairs, s = counting_match.pairs, counting_match.summary
    a, b = s.iloc[0], s.iloc[1]
    play1 = pairs["score_a_1"] - pairs["score_b_1"]
    play2 = pairs["score_a_2"] - pairs["score_b_2"]
    assert a["diff_per_deal"] == pytest.approx((play1 + play2).mean())
    assert a["diff_per_hand"] == pytest.approx(pd.concat([play1, play2]).mean())
    assert a["diff_per_hand"] == pytest.approx(a["mean_score"] - b["mean_score"])
    assert (a["plays"], a["hands"]) == (2, 1200)
    assert b["diff_per_hand"] == pytest.approx(-a["diff_per_hand"])


def test_compare_chart_shows_per_deal_and_per_hand(counting_match):
    s = counting_match.summary
    a, b = s.iloc[0], s.iloc[1]
    fig = match_chart(s, counting_match.meta())
    title = fig._suptitle.get_text()
    d, h = a["diff_per_deal"], a["diff_per_hand"]
    assert f"{d:+.2f} points per deal, {h:+.2f} per hand" in title
    bars = sorted(p.get_width() for p in fig.axes[0].patches)
    assert bars == pytest.approx(sorted([d, h]))
    ticks = {t.get_text() for t in fig.axes[0].get_yticklabels()}
    assert ticks == {"per deal\n(sum of 2 plays)", "per hand\n(one play)"}
    (legend,) = fig.legends
    labels = [t.get_text() for t in legend.get_texts()]
    for row, label in zip((a, b), labels, strict=True):
        assert f"mean score {row['mean_score']:.2f} per hand" in label
        assert f"won the auction in {int(row['bids_won']):,} of its 1,200 hands" in label
    notes = " ".join(t.get_text().replace("\n", " ") for t in fig.texts)
    assert per_deal_definition(2) in notes
    assert "Both won the auction in 600 hands" in notes  # same bidding: the same seat wins
    assert "concede concede" not in notes and "throw-in: concede" in notes
    assert_legends_clear(fig)


def test_compare_chart_without_equal_auctions_and_three_plays():
    pairs = duplicate("three-hand", PolicySet.from_options(bid="pass"), PolicySet(), 300, seed=2)
    s = summarise(pairs, ("never bids", "default"))
    assert s.iloc[0]["plays"] == 3
    assert s.iloc[0]["diff_per_hand"] == pytest.approx(s.iloc[0]["diff_per_deal"] / 3)
    fig = match_chart(s, {})
    notes = " ".join(t.get_text().replace("\n", " ") for t in fig.texts)
    assert "played three times" in notes and "(per deal / 3)" in notes
    assert "Both won the auction" not in notes
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert "per deal\n(sum of 3 plays)" in ticks


def test_a_small_run_leaves_out_the_studies_it_cannot_hold_and_names_them(tmp_path):
    """300 hands: enough for meld_by_trump_length and auction_summary (250), not for the
    studies that need 500 or 1,000; report.md and the progress name what was left out."""
    from pinochle_sim.analysis.reports.catalog import STUDIES
    from pinochle_sim.runs.runner import run as run_hands

    run_hands(300, seed=1, out=str(tmp_path / "r"))
    heard: list[str] = []
    md = write_report(tmp_path / "r", tmp_path / "rep", ("png",), progress=heard.append)
    text = md.read_text()
    assert "## Expected meld by trump length" in text and "## The auction" in text
    assert "## Go-set probability" not in text
    assert "Left out, too few hands for them" in text and "go_set (needs 1,000 hands)" in text
    assert any(h.startswith("left out (too few hands): ") for h in heard)
    assert not (tmp_path / "rep" / "go_set.csv").exists()
    with pytest.raises(ValueError, match="'go_set' needs at least 1,000 hands; the run has 300"):
        write_report(tmp_path / "r", tmp_path / "rep2", ("png",), only=["go_set"])
    assert {n: s.min_hands for n, s in STUDIES.items() if s.min_hands != 1000} == {
        "meld_by_trump_length": 250,
        "auction_summary": 250,
        "pass_value": 500,
        "widow_value": 500,
        "card_play_cost": 100,
        "go_set_dd": 100,
        "makeable": 100,
    }  # fmt: skip  (what `report --help` says)


def test_a_run_too_small_for_every_study_is_refused(tmp_path):
    from pinochle_sim.runs.runner import run as run_hands

    run_hands(100, seed=1, out=str(tmp_path / "r"))
    with pytest.raises(ValueError, match="the run has 100 hands; the smallest of its studies"):
        write_report(tmp_path / "r", tmp_path / "rep", ("png",))
