"""One auction-engine hand move by move, decoded from the kernel's trace: the ``show --json``
dict and the text a person reads (``pinochle-sim show``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from pinochle_sim.core.cards import SUITS, by_suit, card_name, decode_hand
from pinochle_sim.engines.auction.kernel import (
    T_CALLS,
    T_HANDS,
    T_NCALLS,
    T_NTRICKS,
    T_TRICKS,
    T_WIDOW,
    TR_FACES,
    TR_LEADER,
    TR_POINTS,
    TR_WINNER,
    TRICK_WIDTH,
)
from pinochle_sim.engines.base import EngineInputs
from pinochle_sim.rules.meld import score_meld

SEAT_NAMES = ("South", "West", "North", "East")


def hand_record(
    inputs: EngineInputs, seed: int, hand: int, col: dict[str, int], trace: np.ndarray
) -> dict[str, Any]:
    """Everything that happened in one hand (keys as in ``show --json``), from its record row
    ``col`` and the kernel's ``trace``.

    Team lists are per side: the two partnerships (team 0 = seats 0 and 2), or each player in
    games without partners. Three-hand records add ``widow``, ``discards``, ``discard_points``.
    """
    r = inputs.rules
    trump = col["trump"]
    calls = [
        {
            "seat": int(trace[T_CALLS + 2 * i]),
            "bid": None if trace[T_CALLS + 2 * i + 1] < 0 else int(trace[T_CALLS + 2 * i + 1]),
        }
        for i in range(int(trace[T_NCALLS]))
    ]
    after = [int(trace[T_HANDS + p]) for p in range(r.players)]
    melds = []
    for p in range(r.players):
        res = score_meld(after[p], trump, r)
        assert res.total == col[f"meld_{p}"], "trace meld disagrees with the engine"
        melds.append(
            {
                "seat": p,
                "points": res.total,
                "melds": [
                    {"name": m.name, "points": m.points, "cards": m.cards} for m in res.melds
                ],
            }
        )
    tricks = []
    for t in range(int(trace[T_NTRICKS])):
        base = T_TRICKS + t * TRICK_WIDTH
        tricks.append(
            {
                "leader": int(trace[base + TR_LEADER]),
                "cards": [card_name(int(trace[base + TR_FACES + k])) for k in range(r.players)],
                "winner": int(trace[base + TR_WINNER]),
                "points": int(trace[base + TR_POINTS]),
            }
        )
    sides = range(r.teams)
    rec: dict[str, Any] = {
        "rules": r.name,
        "seed": seed,
        "hand": hand,
        "dealer": col["dealer"],
        "dealt": [decode_hand(col[f"dealt_{p}"]) for p in range(r.players)],
        "auction": calls,
        "bidder": col["bidder"],
        "bid": col["bid"],
        "trump": SUITS[trump],
        "stuck": bool(col["stuck"]),
    }
    if "passed_to_bidder" in col:
        rec["passed_to_bidder"] = decode_hand(col["passed_to_bidder"])
        rec["passed_to_partner"] = decode_hand(col["passed_to_partner"])
    if "widow" in col:
        rec["widow"] = decode_hand(int(trace[T_WIDOW]))
        rec["discards"] = decode_hand(int(trace[T_WIDOW + 1]))
        rec["discard_points"] = col["discard_points"]
    rec |= {
        "hands": [decode_hand(h) for h in after],
        "meld": melds,
        "conceded": bool(col["conceded"]),
        "tricks": tricks,
        "team_meld": [col[f"team_meld_{k}"] for k in sides],
        "team_tricks": [col[f"team_tricks_{k}"] for k in sides],
        "made": bool(col["made"]),
        "score": [col[f"score_{k}"] for k in sides],
        "policies": inputs.policies.resolved(inputs.policy_kinds),
    }
    return rec


def _seat(p: int, players: int = 4) -> str:
    return f"{p} {SEAT_NAMES[p]:<5}" if players == 4 else f"seat {p}"


def format_hand(rec: dict[str, Any]) -> str:
    """A hand as a person would read it."""
    n = len(rec["dealt"])
    partners = len(rec["score"]) == 2 and n == 4

    def seat(p: int) -> str:
        return _seat(p, n)

    lines = [
        f"=== {rec['rules']}  seed {rec['seed']}  hand {rec['hand']}  "
        f"dealer {seat(rec['dealer']).strip()} ==="
    ]
    lines.append(
        "Dealt (team 0 = seats 0+2, team 1 = seats 1+3):"
        if partners
        else "Dealt (each plays for self):"
    )
    for p, cards in enumerate(rec["dealt"]):
        lines.append(f"  {seat(p)}  {by_suit(cards)}")
    if "widow" in rec:
        lines.append(f"  widow    {' '.join(rec['widow'])}")
    calls = ", ".join(
        f"{c['seat']}:{'pass' if c['bid'] is None else c['bid']}" for c in rec["auction"]
    )
    lines.append(f"Auction: {calls}")
    how = "dealer stuck" if rec["stuck"] else "won the auction"
    lines.append(f"Bidder: seat {rec['bidder']} ({how}) at {rec['bid']}, trump {rec['trump']}")
    changed = False
    if rec.get("passed_to_bidder"):
        lines.append(
            f"Pass: partner -> bidder {' '.join(rec['passed_to_bidder'])};  "
            f"bidder -> partner {' '.join(rec['passed_to_partner'])}"
        )
        changed = True
    if "widow" in rec:
        lines.append(
            f"Widow to the bidder: {' '.join(rec['widow'])};  discards "
            f"{' '.join(rec['discards'])} ("
            + (
                "not counted: conceded"
                if rec["conceded"]
                else f"+{rec['discard_points']} for the bidder"
            )
            + ")"
        )
        changed = True
    if changed:
        lines.append("Hands before play:")
        for p, cards in enumerate(rec["hands"]):
            lines.append(f"  {seat(p)}  {by_suit(cards)}")
    lines.append("Meld:")
    for m in rec["meld"]:
        parts = ", ".join(f"{x['name']} {x['points']}" for x in m["melds"]) or "none"
        lines.append(f"  {seat(m['seat'])}  {m['points']:>4}  {parts}")
    if rec["conceded"]:
        lines.append("Bid out of reach: the bidder concedes; no tricks are played.")
    for i, t in enumerate(rec["tricks"], 1):
        cards = "  ".join(f"{c:>3}" for c in t["cards"])
        lines.append(
            f"  trick {i:>2}: lead {t['leader']}  {cards}   -> seat {t['winner']} (+{t['points']})"
        )
    word = "Team" if partners else "Player"
    tm, tt, sc = rec["team_meld"], rec["team_tricks"], rec["score"]
    lines.append(
        f"{word} meld {' / '.join(map(str, tm))};  trick points {' / '.join(map(str, tt))}"
    )
    bt = rec["bidder"] % 2 if partners else rec["bidder"]
    outcome = "conceded (set)" if rec["conceded"] else ("made" if rec["made"] else "set")
    scores = ", ".join(f"{word.lower()} {k} {v:+d}" for k, v in enumerate(sc))
    lines.append(f"Bidding {word.lower()} {bt}: {outcome}.  Score: {scores}")
    return "\n".join(lines)
