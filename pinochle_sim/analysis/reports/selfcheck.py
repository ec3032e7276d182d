"""The report's self-check: every simulated estimate that has an exact value, beside it.

A dealt hand is a uniformly random hand, so the meld studies' dealt-hand estimates have exact
values (:mod:`pinochle_sim.analysis.exact`). Each comparison gives ``z`` = (estimate - exact) /
standard error; a ``|z|`` above :data:`Z_LIMIT` is far outside what chance allows (about 7 in a
million for a normal estimate) and marks the report as failing: a warning in ``report.md``,
and :class:`SelfCheckError` from ``write_report(..., strict=True)`` (``report --strict``).

Only estimates whose sampling law is close to normal are checked: means of groups of at least
:data:`MIN_GROUP` observations, and tail proportions expected at least :data:`MIN_EXPECTED`
times on each side after allowing for the correlation within a deal (rarer tails are shown in
the charts but a handful of hands cannot be judged by a z-score).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from pinochle_sim.analysis.reports.questions import FIXED_TRUMP

Z_LIMIT = 4.5
MIN_GROUP = 200
MIN_EXPECTED = 100
COLUMNS = ["study", "quantity", "n", "estimate", "exact", "z"]


class SelfCheckError(ValueError):
    """The report was written, but an estimate is more than :data:`Z_LIMIT` standard errors
    from its exact value."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


def meld_by_trump_length(t: pd.DataFrame) -> pd.DataFrame:
    """The mean dealt-hand meld per suit group and trump length against the exact mean."""
    rows = t[(t["n"] >= MIN_GROUP) & (t["se"] > 0)]
    return pd.DataFrame(
        {
            "quantity": [
                f"mean meld, {s} trump, {L} trumps dealt"
                for s, L in zip(rows["suits"], rows["trump_length"], strict=True)
            ],
            "n": rows["n"].to_numpy(),
            "estimate": rows["mean"].to_numpy(),
            "exact": rows["exact_mean"].to_numpy(),
            "z": rows["z"].to_numpy(),
        }
    )


def meld_distribution(t: pd.DataFrame) -> pd.DataFrame:
    """P(meld >= x) of dealt hands in a fixed trump against the exact tail."""
    rows = t[(t["stage"] == FIXED_TRUMP) & (t["x"] > 0)]
    effective = rows["n"] / rows["deff"]
    p = rows["exact_p"]
    rows = rows[(effective * p >= MIN_EXPECTED) & (effective * (1 - p) >= MIN_EXPECTED)]
    return pd.DataFrame(
        {
            "quantity": [f"P(meld ≥ {x}), dealt hand, fixed trump" for x in rows["x"]],
            "n": rows["n"].to_numpy(),
            "estimate": rows["p"].to_numpy(),
            "exact": rows["exact_p"].to_numpy(),
            "z": rows["z"].to_numpy(),
        }
    )


def failures(checks: pd.DataFrame) -> pd.DataFrame:
    return checks[~(checks["z"].abs() <= Z_LIMIT)]


def summary_line(checks: pd.DataFrame) -> str:
    """One line for the top of report.md: passed, or a warning naming the worst estimate."""
    if checks.empty:
        return ""
    worst = checks.iloc[int(np.nanargmax(checks["z"].abs().to_numpy()))]
    bad = failures(checks)
    if bad.empty:
        return (
            f"*Self-check passed*: {len(checks)} simulated quantities agree with their exact "
            f"values (largest |z| = {abs(worst['z']):.2f} ≤ {Z_LIMIT}; see the last section).\n\n"
        )
    return (
        f"> **Warning: the self-check failed.** {len(bad)} of {len(checks)} simulated "
        f"quantities are more than {Z_LIMIT} standard errors from their exact values (worst: "
        f"{worst['quantity']}, z = {worst['z']:+.2f}). Do not trust this run's numbers until "
        "the cause is found; see the last section.\n\n"
    )


def _number(v: float, proportion: bool) -> str:
    return f"{v:.6f}" if proportion else f"{v:.2f}"


def section(checks: pd.DataFrame) -> str:
    """The report.md section listing every comparison."""
    lines = [
        "## Self-check: simulation against exact values\n",
        "A dealt hand is a uniformly random hand, so these dealt-hand quantities have exact "
        "values, computed without sampling (`pinochle-sim exact`, docs/exact.md). z is "
        "(estimate - exact) / standard error (clustered by deal); a |z| above "
        f"{Z_LIMIT} fails the check. Only estimates with a near-normal sampling law are "
        f"listed: means of at least {MIN_GROUP} observations, tail probabilities expected at "
        f"least {MIN_EXPECTED} times. Data: [`self_check.csv`](self_check.csv)\n",
        "| quantity | n | estimate | exact | z | |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for _, r in checks.iterrows():
        prop = str(r["quantity"]).startswith("P(")
        mark = "ok" if abs(r["z"]) <= Z_LIMIT else "**FAIL**"
        lines.append(
            f"| {r['quantity']} | {int(r['n']):,} | {_number(r['estimate'], prop)} | "
            f"{_number(r['exact'], prop)} | {r['z']:+.2f} | {mark} |"
        )
    return "\n".join(lines) + "\n"


def error_message(checks: pd.DataFrame, path: Path) -> str:
    bad = failures(checks)
    worst = bad.iloc[int(np.nanargmax(bad["z"].abs().fillna(np.inf).to_numpy()))]
    return (
        f"self-check failed: {len(bad)} of {len(checks)} estimates are more than {Z_LIMIT} "
        f"standard errors from their exact values (worst: {worst['quantity']}, "
        f"z = {worst['z']:+.2f}); the report is written: {path}"
    )
