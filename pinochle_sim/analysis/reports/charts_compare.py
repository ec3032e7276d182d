"""Charts of duplicate matches (``compare``) and parameter sweeps (``sweep``), house style.

Words: a *deal* is one set of cards played once per side (twice with two sides, three times in
three-hand), the policies swapping seats; a *hand* is one of those plays. "Per deal" sums the
plays' score differences, "per hand" is one play: per deal divided by the plays, which is also
the difference of the two sides' mean scores per hand. The charts say so on their face.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import PercentFormatter

from pinochle_sim.analysis.breakdown import BREAKDOWNS, bin_label
from pinochle_sim.analysis.reports.style import (
    PALETTE,
    new_figure,
    note,
    policies_text,
    styled,
    top_legend,
)

NEUTRAL = "#555555"
"""The difference bars: neither side's colour (blue is A, orange is B in the rates panel)."""


def _policies_text(spec: dict[str, Any]) -> str:
    return policies_text(spec.get("policies", {}))


def _subtitle(meta: dict[str, Any]) -> str:
    return (
        f"duplicate: {meta.get('deals', 0):,} deals, each played once per side with the seats "
        "swapped · "
        f"rules {meta.get('rules', '?')} · seed {meta.get('seed', '?')} · "
        f"pinochle-sim {meta.get('package_version', '?')}"
    )


def _plays(row: pd.Series) -> int:
    """Plays of each deal: 2 with two sides, 3 in three-hand."""
    return int(row["plays"]) if "plays" in row else round(row["hands"] / row["deals"])


def _plays_words(plays: int) -> str:
    return {2: "twice", 3: "three times"}.get(plays, f"{plays} times")


def per_deal_definition(plays: int) -> str:
    """What "per deal" and "per hand" mean, in one sentence for a chart note."""
    who = "A and B swapping seats" if plays == 2 else "A in each seat in turn, B in the others"
    return (
        f"A deal is played {_plays_words(plays)} with the same cards, {who}: per deal = the sum "
        f"of A's score minus B's over the {plays} plays; per hand = one play (per deal / {plays})."
    )


