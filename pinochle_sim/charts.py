"""Charts in the house style, for a notebook or a blog post: one question over several runs, a
line per run with its 95% band (what ``pinochle-sim chart`` draws), and the pieces every chart
of the package is built from.

>>> from pinochle_sim import charts                                          # doctest: +SKIP
>>> made = charts.chart("go-set", ["runs/greedy", "runs/pimc"], labels=["greedy", "pimc"],
...                     out="blog/go-set.png")          # writes go-set.png and go-set.csv
>>> made.table.head()                                   # one row per run and bin
>>> fig, (ax,) = charts.new_figure("My own question", "1,000,000 hands · rules partnership")
>>> charts.band(ax, x, mean, lo, hi, charts.PALETTE[0], "mean (95% CI)")
>>> charts.save(fig, "blog/mine", ("png", "svg"))

Questions (:data:`QUESTIONS`): ``go-set`` and ``made-rate`` (by winning bid, by points needed
from tricks or by the bidding side's trumps), ``trick-points`` (the bidding side's trick points,
by its trumps, the winning bid or the points needed), ``bid-vs-meld`` and
``meld-by-trump-length``.
"""

from __future__ import annotations

from pinochle_sim.analysis.reports.charts_overlay import (
    CHART_FORMATS,
    OverlayChart,
    band,
    chart,
    overlay_chart,
)
from pinochle_sim.analysis.reports.overlay import (
    MIN_N,
    OVERLAYS,
    RunInfo,
    choose_bins,
    overlay_table,
)
from pinochle_sim.analysis.reports.style import (
    PALETTE,
    new_figure,
    note,
    save,
    styled,
    subtitle_from,
    top_legend,
)

QUESTIONS = tuple(OVERLAYS)
"""The questions :func:`chart` asks of runs."""

__all__ = [
    "CHART_FORMATS",
    "MIN_N",
    "OVERLAYS",
    "PALETTE",
    "QUESTIONS",
    "OverlayChart",
    "RunInfo",
    "band",
    "chart",
    "choose_bins",
    "new_figure",
    "note",
    "overlay_chart",
    "overlay_table",
    "save",
    "styled",
    "subtitle_from",
    "top_legend",
]
