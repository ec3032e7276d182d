"""The house style of every chart: colour-blind-safe palette, 16:9 at 1600x900 px, readable
fonts, a title and a provenance subtitle. Figures are built without pyplot (no global state)."""

from __future__ import annotations

import contextlib
import textwrap
from typing import Any

import matplotlib
from matplotlib.figure import Figure

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
"""Okabe-Ito colours (safe for the common colour-vision deficiencies)."""
FIGSIZE = (16, 9)
DPI = 100
RC = {
    "font.size": 16,
    "axes.titlesize": 18,
    "axes.labelsize": 17,
    "xtick.labelsize": 14,
    "ytick.labelsize": 14,
    "legend.fontsize": 14,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "svg.fonttype": "none",
    "svg.hashsalt": "pinochle-sim",  # stable element ids: regenerated charts diff cleanly
    "savefig.format": "png",  # the renderer a layout is worked out with (see save)
    "savefig.bbox": None,  # the whole 1600x900 figure, opaque, whatever the user's rc says
    "savefig.transparent": False,
    "savefig.facecolor": "auto",
    "savefig.edgecolor": "auto",
    "figure.facecolor": "white",
    "figure.edgecolor": "white",
    "figure.autolayout": False,  # every figure chooses its layout engine itself
    "figure.constrained_layout.use": False,
}


def new_figure(
    title: str, subtitle: str, ncols: int = 1, nrows: int = 1
) -> tuple[Figure, list[Any]]:
    """A 1600x900 figure with a title, a provenance subtitle and ``nrows`` x ``ncols`` axes
    (returned row by row)."""
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=FIGSIZE, dpi=DPI, layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False).ravel().tolist()
        fig.suptitle(f"{title}\n", fontsize=24, fontweight="bold")
        sub = fig.text(0.5, 0.935, subtitle, ha="center", va="top", fontsize=14, color="#444444")
        fig.get_layout_engine().set(rect=(0, 0.025, 1, 0.915))
        fit_width(sub, smallest=10)
        fit_title(fig)
    return fig, axes


def top_legend(
    fig: Figure, handles: list[Any], labels: list[str], ncols: int, bottom: float = 0.025
) -> Any:
    """One legend for the whole figure, between the subtitle and the axes, so it covers no
    data; ``bottom`` is the share of the height kept free below the axes for notes."""
    rows = -(-len(labels) // ncols)
    fig.get_layout_engine().set(rect=(0, bottom, 1, 0.895 - 0.03 * rows))
    return fig.legend(
        handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.905), ncols=ncols,
        frameon=False, fontsize=13,
    )  # fmt: skip


def note(fig: Figure, text: str, left: bool = False, width: int | None = None) -> Any:
    """A small note in a bottom corner of the figure (sample sizes, definitions); ``width``
    wraps each paragraph at that many characters."""
    if width:
        text = "\n".join(textwrap.fill(par, width) for par in text.split("\n"))
    x, ha = (0.005, "left") if left else (0.995, "right")
    return fig.text(x, 0.005, text, ha=ha, va="bottom", fontsize=12, color="#555555")


def styled(func):
    """Run a chart builder inside the house rc settings."""

    def wrapper(*args: Any, **kwargs: Any) -> Figure:
        with matplotlib.rc_context(RC):
            return func(*args, **kwargs)

    wrapper.__name__ = func.__name__
    wrapper.__doc__ = func.__doc__
    return wrapper


KIND_LABELS = {"concede": "throw-in"}
"""How a policy kind reads before its policy's name where the two would repeat a word (the
``concede`` kind's policies are ``concede`` and ``play-on``: "throw-in: concede")."""


def policies_text(policies: dict[str, Any]) -> str:
    """``bid: estimate, pass: standard, play: greedy, throw-in: concede`` from resolved
    policies (a colon after each kind, so ``bid: pass, pass: standard`` reads too)."""
    return ", ".join(f"{KIND_LABELS.get(k, k)}: {v['name']}" for k, v in policies.items())


