"""Replaying the engine's record of a hand (``hand_record``) through a stepwise table or an
OpenSpiel state: the chance outcomes forced to the engine's deal, every decision the engine's
policies made, each checked legal on the way."""

from __future__ import annotations

from typing import Any

from pinochle_sim import hand_record, parse_card
from pinochle_sim.agents.stepwise import (
    CONCEDE,
    CONCEDE_ACTION,
    PASS_ACTION,
    PLAY_ON_ACTION,
    TRUMP_ACTION,
    bid_action,
    table_rules,
)


def actions(rec: dict[str, Any], rules: str) -> list[int]:
    """The actions of a recorded hand, in order (the throw-in decision is added where the
    table asks for it: :func:`replay`)."""
    tr = table_rules(rules)
    out = []
    for hand in rec["dealt"]:
        out += sorted(parse_card(c) for c in hand)
    out += [parse_card(c) for c in rec.get("widow") or []]
    out += [PASS_ACTION if c["bid"] is None else bid_action(tr, c["bid"]) for c in rec["auction"]]
    out.append(TRUMP_ACTION + "SHDC".index(rec["trump"]))
    for key in ("passed_to_bidder", "passed_to_partner", "discards"):
        out += [parse_card(c) for c in rec.get(key) or []]
    return out


def play_cards(rec: dict[str, Any]) -> list[int]:
    return [parse_card(c) for t in rec["tricks"] for c in t["cards"]]


def replay(apply: Any, phase: Any, rec: dict[str, Any], rules: str) -> None:
    """Feed a record through ``apply`` (one action); ``phase()`` tells the throw-in apart."""
    for a in actions(rec, rules):
        apply(a)
    if phase() == CONCEDE:
        apply(CONCEDE_ACTION if rec["conceded"] else PLAY_ON_ACTION)
    for f in play_cards(rec):
        apply(f)


def record(seed: int, hand: int, rules: str) -> dict[str, Any]:
    return hand_record(seed=seed, hand=hand, rules=rules)
