"""The chart of one question over several runs (:mod:`.overlay`): a line per run with its 95%
band, in the house style (:mod:`.style`). What the runs share goes in the subtitle, what sets
them apart in the legend."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from pinochle_sim.analysis.reports.load import Data
from pinochle_sim.analysis.reports.overlay import (
    AXES,
    BY_WORDS,
    MIN_N,
    OVERLAYS,
    RunInfo,
    overlay_table,
)
from pinochle_sim.analysis.reports.style import (
    PALETTE,
    fit_width,
    new_figure,
    note,
    policies_text,
    save,
    styled,
)
from pinochle_sim.runs.store.provenance import seating_text

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
STYLES = ("-", "--", "-.", ":")


def band(
    ax: Any,
    x: Any,
    est: Any,
    lo: Any,
    hi: Any,
    color: str,
    label: str,
    marker: str = "o",
    linestyle: str = "-",
) -> None:
    """A line with markers and its shaded 95% band, the band's edges drawn thin in the line's
    colour so that overlapping bands of several lines stay apart."""
    ax.fill_between(x, lo, hi, color=color, alpha=0.15, linewidth=0)
    ax.plot(x, lo, color=color, linewidth=0.8, alpha=0.6, linestyle=linestyle)
    ax.plot(x, hi, color=color, linewidth=0.8, alpha=0.6, linestyle=linestyle)
    ax.plot(x, est, marker=marker, color=color, label=label, linewidth=2.5, markersize=7,
            linestyle=linestyle)  # fmt: skip


def _policy_traits(infos: Sequence[RunInfo]) -> list[dict[str, str]]:
    """Per run, each policy kind as ``play: pimc``, with the parameters that differ between
    the runs where the name is the same (``bid: estimate (margin=20)``)."""
    pols = [i.meta.get("policies") or {} for i in infos]
    kinds = list(dict.fromkeys(k for p in pols for k in p))
    out: list[dict[str, str]] = [{} for _ in infos]
    for kind in kinds:
        given = [p.get(kind) or {"name": "", "params": {}} for p in pols]
        for o, g in zip(out, given, strict=True):
            if not g["name"]:  # a kind these rules do not have (three-hand: no pass)
                o[f"policy {kind}"] = ""
                continue
            same = [h for h in given if h["name"] == g["name"]]  # parameters mean one policy's
            keys = sorted(g.get("params", {}))
            differ = [k for k in keys if len({repr(h["params"].get(k)) for h in same}) > 1]
            shown = [f"{k}={g['params'][k]}" for k in differ]
            text = policies_text({kind: g})
            o[f"policy {kind}"] = text + (f" ({', '.join(shown)})" if shown else "")
    return out


def _traits(infos: Sequence[RunInfo]) -> list[dict[str, str]]:
    """What may set a run apart: its rules, each kind of player, who plays which, and seed."""
    out = []
    for info, pol in zip(infos, _policy_traits(infos), strict=True):
        m = info.meta
        roles = seating_text(m)
        rules = f"rules {m.get('rules', '?')}"
        seed = f"seed {m.get('seed', '?')}"
        out.append({"rules": rules, **pol, "seating": str(roles or ""), "seed": seed})
    return out


def _texts(infos: Sequence[RunInfo]) -> tuple[str, list[str]]:
    """The subtitle (what every run shares) and each run's legend text (what differs)."""
    traits = _traits(infos)
    keys = list(dict.fromkeys(k for t in traits for k in t))
    shared = [k for k in keys if all(t.get(k, "") == traits[0].get(k, "") for t in traits)]
    common = [traits[0][k] for k in shared if traits[0].get(k)]
    version = {i.meta.get("package_version") for i in infos} - {None}
    if len(version) == 1:
        common.append(f"pinochle-sim {version.pop()}")
    legends = []
    for info, t in zip(infos, traits, strict=True):
        own = [t[k] for k in keys if k not in shared and t.get(k)]
        partial = " (partial run)" if info.partial else ""
        legends.append(" · ".join([f"{info.label}{partial}", *own, f"{info.hands:,} hands"]))
    return " · ".join(common), legends


def _same(table: pd.DataFrame, i: int, j: int, cols: list[str]) -> bool:
    a = table.loc[table["run"] == i, cols].reset_index(drop=True)
    b = table.loc[table["run"] == j, cols].reset_index(drop=True)
    return a.equals(b)


TAIL_SHARE = 0.02
"""On the ``needed`` axis, the share of hands needing least that is left of the axis: their
bins run far below zero (a side whose meld alone makes the bid), all at P(set) near 0."""


def _x_range(table: pd.DataFrame, by: str) -> tuple[float, str]:
    """The axis's left end, and the words the label adds when it cuts the sparse left tail
    of the ``needed`` axis (nothing for the other axes)."""
    if by != "needed":
        return float("nan"), ""
    t = table.sort_values("x")
    share = t["n"].cumsum() / t["n"].sum()
    left = float(t.loc[share >= TAIL_SHARE, "x"].min())
    if left <= float(t["x"].min()):
        return float("nan"), ""
    span = float(t["x"].max()) - left
    return left - 0.05 * span, f"the {TAIL_SHARE:.0%} needing least are off the axis, in the CSV"


