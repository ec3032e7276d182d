"""The house style of every chart: colour-blind-safe palette, 16:9 at 1600x900 px, readable
fonts, a title and a provenance subtitle. Figures are built without pyplot (no global state)."""

from __future__ import annotations

from typing import Any

import matplotlib as mpl
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
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
    "svg.fonttype": "none",
    "svg.hashsalt": "pinochle-sim",  # stable element ids: regenerated charts diff cleanly
}


def new_figure(title: str, subtitle: str, ncols: int = 1) -> tuple[Figure, list[Any]]:
    """A 1600x900 figure with a title, a provenance subtitle and ``ncols`` axes side by side."""
    with mpl.rc_context(RC):
        fig = Figure(figsize=FIGSIZE, dpi=DPI, layout="constrained")
        axes = fig.subplots(1, ncols, squeeze=False)[0].tolist()
        fig.suptitle(f"{title}\n", fontsize=24, fontweight="bold")
        fig.text(0.5, 0.935, subtitle, ha="center", va="top", fontsize=14, color="#444444")
        fig.get_layout_engine().set(rect=(0, 0.025, 1, 0.915))
    return fig, axes


def styled(func):
    """Run a chart builder inside the house rc settings."""

    def wrapper(*args: Any, **kwargs: Any) -> Figure:
        with mpl.rc_context(RC):
            return func(*args, **kwargs)

    wrapper.__name__ = func.__name__
    wrapper.__doc__ = func.__doc__
    return wrapper


def subtitle_from(meta: dict[str, Any], n: int | None = None) -> str:
    """``1,000,000 hands · rules partnership · bid estimate, pass standard, ... · seed 0``
    (``20,000 simulated games ...`` for a games run)."""
    unit = "games" if meta.get("unit") == "games" else "hands"
    if not meta:
        return f"{n:,} {unit}" if n else ""
    count = n if n is not None else meta.get("run_hands", 0)
    pol = meta.get("policies", {})
    names = ", ".join(f"{k} {v['name']}" for k, v in pol.items())
    return (
        f"{count:,} simulated {unit} · rules {meta.get('rules', '?')} · {names} · "
        f"seed {meta.get('seed', '?')} · pinochle-sim {meta.get('package_version', '?')}"
    )


def save(fig: Figure, path_stem: str, formats: tuple[str, ...] = ("png", "svg")) -> list[str]:
    """Write ``path_stem.png`` / ``.svg``; returns the paths."""
    out = []
    for fmt in formats:
        p = f"{path_stem}.{fmt}"
        meta = {"Date": None} if fmt in ("svg", "pdf") else {}  # reproducible files
        with mpl.rc_context(RC):
            fig.savefig(p, format=fmt, dpi=DPI, metadata=meta)
        out.append(p)
    return out
