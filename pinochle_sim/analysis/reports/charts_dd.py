"""Charts of the double-dummy studies (:mod:`.dd`), in the house style (:mod:`.style`).

Each takes the study's table, with an optional ``policy`` column (the study script puts the
tables of several play policies on the same deals side by side), and the run's provenance."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from pinochle_sim.analysis.reports.charts_report import _band, _count_note
from pinochle_sim.analysis.reports.style import PALETTE, new_figure, styled, subtitle_from

MIN_N_DD = 20
"""Groups with fewer hands are left off the charts (they stay in the CSV tables): double-dummy
runs are thousands of hands, not millions, so the floor is lower than the other studies'."""


def _policies(t: pd.DataFrame) -> list[str | None]:
    return list(dict.fromkeys(t["policy"])) if "policy" in t.columns else [None]


def _of(t: pd.DataFrame, policy: str | None) -> pd.DataFrame:
    return t if policy is None else t[t["policy"] == policy]


def _group_ticks(ax: Any, t: pd.DataFrame, by: str) -> None:
    """Ticks at the groups' centres, labelled with the groups (``290..309``, ``11+``)."""
    g = t[t["by"] == by].drop_duplicates("order").sort_values("order")
    g = g[g["n"] >= MIN_N_DD]
    if len(g):
        ax.set_xticks(list(g["x"]), list(g["level"]), rotation=30 if len(g) > 6 else 0)


def _n_hands(t: pd.DataFrame) -> int:
    alls = t[t["by"] == "all"]
    return int(alls["n"].max()) if len(alls) else 0


@styled
def card_play_cost(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Double dummy minus the bots' trick points of the bidding side, by bid and by trumps."""
    pols = _policies(t)
    overall = ", ".join(
        f"{p or 'bots'} {_of(t, p)[_of(t, p)['by'] == 'all'].iloc[0]['mean']:.1f}" for p in pols
    )
    fig, axes = new_figure(
        f"What card play costs the bidding side (mean points below perfect play: {overall})",
        subtitle_from(meta, _n_hands(t)),
        ncols=2,
    )
    for ax, by, xlabel in (
        (axes[0], "bid", "winning bid"),
        (axes[1], "team trumps", "trumps held by the bidding side"),
    ):
        for i, p in enumerate(pols):
            df = _of(t, p)
            df = df[(df["by"] == by) & (df["n"] >= MIN_N_DD)].sort_values("order")
            label = f"{p + ': ' if p else ''}double dummy - actual (95% CI)"
            _band(ax, df["x"], df, PALETTE[i], label)
        ax.axhline(0, color="#777777", linestyle="--", linewidth=1.5, label="no cost")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("trick points lost to imperfect play")
        _group_ticks(ax, t, by)
        ax.legend(loc="upper left")
    _count_note(
        axes[1],
        f"{_n_hands(t):,} hands played out (conceded ones have no play); groups with "
        f"n < {MIN_N_DD} left off. Double dummy: every seat plays perfectly, all cards seen.",
    )
    return fig


DODGE = 0.12
"""How far apart the series of :func:`go_set_dd` are drawn, in steps between groups."""
MARKERS = ("o", "s", "D", "^")


@styled
def go_set_dd(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """P(set | bid) and P(set | points needed) for the bots and under perfect play."""
    dd = t[(t["who"] == "double dummy")]
    dd_all = dd[dd["by"] == "all"].iloc[0]
    fig, axes = new_figure(
        f"Going set: the bots against perfect play (double dummy {dd_all['p']:.1%} set)",
        subtitle_from(meta, int(dd_all["n"])),
        ncols=2,
    )
    bots = t[t["who"] == "bots"]
    lines = [(p, _of(bots, p), PALETTE[i]) for i, p in enumerate(_policies(bots))]
    first = lines[0][0] if lines else None
    lines.append(("double dummy", _of(dd, first), PALETTE[3]))
    for ax, by, xlabel in (
        (axes[0], "bid", "winning bid"),
        (axes[1], "needed from tricks", "points needed from tricks (bid - bidding side's meld)"),
    ):
        shown = []
        centres = np.unique(t.loc[t["by"] == by, "x"].dropna())
        step = float(np.median(np.diff(centres))) if len(centres) > 1 else 1.0
        for i, (p, df, color) in enumerate(lines):
            df = df[(df["by"] == by) & (df["n"] >= MIN_N_DD)].sort_values("order")
            name = "double dummy" if p == "double dummy" else f"bots{f' ({p})' if p else ''}"
            # each series a little to the side, with error bars: overlapping bands would blend
            x = df["x"] + (i - (len(lines) - 1) / 2) * DODGE * step
            ax.errorbar(x, df["p"], yerr=[df["p"] - df["ci_lo"], df["ci_hi"] - df["p"]],
                        fmt=MARKERS[i % len(MARKERS)] + "-", color=color, capsize=4,
                        markersize=7, linewidth=2, elinewidth=1.6,
                        label=f"{name}: P(set), 95% Wilson")  # fmt: skip
            shown.append(df)
        both = pd.concat(shown)
        if by == "bid" and len(both):  # the rates, not 0-100%
            lo, hi = float(both["ci_lo"].min()), float(both["ci_hi"].max())
            ax.set_ylim(max(0.0, lo - 0.03), min(1.0, hi + 0.1 + 0.1 * (hi - lo)))
        else:
            ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("probability of going set")
        _group_ticks(ax, dd, by)
        ax.legend(loc="upper left")
    _count_note(
        axes[1],
        f"{int(dd_all['n']):,} hands; conceded hands count as set for the bots and are solved "
        f"for double dummy; groups with n < {MIN_N_DD} left off",
    )
    return fig


@styled
def makeable(t: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """How often the bots' bids are makeable double dummy: by bid, and by what the bots did."""
    a = t[t["by"] == "all"].iloc[0]
    fig, axes = new_figure(
        f"How often is the bots' bid makeable at all? ({a['p']:.1%} with perfect play)",
        subtitle_from(meta, int(a["n"])),
        ncols=2,
    )
    df = t[(t["by"] == "bid") & (t["n"] >= MIN_N_DD)].sort_values("order")
    _band(axes[0], df["x"], df, PALETTE[2], "makeable double dummy (95% Wilson)", y="p")
    axes[0].set_xlabel("winning bid")
    _group_ticks(axes[0], t, "bid")
    res = t[t["by"] == "bots' result"].sort_values("order")
    x = range(len(res))
    axes[1].bar(x, res["p"], color=PALETTE[0], alpha=0.8, label="makeable double dummy")
    axes[1].errorbar(
        x, res["p"], yerr=[res["p"] - res["ci_lo"], res["ci_hi"] - res["p"]], fmt="none",
        ecolor="#222222", capsize=8, linewidth=2, label="95% Wilson interval",
    )  # fmt: skip
    ticks = [f"{lv}\n(n = {int(n):,})" for lv, n in zip(res["level"], res["n"], strict=True)]
    axes[1].set_xticks(list(x), ticks)
    axes[1].set_xlabel("what the bots did with the bid")
    for ax in axes:
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_ylabel("share of bids makeable double dummy")
        ax.legend(loc="upper right")
    _count_note(
        axes[1],
        f"{int(a['n']):,} hands; makeable: meld + perfect-play trick points >= bid (save rule "
        f"applied); bids with n < {MIN_N_DD} left off",
    )
    return fig
