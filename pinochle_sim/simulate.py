"""The library entry points a notebook uses: play a range of hands, trace one hand.

>>> from pinochle_sim import play_hands
>>> cols = play_hands(seed=1, start=0, count=1000)
>>> int(cols["bid"].min()) >= 250
True
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from .engine import TRACE_SIZE, _play_chunk, _trace_one
from .layout import Layout, layout_for
from .meld import meld_table_array
from .policies import DEFAULT_POLICIES, PolicySet, seat_policy_array
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
    layout: Layout
    ca: np.ndarray | None = None
    """Two-hand candidate melds (:mod:`pinochle_sim.stockmeld`); None in auction games."""

    @property
    def two_hand(self) -> bool:
        return self.ca is not None

    def kernel_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The four arrays every kernel of this game takes first: (rules, meld, policies,
        layout) for the auction engine, (rules, meld, candidate melds, policies) for two-hand."""
        if self.ca is not None:
            return self.ra, self.ma, self.ca, self.pp
        return self.ra, self.ma, self.pp, self.layout.offsets


def engine_inputs(
    rules: str | Ruleset | None = None, policies: PolicySet | None = None
) -> EngineInputs:
    """Resolve and check rules and policies for the engine."""
    r = resolve_rules(rules)
    p = policies or DEFAULT_POLICIES
    if r.trump_by == "turn-up":
        return _two_hand_inputs(r, p)
    if r.meld_timing != "after-pass":
        raise ValueError(
            f"rules {r.name!r}: melding after tricks needs the two-hand engine "
            "(trump_by = 'turn-up')"
        )
    shapes_played = (r.players == 4 and r.partnerships) or (r.players == 3 and not r.partnerships)
    if not shapes_played or r.hand_size > 16:
        raise ValueError(
            f"rules {r.name!r}: the engine plays four players in partnerships or three players "
            f"each for self, at most 16 cards each; got {r.players} players x {r.hand_size}"
        )
    not_played_here = {
        "rounding": r.rounding != "none",
        "stock_phase": r.stock_phase,
        "turnup_dix": r.turnup_dix != 0,
        "discards_count": r.discards_count and r.widow == 0,
    }
    unsupported = [key for key, value in not_played_here.items() if value]
    if unsupported:
        raise ValueError(
            f"rules {r.name!r}: the auction engine does not implement "
            f"{', '.join(unsupported)} (two-hand rules)"
        )
    ma = meld_table_array(r)
    _check_record_range(r, ma)
    return EngineInputs(r, p, rule_array(r), ma, seat_policy_array(p), layout_for(r))


def _two_hand_inputs(r: Ruleset, p: PolicySet) -> EngineInputs:
    """Checks for the two-hand engine (RULES.md 9), which plays 12 cards each and a 24-card
    stock with melding after stock tricks."""
    from .stockmeld import candidate_array, candidates

    wrong = {
        "players": (r.players != 2, "must be 2"),
        "hand_size": (r.hand_size != 12, "must be 12 (a 23-card stock and the up-card)"),
        "meld_timing": (r.meld_timing != "after-tricks", "must be 'after-tricks'"),
        "stock_phase": (not r.stock_phase, "must be true (free play while the stock lasts)"),
        "widow": (r.widow != 0, "must be 0"),
        "save_rule": (r.save_rule, "does not apply (no bid): must be false"),
        "throw_in": (r.throw_in, "does not apply (no bid): must be false"),
    }
    bad = [f"{key} {msg}" for key, (cond, msg) in wrong.items() if cond]
    if bad:
        raise ValueError(f"rules {r.name!r}: the two-hand engine needs " + "; ".join(bad))
    ma = meld_table_array(r)
    ca = candidate_array(r)
    top = max(v for t in range(4) for _, v, _, _ in candidates(r.meld, t))
    worst = 12 * top + 2 * r.meld.dix + r.turnup_dix + r.total_trick_points
    if worst > RECORD_MAX:
        raise ValueError(
            f"rules {r.name!r}: meld could reach {worst:,}, beyond the records' int16 range"
        )
    return EngineInputs(r, p, rule_array(r), ma, seat_policy_array(p), layout_for(r), ca)