@styled
def match_chart(summary: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Left: A's gain over B per deal and per hand with 95% CIs; right: each side's rates. One
    legend above the panels gives each side's mean score per hand and how often it won the
    auction, and a note defines per deal and per hand."""
    a, b = summary.iloc[0], summary.iloc[1]
    plays = _plays(a)
    d, lo, hi = a["diff_per_deal"], a["diff_lo"], a["diff_hi"]
    h, hlo, hhi = d / plays, lo / plays, hi / plays
    fig, (ax1, ax2) = new_figure(
        f"{a['policy']} vs {b['policy']}: {d:+.2f} points per deal, {h:+.2f} per hand",
        _subtitle(meta),
        ncols=2,
    )
    bars = (
        (1, d, lo, hi, f"per deal\n(sum of {plays} plays)"),
        (0, h, hlo, hhi, "per hand\n(one play)"),
    )
    for y, v, vlo, vhi, _ in bars:
        ax1.barh([y], [v], color=NEUTRAL, height=0.5)
        ax1.errorbar([v], [y], xerr=[[v - vlo], [vhi - v]], fmt="none", ecolor="black", capsize=8)
        ax1.annotate(
            f"{v:+.2f} (95% CI {vlo:+.2f} to {vhi:+.2f})", (v, y + 0.25),
            textcoords="offset points", xytext=(0, 6), ha="center", va="bottom", fontsize=13,
        )  # fmt: skip
    ax1.axvline(0, color="black", lw=1)
    span = max(abs(lo), abs(hi), 1.0) * 1.6
    ax1.set_xlim(-span, span)
    ax1.set_yticks([y for y, *_ in bars], [label for *_, label in bars])
    ax1.set_ylim(-0.7, 1.7)
    ax1.set_xlabel(f"{a['policy']} minus {b['policy']} (points; 95% CI)")
    ax1.set_title("score difference", fontsize=15)
    auction = "make_rate" in summary
    if auction:
        metrics = [("make_rate", "make rate"), ("set_rate", "set rate"), ("stuck_rate", "stuck")]
        los = {"make_rate": "make", "set_rate": "set", "stuck_rate": "stuck"}
        ylabel = "share of the auctions the side won (Wilson 95% CI)"
    else:
        metrics = [("win_rate", "deals won")]
        los = {"win_rate": "win"}
        ylabel = "share of hands played (Wilson 95% CI)"
    x = np.arange(len(metrics))
    width = 0.38
    handles, labels = [], []
    for j, row in enumerate((a, b)):
        vals = np.array([row[m] for m, _ in metrics])
        lo_ = np.array([row[f"{los[m]}_lo"] for m, _ in metrics])
        hi_ = np.array([row[f"{los[m]}_hi"] for m, _ in metrics])
        xs = x + (j - 0.5) * width
        handles.append(ax2.bar(xs, vals, width, color=PALETTE[j]))
        ax2.errorbar(xs, vals, yerr=[vals - lo_, hi_ - vals], fmt="none", ecolor="black",
                     capsize=5)  # fmt: skip
        for xi, v, top in zip(xs, vals, hi_, strict=True):  # above the error bar's cap
            ax2.annotate(f"{v:.1%}", (xi, top), textcoords="offset points", xytext=(0, 5),
                         ha="center", fontsize=12)  # fmt: skip
        labels.append(_side_label(row))
    ax2.set_xticks(x, [name for _, name in metrics])
    ax2.set_ylim(0, 1.1)
    ax2.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax2.set_ylabel(ylabel)
    ax2.set_title("rates", fontsize=15)
    top_legend(fig, handles, labels, ncols=1, bottom=0.09)
    text = per_deal_definition(plays)
    if auction and int(a["bids_won"]) == int(b["bids_won"]):
        text += (
            f" Both won the auction in {int(a['bids_won']):,} hands: a side that bids like "
            "the other wins a deal's auction from the same seat in every play."
        )
    note(fig, text, left=True, width=88)
    note(
        fig,
        f"A = {a['policy']}: {_policies_text(meta.get('a', {}))}\n"
        f"B = {b['policy']}: {_policies_text(meta.get('b', {}))}",
    )
    return fig


def _side_label(row: pd.Series) -> str:
    """``counting: mean score 186.2 per hand (185.4-186.9); won the auction in 200,000 of its
    400,000 hands (50.0%), mean bid 316``."""
    text = (
        f"{row['policy']}: mean score {row['mean_score']:.2f} per hand "
        f"(95% CI {row['mean_score_lo']:.1f} to {row['mean_score_hi']:.1f})"
    )
    if "bids_won" in row:
        won, hands = int(row["bids_won"]), int(row["hands"])
        text += f"; won the auction in {won:,} of its {hands:,} hands ({won / hands:.1%})"
        if np.isfinite(row["mean_bid"]):
            text += f", mean bid {row['mean_bid']:.0f}"
    return text


SWEEP_COLOURS = {
    "gain": PALETTE[0],
    "own": PALETTE[1],
    "opponent": "#555555",
    "make": PALETTE[2],
    "bid": PALETTE[3],
    "bid share": PALETTE[4],
    "win": PALETTE[2],
}
"""One colour per quantity of :func:`sweep_chart`."""


def _line(ax: Any, x: np.ndarray, t: pd.DataFrame, col: str, lo: str, hi: str, key: str,
          marker: str = "o") -> Line2D:  # fmt: skip
    ax.fill_between(x, t[lo], t[hi], color=SWEEP_COLOURS[key], alpha=0.25, linewidth=0)
    (line,) = ax.plot(x, t[col], marker=marker, color=SWEEP_COLOURS[key], linewidth=2.5)
    return line


def peaks_text(table: pd.DataFrame) -> str:
    """Where the gain and the own mean score peak, and (when they differ) why."""
    x = table["value"].to_numpy()
    gain = int(np.argmax(table["diff_per_deal"].to_numpy()))
    own = int(np.argmax(table["mean_score"].to_numpy()))
    if gain == own:
        return f"The gain and the own mean score both peak at {x[gain]}."
    opp = table["opp_mean_score"].to_numpy() if "opp_mean_score" in table else None
    why = (
        f": the opponent scores {opp[own]:.1f} per hand at {x[own]} and {opp[gain]:.1f} at "
        f"{x[gain]}, and the gain subtracts what the opponent scores"
        if opp is not None
        else ": the gain subtracts what the opponent scores"
    )
    return f"The own mean score peaks at {x[own]}, the gain at {x[gain]}{why}."


@styled
def sweep_chart(table: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Against the parameter: the gain per deal; the swept side's and the opponent's mean scores
    per hand; make rate; mean bid and auction share (two-hand: deals won). One legend above the
    panels, one colour per quantity; a note defines the gain and says why the gain and the own
    score may peak at different values."""
    param = meta.get("param", "parameter")
    auction = "make_rate" in table
    fig, axes = new_figure(
        f"Sweeping {param} against {meta.get('against_label', 'a fixed opponent')}",
        _subtitle(meta) + f" · {len(table)} values",
        ncols=2 if auction else 3,
        nrows=2 if auction else 1,
    )
    x = table["value"].to_numpy()
    plays = _plays(table.iloc[0])
    entries: list[tuple[Line2D, str]] = []
    ax = axes[0]
    line = _line(ax, x, table, "diff_per_deal", "diff_lo", "diff_hi", "gain")
    entries.append((line, "gain over the opponent per deal (95% CI)"))
    ax.axhline(0, color="black", lw=1)
    best = int(np.argmax(table["diff_per_deal"].to_numpy()))
    ax.annotate(f"best {x[best]}", (x[best], table["diff_per_deal"].iloc[best]),
                textcoords="offset points", xytext=(0, 12), ha="center", fontsize=13)  # fmt: skip
    ax.set_ylabel(f"points per deal ({plays} plays)")
    lo, hi = float(table["diff_lo"].min()), float(table["diff_hi"].max())
    ax.set_ylim(min(lo, 0) - 0.05 * (hi - lo), max(hi, 0) + 0.2 * (hi - lo))  # room for "best"
    ax.set_title("gain per deal", fontsize=15)
    ax = axes[1]
    line = _line(ax, x, table, "mean_score", "mean_score_lo", "mean_score_hi", "own", "s")
    entries.append((line, "swept side's mean score per hand"))
    if "opp_mean_score" in table:
        line = _line(ax, x, table, "opp_mean_score", "opp_mean_score_lo", "opp_mean_score_hi",
                     "opponent", "D")  # fmt: skip
        entries.append((line, "opponent's mean score per hand"))
    ax.set_ylabel("points per hand")
    ax.set_title("mean score per hand", fontsize=15)
    if auction:
        ax = axes[2]
        line = _line(ax, x, table, "make_rate", "make_lo", "make_hi", "make")
        entries.append((line, "make rate of its bids (Wilson 95% CI)"))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))
        ax.set_ylabel("bids made")
        ax.set_title("make rate", fontsize=15)
        ax = axes[3]
        line = _line(ax, x, table, "mean_bid", "mean_bid_lo", "mean_bid_hi", "bid")
        entries.append((line, "mean winning bid (95% CI)"))
        ax.set_ylabel("mean winning bid")
        ax2 = ax.twinx()
        (line,) = ax2.plot(x, table["bids_won"] / table["hands"], marker="s", linewidth=2.5,
                           color=SWEEP_COLOURS["bid share"])  # fmt: skip
        entries.append((line, "share of its hands in which it wins the auction"))
        ax2.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax2.set_ylabel("auctions won")
        ax2.grid(False)
        ax.set_title("bidding", fontsize=15)
    else:
        ax = axes[2]
        line = _line(ax, x, table, "win_rate", "win_lo", "win_hi", "win")
        entries.append((line, "share of hands won (Wilson 95% CI)"))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))
        ax.set_ylabel("hands won")
        ax.set_title("hands won", fontsize=15)
    for ax in axes:
        ax.set_xlabel(param)
    top_legend(fig, [h for h, _ in entries], [t for _, t in entries], ncols=3, bottom=0.09)
    note(
        fig,
        f"Gain per deal = the swept side's score minus the opponent's, summed over the {plays} "
        f"plays of a deal (= {plays} x the gap between the two mean scores per hand). "
        + peaks_text(table),
        left=True,
        width=140,
    )
    note(fig, f"{meta.get('deals', 0):,} deals per value")
    return fig


