"""Double-dummy analysis of simulated hands: the position of a hand's trick play, solved.

``solve --seed S --hand N``: the hand is played by the engine (its own trace, as ``show`` gives
it) and the position where trick play starts is solved: after the pass (partnerships), after
the discard (three-hand), the play-out of the last 12 tricks (two-hand). The cards each seat
plays in the trick phase are its hand at the start of it, for every preset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pinochle_sim.core.cards import encode_hand, parse_card, parse_suit
from pinochle_sim.core.tricks import beaters
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset
from pinochle_sim.runs.inspect.show import hand_record
from pinochle_sim.runs.simulate.hands import engine_inputs
from pinochle_sim.solver import Position, SolveResult, solve
from pinochle_sim.solver.text import format_result


@dataclass(frozen=True)
class TrickPlay:
    """The trick phase of one simulated hand: where it starts and what the bots played."""

    record: dict[str, Any]
    start: Position
    tricks: tuple[tuple[int, tuple[int, ...]], ...]
    """(leader, faces in play order) of each trick the bots played."""
    bidder: int | None
    """The bidder (None in two-hand, which has no auction)."""


def trick_play(
    seed: int,
    hand: int,
    rules: str | Ruleset | None = None,
    policies: PolicySet | None = None,
    dealer: int | None = None,
) -> TrickPlay:
    """The trick phase of hand ``hand`` of ``seed`` (see the module docstring)."""
    r = engine_inputs(rules, policies).rules
    rec = hand_record(seed, hand, r, policies, dealer)
    trump = parse_suit(rec["trump"])
    tricks = []
    for t in rec["tricks"]:
        if t.get("phase", "play") == "stock":
            continue
        cards = [c["card"] if isinstance(c, dict) else c for c in t["cards"]]
        tricks.append((int(t["leader"]), tuple(parse_card(c) for c in cards)))
    bidder = rec.get("bidder")
    if tricks:
        held: list[list[int]] = [[] for _ in range(r.players)]
        for leader, faces in tricks:
            for i, f in enumerate(faces):
                held[(leader + i) % r.players].append(f)
        hands = tuple(encode_hand(h) for h in held)
        leader = tricks[0][0]
    else:  # a conceded hand: no tricks played, the hands after the pass stand
        hands = tuple(encode_hand(h) for h in rec["hands"])
        leader = int(bidder)
    start = Position(r, trump, leader, hands)
    return TrickPlay(rec, start, tuple(tricks), None if bidder is None else int(bidder))


def position_after(play: TrickPlay, n_tricks: int) -> Position:
    """The position after the first ``n_tricks`` tricks the bots played."""
    if not 0 <= n_tricks < max(1, len(play.tricks)):
        raise ValueError(
            f"the hand has {len(play.tricks)} tricks; choose 0..{len(play.tricks) - 1}"
        )
    p = play.start
    for _, faces in play.tricks[:n_tricks]:
        for f in faces:
            nxt, _, _ = p.play(f)
            assert nxt is not None
            p = nxt
    return p


def _side_points(play: TrickPlay, seats: tuple[int, ...]) -> int:
    """Trick points the side took in the bots' play of the trick phase (last trick included)."""
    r = play.start.rules
    total = 0
    for i, (leader, faces) in enumerate(play.tricks):
        winner, at = faces[0], 0
        for j, f in enumerate(faces[1:], 1):
            if (beaters(winner, play.start.trump) >> f) & 1:
                winner, at = f, j
        if (leader + at) % r.players in seats:
            total += sum(r.trick_points[f % 6] for f in faces)
            if i == len(play.tricks) - 1:
                total += r.last_trick
    return total


def solve_deal(
    seed: int,
    hand: int,
    rules: str | Ruleset | None = None,
    side: int | None = None,
    time_limit: float | None = None,
    policies: PolicySet | None = None,
) -> tuple[SolveResult, dict[str, Any]]:
    """Solve the trick phase of a simulated hand for the bidder's side (two-hand: the seat that
    leads the play-out, unless ``side`` names another seat). Returns the solve and the extra
    fields of ``solve --seed --json``: ``bid``, ``meld`` (the side's), ``dd_made`` (the
    double-dummy verdict for the bid: meld plus value against the bid, with the save rule),
    ``actual_points`` (what the bots took from the same cards), and a few more."""
    play = trick_play(seed, hand, rules, policies)
    r = play.start.rules
    rec = play.record
    if side is None:
        side = play.bidder if play.bidder is not None else play.start.leader
    result = solve(play.start, side=side, time_limit=time_limit)
    seats = result.side_seats
    extra: dict[str, Any] = {
        "rules": r.name,
        "seed": seed,
        "hand": hand,
        "trump": rec["trump"],
        "leader": play.start.leader,
        "hands": play.start.hands_text(),
        "bidder": play.bidder,
    }
    if play.bidder is not None:
        team = play.bidder % 2 if r.partnerships else play.bidder
        meld = int(rec["team_meld"][team])
        bid = int(rec["bid"])
        bidding = play.bidder in seats
        extra["bid"] = bid
        extra["meld"] = meld if bidding else int(sum(rec["team_meld"]) - meld)
        extra["discard_points"] = int(rec.get("discard_points", 0))
        if bidding and result.exact:
            value = result.value
            assert value is not None
            saved = not (r.save_rule and value == 0)
            extra["dd_made"] = bool(saved and meld + value + extra["discard_points"] >= bid)
        else:
            extra["dd_made"] = None
        extra["conceded"] = bool(rec["conceded"])
    else:
        extra["bid"] = None
        extra["meld"] = int(rec["meld"][side])
        extra["dd_made"] = None
    extra["actual_points"] = _side_points(play, seats) if play.tricks else None
    return result, extra


def format_deal(result: SolveResult, extra: dict[str, Any]) -> str:
    """``solve --seed --hand`` for people: the contract, the double-dummy verdict, what the bots
    took, then the annotated solve."""
    head = f"=== {extra['rules']}  seed {extra['seed']}  hand {extra['hand']} ==="
    lines = [head]
    seats = "+".join(str(s) for s in result.side_seats)
    if extra["bid"] is not None:
        lines.append(
            f"bidder seat {extra['bidder']}, bid {extra['bid']}, trump {extra['trump']}; "
            f"side {seats} meld {extra['meld']}"
            + (f", discards {extra['discard_points']}" if extra.get("discard_points") else "")
        )
    else:
        lines.append(f"play-out of the last tricks, trump {extra['trump']}; side seat {seats}")
    if result.value is not None and extra["dd_made"] is not None:
        total = extra["meld"] + result.value + extra.get("discard_points", 0)
        verdict = "made" if extra["dd_made"] else "set"
        lines.append(
            f"double dummy: {result.value} trick points, {total} against the bid of "
            f"{extra['bid']}: {verdict}"
            + (" (no trick points: the save rule sets it)" if result.value == 0 else "")
        )
    elif result.value is not None:
        lines.append(f"double dummy: {result.value} trick points for seat {seats}")
    if extra.get("conceded"):
        lines.append("the bots conceded this hand: no tricks were played")
    elif extra["actual_points"] is not None:
        lines.append(f"the bots took {extra['actual_points']} trick points from the same cards")
    lines.append(format_result(result))
    return "\n".join(lines)
