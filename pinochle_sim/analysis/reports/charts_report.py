"""One chart per question, in the house style (:mod:`.style`). Each function takes the table its
question returned plus the run's provenance and returns a matplotlib ``Figure``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullLocator, PercentFormatter

from pinochle_sim.analysis.reports.questions import FIXED_TRUMP, MIN_N
from pinochle_sim.analysis.reports.questions_two_hand import MARGIN_SIDES
from pinochle_sim.analysis.reports.style import (
    PALETTE,
    new_figure,
    styled,
    subtitle_from,
    top_legend,
)
from pinochle_sim.runs.store.provenance import ruleset_of


def _rules(meta: dict[str, Any]) -> Any:
    return ruleset_of(meta)


def _total(meta: dict[str, Any]) -> int:
    """Total trick points of the run's ruleset (250 unless the provenance says otherwise)."""
    return _rules(meta).total_trick_points if "ruleset_toml" in meta else 250


def _band(
    ax: Any, x: Any, df: pd.DataFrame, color: str, label: str, y: str = "mean", marker: str = "o"
) -> None:
    ax.fill_between(x, df["ci_lo"], df["ci_hi"], color=color, alpha=0.25, linewidth=0)
    ax.plot(x, df[y], marker=marker, color=color, label=label, linewidth=2.5, markersize=7)


def _count_note(ax: Any, text: str) -> None:
    """A small note on sample sizes in the figure's bottom-right corner, clear of the data."""
    ax.figure.text(0.995, 0.005, text, ha="right", va="bottom", fontsize=12, color="#555555")


GROUP_OFFSET = 0.16
"""Horizontal offset of each suit group's marks from the integer trump length."""


@styled
def meld_by_trump_length(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Mean meld by trump length, simulated (95% CI) against the exact mean, and the exact
    10th-90th percentile range of each suit group as a bar beside the other's."""
    fig, (ax,) = new_figure("Expected meld by trump length", subtitle_from(meta))
    shown = t[t["n"] >= MIN_N]
    for i, (group, df) in enumerate(shown.groupby("suits", sort=False)):
        x = df["trump_length"] + (2 * i - 1) * GROUP_OFFSET
        color = PALETTE[i]
        ax.vlines(x, df["exact_p10"], df["exact_p90"], color=color, alpha=0.3, linewidth=12,
                  label=f"{group}: exact 10th-90th percentile (tick: median)")  # fmt: skip
        ax.plot(x, df["exact_median"], "_", color=color, markersize=16, markeredgewidth=2.5)
        ax.plot(x, df["exact_mean"], "-", color=color, linewidth=2, label=f"{group}: exact mean")
        ax.errorbar(x, df["mean"], yerr=[df["mean"] - df["ci_lo"], df["ci_hi"] - df["mean"]],
                    fmt="o", color=color, markerfacecolor="white", markeredgewidth=2,
                    markersize=8, capsize=4, label=f"{group}: simulated mean (95% CI)")  # fmt: skip
    ax.set_xlabel("cards of the trump suit in the dealt hand")
    ax.set_ylabel("meld points (dealt hand, that suit trump)")
    ax.set_xticks(range(int(shown["trump_length"].min()), int(shown["trump_length"].max()) + 1))
    top = max(float(shown["exact_p90"].max()), float(shown["ci_hi"].max()))
    ax.set_ylim(0, top * 1.35)  # headroom: the legend stays clear of the bars
    ax.legend(loc="upper left", ncols=2)
    _count_note(
        ax,
        f"{int(t['n'].sum()):,} seat-suit observations; lengths with n < {MIN_N} left off; "
        "exact values: no sampling (docs/exact.md)",
    )
    return fig


MIN_TAIL = 20
"""A tail point is drawn only where at least this many observations reach it."""


def _one_in(p: float, _pos: Any = None) -> str:
    """A probability as a reader says it: ``every hand``, ``1 in 10``, ``1 in 1,000``."""
    if p >= 1:
        return "every hand"
    if p <= 0:
        return ""
    n = 1 / p
    return f"1 in {n:,.0f}" if n < 1e6 else f"1 in {n / 1e6:,.0f} million"


def _fixed_trump_panel(ax: Any, df: pd.DataFrame) -> None:
    """The exact tail of a dealt hand in a fixed trump, cut where it leaves the simulated
    points' range (the legend says what lies beyond the cut), and the simulated points."""
    sim = df[df["k"] >= MIN_TAIL]
    bottom = 10 ** np.floor(np.log10(float(sim["p"].min()) / 2))
    exact = df[df["exact_p"] >= bottom]
    label = f"exact, no sampling (mean {df['exact_mean'].iloc[0]:.1f})"
    after = df[df["x"] > exact["x"].iloc[-1]]
    if len(after) and after["exact_p"].iloc[0] > 0:
        end = after.iloc[0]
        label += f"\ncut at {bottom:.0e}: P(meld ≥ {int(end['x'])}) = {end['exact_p']:.1e}"
    ax.plot(exact["x"], exact["exact_p"], "-", color="#222222", linewidth=2, label=label, zorder=3)
    ax.fill_between(sim["x"], sim["ci_lo"], sim["ci_hi"], color=PALETTE[4], alpha=0.3, lw=0)
    ax.plot(sim["x"], sim["p"], "o", color=PALETTE[4], markersize=3.5,
            label=f"simulated, 95% band (mean {df['mean'].iloc[0]:.1f})")  # fmt: skip
    ax.set_ylim(bottom=bottom)
    ax.set_title("dealt hand, trump fixed in advance")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), fontsize=13, frameon=False)


