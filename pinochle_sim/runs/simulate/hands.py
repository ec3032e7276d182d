"""The library entry points a notebook uses: play a range of hands, trace one hand.

>>> from pinochle_sim import play_hands
>>> cols = play_hands(seed=1, start=0, count=1000)
>>> int(cols["bid"].min()) >= 250
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import numpy as np

from pinochle_sim.core.cards import card_name, encode_faces, format_cards, hand_faces, parse_cards
from pinochle_sim.core.deal import (
    FX_ANY,
    FX_BIDDER,
    FX_HANDS,
    FX_STOP,
    FX_TRUMP,
    FX_UP,
    no_constraints,
)
from pinochle_sim.engines import EngineInputs, engine_for
from pinochle_sim.policies import DEFAULT_POLICIES, REGISTRY, PolicySet
from pinochle_sim.rules import Ruleset, resolve_rules
from pinochle_sim.runs.simulate import pool

DEFAULT_CHUNK = 4096
MAX_SEED = (1 << 63) - 1
MEMORY_SHARE = 0.8
"""The share of the memory available now that one call may ask for before it is refused."""


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation now (Linux ``MemAvailable``; else the
    physical memory; None if neither can be read)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None


def check_memory(nbytes: int, what: str, hint: str = "") -> None:
    """Refuse, before allocating, a job that needs more than :data:`MEMORY_SHARE` of the memory
    available (``what`` says what would be held; ``hint`` what to do instead)."""
    free = available_memory()
    if free is not None and nbytes > MEMORY_SHARE * free:
        raise ValueError(
            f"{what} would need about {nbytes / 1e9:,.1f} GB of memory, more than the "
            f"{free / 1e9:,.1f} GB available" + (f": {hint}" if hint else "")
        )


def engine_inputs(
    rules: str | Ruleset | None = None, policies: PolicySet | None = None
) -> EngineInputs:
    """Resolve rules and policies, find their engine and check it can play them."""
    r = resolve_rules(rules)
    return engine_for(r).inputs(r, policies or DEFAULT_POLICIES)


def check_dealer(inputs: EngineInputs, dealer: int | None) -> None:
    if dealer is not None and (
        isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer))
    ):
        raise ValueError(f"dealer must be a seat number, got {dealer!r}")
    if dealer is not None and not 0 <= dealer < inputs.rules.players:
        raise ValueError(f"dealer must be a seat 0..{inputs.rules.players - 1}, got {dealer}")


def check_range(seed: int, start: int, count: int) -> None:
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
    if start < 0 or count < 0:
        raise ValueError(f"hand range must be non-negative, got start={start} count={count}")
    if start + count > MAX_SEED:
        raise ValueError(f"hand indices must stay below 2**63 - 1, got start={start} count={count}")


Fixed = Mapping[int, str | list[str] | list[int]]
"""Cards fixed per seat: ``{seat: "AS 10S KS ..."}`` (a full hand or some known cards)."""


def deal_constraints(
    inputs: EngineInputs,
    fixed: Fixed | None = None,
    bidder: int | None = None,
    trump: int | None = None,
    upcard: str | None = None,
    auction_only: bool = False,
) -> np.ndarray:
    """The checked constraints array ``fx`` of :mod:`pinochle_sim.core.deal` (ValueError with
    one line naming the problem: a seat the rules lack, too many cards for a hand, a third copy
    of a card across seats, a forced contract without an auction).

    ``auction_only``: the hands stop after the auction; only the columns up to it (the dealt
    hands and their melds, ``bidder``, ``bid``, ``trump``, ``stuck``, the auction's own) are
    written, the rest are left unset (the advisor's question of what the bidder would bid)."""
    fx = no_constraints()
    rules = inputs.rules
    counts = [0] * 24
    owner: dict[int, int] = {}
    if upcard is not None:
        if inputs.rules.widow or inputs.engine.has_auction:
            raise ValueError(f"rules {rules.name!r} turn up no card: --upcard is for two-hand")
        ups = parse_cards(upcard)
        if len(ups) != 1:
            raise ValueError(f"the up-card is one card, got {upcard!r}")
        up = ups[0]
        counts[up] += 1
        owner[up] = -1
        fx[FX_UP] = up
        fx[FX_ANY] = 1
    for seat, cards in (fixed or {}).items():
        if not isinstance(seat, int) or not 0 <= seat < rules.players:
            raise ValueError(
                f"fixed cards for seat {seat!r}: rules {rules.name!r} have seats "
                f"0..{rules.players - 1}"
            )
        faces = parse_cards(cards)
        if len(faces) > rules.hand_size:
            raise ValueError(
                f"seat {seat}: {len(faces)} fixed cards, but a hand of rules {rules.name!r} "
                f"has {rules.hand_size}"
            )
        for f in faces:
            counts[f] += 1
            if counts[f] > 2:
                other = owner[f]
                where = "twice" if other == seat else f"for seats {other} and {seat}"
                where = f"in seat {seat}'s hand and as the up-card" if other < 0 else where
                raise ValueError(
                    f"{card_name(f)} fixed {where} beyond its two copies "
                    f"(the deck has only two of each card)"
                )
            owner.setdefault(f, seat)
        fx[FX_HANDS + seat] = encode_faces(faces)
        fx[FX_ANY] |= int(bool(faces))
    if (bidder is None) != (trump is None):
        raise ValueError("a forced contract needs both the bidder and the trump")
    if bidder is not None and trump is not None:
        if not inputs.engine.has_auction:
            raise ValueError(f"rules {rules.name!r} have no auction: no bidder can be forced")
        if not 0 <= bidder < rules.players or not 0 <= trump < 4:
            raise ValueError(f"forced contract: bad seat {bidder} or trump {trump}")
        fx[FX_BIDDER] = bidder
        fx[FX_TRUMP] = trump
    if auction_only:
        if not inputs.engine.has_auction:
            raise ValueError(f"rules {rules.name!r} have no auction to stop after")
        if bidder is not None:
            raise ValueError("a forced contract has no auction to stop after")
        fx[FX_STOP] = 1
    return fx


def describe_constraints(fx: np.ndarray, players: int) -> dict[str, str]:
    """The fixed cards of ``fx`` per seat, as provenance records them (``{"0": "AS 10S"}``)."""
    return {
        str(p): format_cards(hand_faces(int(fx[FX_HANDS + p])))
        for p in range(players)
        if fx[FX_HANDS + p]
    }


SEARCH_CHUNK = 8
"""Hands per chunk when a play policy searches (``pimc``: 0.1 to 1 s a hand): small chunks
keep every thread busy to the end (records never depend on the chunking)."""


CLUSTER_SEARCH_UNITS = 64
"""Hands (deals of a match) a part or task holds where search players play on a cluster's
workers: they are not timed from here (the kernels need not even be compiled here), and a
``pimc`` task of that many takes seconds to a few minutes, so progress moves."""
SEARCH_FLAGS = frozenset({"reads_table", "sees_all"})
"""Registry flags of the play policies that search while they play (``pimc``; the two-hand
``solver``): thousands of times slower than the bots."""


def searches(inputs: EngineInputs) -> bool:
    """Whether a seat's play policy searches during play (:data:`SEARCH_FLAGS`)."""
    return any(SEARCH_FLAGS & REGISTRY["play"][n].flags for n in inputs.bundle.names()["play"])


def play_hands_array(
    inputs: EngineInputs,
    seed: int,
    start: int,
    count: int,
    chunk: int = DEFAULT_CHUNK,
    dealer: int | None = None,
    out: np.ndarray | None = None,
    fx: np.ndarray | None = None,
) -> np.ndarray:
    """Play hands ``start .. start+count-1`` (under the deal constraints ``fx`` of
    :func:`deal_constraints`, none by default); returns ``out[column, hand]`` (int64)."""
    check_range(seed, start, count)
    if chunk < 1:
        raise ValueError("chunk must be positive")
    check_dealer(inputs, dealer)
    if out is None:
        check_memory(
            8 * inputs.layout.ncol * count,
            f"{count:,} hands in memory",
            "play fewer at a time, or use run() to store them in parts",
        )
        out = np.empty((inputs.layout.ncol, count), dtype=np.int64)
    kernel = inputs.engine.play_chunk
    d = -1 if dealer is None else dealer
    args = inputs.kernel_args()
    fx = no_constraints() if fx is None else fx
    if searches(inputs):
        chunk = min(chunk, SEARCH_CHUNK)
    pool.in_chunks(
        lambda lo: kernel(*args, seed, fx, start, lo, min(count, lo + chunk), d, out),
        range(0, count, chunk),
    )
    return out


def play_hands(
    seed: int = 0,
    start: int = 0,
    count: int = 1000,
    rules: str | Ruleset | None = None,
    policies: PolicySet | None = None,
    chunk: int = DEFAULT_CHUNK,
    threads: int | None = None,
    dealer: int | None = None,
    fixed: Fixed | None = None,
) -> dict[str, np.ndarray]:
    """Play a contiguous range of hand indices; returns ``{column: int64 array}``.

    ``fixed`` pins cards to seats (``{0: "AS AS 10S ..."}``: a full hand or some known cards);
    the other cards are shuffled from each hand's own deal stream. Column meanings are
    documented in :mod:`pinochle_sim.runs.records`. The result for hand ``i`` depends only on
    ``(seed, i, rules, policies, dealer, fixed)``, never on ``chunk`` or ``threads``.
    """
    inputs = engine_inputs(rules, policies)
    fx = deal_constraints(inputs, fixed)
    with pool.threads(threads):
        out = play_hands_array(inputs, seed, start, count, chunk, dealer, fx=fx)
    return {name: out[i] for i, name in enumerate(inputs.layout.names)}


def trace_arrays(
    inputs: EngineInputs, seed: int, hand: int, dealer: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(one-column output, trace array) of a single hand, from the same engine as the batch."""
    check_range(seed, hand, 1)
    check_dealer(inputs, dealer)
    out = np.zeros((inputs.layout.ncol, 1), dtype=np.int64)
    trace = np.zeros(inputs.engine.trace_size, dtype=np.int64)
    inputs.engine.trace_one(
        *inputs.kernel_args(), seed, no_constraints(), hand, -1 if dealer is None else dealer,
        out, trace,
    )  # fmt: skip
    return out[:, 0], trace
