"""The advisor's chart: P(make) against the bid, one line per trump with its 95% band.

Kept apart from :mod:`pinochle_sim.analysis.advise` so that advice without a chart never imports
matplotlib (``advise`` answers in about a second; matplotlib alone takes half of that to load).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pinochle_sim.analysis.reports.style import PALETTE, new_figure, note, save, styled


def advice_chart(advice: Any, path_stem: str) -> list[str]:
    """P(make) against the bid, one line per trump with its 95% band; returns the files."""
    if advice.two_hand is not None:
        raise ValueError("two-hand has no auction: there is no bid chart")
    fig = _chart(advice)
    return save(fig, path_stem)


@styled
def _chart(advice: Any) -> Any:
    subtitle = (
        f"{advice.hands:,} simulated deals per trump with this hand fixed · seat {advice.seat} · "
        f"rules {advice.rules} · {advice.policies} · seed {advice.seed}"
    )
    fig, (ax,) = new_figure(f"How high can I bid?  {advice.cards}", subtitle)
    for t, colour in zip(advice.by_trump, PALETTE, strict=False):
        bids = np.array([b.bid for b in t.bids])
        p = np.array([b.p_make for b in t.bids]) * 100
        lo = np.array([b.ci_low for b in t.bids]) * 100
        hi = np.array([b.ci_high for b in t.bids]) * 100
        label = f"{t.trump} trump (meld in hand {t.meld_now})"
        ax.plot(bids, p, color=colour, lw=2.5, label=label)
        ax.fill_between(bids, lo, hi, color=colour, alpha=0.25, lw=0)
    rec = advice.recommendation or {}
    for t in advice.by_trump:
        if rec.get("bid") is None or t.trump != rec.get("trump"):
            continue
        at = [b for b in t.bids if b.bid == rec["bid"]]
        if at:  # the recommended bid: a ring on its trump's line, and its odds
            p = at[0].p_make * 100
            ax.plot([rec["bid"]], [p], "o", markersize=18, markerfacecolor="none",
                    markeredgecolor="black", markeredgewidth=2.5, zorder=5,
                    label=f"recommended: {t.trump} trump, bid up to {rec['bid']}")  # fmt: skip
            ax.annotate(f"bid up to {rec['bid']} ({t.trump}): made {p:.0f}%", (rec["bid"], p),
                        textcoords="offset points", xytext=(-16, -44), ha="right", fontsize=14,
                        fontweight="bold")  # below and left: clear of the legend  # fmt: skip
    ax.axhline(advice.risk, color="#555555", ls="--", lw=1.2)
    ax.text(ax.get_xlim()[0], advice.risk + 1, f" risk line: made {advice.risk}% of the time",
            color="#555555", fontsize=13, va="bottom")  # fmt: skip
    fig.get_layout_engine().set(rect=(0, 0.07, 1, 0.845))
    ax.set_ylim(0, 101)
    ax.set_xlabel("final bid (the auction ends here, this seat the bidder)")
    ax.set_ylabel("P(make the bid), % (95% band)")
    ax.legend(loc="upper right", frameon=False)
    note(
        fig,
        f"{advice.verdict}. Made = the side's meld after the {advice.exchange} plus its trick "
        "points reach the bid, with the "
        "other seats playing the chosen policies: odds against this table, not perfect play.",
        left=True,
        width=170,
    )
    return fig
