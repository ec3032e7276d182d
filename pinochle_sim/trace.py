"""One hand, move by move, as a plain dict (``show --json``) and as text for people.

Built from the same engine call as batch runs (:func:`pinochle_sim.simulate.trace_arrays`).
"""

from __future__ import annotations

from typing import Any

from .cards import SUITS, card_name, decode_hand
from .engine import COL, T_CALLS, T_HANDS, T_NCALLS, T_NTRICKS, T_TRICKS, TRICK_WIDTH
from .meld import score_meld
from .policies import PolicySet
from .rules import Ruleset
from .simulate import engine_inputs, trace_arrays

SEAT_NAMES = ("South", "West", "North", "East")


def hand_record(
    seed: int,
    hand: int,
    rules: str | Ruleset | None = None,
    policies: PolicySet | None = None,
    dealer: int | None = None,
) -> dict[str, Any]:
    """Everything that happened in hand ``hand`` of ``seed`` (keys as in ``show --json``)."""
    inputs = engine_inputs(rules, policies)
    row, trace = trace_arrays(inputs, seed, hand, dealer)
    r = inputs.rules
    col = {name: int(row[i]) for name, i in COL.items()}
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
                "leader": int(trace[base]),
                "cards": [card_name(int(trace[base + 1 + k])) for k in range(r.players)],
                "winner": int(trace[base + 5]),
                "points": int(trace[base + 6]),
            }
        )
    return {
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
        "passed_to_bidder": decode_hand(col["passed_to_bidder"]),
        "passed_to_partner": decode_hand(col["passed_to_partner"]),
        "hands": [decode_hand(h) for h in after],
        "meld": melds,
        "conceded": bool(col["conceded"]),
        "tricks": tricks,
        "team_meld": [col["team_meld_0"], col["team_meld_1"]],
        "team_tricks": [col["team_tricks_0"], col["team_tricks_1"]],
        "made": bool(col["made"]),
        "score": [col["score_0"], col["score_1"]],
        "policies": inputs.policies.resolved(),
    }


def _seat(p: int) -> str:
    return f"{p} {SEAT_NAMES[p]:<5}"


def _by_suit(cards: list[str]) -> str:
    """``S: A 10 K | H: ...`` for a decoded (sorted) card list."""
    groups: dict[str, list[str]] = {s: [] for s in SUITS}
    for c in cards:
        groups[c[-1]].append(c[:-1])
    return "  ".join(f"{s}: {' '.join(groups[s]) or '-':<17}" for s in SUITS).rstrip()


def format_hand(rec: dict[str, Any]) -> str:
    """A hand as a person would read it."""
    lines = [
        f"=== {rec['rules']}  seed {rec['seed']}  hand {rec['hand']}  "
        f"dealer {_seat(rec['dealer']).strip()} ==="
    ]
    lines.append("Dealt (team 0 = seats 0+2, team 1 = seats 1+3):")
    for p, cards in enumerate(rec["dealt"]):
        lines.append(f"  {_seat(p)}  {_by_suit(cards)}")
    calls = ", ".join(
        f"{c['seat']}:{'pass' if c['bid'] is None else c['bid']}" for c in rec["auction"]
    )
    lines.append(f"Auction: {calls}")
    how = "dealer stuck" if rec["stuck"] else "won the auction"
    lines.append(f"Bidder: seat {rec['bidder']} ({how}) at {rec['bid']}, trump {rec['trump']}")
    if rec["passed_to_bidder"]:
        lines.append(
            f"Pass: partner -> bidder {' '.join(rec['passed_to_bidder'])};  "
            f"bidder -> partner {' '.join(rec['passed_to_partner'])}"
        )
        lines.append("Hands after the pass:")
        for p, cards in enumerate(rec["hands"]):
            lines.append(f"  {_seat(p)}  {_by_suit(cards)}")
    lines.append("Meld:")
    for m in rec["meld"]:
        parts = ", ".join(f"{x['name']} {x['points']}" for x in m["melds"]) or "none"
        lines.append(f"  {_seat(m['seat'])}  {m['points']:>4}  {parts}")
    if rec["conceded"]:
        lines.append("Bid out of reach: the bidder concedes; no tricks are played.")
    for i, t in enumerate(rec["tricks"], 1):
        cards = "  ".join(f"{c:>3}" for c in t["cards"])
        lines.append(
            f"  trick {i:>2}: lead {t['leader']}  {cards}   -> seat {t['winner']} (+{t['points']})"
        )
    tm, tt, sc = rec["team_meld"], rec["team_tricks"], rec["score"]
    lines.append(f"Team meld {tm[0]} / {tm[1]};  trick points {tt[0]} / {tt[1]}")
    bt = rec["bidder"] % 2
    outcome = "conceded (set)" if rec["conceded"] else ("made" if rec["made"] else "set")
    lines.append(f"Bidding team {bt}: {outcome}.  Score: team 0 {sc[0]:+d}, team 1 {sc[1]:+d}")
    return "\n".join(lines)