RECORD_MAX = 32767
"""Bids, meld and scores are stored as int16."""


def _check_record_range(r: Ruleset, ma: np.ndarray) -> None:
    """Refuse rulesets whose bids, meld or scores could overflow the int16 record columns."""
    from .auction import MAX_CALLS
    from .meld import MA_AROUND, MA_PIN, MA_PLAIN

    max_bid = r.min_bid + MAX_CALLS * max(r.bid_steps)
    arounds = sum(int(ma[MA_AROUND + 3 * i : MA_AROUND + 3 * i + 3].max()) for i in range(4))
    seat_meld = int(ma[:MA_PLAIN].max()) + 3 * int(ma[MA_PLAIN:MA_PIN].max())
    seat_meld += int(ma[MA_PIN : MA_PIN + 3].max()) + arounds
    worst = max(max_bid, 2 * seat_meld + r.total_trick_points)
    if worst > RECORD_MAX:
        raise ValueError(
            f"rules {r.name!r}: bids or meld could reach {worst:,}, beyond the records' "
            f"int16 range ({RECORD_MAX:,}); use smaller point values"
        )


def _check_dealer(inputs: EngineInputs, dealer: int | None) -> None:
    if dealer is not None and not 0 <= dealer < inputs.rules.players:
        raise ValueError(f"dealer must be a seat 0..{inputs.rules.players - 1}, got {dealer}")


def _check_range(seed: int, start: int, count: int) -> None:
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
    if start < 0 or count < 0:
        raise ValueError(f"hand range must be non-negative, got start={start} count={count}")
    if start + count > MAX_SEED:
        raise ValueError(f"hand indices must stay below 2**63 - 1, got start={start} count={count}")


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


def play_hands_array(
    inputs: EngineInputs,
    seed: int,
    start: int,
    count: int,
    chunk: int = DEFAULT_CHUNK,
    dealer: int | None = None,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Play hands ``start .. start+count-1``; returns ``out[column, hand]`` (int64)."""
    _check_range(seed, start, count)
    if chunk < 1:
        raise ValueError("chunk must be positive")
    _check_dealer(inputs, dealer)
    if out is None:
        out = np.empty((inputs.layout.ncol, count), dtype=np.int64)
    if inputs.two_hand:
        from .two_hand import _play_chunk2 as kernel
    else:
        kernel = _play_chunk
    d = -1 if dealer is None else dealer
    arrays = inputs.kernel_arrays()
    in_chunks(
        lambda lo: kernel(*arrays, seed, start, lo, min(count, lo + chunk), d, out),
        range(0, count, chunk),
    )
    return out


def in_chunks(work: Callable[[int], Any], starts: range) -> list[Any]:
    """``[work(lo) for lo in starts]``, on a thread pool of numba's current thread count (the
    kernels release the GIL, so chunks run in parallel); results in the order of ``starts``."""
    workers = min(numba.get_num_threads(), len(starts))
    if workers <= 1:
        return [work(lo) for lo in starts]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(work, starts))


def play_hands(
    seed: int = 0,
    start: int = 0,
    count: int = 1000,
    rules: str | Ruleset | None = None,
    policies: PolicySet | None = None,
    chunk: int = DEFAULT_CHUNK,
    threads_: int | None = None,
    dealer: int | None = None,
) -> dict[str, np.ndarray]:
    """Play a contiguous range of hand indices; returns ``{column: int64 array}``.

    Column meanings are documented in :mod:`pinochle_sim.records`. The result for hand ``i``
    depends only on ``(seed, i, rules, policies, dealer)``, never on ``chunk`` or ``threads_``.
    """
    inputs = engine_inputs(rules, policies)
    with threads(threads_):
        out = play_hands_array(inputs, seed, start, count, chunk, dealer)
    return {name: out[i] for i, name in enumerate(inputs.layout.names)}


def trace_arrays(
    inputs: EngineInputs, seed: int, hand: int, dealer: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(one-column output, trace array) of a single hand, from the same engine as the batch."""
    _check_range(seed, hand, 1)
    _check_dealer(inputs, dealer)
    out = np.zeros((inputs.layout.ncol, 1), dtype=np.int64)
    if inputs.two_hand:
        from .two_hand import TRACE2_SIZE as size
        from .two_hand import _trace_deal as kernel
    else:
        size, kernel = TRACE_SIZE, _trace_one
    trace = np.zeros(size, dtype=np.int64)
    kernel(*inputs.kernel_arrays(), seed, hand, -1 if dealer is None else dealer, out, trace)
    return out[:, 0], trace


