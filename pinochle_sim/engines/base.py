"""The interface every engine offers: its descriptor (:class:`Engine`), the record layout it
writes (:class:`Layout`) and the checked, flattened inputs of its kernels (:class:`EngineInputs`).

An engine is one folder under ``engines/`` with one :class:`Engine` in its ``__init__``, listed
once in :data:`pinochle_sim.engines.ENGINES`. Everything above this layer (runs, games, ``show``,
analysis) reaches an engine only through its descriptor, found by
:func:`pinochle_sim.engines.engine_for`.

Kernel entry points share one argument order: the four arrays ``(ra, ma, xa, pp)`` (rules,
meld table, the engine's own extra array, per-seat policies) and the policy bundle (the
policies those seats use, a compile-time argument: :mod:`pinochle_sim.policies.bundle`), then
scalars and outputs:

* ``play_chunk(ra, ma, xa, pp, bundle, seed, fx, start, lo, hi, dealer, out)``: hands
  ``start+lo .. start+hi-1`` into ``out[:, lo:hi]`` (``dealer`` -1: rotate);
* ``trace_one(ra, ma, xa, pp, bundle, seed, fx, hand, dealer, out, trace)``: one hand with its
  trace;
* ``play_games(ra, ma, xa, pp, bundle, seed, fx, start, n, ncol, g0) -> (rows, used)``: whole
  games, the game columns from row ``g0`` on.

``fx`` (int64[``FX_SIZE``], :mod:`pinochle_sim.core.deal`) is the deal constraints, always
right after the seed: the cards fixed in each seat's hand and an optional forced contract
(bidder and trump, auction engine only). :func:`pinochle_sim.core.deal.no_constraints` is the
free deal, which draws exactly as before constraints existed (records unchanged).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pinochle_sim.policies import DEFAULTS, KINDS, REGISTRY, PolicySet, seat_policy_array
from pinochle_sim.policies.bundle import PolicyBundle
from pinochle_sim.rules import Ruleset
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.rules.meld import meld_table_array

SUIT_LETTERS = "shdc"


@dataclass(frozen=True)
class Layout:
    """Column names of ``out[column, hand]`` in order, and the offsets kernels use
    (``LayoutArray``, int64; what each slot means is the engine's own business)."""

    names: tuple[str, ...]
    offsets: np.ndarray

    @property
    def ncol(self) -> int:
        return len(self.names)

    @property
    def index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}


ColumnDoc = tuple[str, str, str]
"""(name or regular expression, numpy dtype name, meaning with ``{0}``... for the groups)."""


@dataclass(frozen=True)
class Engine:
    """One engine: which rules it plays, its kernels, its records, its trace decoder."""

    name: str
    doc: str
    version: int
    """Bumped whenever the engine or a policy changes the records a seed produces."""
    plays: Callable[[Ruleset], bool]
    """Whether this engine is the one for a ruleset (exactly one engine says yes)."""
    prepare: Callable[[Ruleset], np.ndarray]
    """Check that the engine can play the ruleset (ValueError naming the key otherwise);
    returns its extra kernel array ``xa``."""
    layout: Callable[[Ruleset], Layout]
    columns: tuple[ColumnDoc, ...]
    """Dtypes and meanings of this engine's own columns; they take precedence over the
    columns every engine shares (:mod:`pinochle_sim.runs.records`)."""
    policy_kinds: Callable[[Ruleset], tuple[str, ...]]
    """The decisions a ruleset's hands ask for (what provenance records)."""
    play_chunk: Callable[..., None]
    trace_one: Callable[..., None]
    trace_size: int
    play_games: Callable[..., tuple[np.ndarray, int]]
    decode: Callable[[EngineInputs, dict[str, int], np.ndarray], dict[str, Any]]
    """One traced hand as the ``show --json`` dict."""
    format: Callable[[dict[str, Any]], str]
    """A decoded hand as text for people."""
    has_auction: bool
    """Hands have a bidder, bids and a bidding side (records carry ``bidder``, ``bid``,
    ``made``...); without one, each seat scores for itself (``winner``)."""
    open_play: bool = False
    """Every card is known when the ``play`` policy chooses (the two-hand play-out), so a play
    policy flagged ``sees_all`` (``solver``) may play; elsewhere it is refused."""

    def check_policies(self, rules: Ruleset, policies: PolicySet) -> None:
        """Refuse a policy or parameter of a kind ``rules`` never asks for (it would change
        nothing, and a study of it would report zeros as if they were findings)."""
        used = self.policy_kinds(rules)
        for kind in KINDS:
            info = REGISTRY[kind][policies.name(kind)]
            if "auction_only" in info.flags and not self.has_auction:
                raise ValueError(
                    f"{kind} policy {info.name!r} plays only games with an auction "
                    f"(four-hand and three-hand), not {rules.name!r}"
                )
            if "partnerships_only" in info.flags and not rules.partnerships:
                raise ValueError(
                    f"{kind} policy {info.name!r} has models of four-hand partnership play only "
                    f"(partnership, joedog, partnership-classic), not {rules.name!r}"
                )
            if kind in used:
                continue
            where = f"rules {rules.name!r} have no {kind} decision (their policy kinds: "
            where += ", ".join(used) + ")"
            if policies.name(kind) != DEFAULTS[kind]:
                raise ValueError(f"{kind} policy {policies.name(kind)!r}: {where}")
            for key, _ in policies.params:
                if key.partition(".")[0] == kind:
                    raise ValueError(f"parameter {key}: {where}")
        info = REGISTRY["play"][policies.name("play")]
        if "sees_all" in info.flags and not self.open_play:
            raise ValueError(
                f"play policy {info.name!r} needs every card seen: only the two-hand play-out "
                f"is open (rules {rules.name!r} hide the other hands)"
            )

    def inputs(self, rules: Ruleset, policies: PolicySet) -> EngineInputs:
        """Checked, flattened kernel inputs for ``rules`` and one policy set for every seat."""
        xa = self.prepare(rules)
        self.check_policies(rules, policies)
        return EngineInputs(
            self,
            rules,
            policies,
            rule_array(rules),
            meld_table_array(rules),
            xa,
            seat_policy_array(policies),
            self.layout(rules),
        )


@dataclass(frozen=True)
class EngineInputs:
    """Everything a kernel call needs, validated and flattened."""

    engine: Engine
    rules: Ruleset
    policies: PolicySet
    ra: np.ndarray
    ma: np.ndarray
    xa: np.ndarray
    pp: np.ndarray
    layout: Layout

    @functools.cached_property
    def bundle(self) -> PolicyBundle:
        """The policies the seats of ``pp`` use (a compile-time argument of the kernels; always
        derived from ``pp``, so a kernel never meets a policy id its bundle lacks)."""
        return PolicyBundle.from_array(self.pp)

    def kernel_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, PolicyBundle]:
        """What every kernel entry point takes first: ``(ra, ma, xa, pp, bundle)``."""
        return self.ra, self.ma, self.xa, self.pp, self.bundle

    @property
    def policy_kinds(self) -> tuple[str, ...]:
        return self.engine.policy_kinds(self.rules)


RECORD_MAX = 32767
"""Bids, meld and scores are stored as int16."""
