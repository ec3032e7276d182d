"""Engines: one folder per engine, each a unit behind one :class:`~.base.Engine` descriptor.

:func:`engine_for` is the one place that chooses an engine for a ruleset; everything above this
layer (runs, games, ``show``, analysis) reaches an engine only through the descriptor it
returns. Adding an engine means adding its folder and one entry to :data:`ENGINES`.

Shared by every engine: :mod:`.trickplay` (the trick-play kernel), :mod:`.games` (game-end
bookkeeping) and :mod:`.base` (the interface).

>>> from pinochle_sim.rules import get_preset
>>> engine_for(get_preset("three-hand")).name, engine_for(get_preset("two-hand")).name
('auction', 'two-hand')
"""

from __future__ import annotations

from pinochle_sim.engines import auction, two_hand
from pinochle_sim.engines.base import Engine, EngineInputs, Layout
from pinochle_sim.rules import Ruleset

ENGINES: tuple[Engine, ...] = (auction.ENGINE, two_hand.ENGINE)
"""Every engine, in the order :func:`engine_for` asks them."""

ENGINE_VERSION = max(e.version for e in ENGINES)
"""The behaviour version recorded with every run (bumped when any engine's records change)."""


def engine_for(rules: Ruleset) -> Engine:
    """The engine that plays ``rules`` (its ``prepare`` then checks the details)."""
    for engine in ENGINES:
        if engine.plays(rules):
            return engine
    raise ValueError(f"rules {rules.name!r}: no engine plays trump_by = {rules.trump_by!r}")


__all__ = ["ENGINES", "ENGINE_VERSION", "Engine", "EngineInputs", "Layout", "engine_for"]