DEFAULT_PART_SIZE = 1 << 17
GAMES_PART_SIZE = 1 << 14
"""Games per part file in a games run (a two-hand game is ~4 deals, a partnership one ~7)."""


@dataclass(frozen=True)
class RunSummary:
    """What a finished run reports. Auction figures are None for two-hand runs, whose
    ``win_rates`` (seat 0, seat 1, tie) are None for auction runs."""

    path: str
    hands: int
    hands_computed: int
    seconds: float
    bytes: int
    mean_seat_meld: float
    mean_bidding_meld: float | None = None
    stuck_rate: float | None = None
    make_rate: float | None = None
    concede_rate: float | None = None
    mean_bid: float | None = None
    mean_score: float | None = None
    win_rates: tuple[float, float, float] | None = None
    games: int | None = None
    """Games runs: the number of games (``hands`` then counts their deals)."""
    game_wins: tuple[float, ...] | None = None
    """Games runs: each side's share of the games won."""

    @property
    def hands_per_second(self) -> float:
        return self.hands_computed / self.seconds if self.seconds > 0 else float("inf")

    @property
    def headline(self) -> str:
        """One line of the run's main figures."""
        if self.games is not None:
            wins = ", ".join(f"side {k} {w:.1%}" for k, w in enumerate(self.game_wins or ()))
            return (
                f"{self.games:,} games, {self.hands / self.games:.2f} deals per game; "
                f"games won: {wins}"
            )
        if self.win_rates is not None:
            w0, w1, tie = self.win_rates
            return (
                f"mean meld per seat {self.mean_seat_meld:.1f}; mean score per seat "
                f"{self.mean_score:.1f}; seat 0 wins {w0:.1%}, seat 1 {w1:.1%}, ties {tie:.1%}"
            )
        return (
            f"mean meld per seat {self.mean_seat_meld:.1f}, bidding side "
            f"{self.mean_bidding_meld:.1f}; mean bid {self.mean_bid:.1f}; stuck "
            f"{self.stuck_rate:.1%}; made {self.make_rate:.1%}; conceded {self.concede_rate:.1%}"
        )


def default_out_dir(rules: Ruleset, seed: int, hands: int, games: bool = False) -> str:
    return f"results/runs/{rules.name}-seed{seed}-{hands}" + ("games" if games else "")