@styled
def meld_distribution(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Tail probability P(meld >= x) on a log scale: a dealt hand in a fixed trump (exact and
    simulated), then one player (and one partnership where there are partners) in the named
    trump, before and after the pass or widow. Curves run as far as 20 hands reach."""
    panels: list[tuple[str, ...]] = [("fixed",), ("seat", "bidder")]
    if (t["who"] == "team").any():
        panels.append(("team", "bidding team"))
    fig, axes = new_figure("How often is meld at least x?", subtitle_from(meta), ncols=len(panels))
    fixed = t[t["stage"] == FIXED_TRUMP]
    smallest = int(t.loc[t["stage"] != FIXED_TRUMP, "n"].min())
    for i, (ax, whos) in enumerate(zip(axes, panels, strict=True)):
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FuncFormatter(_one_in))
        ax.yaxis.set_minor_locator(NullLocator())  # the decades only: reads cleaner, draws faster
        ax.set_xlabel("meld points x")
        ax.set_ylabel("hands with meld ≥ x (log scale)" if i == 0 else "hands with meld ≥ x")
        if whos == ("fixed",):
            if len(fixed):
                _fixed_trump_panel(ax, fixed)
            continue
        c = 0
        for who in whos:
            for stage, style in (("pre-pass", "--"), ("post-pass", "-")):
                df = t[(t["who"] == who) & (t["stage"] == stage) & (t["k"] >= MIN_TAIL)]
                ax.fill_between(
                    df["x"], df["ci_lo"], df["ci_hi"], color=PALETTE[c], alpha=0.2, linewidth=0
                )
                mean = df["mean"].iloc[0] if len(df) else float("nan")
                ax.plot(df["x"], df["p"], style, color=PALETTE[c], linewidth=2.5,
                        label=f"{who}, {stage} (mean {mean:.0f})")  # fmt: skip
                c += 1
        ax.set_title(("one player" if whos[0] == "seat" else "one partnership") + ", named trump")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), fontsize=13, frameon=False)
    _count_note(
        axes[-1],
        f"shaded: 95% Wilson intervals; simulated curves end at the last x that "
        f"{MIN_TAIL} observations reach (at most {(MIN_TAIL - 1) / smallest:.3%} of hands beyond)",
    )
    return fig


PARTNER_COLOURS = {"partner": PALETTE[0], "auction": PALETTE[1]}
"""One colour per quantity in both panels of :func:`partner_meld`."""


@styled
def partner_meld(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Partner's meld by own meld and by own trump length; what the partner plus pass add.

    Own meld is drawn on a points axis: each bucket's point sits at the mean own meld of its
    observations and the buckets (uneven: 20 points wide up to 100, then 50, then 100) are
    shaded in alternation. Both panels show the partner's meld in one colour on one y scale
    from 0; a single legend above them names the quantities."""
    fig, axes = new_figure("What to expect from your partner", subtitle_from(meta), ncols=2)
    axes[1].sharey(axes[0])
    ax = axes[0]
    series = (
        ("own meld", "partner", "partner's dealt meld, same trump"),
        ("bidder meld (auction)", "auction", "bidders: partner's meld + pass gain"),
    )
    for given, key, label in series:
        df = t[(t["given"] == given) & (t["n"] >= MIN_N)].sort_values("order")
        _band(ax, df["x"], df, PARTNER_COLOURS[key], f"{label} (95% CI)")
    bins = t[(t["given"] == "own meld") & (t["n"] >= MIN_N)].sort_values("order")
    right = float(bins["x"].max()) * 1.05 if len(bins) else 1.0
    for i, (lo, hi) in enumerate(zip(bins["lo"], bins["hi"], strict=True)):
        if i % 2 == 0:  # alternate shading marks the uneven buckets
            end = right if np.isnan(hi) else hi + 1
            ax.axvspan(lo, end, color="#000000", alpha=0.05, linewidth=0, zorder=0)
    ax.set_xlim(0, right)
    ax.set_xlabel("your own meld with that trump (dealt hand)")
    ax.set_ylabel("meld points")
    ax.set_ylim(bottom=0)
    ax = axes[1]
    df = t[(t["given"] == "own trump length") & (t["n"] >= MIN_N)].sort_values("order")
    _band(ax, df["x"], df, PARTNER_COLOURS["partner"], "partner")
    ax.set_xlabel("your own length in the trump suit")
    ax.set_ylabel("partner's meld points")
    ax.set_xticks(df["x"])
    handles, labels = axes[0].get_legend_handles_labels()
    handles.append(Rectangle((0, 0), 1, 1, color="#000000", alpha=0.08, linewidth=0))
    labels.append("stripes: own-meld buckets (point at the bucket's mean)")
    top_legend(fig, handles, labels, ncols=3)
    _count_note(ax, f"bands: 95% CI of the mean; groups with n < {MIN_N} left off")
    return fig


MIN_SHARE = 0.001
"""Trump counts held in fewer than this share of hands are left off the before/after charts
(they stay in the CSV): a 12-trump partnership (about 1 hand in 5,000) melds ~1,100 and would
squash the range where the hands lie."""


@styled
def pass_value(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """The bidder's and the bidding team's meld gained through the pass, by team trump count."""
    measures = ("bidder gain", "team gain", "bidder meld before", "bidder meld after")
    xlabel = "trumps held by the bidding partnership (unchanged by the pass)"
    return _before_after(
        "The value of the pass", t, meta, "team_trumps", measures, xlabel, "meld points"
    )


def _before_after(
    title: str,
    t: pd.DataFrame,
    meta: dict[str, Any],
    by_col: str,
    measures: tuple[str, ...],
    xlabel: str,
    ylabel: str,
) -> Figure:
    """Means by a trump count (rows ``by_col`` != "all"), the first two measures as gains
    (circles), the others as levels (squares); legends carry each overall mean. Trump counts
    held in fewer than :data:`MIN_SHARE` of the hands are left off, and the note says which."""
    fig, (ax,) = new_figure(title, subtitle_from(meta))
    overall = t[t[by_col] == "all"].set_index("measure")
    hands = int(overall["n"].iloc[0])
    by = t[t[by_col] != "all"].copy()
    by["x"] = by[by_col].astype(int)
    counts = by[by["measure"] == measures[0]].set_index("x")["n"]
    common = counts[(counts >= MIN_N) & (counts >= MIN_SHARE * hands)].index
    rare = counts.drop(common)
    by = by[by["x"].isin(common)]
    for i, m in enumerate(measures):
        df = by[by["measure"] == m]
        _band(
            ax,
            df["x"],
            df,
            PALETTE[i],
            f"{m} (overall {overall.loc[m, 'mean']:.1f})",
            marker="o" if i < 2 else "s",
        )
    ax.axhline(0, color="#333333", linewidth=1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_xticks(sorted(common))
    ax.set_ylim(min(0.0, float(by["ci_lo"].min()) * 1.1), float(by["ci_hi"].max()) * 1.1)
    ax.legend(loc="upper left")
    off = ""
    if len(rare):
        xs = [str(x) for x in sorted(rare.index)]
        names = ", ".join(xs[:-1]) + f" and {xs[-1]}" if len(xs) > 1 else xs[0]
        off = (
            f"; {names} trumps left off ({int(rare.sum()):,} hands, "
            f"{rare.sum() / hands:.2%}; in the CSV)"
        )
    _count_note(ax, f"{hands:,} hands; shaded: 95% CI of the mean{off}")
    return fig


@styled
def bid_vs_meld(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Mean bidding-team meld after the pass for each winning bid."""
    fig, (ax,) = new_figure("Winning bid against the bidding side's meld", subtitle_from(meta))
    df = t[t["n"] >= MIN_N]
    _band(ax, df["bid"], df, PALETTE[0], "mean meld of the bidding side after the pass (95% CI)")
    total = _total(meta)
    ax.plot(
        df["bid"],
        df["bid"] - total / 2,
        "--",
        color=PALETTE[3],
        linewidth=2,
        label=f"meld needed if the side takes half the trick points (bid - {total / 2:g})",
    )
    ax.plot(
        df["bid"],
        df["bid"] - total,
        ":",
        color=PALETTE[1],
        linewidth=2.5,
        label=f"meld needed even taking every trick point (bid - {total})",
    )
    ax.set_xlabel("winning bid")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("meld points")
    ax.legend(loc="upper left")
    _count_note(ax, f"{int(t['n'].sum()):,} hands; bids with n < {MIN_N} left off")
    return fig


@styled
def go_set(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """P(going set) by winning bid (the y axis fitted to the rates, with the mean points the
    side needs from tricks on a second axis: what the rate follows) and by the points needed
    from tricks (0-100%)."""
    overall = t[t["by"] == "all"].iloc[0]
    fig, axes = new_figure(
        f"How often does the bidder go set? (overall {overall['p']:.1%}, "
        f"conceded {overall['concede_p']:.1%})",
        subtitle_from(meta),
        ncols=2,
    )
    for ax, by, xlabel in (
        (axes[0], "bid", "winning bid"),
        (axes[1], "needed from tricks", "points needed from tricks (bid - bidding side's meld)"),
    ):
        df = t[(t["by"] == by) & (t["n"] >= MIN_N)].sort_values("order")
        x = df["level"].astype(int) if by == "bid" else df["x"]
        _band(ax, x, df, PALETTE[3], "P(set), 95% Wilson interval", y="p")
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xlabel(xlabel)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("probability of going set")
        if by == "needed from tricks":
            ax.set_ylim(0, 1)
            ax.legend(loc="upper left")
            continue
        lo, hi = float(df["ci_lo"].min()), float(df["ci_hi"].max())
        pad = max(0.02, 0.1 * (hi - lo))
        ax.set_ylim(max(0.0, lo - pad), min(1.0, hi + 3 * pad))  # the rates, not 0-100%
        if "mean_needed" in df:
            twin = ax.twinx()
            twin.plot(x, df["mean_needed"], "--", color="#777777", linewidth=1.8,
                      label="mean points needed from tricks (right axis)")  # fmt: skip
            twin.set_ylabel("points needed from tricks (mean)", color="#555555")
            twin.grid(False)
            twin.spines["right"].set_visible(True)
            handles = ax.get_legend_handles_labels()
            more = twin.get_legend_handles_labels()
            ax.legend(handles[0] + more[0], handles[1] + more[1], loc="upper left")
        else:
            ax.legend(loc="upper left")
    _count_note(
        axes[1],
        f"{int(overall['n']):,} hands; groups with n < {MIN_N} left off. Dashed: the mean points "
        "the side still needs from tricks at each bid (higher bids also bring stronger hands).",
    )
    return fig


@styled
def bidding_side_tricks(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Mean trick points of the bidding side by its trumps and by its aces."""
    fig, axes = new_figure("Trick points of the bidding side", subtitle_from(meta), ncols=2)
    solo = "ruleset_toml" in meta and not _rules(meta).partnerships
    who = "the bidder (dealt hand)" if solo else "the partnership"
    for ax, by, xlabel, color in (
        (axes[0], "team trumps", f"trumps held by {who}", 0),
        (axes[1], "team aces", f"aces held by {who}", 2),
    ):
        df = t[(t["by"] == by) & (t["n"] >= MIN_N)]
        _band(ax, df["level"], df, PALETTE[color], "mean trick points (95% CI)")
        total = _total(meta)
        ax.axhline(
            total / 2, color="#777777", linestyle="--", linewidth=1.5, label=f"half of {total}"
        )
        ax.set_xlabel(xlabel)
        ax.set_ylabel("trick points (incl. last trick" + (" and discards)" if solo else ")"))
        ax.set_xticks(df["level"])
        ax.legend(loc="upper left")
    _count_note(axes[1], f"hands played out; groups with n < {MIN_N} left off")
    return fig


@styled
def auction_summary(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Distribution of winning bids, and who wins the auction relative to the dealer."""
    stuck = t[t["what"] == "stuck"].iloc[0]
    fig, axes = new_figure(
        f"The auction: winning bids and bidders (dealer stuck in {stuck['p']:.2%} of hands)",
        subtitle_from(meta),
        ncols=2,
    )
    bids = t[t["what"] == "winning bid"]
    bids = bids[bids["k"] >= 20]
    x = bids["level"].astype(int).to_numpy()
    step = np.diff(x).min() if len(x) > 1 else 10
    axes[0].bar(x, bids["p"], width=0.8 * step, color=PALETTE[0])
    axes[0].errorbar(
        x,
        bids["p"],
        yerr=[bids["p"] - bids["ci_lo"], bids["ci_hi"] - bids["p"]],
        fmt="none",
        ecolor="#333333",
        capsize=2,
    )
    axes[0].set_yscale("log")
    axes[0].yaxis.set_minor_locator(NullLocator())
    axes[0].yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.2%}".rstrip("0")))
    axes[0].set_xlabel("winning bid")
    axes[0].xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0].set_ylabel("share of hands (log scale)")
    pos = t[t["what"] == "bidder position"]
    seats = np.arange(len(pos))
    even = 1 / len(pos)
    ax = axes[1]
    ax.axhline(even, color="#777777", linestyle="--", linewidth=1.5,
               label=f"an even share: 1 in {len(pos)} ({even:.1%})")  # fmt: skip
    ax.errorbar(seats, pos["p"], yerr=[pos["p"] - pos["ci_lo"], pos["ci_hi"] - pos["p"]],
                fmt="o", color=PALETTE[1], ecolor="#333333", markersize=10, capsize=6,
                elinewidth=2, label="share of auctions won (95% CI)")  # fmt: skip
    for x, (_, r) in zip(seats, pos.iterrows(), strict=True):
        ax.annotate(f"{r['p']:.2%}", (x, r["ci_hi"]), textcoords="offset points",
                    xytext=(0, 8), ha="center", fontsize=12)  # fmt: skip
    lo = min(float(pos["ci_lo"].min()), even)
    hi = max(float(pos["ci_hi"].max()), even)
    pad = max(0.005, 0.25 * (hi - lo))
    ax.set_ylim(max(0.0, lo - pad), min(1.0, hi + 2 * pad))  # the differences, not 0-100%
    ax.set_xlim(-0.5, len(pos) - 0.5)
    ax.set_xticks(seats, [s.replace(" (", "\n(") for s in pos["level"]])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=2))
    ax.set_ylabel("share of auctions won (axis zoomed)")
    ax.set_xlabel("bidder's seat relative to the dealer")
    ax.legend(loc="upper left")
    _count_note(axes[1], f"{int(stuck['n']):,} hands; error bars: 95% Wilson intervals")
    return fig


@styled
def widow_value(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """The bidder's meld before and after the widow, and the discards' points, by trump length."""
    measures = ("bidder gain", "discard points", "bidder meld before", "bidder meld after")
    return _before_after(
        "The value of the widow",
        t,
        meta,
        "trumps",
        measures,
        "trumps in the bidder's dealt hand",
        "points",
    )


def _bars(ax: Any, x: Any, df: pd.DataFrame, color: str, **kw: Any) -> None:
    """Shares ``p`` as bars with 95% Wilson error bars."""
    ax.bar(x, df["p"], color=color, **kw)
    ax.errorbar(
        x,
        df["p"],
        yerr=[df["p"] - df["ci_lo"], df["ci_hi"] - df["p"]],
        fmt="none",
        ecolor="#333333",
        capsize=4,
    )


@styled
def meld_laid(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Two-hand: mean meld laid per seat and deal by the dealt hand's meld in trump and by stock
    tricks won, beside the dealt potential of the same seats."""
    overall = t[t["by"] == "all"].iloc[0]
    fig, axes = new_figure(
        f"Meld laid down per seat and deal (mean {overall['mean']:.1f})", subtitle_from(meta), 2
    )
    for ax, by, xlabel in (
        (axes[0], "dealt meld in trump", "best meld of the 12 dealt cards in the turned-up trump"),
        (axes[1], "stock tricks won", "stock tricks won by the seat (of 12)"),
    ):
        shown = t[(t["by"] == by) & (t["n"] >= MIN_N)].sort_values("order")
        span = range(int(shown["order"].min()), int(shown["order"].max()) + 1)
        df = shown.set_index("order").reindex(span)  # a group left off breaks the line
        _band(ax, df.index, df, PALETTE[0], "meld laid during the deal (95% CI)")
        ax.plot(
            df.index,
            df["dealt_mean"],
            "--",
            marker="s",
            color=PALETTE[1],
            linewidth=2,
            label="meld in the dealt hand (group mean)",
        )
        ax.set_xticks(
            shown["order"], shown["level"], rotation=0 if by == "stock tricks won" else 30
        )
        ax.set_xlabel(xlabel)
        ax.set_ylabel("meld points (dix and turned-up 9 included)")
        ax.set_ylim(bottom=0)
        ax.legend(loc="upper left")
    _count_note(
        axes[1],
        f"{int(overall['n']):,} seat-deals (2 per deal); groups with n < {MIN_N} left off",
    )
    return fig


@styled
def early_tricks(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Two-hand: the final margin of stock trick k's winner and the meld laid after it; P(win
    the deal) by stock tricks won."""
    fig, axes = new_figure("What winning a stock trick is worth", subtitle_from(meta), ncols=2)
    ax = axes[0]
    for i, (m, label) in enumerate(
        (
            ("margin of the winner", "winner's final score margin over the loser"),
            ("meld after the trick", "meld the winner laid right after the trick"),
        )
    ):
        df = t[t["measure"] == m]
        _band(ax, df["level"], df, PALETTE[i], f"{label} (95% CI)")
    ax.axhline(0, color="#333333", linewidth=1)
    top = t.loc[t["measure"].isin(["margin of the winner", "meld after the trick"]), "ci_hi"]
    ax.set_ylim(min(0, ax.get_ylim()[0]), float(top.max()) * 1.3)  # room for the legend
    ax.set_xticks(t.loc[t["measure"] == "margin of the winner", "level"])
    ax.set_xlabel("stock trick (1 = first trick, led by the non-dealer)")
    ax.set_ylabel("points")
    ax.legend(loc="upper left")
    ax = axes[1]
    df = t[(t["measure"] == "win by stock tricks") & (t["n"] >= MIN_N)]
    _band(ax, df["level"], df, PALETTE[2], "P(win the deal), 95% Wilson interval", y="p")
    ax.axhline(0.5, color="#777777", linestyle="--", linewidth=1.5, label="50%")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xticks(df["level"])
    ax.set_xlabel("stock tricks won by the seat (of 12)")
    ax.set_ylabel("probability of winning the deal (a tie is no win)")
    ax.legend(loc="upper left")
    hands = int(t.loc[t["measure"] == "margin of the winner", "n"].iloc[0])
    _count_note(ax, f"{hands:,} deals; tricks-won groups with n < {MIN_N} left off")
    return fig


MARGIN_BIN = 20


@styled
def score_margin(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Two-hand: the distribution of the final score margin, and how often the dealer, the
    non-dealer or neither wins."""
    mean = t[t["what"] == "mean margin"].set_index("side")
    fig, axes = new_figure("Final score margin of a two-hand deal", subtitle_from(meta), ncols=2)
    ax = axes[0]
    hist = t[t["what"] == "histogram"]
    # Margins are multiples of 10, and multiples of 20 are about twice as common (most melds
    # are worth multiples of 20): bins of 20 points show the shape without that comb.
    lo = int(hist["x"].min()) // MARGIN_BIN * MARGIN_BIN
    edges = np.arange(lo, int(hist["x"].max()) + 2 * MARGIN_BIN, MARGIN_BIN)
    peak = 0.0
    for i, side in enumerate(MARGIN_SIDES):
        df = hist[hist["side"] == side]
        share = np.bincount(
            (df["x"].to_numpy().astype(np.int64) - lo) // MARGIN_BIN,
            weights=df["p"],
            minlength=len(edges) - 1,
        )
        peak = max(peak, float(share.max()))
        m = mean.loc[side]
        label = f"{side} (mean {m['mean']:+.1f}, 95% CI {m['ci_lo']:+.1f} to {m['ci_hi']:+.1f})"
        if i == 0:
            ax.stairs(share, edges, fill=True, color=PALETTE[0], alpha=0.45, label=label)
        else:
            ax.stairs(share, edges, color=PALETTE[3], linewidth=2.5, label=label)
    ax.set_ylim(0, peak * 1.3)  # room for the legend
    ax.axvline(0, color="#333333", linewidth=1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
    ax.set_xlabel(f"score margin (points, bins of {MARGIN_BIN}: x to x + {MARGIN_BIN - 10})")
    ax.set_ylabel(f"share of deals per {MARGIN_BIN}-point bin")
    ax.legend(loc="upper left")
    ax = axes[1]
    out = t[t["what"] == "outcome"]
    _bars(ax, range(len(out)), out, PALETTE[0], width=0.6)
    for x, p in enumerate(out["p"]):
        ax.text(x, p + 0.015, f"{p:.1%}", ha="center", va="bottom", fontsize=15)
    ax.set_xticks(range(len(out)), out["level"])
    ax.set_ylim(0, max(0.6, float(out["ci_hi"].max()) + 0.08))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("result of the deal (the non-dealer leads the first trick)")
    ax.set_ylabel("share of deals")
    _count_note(ax, f"{int(out['n'].iloc[0]):,} deals; error bars: 95% Wilson intervals")
    return fig


WIN_CMAP = LinearSegmentedColormap.from_list("win", [PALETTE[3], "#f7f7f7", PALETTE[0]])
"""Losing (vermillion) through even (near white) to winning (blue): Okabe-Ito ends."""


def _points(v: float) -> str:
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.1f}"


def _win_grid(ax: Any, t: pd.DataFrame, width: float, bins: int) -> Any:
    """Heatmap of the pooled P(own side wins), one numbered cell per bin; bin b >= 1 starts at
    (b - 1) * width, bin 0 (every negative total) is drawn only where the run has one."""
    pooled = t[t["view"] == "pooled"]
    neg = bool(np.isneginf(pooled["own_lo"]).any())
    first, nb = (0 if neg else 1), bins + 1
    p = np.full((nb, nb), np.nan)
    shown = pooled[pooled["n"] >= MIN_N]

    def pos(lo: pd.Series) -> np.ndarray:  # -inf (below 0) -> 0
        return np.round(np.maximum(lo.to_numpy(), -width) / width).astype(np.int64) + 1

    p[pos(shown["opp_lo"]), pos(shown["own_lo"])] = shown["p"]
    grid = np.ma.masked_invalid(p[first:, first:])
    edges = np.arange(first, nb + 1)
    ax.add_patch(Rectangle((first, first), nb - first, nb - first, hatch="//", fill=False,
                           edgecolor="#d0d0d0", linewidth=0, zorder=0))  # fmt: skip
    mesh = ax.pcolormesh(edges, edges, grid, cmap=WIN_CMAP, vmin=0, vmax=1, rasterized=True)
    for (iy, ix), v in np.ndenumerate(grid.filled(np.nan)):
        if np.isfinite(v):
            ink = "white" if abs(v - 0.5) > 0.3 else "#222222"
            ax.text(first + ix + 0.5, first + iy + 0.5, f"{100 * v:.0f}", ha="center",
                    va="center", fontsize=8, color=ink)  # fmt: skip
    step = max(bins // 5, 1)
    ticks = [1 + k for k in range(0, bins + 1, step)]
    labels = [_points(k * width) for k in range(0, bins + 1, step)]
    if neg:  # a white gap sets the catch-all bin of negative totals apart
        ticks, labels = [0.5, *ticks[1:]], ["<0", *labels[1:]]
        ax.axvline(1, color="white", linewidth=3)
        ax.axhline(1, color="white", linewidth=3)
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_ticks(ticks, labels)
    ax.set_xlim(first, nb)
    ax.set_ylim(first, nb)
    ax.set_aspect("equal")
    ax.grid(False)
    for side in ("top", "right"):
        ax.spines[side].set_visible(True)
    return mesh


@styled
def win_probability(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Games: P(own side wins the game) by own and opponents' totals before a deal (heatmap,
    both points of view pooled), and by own lead (95% CI bands; auction games split by the side
    that wins the coming auction)."""
    width = float(t["width"].iloc[0])
    finite = t["own_lo"][np.isfinite(t["own_lo"])]
    target = _rules(meta).game_target if "ruleset_toml" in meta else finite.max() + width
    first = t[t["view"] == "first deal"].iloc[0]
    games = int(first["n"])
    deals = int(t.loc[t["view"] == "side 0", "n"].sum())
    fig, axes = new_figure(
        f"Who wins from here? (game to {_points(target)})", subtitle_from(meta), ncols=2
    )
    axes[0].get_subplotspec().get_gridspec().set_width_ratios([1.12, 1])
    fig.get_layout_engine().set(wspace=0.06)
    ax = axes[0]
    mesh = _win_grid(ax, t, width, round(target / width))
    bar = fig.colorbar(mesh, ax=ax, fraction=0.05, pad=0.02)
    bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    bar.set_label("win probability")
    ax.set_xlabel(f"own score before the deal (bins of {_points(width)})")
    ax.set_ylabel("opponents' score before the deal")
    ax.set_title("Win probability (%) by the scores before a deal", fontsize=16)
    ax = axes[1]
    leads = t[t["view"].str.startswith("lead") & (t["n"] >= MIN_N)]
    leads = leads[leads["lead"].abs() < t["lead"].abs().max()]  # the open end bins: off
    lines = (
        ("lead, own side bids", PALETTE[0], "your side wins the next auction"),
        ("lead", "#222222", "every deal"),
        ("lead, opponents bid", PALETTE[3], "the opponents win it"),
    )
    for view, color, label in lines:
        df = leads[leads["view"] == view]
        if len(df):
            _band(ax, df["lead"], df, color, label, y="p", marker=".")
    ax.axhline(0.5, color="#777777", linestyle="--", linewidth=1.5)
    ax.axvline(0, color="#777777", linewidth=1)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda v, _: f"{v:+,.0f}".replace("-", "\u2212") if v else "0")
    )
    ax.set_xlabel("own lead before the deal (points)")
    ax.set_ylabel("P(own side wins the game)")
    ax.set_title("Win probability by the lead (95% CI)", fontsize=16)
    ax.legend(loc="upper left")
    _count_note(
        ax,
        f"{games:,} games, {deals:,} deals, each seen from both sides; cells and points with "
        f"n < {MIN_N} left off; intervals clustered by game",
    )
    return fig
