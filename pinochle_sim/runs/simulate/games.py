"""Whole games: deals played until a side reaches the ruleset's ``game_target``.

Each engine's games kernel plays them (:mod:`pinochle_sim.engines.games`: deal ids, dealer
rotation and the end-of-game rule); each deal is one record row with the usual columns plus:

* ``game``, ``deal`` (0-based within the game);
* ``total_k``: side k's running total after this deal;
* ``game_winner``: -1 while the game goes on, the winning side on the game's last deal.

Games run chunk by chunk on a thread pool (the kernels release the GIL); chunk results are
joined in game order, so the records do not depend on threads or chunk size.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.deal import no_constraints
from pinochle_sim.engines import EngineInputs
from pinochle_sim.engines.game_end import MAX_DEALS
from pinochle_sim.runs.simulate.pool import in_chunks
from pinochle_sim.runs.store.schema import games_layout

__all__ = ["MAX_DEALS", "games_layout", "play_games_array"]


def play_games_array(
    inputs: EngineInputs, seed: int, start: int, count: int, chunk: int = 256
) -> np.ndarray:
    """Play games ``start .. start+count-1``; returns ``out[column, deal row]`` (int64) in the
    column order of :func:`games_layout`. Uses numba's current thread count."""
    if count < 0 or start < 0:
        raise ValueError(f"game range must be non-negative, got start={start} count={count}")
    if (start + count) * MAX_DEALS >= 1 << 62:
        raise ValueError("game indices are too large")
    if chunk < 1:
        raise ValueError("chunk must be positive")
    base = inputs.layout.ncol
    ncol = games_layout(inputs.rules).ncol

    fx = no_constraints()

    def one(lo: int) -> np.ndarray:
        n = min(chunk, start + count - lo)
        buf, rows = inputs.engine.play_games(*inputs.kernel_args(), seed, fx, lo, n, ncol, base)
        return buf[:, :rows]

    if count == 0:
        return np.empty((ncol, 0), dtype=np.int64)
    return np.concatenate(in_chunks(one, range(start, start + count, chunk)), axis=1)
