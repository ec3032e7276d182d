"""The library entry points a notebook uses: play a range of hands, trace one hand.

>>> from pinochle_sim import play_hands
>>> cols = play_hands(seed=1, start=0, count=1000)
>>> int(cols["bid"].min()) >= 250
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

import numba
import numpy as np

from .engine import COLUMNS, NCOL, TRACE_SIZE, _play_range, _trace_one
from .meld import meld_table_array
from .policies import DEFAULT_POLICIES, PolicySet
from .rules import Ruleset, resolve_rules
from .rules.arrays import rule_array

DEFAULT_CHUNK = 4096
MAX_SEED = (1 << 63) - 1


@dataclass(frozen=True)
class EngineInputs:
    """Everything a kernel call needs, validated and flattened."""

    rules: Ruleset
    policies: PolicySet
    ra: np.ndarray
    ma: np.ndarray
    pp: np.ndarray


def engine_inputs(rules: str | Ruleset | None = None,
                  policies: PolicySet | None = None) -> EngineInputs:  # fmt: skip
    """Resolve and check rules and policies for the engine."""
    r = resolve_rules(rules)
    if not (r.players == 4 and r.partnerships and r.trump_by == "auction" and r.widow == 0
            and r.meld_timing == "after-pass"):  # fmt: skip
        raise ValueError(
            f"rules {r.name!r}: the engine plays 4-player partnership auction games so far; "
            "two-hand and three-hand play is planned (see the issues)"
        )
    p = policies or DEFAULT_POLICIES
    return EngineInputs(r, p, rule_array(r), meld_table_array(r), p.to_array())


def _check_range(seed: int, start: int, count: int) -> None:
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
    if start < 0 or count < 0:
        raise ValueError(f"hand range must be non-negative, got start={start} count={count}")


@contextlib.contextmanager
def threads(n: int | None) -> Iterator[None]:
    """Run the kernels with ``n`` threads (None: numba's default) inside the block."""
    if n is None:
        yield
        return
    if not 1 <= n <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads must be between 1 and {numba.config.NUMBA_NUM_THREADS}")
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(old)


def play_hands_array(inputs: EngineInputs, seed: int, start: int, count: int,
                     chunk: int = DEFAULT_CHUNK, dealer: int | None = None,
                     out: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """Play hands ``start .. start+count-1``; returns ``out[column, hand]`` (int64)."""
    _check_range(seed, start, count)
    if chunk < 1:
        raise ValueError("chunk must be positive")
    if dealer is not None and not 0 <= dealer < inputs.rules.players:
        raise ValueError(f"dealer must be a seat 0..{inputs.rules.players - 1}")
    if out is None:
        out = np.empty((NCOL, count), dtype=np.int64)
    _play_range(inputs.ra, inputs.ma, inputs.pp, seed, start, count, chunk,
                -1 if dealer is None else dealer, out)  # fmt: skip
    return out


def play_hands(seed: int = 0, start: int = 0, count: int = 1000,
               rules: str | Ruleset | None = None, policies: PolicySet | None = None,
               chunk: int = DEFAULT_CHUNK, threads_: int | None = None,
               dealer: int | None = None) -> dict[str, np.ndarray]:  # fmt: skip
    """Play a contiguous range of hand indices; returns ``{column: int64 array}``.

    Column meanings are documented in :mod:`pinochle_sim.records`. The result for hand ``i``
    depends only on ``(seed, i, rules, policies, dealer)``, never on ``chunk`` or ``threads_``.
    """
    inputs = engine_inputs(rules, policies)
    with threads(threads_):
        out = play_hands_array(inputs, seed, start, count, chunk, dealer)
    return {name: out[i] for i, name in enumerate(COLUMNS)}


def trace_arrays(inputs: EngineInputs, seed: int, hand: int,
                 dealer: int | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """(one-column output, trace array) of a single hand, from the same engine as the batch."""
    _check_range(seed, hand, 1)
    out = np.zeros((NCOL, 1), dtype=np.int64)
    trace = np.zeros(TRACE_SIZE, dtype=np.int64)
    _trace_one(inputs.ra, inputs.ma, inputs.pp, seed, hand, -1 if dealer is None else dealer,
               out, trace)  # fmt: skip
    return out[:, 0], trace
