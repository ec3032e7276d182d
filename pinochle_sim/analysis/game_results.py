"""Whole games as a table: one row per game from the deal rows of a games run
(:mod:`pinochle_sim.runs.simulate.games` plays them)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pinochle_sim.runs.store.location import UrlPath
from pinochle_sim.runs.store.provenance import ruleset_of
from pinochle_sim.runs.store.read import iter_parts, read_provenance


def game_results(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per game from a games run's deal rows (``pd.read_parquet(run_dir)``): ``game``,
    ``deals``, ``first_dealer``, ``winner`` and each side's ``final_k`` total."""
    totals = sorted(c for c in rows.columns if c.startswith("total_"))
    ordered = rows.sort_values(["game", "deal"])
    first = ordered.groupby("game", sort=True).first()
    last = ordered.groupby("game", sort=True).last()
    out = pd.DataFrame(
        {
            "game": last.index.to_numpy(),
            "deals": (last["deal"] + 1).to_numpy(),
            "first_dealer": first["dealer"].to_numpy(),
            "winner": last["game_winner"].to_numpy(),
        }
    )
    for c in totals:
        out[c.replace("total_", "final_")] = last[c].to_numpy()
    return out


def games_line(path: str | Path | UrlPath) -> str:
    """One line about the games of a games run folder: how many, deals per game, wins (read
    part by part: a part holds whole games)."""
    sides = ruleset_of(read_provenance(path)).teams
    totals = [f"total_{k}" for k in range(sides)]
    games = deals = 0
    wins = [0] * sides
    for part in iter_parts(path, ["game", "deal", "dealer", "game_winner", *totals]):
        g = game_results(part.to_pandas())
        games += len(g)
        deals += int(g["deals"].sum())
        for k in range(sides):
            wins[k] += int((g["winner"] == k).sum())
    won = ", ".join(f"side {k} {wins[k] / games:.1%}" for k in range(sides))
    return f"games: {games:,}, {deals / games:.2f} deals per game; won: {won}"