def run(
    hands: int,
    seed: int = 0,
    rules: str | Ruleset | None = None,
    policies: PolicySet | None = None,
    out: str | None = None,
    threads_: int | None = None,
    resume: bool = False,
    overwrite: bool = False,
    part_size: int = DEFAULT_PART_SIZE,
    dealer: int | None = None,
    progress: Callable[[int], None] | None = None,
    games: bool = False,
) -> RunSummary:
    """Simulate ``hands`` hands of ``seed`` into a Parquet run folder (see :mod:`dataset`).

    Part ``k+1`` is computed while part ``k`` is written on a thread; memory holds two parts at
    most whatever ``hands`` is. ``progress(n)`` is called with the hands finished each time.
    With ``games``, ``hands`` counts whole games played to the target (:mod:`.games`), one row
    per deal; ``dealer`` must then be None (the deal rotates within each game).
    """
    import time
    from concurrent.futures import ThreadPoolExecutor

    from .dataset import META_KEY, RunFolder, RunSettings, provenance
    from .records import to_table

    if hands < 1:
        raise ValueError(f"hands must be a positive whole number, got {hands}")
    if part_size < 1:
        raise ValueError("part_size must be positive")
    inputs = engine_inputs(rules, policies)
    _check_range(seed, 0, hands)
    if games and dealer is not None:
        raise ValueError("a games run rotates the dealer: it cannot be fixed")
    if games:
        part_size = min(part_size, GAMES_PART_SIZE)
    settings = RunSettings(
        inputs.rules, inputs.policies, seed, hands, part_size, dealer, games=games
    )
    path = out or default_out_dir(inputs.rules, seed, hands, games)
    folder = RunFolder(path, settings, resume=resume, overwrite=overwrite)
    if progress:
        progress(folder.hands_done())
    t0 = time.perf_counter()
    computed = 0
    ncol = inputs.layout.ncol
    n_buffers = 0 if games else 2
    buffers = [np.empty((ncol, min(part_size, hands)), dtype=np.int64) for _ in range(n_buffers)]
    with threads(threads_), ThreadPoolExecutor(max_workers=1) as pool:
        pending = None
        pending_count = 0
        for i, k in enumerate(folder.todo()):
            start, count = settings.part_range(k)
            if games:
                from .games import play_games_array

                buf = play_games_array(inputs, seed, start, count)
            else:
                buf = buffers[i % 2][:, :count]
                play_hands_array(inputs, seed, start, count, dealer=dealer, out=buf)
            meta = provenance(settings, start, count, folder.created)
            table = to_table(buf, inputs.rules, {META_KEY: json.dumps(meta).encode()}, games)
            if pending is not None:
                pending.result()
                if progress:
                    progress(pending_count)
            pending = pool.submit(folder.write_part, k, table)
            pending_count = count
            computed += buf.shape[1]
        if pending is not None:
            pending.result()
            if progress:
                progress(pending_count)
    seconds = time.perf_counter() - t0
    return _summarise(path, folder, computed, seconds)


def _summarise(path: str, folder: Any, computed: int, seconds: float) -> RunSummary:
    from pathlib import Path

    from .dataset import open_dataset

    r = folder.settings.rules
    common = {
        "path": str(path),
        "hands_computed": computed,
        "seconds": seconds,
        "bytes": folder.size_bytes(),
    }
    if folder.settings.games:
        t = open_dataset(Path(path)).to_table(columns=["game_winner"])
        w = t.column("game_winner").to_numpy().astype(np.int64)
        n_games = int((w >= 0).sum())
        return RunSummary(
            **common,
            hands=len(w),
            mean_seat_meld=float("nan"),
            games=n_games,
            game_wins=tuple(float((w == k).sum() / max(n_games, 1)) for k in range(r.teams)),
        )
    if r.trump_by == "turn-up":
        cols = ["meld_0", "meld_1", "score_0", "score_1", "winner"]
        t = open_dataset(Path(path)).to_table(columns=cols)
        d = {c: t.column(c).to_numpy().astype(np.int64) for c in cols}
        w = d["winner"]
        return RunSummary(
            **common,
            hands=len(w),
            mean_seat_meld=float((d["meld_0"].mean() + d["meld_1"].mean()) / 2),
            mean_score=float((d["score_0"].mean() + d["score_1"].mean()) / 2),
            win_rates=(float((w == 0).mean()), float((w == 1).mean()), float((w < 0).mean())),
        )
    sides = range(r.teams)
    seats = range(r.players)
    cols = ["bidder", "bid", "stuck", "made", "conceded"]
    cols += [f"team_meld_{k}" for k in sides] + [f"meld_{p}" for p in seats]
    t = open_dataset(Path(path)).to_table(columns=cols)
    d = {c: t.column(c).to_numpy() for c in cols}
    bidder = d["bidder"].astype(np.int64)
    bside = bidder % 2 if r.partnerships else bidder
    side_meld = np.stack([d[f"team_meld_{k}"] for k in sides])
    bid_meld = side_meld[bside, np.arange(len(bidder))]
    seat_meld = np.mean([d[f"meld_{p}"].mean() for p in seats])
    return RunSummary(
        **common,
        hands=len(bidder),
        mean_seat_meld=float(seat_meld),
        mean_bidding_meld=float(bid_meld.mean()),
        stuck_rate=float(d["stuck"].mean()),
        make_rate=float(d["made"].mean()),
        concede_rate=float(d["conceded"].mean()),
        mean_bid=float(d["bid"].mean()),
    )
