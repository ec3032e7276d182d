"""What a run is: one frozen :class:`RunSpec`, validated once where it is made.

Everything that determines a run's records sits in the spec (rules, policies, seed, hands or
games, fixed cards, dealer, the double-dummy columns, the part size); its :meth:`RunSpec.settings`
are the settings its manifest stores and a resume must match. How the run is carried out
(where it is written, resume or overwrite, threads, a cluster, who is told of progress) is not
part of it: those are the keyword options of :func:`pinochle_sim.runs.runner.run`.

>>> spec = RunSpec(hands=10_000, seed=7, rules="joedog")
>>> spec.rules.name, spec.n_parts
('joedog', 1)
>>> RunSpec(hands=0)
Traceback (most recent call last):
...
ValueError: hands must be a positive whole number, got 0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from pinochle_sim.core.limits import MAX_RUN_HANDS
from pinochle_sim.engines import EngineInputs
from pinochle_sim.policies import PolicySet
from pinochle_sim.policies.seating import Seating
from pinochle_sim.rules import Ruleset, dumps_ruleset
from pinochle_sim.runs.simulate.hands import (
    check_dealer,
    check_range,
    deal_constraints,
    describe_constraints,
    engine_inputs,
)
from pinochle_sim.runs.store.files import n_parts, part_range

DEFAULT_PART_SIZE = 1 << 17
"""Hands per part file: a part is what a run holds in memory (twice) and what an interruption
can lose."""
DD_PART_SIZE = 1 << 9
"""Hands per part of a ``--dd`` run: 512 partnership deals take minutes to solve."""
GAMES_PART_SIZE = 1 << 14
"""Games per part file in a games run (a two-hand game is ~4 deals, a partnership one ~7)."""


@dataclass(frozen=True)
class RunSpec:
    """What determines a run's records (a resume must match all of it).

    ``rules`` is a preset name, a TOML file or a :class:`~pinochle_sim.rules.Ruleset` (None:
    partnership) and ``policies`` a :class:`~pinochle_sim.policies.PolicySet` (None: the
    defaults); both are resolved and checked against the rules' engine here. ``hands`` counts
    whole games when ``games`` is set (one record row per deal; the dealer then rotates within
    each game). ``fixed`` pins cards to seats (``{0: "AS AS 10S ..."}``: a full hand or some
    known cards). ``dd`` adds the double-dummy columns (:mod:`pinochle_sim.runs.simulate.dd`).
    ``part_size`` (None: :data:`DEFAULT_PART_SIZE`, :data:`DD_PART_SIZE` for ``dd``,
    :data:`GAMES_PART_SIZE` at most for games) never changes a record. ``seating``
    (:class:`~pinochle_sim.policies.seating.Seating`) gives named seats, or the bidding side
    and the defenders, policy sets of their own; ``policies`` plays everywhere else."""

    hands: int
    seed: int = 0
    rules: Ruleset = None  # type: ignore[assignment]  # None or a name is resolved on creation
    policies: PolicySet = None  # type: ignore[assignment]
    games: bool = False
    fixed: tuple[tuple[int, str | tuple[str | int, ...]], ...] = ()
    """Fixed cards per seat, as ``(seat, cards)`` pairs (a mapping given is turned into them)."""
    dealer: int | None = None
    dd: bool = False
    part_size: int = 0
    """0 (or None) on creation: the default for the run's kind, which a run of slow players
    cuts finer (about a minute of work a part)."""
    seating: Seating | None = None
    """None (or an empty seating) on creation: ``policies`` at every seat."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        hands = self.hands
        if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 1:
            raise ValueError(f"hands must be a positive whole number, got {hands}")
        if hands > MAX_RUN_HANDS:
            raise ValueError(f"at most {MAX_RUN_HANDS:.0e} {self.unit} per run, got {hands:,}")
        set_(self, "hands", int(hands))
        inputs = engine_inputs(self.rules, self.policies)
        set_(self, "rules", inputs.rules)
        set_(self, "policies", inputs.policies)
        seating = self.seating or None
        if seating is not None:
            if not isinstance(seating, Seating):
                raise ValueError(f"seating must be a Seating, got {seating!r}")
            for other in seating.sets(inputs.policies)[1:]:
                inputs.engine.check_policies(inputs.rules, other)
            seating.check(inputs.rules, inputs.policies, inputs.engine.has_auction)
            pp = seating.array(inputs.policies, inputs.rules.players, inputs.rules.partnerships)
            inputs = dataclasses.replace(inputs, pp=pp)
        set_(self, "seating", seating)
        check_range(self.seed, 0, self.hands)
        check_dealer(inputs, self.dealer)
        fixed = self.fixed
        if isinstance(fixed, Mapping):
            fixed = tuple(sorted(fixed.items()))
        set_(self, "fixed", tuple((seat, _cards(c)) for seat, c in fixed or ()))
        if self.games and self.dealer is not None:
            raise ValueError("a games run rotates the dealer: it cannot be fixed")
        if self.games and self.fixed:
            raise ValueError("a games run deals every card freely: fixed cards are for hand runs")
        if self.dd and self.games:
            raise ValueError("--dd solves single hands: it cannot be combined with a games run")
        self.__dict__["_size_given"] = bool(self.part_size)
        size = self.part_size or (DD_PART_SIZE if self.dd else DEFAULT_PART_SIZE)
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise ValueError("part_size must be positive")
        set_(self, "part_size", int(min(size, GAMES_PART_SIZE) if self.games else size))
        self.__dict__["_inputs"] = inputs
        self.__dict__["_fx"] = deal_constraints(inputs, dict(self.fixed))

    def __getstate__(self) -> dict[str, Any]:
        """The fields only (a worker rebuilds the kernel inputs: they hold compiled kernels)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__post_init__()

    @property
    def part_size_given(self) -> bool:
        """Whether the part size was asked for (else it is the default for the run's kind, and
        a run may cut slow work finer: :func:`pinochle_sim.runs.runner.run`)."""
        return self.__dict__.get("_size_given", True)

    def with_part_size(self, size: int) -> RunSpec:
        """The same run cut into parts of ``size`` (its records do not change), the size
        counting as not asked for."""
        out = dataclasses.replace(self, part_size=size)
        out.__dict__["_size_given"] = self.part_size_given
        return out

    @property
    def inputs(self) -> EngineInputs:
        """The checked kernel inputs of the rules and policies (one policy set in every seat)."""
        return self.__dict__["_inputs"]

    @property
    def fx(self) -> np.ndarray:
        """The deal constraints array of :mod:`pinochle_sim.core.deal` (the fixed cards)."""
        return self.__dict__["_fx"]

    @property
    def unit(self) -> str:
        return "games" if self.games else "hands"

    @property
    def kinds(self) -> tuple[str, ...]:
        """The policy kinds the rules' engine asks for (what provenance lists)."""
        return self.inputs.policy_kinds

    @property
    def engine_version(self) -> int:
        """The engine's behaviour version (from its descriptor)."""
        return self.inputs.engine.version

    @property
    def fixed_text(self) -> dict[str, str] | None:
        """The fixed cards per seat as provenance records them (``{"0": "AS AS 10S"}``)."""
        return describe_constraints(self.fx, self.rules.players) or None

    @property
    def n_parts(self) -> int:
        return n_parts(self.hands, self.part_size)

    def part_range(self, k: int) -> tuple[int, int]:
        """(first hand, hands) of part ``k``."""
        return part_range(self.hands, self.part_size, k)

    def settings(self) -> dict[str, Any]:
        """The settings a run folder's manifest stores (a resume must match every one)."""
        fixed = self.fixed_text
        return (
            {
                "unit": self.unit,
                "rules_name": self.rules.name,
                "rules_toml": dumps_ruleset(self.rules),
                "policies": self.policies.resolved(self.kinds),
                "seed": self.seed,
                "hands": self.hands,
                "part_size": self.part_size,
                "dealer": self.dealer,
                "engine_version": self.engine_version,
            }
            | ({"fixed": fixed} if fixed else {})
            | ({"dd": True} if self.dd else {})
            | ({"seating": self.seating.resolved(self.kinds)} if self.seating else {})
        )

    def default_out(self) -> str:
        """The folder a run goes to when none is given."""
        games = "games" if self.games else ""
        return f"results/runs/{self.rules.name}-seed{self.seed}-{self.hands}{games}"


def _cards(cards: str | Iterable[str | int]) -> str | tuple[str | int, ...]:
    """Fixed cards as given, a list made a tuple (a spec is hashable)."""
    return cards if isinstance(cards, str) else tuple(cards)


def spec_of(hands: int | RunSpec, **fields: Any) -> RunSpec:
    """``hands`` if it is a :class:`RunSpec` (no other fields then), else the spec of that many
    hands with ``fields``."""
    if isinstance(hands, RunSpec):
        if fields:
            raise TypeError(f"give the run's settings in its RunSpec, not as {sorted(fields)}")
        return hands
    return RunSpec(hands, **fields)


__all__ = [
    "DD_PART_SIZE",
    "DEFAULT_PART_SIZE",
    "GAMES_PART_SIZE",
    "RunSpec",
    "spec_of",
]
