"""Whole games as a table: one row per game from the deal rows of a games run
(:mod:`pinochle_sim.runs.games` plays them)."""

from __future__ import annotations

import pandas as pd


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