def subtitle_from(meta: dict[str, Any], n: int | None = None) -> str:
    """``1,000,000 simulated hands · rules partnership · bid: estimate, ... · seed 0 · ...``
    (``20,000 simulated games ...`` for a games run). The count is ``n``, else the hands (games)
    actually read (``hands_read``, set by the report), else the run's planned ``run_hands``; a
    partial run says so and what was planned."""
    unit = "games" if meta.get("unit") == "games" else "hands"
    count = n if n is not None else meta.get("hands_read", meta.get("run_hands"))
    partial = ""
    if meta.get("partial"):
        planned = meta.get("planned")
        partial = " · partial run" + (f" ({planned:,} planned)" if planned else "")
    if "rules" not in meta and "policies" not in meta:  # no provenance: a bare DataFrame
        return f"{count:,} {unit}{partial}" if count else ""
    names = policies_text(meta.get("policies", {}))
    return (
        f"{count or 0:,} simulated {unit}{partial} · rules {meta.get('rules', '?')} · {names} · "
        f"seed {meta.get('seed', '?')} · pinochle-sim {meta.get('package_version', '?')}"
    )


def mark_partial(fig: Figure, meta: dict[str, Any]) -> None:
    """Append ``(partial run, N hands)`` to the title of a chart of a partial run (the subtitle
    already says it), N the hands (games) read; other charts are left as they are."""
    if not meta.get("partial") or fig._suptitle is None:
        return
    unit = "games" if meta.get("unit") == "games" else "hands"
    title = fig._suptitle.get_text().rstrip("\n")
    marked = f"{title} (partial run, {meta['hands_read']:,} {unit})"
    fig._suptitle.set_text(f"{marked}\n")
    fit_title(fig)


def fit_title(fig: Figure) -> None:
    """Shrink the title's font until it fits the figure's width."""
    if fig._suptitle is not None:
        fit_width(fig._suptitle, smallest=14)


def fit_width(text: Any, smallest: int) -> None:
    """Shrink a figure text's font (down to ``smallest`` points) until it fits the figure's
    width with a 1% margin each side."""
    fig = text.get_figure()
    width = fig.get_figwidth() * fig.dpi * 0.98
    with matplotlib.rc_context(RC):
        while text.get_fontsize() > smallest and text.get_window_extent().width > width:
            text.set_fontsize(text.get_fontsize() - 1)


METADATA = {"png": {}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}
"""What each format is saved with: no date, so that a chart drawn again is the same file."""


def save(fig: Figure, path_stem: str, formats: tuple[str, ...] = ("png", "svg")) -> list[str]:
    """Write ``path_stem.png`` / ``.svg``; returns the paths.

    The layout is worked out once, for the first format, and then switched off: every format
    shows the same layout, and each after the first is drawn once. With a layout engine on,
    ``savefig`` draws a figure twice, the first time only to lay it out (a third of a chart's
    time); where the first format is PNG (and the figure has axes, at :data:`DPI`), the layout
    is worked out here instead, with the PNG renderer, as ``savefig`` would (the same bytes),
    and the PNG too is drawn once."""
    out = []
    with matplotlib.rc_context(RC):
        engine = fig.get_layout_engine()
        if engine is not None and formats and formats[0] == "png" and fig.axes and fig.dpi == DPI:
            with contextlib.suppress(ValueError):  # as Figure.draw: a layout that cannot fit
                engine.execute(fig)  # the renderer of savefig.format (RC: png)
            fig.set_layout_engine(None)  # RC keeps the user's rc from choosing another
        for fmt in formats:
            p = f"{path_stem}.{fmt}"
            fig.savefig(p, format=fmt, dpi=DPI, metadata=METADATA.get(fmt, {}))
            fig.set_layout_engine(None)
            out.append(p)
    return out
