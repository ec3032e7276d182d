"""What a seat knows of a hand (:class:`~.stepwise.Table`), as a string and as a flat tensor: the
information state both framework adapters hand to agents.

A seat knows its own cards as dealt and now, every call of the auction, the contract and trump,
the cards it passed or received (the other side sees neither), the widow and its discards if it
is the bidder, every seat's meld (laid on the table: public), whether the bidder conceded, and
every card played, in order. Nobody sees another seat's hidden cards.

Tensor layout (floats 0/1 unless said; ``P`` players, ``T`` tricks, ``C`` = :data:`MAX_CALLS`):
the seat (P), the dealer (P), its cards now and as dealt (48 + 48: first copy, second copy of
each face), the auction (C x (P + 2): who called, pass, the bid / max bid), the bidder (P),
the bid / max bid (1), trump (4), stuck (1), passed by it and to it (48 + 48), the widow and the
discards (48 + 48, the bidder only), each seat's meld cards (P x 48) and meld / max bid (P),
conceded (1), the tricks (T x (P + P x 24): the leader, each card in playing order), the phase
(9).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.agents.stepwise import MAX_CALLS, PHASES, Table, TableRules
from pinochle_sim.core.cards import NUM_FACES, SUITS, card_name, format_cards, hand_faces

CARDS = 2 * NUM_FACES
"""A hand as a tensor: the first copy of each face, then the second."""


def tensor_size(tr: TableRules) -> int:
    p, t = tr.players, tr.hand_size
    return (2 * p + 2 * CARDS + MAX_CALLS * (p + 2) + p + 1 + 4 + 1 + 4 * CARDS + p * CARDS + p
            + 1 + t * (p + p * NUM_FACES) + len(PHASES))  # fmt: skip


def _cards(out: np.ndarray, at: int, faces: list[int]) -> int:
    seen = [0] * NUM_FACES
    for f in faces:
        out[at + f + NUM_FACES * min(seen[f], 1)] = 1.0
        seen[f] += 1
    return at + CARDS


def _sees_pass(t: Table, seat: int) -> bool:
    return t.bidder >= 0 and seat in (t.bidder, (t.bidder + 2) % 4) and t.tr.partners


def info_tensor(t: Table, seat: int) -> np.ndarray:
    """The seat's information state as a flat float32 vector (:func:`tensor_size` long)."""
    tr = t.tr
    p = tr.players
    out = np.zeros(tensor_size(tr), dtype=np.float32)
    at = 0
    out[at + seat] = 1.0
    at += p
    out[at + t.dealer] = 1.0
    at += p
    dealing = t.n_dealt < t.cards_to_deal
    at = _cards(out, at, hand_faces(t.hands[seat]))
    at = _cards(out, at, [] if dealing else hand_faces(t.dealt[seat]))
    for i, (who, bid) in enumerate(t.calls[:MAX_CALLS]):
        row = at + i * (p + 2)
        out[row + who] = 1.0
        if bid < 0:
            out[row + p] = 1.0
        else:
            out[row + p + 1] = bid / tr.max_bid
    at += MAX_CALLS * (p + 2)
    if t.bidder >= 0 and t.phase > 1:
        out[at + t.bidder] = 1.0
        out[at + p] = t.bid / tr.max_bid
    at += p + 1
    if t.trump >= 0:
        out[at + t.trump] = 1.0
    at += 4
    out[at] = float(t.stuck)
    at += 1
    mine = _sees_pass(t, seat)
    gave = t.given if seat != t.bidder else t.returned
    got = t.returned if seat != t.bidder else t.given
    at = _cards(out, at, gave if mine else [])
    at = _cards(out, at, got if mine else [])
    bidder = seat == t.bidder
    widow_known = bidder and t.phase > 2 and tr.widow
    at = _cards(out, at, hand_faces(t.widow) if widow_known else [])
    at = _cards(out, at, t.discards if bidder else [])
    for s in range(p):
        at = _cards(out, at, t.meld_cards[s] if t.meld_cards else [])
    for s in range(p):
        out[at + s] = (t.melds[s] / tr.max_bid) if t.melds else 0.0
    at += p
    out[at] = float(t.conceded)
    at += 1
    for k, (leader, cards) in enumerate(t.tricks):
        row = at + k * (p + p * NUM_FACES)
        out[row + leader] = 1.0
        for j, f in enumerate(cards):
            out[row + p + j * NUM_FACES + f] = 1.0
    at += tr.hand_size * (p + p * NUM_FACES)
    out[at + t.phase] = 1.0
    return out


def info_string(t: Table, seat: int) -> str:
    """The seat's information state as text (one line a fact, in the order learnt)."""
    tr = t.tr
    lines = [f"seat {seat} · dealer {t.dealer} · rules {tr.rules.name}"]
    if t.n_dealt < t.cards_to_deal:
        lines.append(f"dealing: {t.n_dealt} of {t.cards_to_deal} cards")
        lines.append(f"cards so far: {format_cards(hand_faces(t.hands[seat]))}")
        return "\n".join(lines)
    lines.append(f"dealt: {format_cards(hand_faces(t.dealt[seat]))}")
    if t.calls:
        calls = " ".join(f"{w}:{'pass' if b < 0 else b}" for w, b in t.calls)
        lines.append(f"auction: {calls}")
    if t.trump >= 0:
        stuck = " (dealer stuck)" if t.stuck else ""
        lines.append(f"contract: seat {t.bidder} bid {t.bid}{stuck}, trump {SUITS[t.trump]}")
    if _sees_pass(t, seat):
        gave = t.given if seat != t.bidder else t.returned
        got = t.returned if seat != t.bidder else t.given
        if gave:
            lines.append(f"passed: {' '.join(card_name(f) for f in gave)}")
        if got:
            lines.append(f"received: {' '.join(card_name(f) for f in got)}")
    if seat == t.bidder and tr.widow and t.phase > 2:
        lines.append(f"widow: {format_cards(hand_faces(t.widow))}")
        if t.discards:
            lines.append(f"discarded: {' '.join(card_name(f) for f in t.discards)}")
    if t.melds:
        melds = " · ".join(
            f"{s}: {m} ({format_cards(c) or '-'})"
            for s, (m, c) in enumerate(zip(t.melds, t.meld_cards, strict=True))
        )
        lines.append(f"meld: {melds}")
    if t.conceded:
        lines.append("the bidder conceded")
    for k, (leader, cards) in enumerate(t.tricks):
        if cards:
            lines.append(f"trick {k + 1}: {leader} led {' '.join(card_name(f) for f in cards)}")
    lines.append(f"hand: {format_cards(hand_faces(t.hands[seat]))}")
    lines.append(f"now: {PHASES[t.phase]}")  # e.g. a bidder who played on is past the throw-in
    if t.phase == 8:
        lines.append(f"scores: {' '.join(str(x) for x in t.scores)}")
    return "\n".join(lines)


__all__ = ["CARDS", "info_string", "info_tensor", "tensor_size"]
