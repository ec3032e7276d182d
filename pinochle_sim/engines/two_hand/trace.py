"""A two-hand deal move by move (``show --rules two-hand``): every trick with its winner, the
meld laid, the dix, and the cards drawn; then the play-out and the score.

Cards in the record carry their physical ``copy`` (0 or 1; see
:mod:`pinochle_sim.engines.two_hand.table`) and, when played or melded, whether they came
``from`` the concealed ``hand`` or the ``table``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pinochle_sim.core.cards import SUITS, by_suit, card_name, decode_hand
from pinochle_sim.engines.two_hand.kernel import (
    TT_NTRICKS,
    TT_STOCK,
    TT_TRICKS,
    TT_TURNUP,
    TT_UP,
    TW,
    TW_CARD1,
    TW_CARD2,
    TW_DIX,
    TW_DRAW_LOSER,
    TW_DRAW_WINNER,
    TW_EXCHANGED,
    TW_LEADER,
    TW_MELD,
    TW_MELD_CARDS,
    TW_MELD_TABLE,
    TW_MELD_VALUE,
    TW_POINTS,
    TW_TABLE1,
    TW_TABLE2,
    TW_WINNER,
)
from pinochle_sim.engines.two_hand.table import (
    CA_FIELDS,
    CA_FIRST,
    CA_NAME,
    CA_STRIDE,
    MELD_NAMES,
)


def _card(i: int) -> dict[str, Any]:
    return {"card": card_name(i >> 1), "copy": i & 1}


def _cards_of(mask: int, from_table: int) -> list[dict[str, Any]]:
    out = []
    for i in range(48):
        if (mask >> i) & 1:
            out.append(_card(i) | {"from": "table" if (from_table >> i) & 1 else "hand"})
    return out


def two_hand_record(
    inputs: Any, seed: int, hand: int, col: dict[str, int], trace: np.ndarray
) -> dict[str, Any]:
    """The ``show --json`` record of one two-hand deal from the engine's trace."""
    r = inputs.rules
    trump = col["trump"]
    n_stock = r.stock_size // 2
    draw = [int(trace[TT_STOCK + j]) for j in range(2 * n_stock)]
    tricks = []
    for t in range(int(trace[TT_NTRICKS])):
        b = TT_TRICKS + t * TW
        leader, winner = int(trace[b + TW_LEADER]), int(trace[b + TW_WINNER])
        cards = []
        for k, (ci, ti) in enumerate(((TW_CARD1, TW_TABLE1), (TW_CARD2, TW_TABLE2))):
            seat = leader if k == 0 else 1 - leader
            where = "table" if trace[b + ti] else "hand"
            cards.append({"seat": seat} | _card(int(trace[b + ci])) | {"from": where})
        trick: dict[str, Any] = {
            "n": t + 1,
            "phase": "stock" if t < n_stock else "playout",
            "leader": leader,
            "cards": cards,
            "winner": winner,
            "points": int(trace[b + TW_POINTS]),
            "meld": None,
            "dix": None,
            "draws": [],
        }
        if t < n_stock:
            if trace[b + TW_MELD] >= 0:
                o = trump * CA_STRIDE + CA_FIRST + CA_FIELDS * int(trace[b + TW_MELD])
                trick["meld"] = {
                    "seat": winner,
                    "name": MELD_NAMES[int(inputs.xa[o + CA_NAME])],
                    "points": int(trace[b + TW_MELD_VALUE]),
                    "cards": _cards_of(
                        int(trace[b + TW_MELD_CARDS]), int(trace[b + TW_MELD_TABLE])
                    ),
                }
            if trace[b + TW_DIX] >= 0:
                trick["dix"] = {
                    "seat": winner,
                    "card": _card(int(trace[b + TW_DIX])),
                    "points": r.meld.dix,
                    "exchanged": bool(trace[b + TW_EXCHANGED]),
                }
            trick["draws"] = [
                {"seat": winner} | _card(int(trace[b + TW_DRAW_WINNER])),
                {"seat": 1 - winner} | _card(int(trace[b + TW_DRAW_LOSER])),
            ]
        tricks.append(trick)
    up = int(trace[TT_UP])
    winner = col["winner"]
    return {
        "rules": r.name,
        "seed": seed,
        "hand": col["hand"],
        "dealer": col["dealer"],
        "trump": SUITS[trump],
        "up_card": card_name(up >> 1),
        "turnup_dix": int(trace[TT_TURNUP]),
        "dealt": [decode_hand(col[f"dealt_{p}"]) for p in range(2)],
        "stock": [card_name(i >> 1) for i in draw[:-1]],
        "tricks": tricks,
        "meld": [col[f"meld_{p}"] for p in range(2)],
        "trick_points_raw": [col[f"tricks_raw_{p}"] for p in range(2)],
        "trick_points": [col[f"trick_points_{p}"] for p in range(2)],
        "score": [col[f"score_{p}"] for p in range(2)],
        "winner": None if winner < 0 else winner,
        "policies": inputs.policies.resolved(inputs.policy_kinds),
    }


def _card_text(c: dict[str, Any]) -> str:
    return c["card"] + ("*" if c.get("from") == "table" else "")


def format_two_hand(rec: dict[str, Any]) -> str:
    """A two-hand deal as a person would read it (``*`` = a card played or melded from the
    table)."""
    lines = [
        f"=== {rec['rules']}  seed {rec['seed']}  deal {rec['hand']}  dealer seat "
        f"{rec['dealer']} ===",
        "Dealt:",
    ]
    for p, cards in enumerate(rec["dealt"]):
        lines.append(f"  seat {p}  {by_suit(cards)}")
    bonus = f" (a 9: +{rec['turnup_dix']} to the dealer)" if rec["turnup_dix"] else ""
    lines.append(f"Up-card {rec['up_card']}: trump {rec['trump']}{bonus}")
    lines.append("Stock phase (any card may be played; * = from the table):")
    for t in rec["tricks"]:
        if t["phase"] == "playout" and t["n"] > 1 and rec["tricks"][t["n"] - 2]["phase"] == "stock":
            lines.append("Play-out (follow suit, beat a trump lead, trump if void):")
        cards = "  ".join(f"{_card_text(c):>4}" for c in t["cards"])
        line = f"  {t['n']:>2}: lead {t['leader']}  {cards}  -> seat {t['winner']} (+{t['points']})"
        extras = []
        if t["meld"]:
            cs = " ".join(_card_text(c) for c in t["meld"]["cards"])
            extras.append(f"melds {t['meld']['name']} {t['meld']['points']} [{cs}]")
        if t["dix"]:
            swap = ", exchanged for the up-card" if t["dix"]["exchanged"] else ""
            extras.append(f"dix {t['dix']['points']}{swap}")
        if t["draws"]:
            d = t["draws"]
            extras.append(f"draws {d[0]['card']} / seat {d[1]['seat']} draws {d[1]['card']}")
        if extras:
            line += "  " + "; ".join(extras)
        lines.append(line)
    raw, pts, meld, sc = (
        rec["trick_points_raw"],
        rec["trick_points"],
        rec["meld"],
        rec["score"],
    )
    for p in range(2):
        lines.append(
            f"  seat {p}: meld {meld[p]:>3} + tricks {raw[p]:>3} (counted {pts[p]:>3}) = {sc[p]}"
        )
    w = rec["winner"]
    lines.append(
        "Result: a tie." if w is None else f"Result: seat {w} wins by {abs(sc[0] - sc[1])}."
    )
    return "\n".join(lines)
