"""Duplicate matches between players of any kind at the stepwise table: our policy sets, and
agents from other frameworks (OpenSpiel's IS-MCTS through :mod:`pinochle_sim.openspiel`).

A player is a callable ``(table, seat, deal) -> action``. Every deal is the engine's deal of
``(seed, deal)`` (the dealer too), played once per side as ``compare`` plays it: with two
sides A holds side 0's seats, then side 1's; in three-hand A sits in each seat in turn, B in the
others. A deal's ``diff`` sums A's score minus B's (B's mean where B holds two seats) over the
plays, so the card luck cancels. Each decision's CPU time is counted for the side that made it.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pinochle_sim.agents.stepwise import DONE, Table, table_rules
from pinochle_sim.analysis.stats import Z95
from pinochle_sim.core.cards import parse_card
from pinochle_sim.runs.inspect.show import hand_record

Player = Callable[[Table, int, int], int]
"""``(table, seat, deal) -> action``: the action of ``seat`` at the table's state."""


def deal_table(rules: str, seed: int, deal: int) -> Table:
    """A table with the engine's deal of ``(seed, deal)`` dealt (its dealer too)."""
    tr = table_rules(rules)
    rec = hand_record(seed=seed, hand=deal, rules=tr.rules)
    t = Table(tr, dealer=int(rec["dealer"]))
    for cards in rec["dealt"]:
        for f in sorted(parse_card(c) for c in cards):
            t.apply(f)
    for c in rec.get("widow") or []:
        t.apply(parse_card(c))
    return t


@dataclass
class Clock:
    """CPU seconds and decisions of one side of a match."""

    seconds: float = 0.0
    decisions: int = 0

    @property
    def per_decision(self) -> float:
        return self.seconds / self.decisions if self.decisions else float("nan")


def play_deal(
    rules: str, a: Player, b: Player, seed: int, deal: int, clocks: tuple[Clock, Clock]
) -> dict[str, float]:
    """One deal of a duplicate match: its row (``deal``, ``diff``, then per play ``k``
    ``score_a_k`` and ``score_b_k``)."""
    base = deal_table(rules, seed, deal)
    tr = base.tr
    row: dict[str, float] = {"deal": deal}
    diff = 0.0
    for k in range(tr.sides):
        t = base.copy()
        while t.phase != DONE:
            seat = t.current_player()
            mine = tr.side(seat) == k
            player, clock = (a, clocks[0]) if mine else (b, clocks[1])
            c0 = time.process_time()
            action = player(t, seat, deal)
            clock.seconds += time.process_time() - c0
            clock.decisions += 1
            t.apply(action)
        sa = float(t.scores[k])
        sb = float(np.mean([t.scores[j] for j in range(tr.sides) if j != k]))
        row[f"score_a_{k + 1}"], row[f"score_b_{k + 1}"] = sa, sb
        diff += sa - sb
    row["diff"] = diff
    return row


def duplicate_match(
    rules: str, a: Player, b: Player, deals: int, seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> tuple[pd.DataFrame, tuple[Clock, Clock]]:  # fmt: skip
    """``deals`` deals (0, 1, ...) of ``seed``, each played once per side; returns the rows
    (:func:`play_deal`) and each side's CPU clock. ``progress`` hears of each deal done."""
    if deals < 1:
        raise ValueError(f"a match needs at least one deal, got {deals}")
    clocks = (Clock(), Clock())
    rows = []
    for d in range(deals):
        rows.append(play_deal(rules, a, b, seed, d, clocks))
        if progress:
            progress(1)
    return pd.DataFrame(rows), clocks


def summary(pairs: pd.DataFrame, clocks: tuple[Clock, Clock], labels: tuple[str, str]) -> dict:
    """A's gain per deal with its 95% interval, each side's mean score, CPU a decision."""
    diff = pairs["diff"].to_numpy(dtype=float)
    n = len(diff)
    mean = float(diff.mean())
    half = float(Z95 * diff.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    plays = sum(1 for c in pairs.columns if c.startswith("score_a_"))
    score_a = pairs[[f"score_a_{k}" for k in range(1, plays + 1)]].to_numpy().mean()
    score_b = pairs[[f"score_b_{k}" for k in range(1, plays + 1)]].to_numpy().mean()
    return {
        "a": labels[0], "b": labels[1], "deals": n, "plays": plays,
        "diff_per_deal": mean, "diff_lo": mean - half, "diff_hi": mean + half,
        "mean_score_a": float(score_a), "mean_score_b": float(score_b),
        "cpu_s_per_decision_a": clocks[0].per_decision,
        "cpu_s_per_decision_b": clocks[1].per_decision,
        "decisions_a": clocks[0].decisions, "decisions_b": clocks[1].decisions,
    }  # fmt: skip


def match_lines(s: dict) -> list[str]:
    return [
        f"{s['a']} minus {s['b']}: {s['diff_per_deal']:+.2f} points per deal (95% CI "
        f"{s['diff_lo']:+.2f} to {s['diff_hi']:+.2f}); {s['deals']:,} deals, each played "
        f"{s['plays']} times",
        f"  {s['a']}: mean score {s['mean_score_a']:.1f}/hand, "
        f"{s['cpu_s_per_decision_a'] * 1000:.1f} ms CPU a decision ({s['decisions_a']:,})",
        f"  {s['b']}: mean score {s['mean_score_b']:.1f}/hand, "
        f"{s['cpu_s_per_decision_b'] * 1000:.1f} ms CPU a decision ({s['decisions_b']:,})",
    ]


def write_agent_match(pairs: pd.DataFrame, s: dict, out: str, overwrite: bool = False) -> Path:
    """``pairs.csv`` (one row per deal), ``summary.json`` and ``summary.csv`` into the folder
    ``out``, written whole or not at all; an existing folder is refused unless ``overwrite``."""
    path = Path(out)
    if path.exists() and any(path.iterdir()) and not overwrite:
        raise ValueError(f"{str(path)!r} already exists: pass --overwrite to replace it")
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    pairs.to_csv(tmp / "pairs.csv", index=False)
    (tmp / "summary.json").write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    pd.DataFrame([s]).to_csv(tmp / "summary.csv", index=False, float_format="%.4f")
    if path.exists():
        shutil.rmtree(path)
    os.replace(tmp, path)
    return path


__all__ = [
    "Clock",
    "Player",
    "deal_table",
    "duplicate_match",
    "match_lines",
    "play_deal",
    "summary",
    "write_agent_match",
]
