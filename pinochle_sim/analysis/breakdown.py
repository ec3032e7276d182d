"""Where a duplicate match's gain comes from: A's gain per deal in bins of the winning bid or of
the bidding side's trumps, each with its 95% interval, beside the overall figure.

A deal's bin must be a property of the deal, not of one play, or a bin would compare A's hands
with B's: the key is the highest winning bid (the most trumps) over the deal's plays. When
both sets bid alike, every play of a deal has the same auction and the key is simply the
deal's contract; when they bid differently, the deal goes where its higher contract puts it.
The deal's gain (its ``diff``, summed over the plays) stays whole, so every bin is still a
duplicate comparison. Bins merge consecutive values until one holds ``min_n`` deals
(:func:`~pinochle_sim.analysis.stats.choose_bins`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pinochle_sim.analysis.stats import Z95, choose_bins


@dataclass(frozen=True)
class Breakdown:
    """One way of breaking a match's gain down."""

    name: str
    prefix: str
    """The per-play column (``bid_k``, ``trumps_k``) the key is the highest of."""
    words: str


BREAKDOWNS = {
    "bid": Breakdown("bid", "bid", "winning bid (the higher of the deal's plays)"),
    "trump-length": Breakdown(
        "trump-length", "trumps", "bidding side's trumps (the most over the deal's plays)"
    ),
}
"""The breakdowns ``compare --by`` offers."""

MIN_DEALS = 200
"""The least deals in a bin (``min_n``'s default)."""


def _mean_ci(v: np.ndarray) -> tuple[float, float, float]:
    n = len(v)
    m = float(v.mean())
    if n < 2:
        return m, float("nan"), float("nan")
    se = float(v.std(ddof=1)) / np.sqrt(n)
    return m, m - Z95 * se, m + Z95 * se


def gain_by(pairs: pd.DataFrame, by: str, min_n: int = MIN_DEALS) -> pd.DataFrame:
    """A's gain over B per deal (and per hand: one play) in bins of ``by`` (a name of
    :data:`BREAKDOWNS`), each bin holding at least ``min_n`` deals, then the overall figure
    (``x_lo`` and ``x_hi`` empty). Columns: ``by``, ``x_lo``, ``x_hi``, ``deals``, ``share``
    (of all deals), ``gain_per_deal``, ``gain_lo``, ``gain_hi``, ``gain_per_hand``,
    ``hand_lo``, ``hand_hi``."""
    if by not in BREAKDOWNS:
        raise ValueError(f"unknown breakdown {by!r}: choose from {', '.join(BREAKDOWNS)}")
    if isinstance(min_n, bool) or not isinstance(min_n, (int, np.integer)) or min_n < 1:
        raise ValueError(f"min_n must be a positive whole number of deals, got {min_n!r}")
    b = BREAKDOWNS[by]
    cols = [c for c in pairs.columns if re.fullmatch(rf"{b.prefix}_\d+", str(c))]
    if not cols:
        raise ValueError(f"these deals have no {b.prefix}_1 column: --by needs an auction game")
    plays = len(cols)
    key = pairs[cols].to_numpy().max(axis=1).astype(np.int64)
    diff = pairs["diff"].to_numpy(dtype=np.float64)
    values, counts = np.unique(key, return_counts=True)
    rows = []
    for lo, hi in choose_bins(values, counts, min_n).tolist():
        rows.append(_row(by, lo, hi, diff[(key >= lo) & (key <= hi)], len(diff), plays))
    rows.append(_row(by, None, None, diff, len(diff), plays))
    table = pd.DataFrame(rows)
    table.attrs |= {"min_n": int(min_n), "plays": plays}
    return table


def _row(by: str, lo: int | None, hi: int | None, v: np.ndarray, total: int, plays: int) -> dict:
    m, mlo, mhi = _mean_ci(v)
    return {
        "by": by, "x_lo": lo, "x_hi": hi, "deals": len(v), "share": len(v) / total,
        "gain_per_deal": m, "gain_lo": mlo, "gain_hi": mhi,
        "gain_per_hand": m / plays, "hand_lo": mlo / plays, "hand_hi": mhi / plays,
    }  # fmt: skip


def bin_label(row: pd.Series | dict) -> str:
    """``250``, ``250-270`` or ``all deals``."""
    lo, hi = row["x_lo"], row["x_hi"]
    if lo is None or pd.isna(lo):
        return "all deals"
    return f"{int(lo)}" if lo == hi else f"{int(lo)}-{int(hi)}"


def gain_lines(table: pd.DataFrame, a: str, b: str) -> list[str]:
    """The breakdown as ``compare`` prints it: one line per bin, the overall figure last."""
    by = BREAKDOWNS[str(table["by"].iloc[0])]
    lines = [f"{a} minus {b} per deal, by {by.words}:"]
    for _, r in table.iterrows():
        lines.append(
            f"  {bin_label(r):>10}: {r['gain_per_deal']:+7.2f} (95% CI {r['gain_lo']:+.2f} to "
            f"{r['gain_hi']:+.2f}), {int(r['deals']):,} deals ({r['share']:.1%})"
        )
    return lines


__all__ = ["BREAKDOWNS", "MIN_DEALS", "Breakdown", "bin_label", "gain_by", "gain_lines"]
