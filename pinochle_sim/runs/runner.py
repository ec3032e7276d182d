"""``run``: simulate a range of hands (or whole games) into a Parquet run folder, resumable.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     summary = run(2000, seed=0, out=d + "/run")
>>> summary.hands
2000
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pinochle_sim.engines import engine_for
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset
from pinochle_sim.runs.dataset import META_KEY, RunFolder, RunSettings, open_dataset, provenance
from pinochle_sim.runs.games import play_games_array
from pinochle_sim.runs.parallel import threads
from pinochle_sim.runs.records import to_table
from pinochle_sim.runs.simulate import check_range, engine_inputs, play_hands_array

DEFAULT_PART_SIZE = 1 << 17
GAMES_PART_SIZE = 1 << 14
"""Games per part file in a games run (a two-hand game is ~4 deals, a partnership one ~7)."""


@dataclass(frozen=True)
class RunSummary:
    """What a finished run reports. Auction figures are None for runs without an auction (two
    seats each scoring for itself), whose ``win_rates`` (seat 0, seat 1, tie) are None for
    auction runs."""

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
    if hands < 1:
        raise ValueError(f"hands must be a positive whole number, got {hands}")
    if part_size < 1:
        raise ValueError("part_size must be positive")
    inputs = engine_inputs(rules, policies)
    check_range(seed, 0, hands)
    if games and dealer is not None:
        raise ValueError("a games run rotates the dealer: it cannot be fixed")
    if games:
        part_size = min(part_size, GAMES_PART_SIZE)
    settings = RunSettings(
        inputs.rules,
        inputs.policies,
        seed,
        hands,
        part_size,
        dealer,
        games=games,
        kinds=inputs.policy_kinds,
        engine_version=inputs.engine.version,
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
    if not engine_for(r).has_auction:
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
