"""What a finished run reports: its headline figures (:class:`RunSummary`), from integer sums
each part keeps in the manifest (:func:`part_sums`), so that closing a run of any size reads
nothing back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pinochle_sim.engines import engine_for
from pinochle_sim.rules import Ruleset
from pinochle_sim.runs.store.location import location
from pinochle_sim.runs.store.read import column_array, iter_parts


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


def summary_columns(rules: Ruleset, games: bool) -> list[str]:
    """The columns a run's closing figures are gathered from."""
    if games:
        return ["game_winner"]
    if not engine_for(rules).has_auction:
        return ["meld_0", "meld_1", "score_0", "score_1", "winner"]
    cols = ["bidder", "bid", "stuck", "made", "conceded"]
    cols += [f"team_meld_{k}" for k in range(rules.teams)]
    return cols + [f"meld_{p}" for p in range(rules.players)]


def part_sums(table: Any, rules: Ruleset, games: bool) -> dict[str, int]:
    """The integer sums one part adds to its run's closing figures (:func:`summarise`): what a
    part's manifest entry keeps, so that no figure of a run ever reads the whole run back."""
    d = {c: column_array(table, c).astype(np.int64) for c in summary_columns(rules, games)}
    if games:
        w = d["game_winner"]
        return {"rows": len(w), "games": int((w >= 0).sum())} | {
            f"wins_{k}": int((w == k).sum()) for k in range(rules.teams)
        }
    if not engine_for(rules).has_auction:
        w = d["winner"]
        return {
            "rows": len(w),
            **{c: int(d[c].sum()) for c in ("meld_0", "meld_1", "score_0", "score_1")},
            "wins_0": int((w == 0).sum()),
            "wins_1": int((w == 1).sum()),
            "ties": int((w < 0).sum()),
        }
    bidder = d["bidder"]
    bside = bidder % 2 if rules.partnerships else bidder
    side_meld = np.stack([d[f"team_meld_{k}"] for k in range(rules.teams)])
    out = {"rows": len(bidder)}
    out |= {c: int(d[c].sum()) for c in ("bid", "stuck", "made", "conceded")}
    out["bidding_meld"] = int(side_meld[bside, np.arange(len(bidder))].sum())
    out |= {f"meld_{p}": int(d[f"meld_{p}"].sum()) for p in range(rules.players)}
    return out


def summarise(
    path: str, folder: Any, computed: int, seconds: float, compile_s: float
) -> RunSummary:
    """The summary of the run in ``folder`` (a :class:`~.store.folder.RunFolder`, complete),
    of which ``computed`` rows took ``seconds`` after ``compile_s`` of compiling: from the sums
    each part's manifest entry keeps (a part written without them is read, alone)."""
    spec = folder.spec
    r = spec.rules
    totals: dict[str, int] = {}
    for k in sorted(folder.done):
        sums = folder.done[k].get("sums")
        if sums is None:
            f = location(path) / folder.done[k]["file"]
            (table,) = iter_parts(f, summary_columns(r, spec.games))
            sums = part_sums(table, r, spec.games)
        for key, value in sums.items():
            totals[key] = totals.get(key, 0) + int(value)
    n = totals.get("rows", 0)
    common = {
        "path": str(path),
        "hands": n,
        "hands_computed": computed,
        "seconds": seconds,
        "bytes": folder.size_bytes(),
        "compile_seconds": compile_s,
        "repairs": tuple(folder.repairs),
    }
    if spec.games:
        n_games = totals["games"]
        return RunSummary(
            **common,
            mean_seat_meld=float("nan"),
            games=n_games,
            game_wins=tuple(totals[f"wins_{k}"] / max(n_games, 1) for k in range(r.teams)),
        )
    if not engine_for(r).has_auction:
        return RunSummary(
            **common,
            mean_seat_meld=(totals["meld_0"] / n + totals["meld_1"] / n) / 2,
            mean_score=(totals["score_0"] / n + totals["score_1"] / n) / 2,
            win_rates=(totals["wins_0"] / n, totals["wins_1"] / n, totals["ties"] / n),
        )
    return RunSummary(
        **common,
        mean_seat_meld=float(np.mean([totals[f"meld_{p}"] / n for p in range(r.players)])),
        mean_bidding_meld=totals["bidding_meld"] / n,
        stuck_rate=totals["stuck"] / n,
        make_rate=totals["made"] / n,
        concede_rate=totals["conceded"] / n,
        mean_bid=totals["bid"] / n,
    )
