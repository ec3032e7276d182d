"""What a finished run reports: its headline figures (:class:`RunSummary`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pinochle_sim.engines import engine_for
from pinochle_sim.runs.store.read import column_array, read_columns


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
    compile_seconds: float = 0.0
    """Time spent compiling or loading the kernels before the clock started (not in
    ``seconds``)."""
    repairs: tuple[str, ...] = ()
    """What ``resume`` mended: damaged parts set aside and simulated again, a rebuilt
    manifest."""

    @property
    def hands_per_second(self) -> float:
        return self.hands_computed / self.seconds if self.seconds > 0 else float("inf")

    def lines(self) -> list[str]:
        """The run's report as the command line prints it: repairs, where it went, the rate
        and the headline."""
        unit = "deals" if self.games is not None else "hands"
        out = [f"repaired: {line}" for line in self.repairs]
        out.append(
            f"{self.hands:,} {unit} in {self.path}  ({self.bytes / 1e6:.1f} MB, "
            f"{self.bytes / self.hands:.1f} bytes/hand)"
        )
        compiled = (
            f"; not counting {self.compile_seconds:.1f} s to compile or load the engine"
            if self.compile_seconds >= 1
            else ""
        )
        if self.hands_computed:
            out.append(
                f"computed {self.hands_computed:,} {unit} in {self.seconds:.2f} s "
                f"({self.hands_per_second:,.0f} {unit}/s{compiled})"
            )
        else:
            out.append("nothing to compute: the run was already complete")
        out.append(self.headline)
        return out

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


def summarise(
    path: str, folder: Any, computed: int, seconds: float, compile_s: float
) -> RunSummary:
    """The summary of the run in ``folder`` (a :class:`~.store.folder.RunFolder`, complete),
    of which ``computed`` rows took ``seconds`` after ``compile_s`` of compiling."""
    r = folder.spec.rules
    common = {
        "path": str(path),
        "hands_computed": computed,
        "seconds": seconds,
        "bytes": folder.size_bytes(),
        "compile_seconds": compile_s,
        "repairs": tuple(folder.repairs),
    }
    if folder.spec.games:
        t = read_columns(path, ["game_winner"])
        w = column_array(t, "game_winner").astype(np.int64)
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
        t = read_columns(path, cols)
        d = {c: column_array(t, c).astype(np.int64) for c in cols}
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
    t = read_columns(path, cols)
    d = {c: column_array(t, c) for c in cols}
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
