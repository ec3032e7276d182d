"""Charts of duplicate matches (``compare``) and parameter sweeps (``sweep``), house style."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from pinochle_sim.analysis.reports.style import PALETTE, new_figure, styled


def _policies_text(spec: dict[str, Any]) -> str:
    pol = spec.get("policies", {})
    return ", ".join(f"{k} {v['name']}" for k, v in pol.items())


def _subtitle(meta: dict[str, Any]) -> str:
    return (
        f"duplicate: {meta.get('deals', 0):,} deals, each played once per side with the seats "
        "swapped · "
        f"rules {meta.get('rules', '?')} · seed {meta.get('seed', '?')} · "
        f"pinochle-sim {meta.get('package_version', '?')}"
    )


@styled
def match_chart(summary: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Left: A's gain over B per deal with its 95% CI; right: each side's rates."""
    a, b = summary.iloc[0], summary.iloc[1]
    fig, (ax1, ax2) = new_figure(
        f"{a['policy']} vs {b['policy']}: {a['diff_per_deal']:+.1f} points per deal",
        _subtitle(meta),
        ncols=2,
    )
    d, lo, hi = a["diff_per_deal"], a["diff_lo"], a["diff_hi"]
    ax1.barh([0], [d], color=PALETTE[0] if d >= 0 else PALETTE[3], height=0.5)
    ax1.errorbar([d], [0], xerr=[[d - lo], [hi - d]], fmt="none", ecolor="black", capsize=8)
    ax1.axvline(0, color="black", lw=1)
    span = max(abs(lo), abs(hi), 1.0) * 1.4
    ax1.set_xlim(-span, span)
    ax1.set_yticks([0], [f"{a['policy']}\nminus\n{b['policy']}"])
    ax1.set_ylim(-1, 1)
    ax1.set_xlabel("score difference per deal, all plays (points; 95% CI)")
    ax1.set_title(f"95% CI {lo:+.1f} to {hi:+.1f}", fontsize=15)
    if "make_rate" in summary:
        metrics = [("make_rate", "make rate"), ("set_rate", "set rate"), ("stuck_rate", "stuck")]
        los = {"make_rate": "make", "set_rate": "set", "stuck_rate": "stuck"}
        ylabel = "share of the bids the side won (Wilson 95% CI)"
    else:
        metrics = [("win_rate", "deals won")]
        los = {"win_rate": "win"}
        ylabel = "share of hands played (Wilson 95% CI)"
    x = np.arange(len(metrics))
    width = 0.38
    for j, row in enumerate((a, b)):
        vals = np.array([row[m] for m, _ in metrics])
        lo_ = np.array([row[f"{los[m]}_lo"] for m, _ in metrics])
        hi_ = np.array([row[f"{los[m]}_hi"] for m, _ in metrics])
        label = row["policy"]
        if "mean_bid" in row:
            label += f" (mean bid {row['mean_bid']:.0f}, {int(row['bids_won']):,} bids)"
        ax2.bar(x + (j - 0.5) * width, vals, width, color=PALETTE[j], label=label)
        ax2.errorbar(
            x + (j - 0.5) * width, vals, yerr=[vals - lo_, hi_ - vals], fmt="none",
            ecolor="black", capsize=5,
        )  # fmt: skip
        for xi, v in zip(x + (j - 0.5) * width, vals, strict=True):
            ax2.annotate(f"{v:.1%}", (xi, v), textcoords="offset points", xytext=(0, 8),
                         ha="center", fontsize=12)  # fmt: skip
    ax2.set_xticks(x, [name for _, name in metrics])
    ax2.set_ylim(0, 1.08)
    ax2.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax2.set_ylabel(ylabel)
    ax2.legend(loc="upper right")
    fig.text(
        0.99, 0.005,
        f"A = {a['policy']}: {_policies_text(meta.get('a', {}))}\n"
        f"B = {b['policy']}: {_policies_text(meta.get('b', {}))}",
        ha="right", va="bottom", fontsize=11, color="#555555",
    )  # fmt: skip
    return fig


@styled
def sweep_chart(table: pd.DataFrame, meta: dict[str, Any]) -> Figure:
    """Against the parameter: A's gain per deal, its mean score per hand, make rate, mean bid."""
    param = meta.get("param", "parameter")
    auction = "make_rate" in table
    fig, axes = new_figure(
        f"Sweeping {param} against {meta.get('against_label', 'a fixed opponent')}",
        _subtitle(meta) + f" · {len(table)} values",
        ncols=3 if auction else 2,
    )
    x = table["value"].to_numpy()
    ax = axes[0]
    ax.plot(
        x,
        table["diff_per_deal"],
        marker="o",
        color=PALETTE[0],
        label="gain over the opponent (all plays of a deal)",
    )
    ax.fill_between(x, table["diff_lo"], table["diff_hi"], color=PALETTE[0], alpha=0.25,
                    label="95% CI")  # fmt: skip
    ax.plot(x, table["mean_score"], marker="s", color=PALETTE[1], label="own mean score per hand")
    ax.fill_between(x, table["mean_score_lo"], table["mean_score_hi"], color=PALETTE[1],
                    alpha=0.25)  # fmt: skip
    ax.axhline(0, color="black", lw=1)
    best = int(np.argmax(table["diff_per_deal"].to_numpy()))
    ax.annotate(f"best {x[best]}", (x[best], table["diff_per_deal"].iloc[best]),
                textcoords="offset points", xytext=(0, 12), ha="center", fontsize=13)  # fmt: skip
    ax.set_xlabel(param)
    ax.set_ylabel("points")
    ax.set_title("points per deal", fontsize=15)
    ax.legend(loc="lower left", fontsize=12)
    if auction:
        ax = axes[1]
        ax.plot(x, table["make_rate"], marker="o", color=PALETTE[2])
        ax.fill_between(x, table["make_lo"], table["make_hi"], color=PALETTE[2], alpha=0.25)
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        ax.set_xlabel(param)
        ax.set_ylabel("make rate of its bids (Wilson 95% CI)")
        ax.set_title("make rate", fontsize=15)
        ax = axes[2]
        ax.plot(x, table["mean_bid"], marker="o", color=PALETTE[3], label="mean winning bid")
        ax.fill_between(x, table["mean_bid_lo"], table["mean_bid_hi"], color=PALETTE[3],
                        alpha=0.25, label="95% CI")  # fmt: skip
        ax2 = ax.twinx()
        ax2.plot(x, table["bids_won"] / table["hands"], marker="s", color=PALETTE[4],
                 label="share of hands it wins the bid")  # fmt: skip
        ax2.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        ax2.grid(False)
        ax.set_xlabel(param)
        ax.set_ylabel("mean bid when it wins the auction")
        ax.set_title("bidding", fontsize=15)
        lines = ax.get_lines() + ax2.get_lines()
        ax.legend(lines, [ln.get_label() for ln in lines], loc="best")
    else:
        ax = axes[1]
        ax.plot(x, table["win_rate"], marker="o", color=PALETTE[2])
        ax.fill_between(x, table["win_lo"], table["win_hi"], color=PALETTE[2], alpha=0.25)
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        ax.set_xlabel(param)
        ax.set_ylabel("share of hands won (Wilson 95% CI)")
    fig.text(0.99, 0.005, f"{meta.get('deals', 0):,} deals per value",
             ha="right", va="bottom", fontsize=12, color="#555555")  # fmt: skip
    return fig