@styled
def breakdown_chart(table: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """A's gain per deal in each bin of a breakdown (:func:`~pinochle_sim.analysis.breakdown.
    gain_by`) with its 95% CI, the overall gain as a shaded band across, and each bin's deals
    under its label."""
    a, b = meta.get("a", {}).get("label", "A"), meta.get("b", {}).get("label", "B")
    by = BREAKDOWNS[str(table["by"].iloc[0])]
    bins = table[table["x_lo"].notna()].reset_index(drop=True)
    overall = table[table["x_lo"].isna()].iloc[0]
    fig, (ax,) = new_figure(
        f"{a} minus {b}: gain per deal by {by.words.split(' (')[0]}", _subtitle(meta)
    )
    x = np.arange(len(bins))
    ax.axhspan(overall["gain_lo"], overall["gain_hi"], color=PALETTE[0], alpha=0.15, lw=0)
    ax.axhline(overall["gain_per_deal"], color=PALETTE[0], lw=2,
               label=f"all deals: {overall['gain_per_deal']:+.2f} per deal (95% CI "
               f"{overall['gain_lo']:+.2f} to {overall['gain_hi']:+.2f})")  # fmt: skip
    ax.axhline(0, color="black", lw=1)
    y, lo, hi = bins["gain_per_deal"], bins["gain_lo"], bins["gain_hi"]
    ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="o", color=NEUTRAL, capsize=5, markersize=8,
                elinewidth=2, label="gain per deal in the bin (95% CI)")  # fmt: skip
    ax.set_xticks(x, [f"{bin_label(r)}\n{int(r['deals']):,}" for _, r in bins.iterrows()])
    ax.tick_params(axis="x", labelsize=11 if len(bins) > 12 else 13)
    ax.set_xlabel(f"{by.words}; under each bin: its deals")
    ax.set_ylabel(f"{a} minus {b}, points per deal")
    ax.legend(loc="best")
    plays, least = int(table.attrs.get("plays", 2)), int(table.attrs.get("min_n", 1))
    fig.get_layout_engine().set(rect=(0, 0.06, 1, 0.915))  # room for the two-line note
    note(fig, per_deal_definition(plays) + " Bins merge consecutive values until each holds "
         f"at least {least:,} deals.", left=True, width=150)  # fmt: skip
    return fig