@styled
def overlay_chart(
    table: pd.DataFrame, infos: Sequence[RunInfo], question: str, by: str | None, min_n: int
) -> Figure:
    """The chart of :func:`~.overlay.overlay_table`'s table: one line per run, each point a
    bin of at least ``min_n`` observations drawn at its mean x, shaded 95% bands."""
    q = OVERLAYS[question.replace("_", "-")]
    by = by or q.bys[0]
    subtitle, legends = _texts(infos)
    fig, (ax,) = new_figure(q.title.format(by=BY_WORDS[by]), subtitle)
    cols = ["x_lo", "x_hi", "n", "estimate"]
    for i, legend in enumerate(legends):
        t = table[table["run"] == i].sort_values("x")
        twin = next((j for j in range(i) if _same(table, i, j, cols)), None)
        if twin is not None:  # drawn dashed over its twin, and said
            legend += f" (the same numbers as {infos[twin].label})"
        color, marker = PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)]
        style = "--" if twin is not None else STYLES[(i // len(PALETTE)) % len(STYLES)]
        band(ax, t["x"], t["estimate"], t["ci_lo"], t["ci_hi"], color, legend, marker, style)
    left, cut = _x_range(table, by)
    xlabel = "cards of the trump suit in the dealt hand" if by == "trump-length" else None
    if cut:
        ax.set_xlim(left=left)
    ax.set_xlabel((xlabel or AXES[by].label) + (f" ({cut})" if cut else ""))
    ax.set_ylabel(q.ylabel)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if q.kind == "proportion":
        lo, hi = float(table["ci_lo"].min()), float(table["ci_hi"].max())
        pad = max(0.02, 0.08 * (hi - lo))
        ax.set_ylim(max(0.0, lo - pad), min(1.0, hi + pad * 3))  # room for the legend
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    else:
        lo, hi = float(table["ci_lo"].min()), float(table["ci_hi"].max())
        ax.set_ylim(lo - 0.05 * (hi - lo), hi + 0.3 * (hi - lo))
    ax.legend(loc="upper left", fontsize=13)
    unit = "hands" if q.needs_auction else "seat-suit observations"
    interval = "Wilson interval" if q.kind == "proportion" else "CI of the mean"
    cluster = "" if q.needs_auction else ", clustered by hand"
    widths = (table["x_hi"] - table["x_lo"]).to_numpy()
    merged = "" if np.all(widths == 0) else " (consecutive values merged)"
    text = note(
        fig,
        f"Each point: at least {min_n:,} {unit}{merged}, at its bin's mean x · shaded: 95% "
        f"{interval}{cluster} · each bin's range, n and interval: in the CSV",
    )
    fit_width(text, smallest=9)
    return fig


CHART_FORMATS = ("png", "svg", "pdf")


@dataclass(frozen=True)
class OverlayChart:
    """What :func:`chart` made: the table, the figure and the files written (none when
    ``out`` was not given)."""

    table: pd.DataFrame
    figure: Figure
    paths: tuple[str, ...]


def chart(
    question: str,
    runs: Sequence[Data],
    labels: Sequence[str] | None = None,
    by: str | None = None,
    out: str | Path | None = None,
    formats: Sequence[str] | None = None,
    min_n: int = MIN_N,
    allow_partial: bool = False,
    overwrite: bool = False,
) -> OverlayChart:
    """Ask ``question`` of every run and draw one line per run; with ``out`` (a file name,
    its extension the format unless ``formats`` names them) write the chart and the table
    beside it as CSV (``blog/go-set.png`` and ``blog/go-set.csv``). Existing files are
    refused unless ``overwrite``; each file is written whole or not at all.

    >>> from pinochle_sim import charts                                     # doctest: +SKIP
    >>> made = charts.chart("go-set", ["runs/greedy", "runs/pimc"], out="go-set.png")
    """
    stem, fmts = _target(out, formats)
    question = question.replace("_", "-")
    table, infos = overlay_table(question, runs, labels, by, min_n, allow_partial)
    fig = overlay_chart(table, infos, question, by, min_n)
    if stem is None:
        return OverlayChart(table, fig, ())
    paths = [f"{stem}.{f}" for f in fmts] + [f"{stem}.csv"]
    taken = [p for p in paths if Path(p).exists()]
    if taken and not overwrite:
        raise ValueError(f"{taken[0]} exists: pass --overwrite (overwrite=True) to replace it")
    Path(stem).parent.mkdir(parents=True, exist_ok=True)
    tmp = f"{stem}.tmp-{os.getpid()}"
    try:
        save(fig, tmp, tuple(fmts))
        table.to_csv(f"{tmp}.csv", index=False)
        for p in paths:
            os.replace(tmp + p[len(stem) :], p)
    finally:
        for f in (*fmts, "csv"):
            Path(f"{tmp}.{f}").unlink(missing_ok=True)
    return OverlayChart(table, fig, tuple(paths))


def _target(out: str | Path | None, formats: Sequence[str] | None) -> tuple[str | None, list[str]]:
    """The path stem and the formats of ``out``."""
    fmts = [f.strip().lower().lstrip(".") for f in formats or [] if f.strip()]
    stem = None
    if out is not None:
        p = Path(out)
        ext = p.suffix.lower().lstrip(".")
        if ext in CHART_FORMATS:
            stem = str(p.with_suffix(""))
            fmts = fmts or [ext]
        elif ext and ext != "csv":
            raise ValueError(f"cannot tell a chart format from {str(out)!r}: end it in "
                             f".png, .svg or .pdf, or give the format")  # fmt: skip
        else:
            stem = str(p.with_suffix("")) if ext == "csv" else str(p)
    fmts = fmts or ["png"]
    bad = [f for f in fmts if f not in CHART_FORMATS]
    if bad:
        raise ValueError(f"unknown chart format {bad[0]!r}: use png, svg or pdf")
    return stem, list(dict.fromkeys(fmts))
