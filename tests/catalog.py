"""What the tests parametrize over, read from the package's registries (never typed out again):
presets by engine, policy kinds and registered policies."""

from __future__ import annotations

from pinochle_sim.engines import ENGINES, engine_for
from pinochle_sim.policies import KINDS, REGISTRY
from pinochle_sim.rules import PRESETS

ALL_PRESETS: tuple[str, ...] = tuple(PRESETS)
"""Every preset name, in the registry's order."""


def presets_of(engine: str, players: int | None = None) -> tuple[str, ...]:
    """Presets the named engine plays (optionally only those with ``players`` seats)."""
    assert engine in {e.name for e in ENGINES}, engine
    return tuple(
        name
        for name, rules in PRESETS.items()
        if engine_for(rules).name == engine and (players is None or rules.players == players)
    )


AUCTION_PRESETS = presets_of("auction")
FOUR_SEAT_PRESETS = presets_of("auction", players=4)
TWO_HAND_PRESETS = presets_of("two-hand")


def kinds_of(preset: str) -> tuple[str, ...]:
    """The policy kinds ``preset``'s engine asks for."""
    rules = PRESETS[preset]
    return engine_for(rules).policy_kinds(rules)


def policies_of(kind: str) -> tuple[str, ...]:
    """Every registered policy of ``kind``, default first."""
    return tuple(REGISTRY[kind])


__all__ = [
    "ALL_PRESETS",
    "AUCTION_PRESETS",
    "FOUR_SEAT_PRESETS",
    "KINDS",
    "TWO_HAND_PRESETS",
    "kinds_of",
    "policies_of",
    "presets_of",
]
