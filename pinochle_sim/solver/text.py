"""A solve as a person reads it: every legal card with its value, then the optimal line trick
by trick (what ``pinochle-sim solve`` prints without ``--json``)."""

from __future__ import annotations

from pinochle_sim.core.cards import SUITS, card_name
from pinochle_sim.solver import Position, SolveResult


def _seats(seats: tuple[int, ...]) -> str:
    return ("seats " if len(seats) > 1 else "seat ") + "+".join(str(s) for s in seats)


def _value(v: int | None, lo: int, hi: int) -> str:
    return f"{v:>4}" if v is not None else f"{lo}..{hi} (not proven)"


def format_result(res: SolveResult) -> str:
    """The annotation of one solve."""
    p = res.position
    table = " ".join(card_name(f) for f in p.trick)
    where = f"trick in progress, led by seat {p.leader}: {table}" if p.trick else "at a trick start"
    lines = [
        f"{p.rules.name}, trump {SUITS[p.trump]}, {p.tricks_left} tricks left ({where})",
        f"side: {_seats(res.side_seats)}; {res.points_left} trick points still in play",
    ]
    if res.value is not None:
        lines.append(f"value: {res.value} for {_seats(res.side_seats)}")
    else:
        lines.append(
            f"value: between {res.lower} and {res.upper} (the time limit stopped the search: "
            "these are proven bounds)"
        )
    lines.append(f"seat {res.to_move} to play; each legal card, then perfect play:")
    best = max if res.to_move in res.side_seats else min
    known = [m.value for m in res.moves if m.value is not None]
    top = best(known) if known else None
    for m in res.moves:
        mark = "  best" if m.value is not None and m.value == top and res.exact else ""
        lines.append(f"  {card_name(m.card):>3}  {_value(m.value, m.lower, m.upper)}{mark}")
    if res.line:
        lines.append("optimal line:")
        lines.extend(_line_text(p, res.line, res.side_seats))
    elif not res.exact:
        lines.append("no optimal line: the search did not finish within the time limit")
    lines.append(f"search: {res.nodes:,} nodes in {res.seconds:.3f} s")
    return "\n".join(lines)


def _line_text(p: Position, line: tuple[int, ...], seats: tuple[int, ...]) -> list[str]:
    """The line trick by trick: the leader, the cards in play order, the winner, the points."""
    out = []
    cur: Position | None = p
    number = 1
    cards = [card_name(f) for f in p.trick]
    leader = p.leader
    total = 0
    for f in line:
        assert cur is not None
        cards.append(card_name(f))
        cur, won_by, pts = cur.play(f)
        if won_by is not None:
            mine = won_by in seats
            total += pts if mine else 0
            out.append(
                f"  trick {number:>2}: lead {leader}  {' '.join(f'{c:>3}' for c in cards)}"
                f"  -> seat {won_by} +{pts:<3} {'(side)' if mine else '      '}  side {total}"
            )
            number += 1
            cards = []
            leader = won_by
    return out
