"""A ruleset as people read it: every key with its value and the meld table with its points
(``pinochle-sim rules NAME``; docs/rules.md explains each)."""

from __future__ import annotations

import dataclasses

from pinochle_sim.rules.presets import ALIASES, PRESETS
from pinochle_sim.rules.ruleset import MeldTable, Ruleset

_MELD_ROWS = (
    ("run", "run", "A 10 K Q J of trump"),
    ("run_extra_king", "run with extra king", "run + a second trump K, as one meld"),
    ("run_extra_queen", "run with extra queen", "run + a second trump Q, as one meld"),
    ("run_trump_marriage", "run with trump marriage", "run + a second trump K and Q"),
    ("double_run", "double run", "both runs (10 cards)"),
    ("trump_marriage", "trump marriage", "K + Q of trump, each pair"),
    ("marriage", "marriage", "K + Q of another suit, each pair"),
    ("dix", "dix", "9 of trump, each"),
    ("pinochle", "pinochle", "QS + JD"),
    ("double_pinochle", "double pinochle", "QS QS JD JD"),
)


def ruleset_rows(r: Ruleset) -> list[tuple[str, str]]:
    """(key, value) of every rule of ``r``, the trick points from the ace down."""
    rows = []
    for f in dataclasses.fields(r):
        if f.name in ("name", "description", "source", "meld"):
            continue
        v = getattr(r, f.name)
        if f.name == "trick_points":
            ranks = ("9", "J", "Q", "K", "10", "A")
            v = " ".join(f"{k}={p}" for k, p in reversed(list(zip(ranks, v, strict=True))))
        rows.append((f.name, str(v)))
    rows.append(("meld", f"table {r.meld.name} (below)"))
    rows.append(("total_trick_points", str(r.total_trick_points)))
    return rows


def meld_rows(t: MeldTable) -> list[tuple[str, str, str]]:
    """(meld, its cards, its points) of every meld of a table (docs/rules.md section 3)."""
    rows = [(label, cards, str(getattr(t, key))) for key, label, cards in _MELD_ROWS]
    for i, rank in enumerate(("aces", "kings", "queens", "jacks")):
        rows.append((f"{rank} around", f"one {rank[:-1]} of each suit", str(t.around[i])))
    for i, rank in enumerate(("aces", "kings", "queens", "jacks")):
        rows.append((f"eight {rank}", f"all eight {rank}", str(t.eight[i])))
    return rows


def ruleset_text(r: Ruleset, given: str | None = None) -> str:
    """``r`` for people: where it comes from (``given``: the name or file asked for), every
    key, and its meld table."""
    preset = PRESETS.get(r.name)
    origin = (
        f"preset {r.name!r}, explained in docs/rules.md sections 2 and 3"
        if preset == r
        else f"custom ruleset from {given or r.name} (keys: docs/rules.md section 9)"
    )
    lines = [f"{r.name}: {r.description}", origin]
    lines += [f"  {key:<18} {value}" for key, value in ruleset_rows(r)]
    lines.append(f"\nmeld table {r.meld.name} (points; 0 = not a meld in this table):")
    lines += [f"  {name:<24} {cards:<40} {points}" for name, cards, points in meld_rows(r.meld)]
    lines.append("(a double row of 0: the two single melds count instead; docs/rules.md 3)")
    return "\n".join(lines)


def presets_text() -> str:
    """One line per preset: its name and description."""
    width = max(len(n) for n in PRESETS)
    lines = [f"{name:<{width}}  {r.description}" for name, r in PRESETS.items()]
    also = ", ".join(f"{a} = {b}" for a, b in ALIASES.items())
    return "\n".join([*lines, f"(short names: {also})"])
