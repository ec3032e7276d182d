"""Slow, independent pure-Python reference ("oracle") for the Pinochle rules.

Everything here follows docs/rules.md (section numbers are cited beside the code)
and is written from that text alone: it deliberately shares no code with ``pinochle_sim``
so the tests can use it to catch engine bugs. Standard library only, clarity over speed.

Card notation: rank then suit, e.g. ``"AS"``, ``"10H"``, ``"9D"``; ``"T"`` is accepted for 10.
Ranks: 9 J Q K 10 A. Suits: S H D C. A hand is a list of such strings (at most 2 copies of a
card, since the deck holds two of each).
"""

from __future__ import annotations

import functools
from collections import Counter

# --------------------------------------------------------------------------- cards (RULES 1)

SUITS = ("S", "H", "D", "C")
RANKS = ("9", "J", "Q", "K", "10", "A")
# Trick-taking strength, docs/rules.md 1: A > 10 > K > Q > J > 9 (the 10 beats the K).
TRICK_STRENGTH = {"9": 0, "J": 1, "Q": 2, "K": 3, "10": 4, "A": 5}


def parse_card(card: str) -> tuple[str, str]:
    """Split a card string into (rank, suit); "T" is read as "10". Raises ValueError."""
    if not isinstance(card, str) or len(card) < 2:
        raise ValueError(f"not a card: {card!r}")
    text = card.strip().upper()
    rank, suit = text[:-1], text[-1]
    if rank == "T":
        rank = "10"
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {card!r}")
    return rank, suit


def canon(card: str) -> str:
    """The canonical spelling of a card ("TH" -> "10H", "ah" -> "AH")."""
    rank, suit = parse_card(card)
    return rank + suit


def _canon_hand(cards: list[str] | str) -> list[str]:
    """Canonical card list; a single space-separated string is accepted too."""
    if isinstance(cards, str):
        cards = cards.split()
    hand = [canon(c) for c in cards]
    for card, n in Counter(hand).items():
        if n > 2:
            raise ValueError(f"{n} copies of {card}; the deck has only 2")
    return hand


def _check_suit(suit: str, what: str = "trump") -> str:
    if suit not in SUITS:
        raise ValueError(f"{what} must be one of {SUITS}, got {suit!r}")
    return suit


# --------------------------------------------------------------------------- meld (RULES 6)

# Meld tables, written out in full (no arithmetic) so each number can be checked against the
# text by eye. A key missing from a table means that meld does not exist under that table.
_AROUND_NAMES = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}

MELD_TABLES: dict[str, dict[str, int]] = {
    # Table A: `partnership`, seed 000. Includes the run bonus rows.
    "A": {
        "run": 150,
        "run+extra K": 190,
        "run+extra Q": 190,
        "run+trump marriage": 230,
        "double run": 1500,
        "dix": 10,
        "trump marriage": 40,
        "marriage": 20,
        "pinochle": 40,
        "double pinochle": 300,
        "aces around": 100,
        "kings around": 80,
        "queens around": 60,
        "jacks around": 40,
        "eight aces": 1000,
        "eight kings": 800,
        "eight queens": 600,
        "eight jacks": 400,
    },
    # Table B: `partnership-classic`/`three-hand`, seed 004: table A without the three
    # run-bonus rows (run + extra K, run + extra Q, run + trump marriage). Double run stays
    # (table C = B / 10 has "double run 150").
    "B": {
        "run": 150,
        "double run": 1500,
        "dix": 10,
        "trump marriage": 40,
        "marriage": 20,
        "pinochle": 40,
        "double pinochle": 300,
        "aces around": 100,
        "kings around": 80,
        "queens around": 60,
        "jacks around": 40,
        "eight aces": 1000,
        "eight kings": 800,
        "eight queens": 600,
        "eight jacks": 400,
    },
    # Table C: `joedog`, seed 003: table B divided by ten.
    "C": {
        "run": 15,
        "double run": 150,
        "dix": 1,
        "trump marriage": 4,
        "marriage": 2,
        "pinochle": 4,
        "double pinochle": 30,
        "aces around": 10,
        "kings around": 8,
        "queens around": 6,
        "jacks around": 4,
        "eight aces": 100,
        "eight kings": 80,
        "eight queens": 60,
        "eight jacks": 40,
    },
    # Table D: `two-hand`, seed 002. docs/rules.md 3: table D has no double runs and no
    # eight-of-a-kind melds. Choice (documented): those cards are NOT worthless; they simply
    # form the ordinary melds, so two complete trump runs are two runs (2 x 150 = 300) and all
    # eight aces are two separate "aces around" (2 x 100 = 200). Double pinochle does exist.
    "D": {
        "run": 150,
        "dix": 10,
        "trump marriage": 40,
        "marriage": 20,
        "pinochle": 40,
        "double pinochle": 300,
        "aces around": 100,
        "kings around": 80,
        "queens around": 60,
        "jacks around": 40,
    },
}

# A candidate meld: (class, name, points, cards it needs as a multiset).
Candidate = tuple[int, str, int, Counter]


@functools.cache
def _candidates(trump: str, table: str) -> tuple[Candidate, ...]:
    """Every meld the table knows for this trump, as a multiset of cards (made once per trump
    and table: the 100,000-hand oracle test asks for it 1.2 million times; callers only read
    the multisets, ``have - need`` makes new ones).

    Class 1 = runs / marriages / dix, class 2 = pinochles, class 3 = arounds (docs/rules.md 3).
    "Double" melds (double run, double pinochle, eight of a kind) are separate candidates that
    consume both copies, so they replace rather than add to the single versions.
    """
    values = MELD_TABLES[table]
    t = trump
    run = Counter({"A" + t: 1, "10" + t: 1, "K" + t: 1, "Q" + t: 1, "J" + t: 1})
    shapes: list[tuple[int, str, str, Counter]] = [
        (1, "run", "run", run),
        (1, "run+extra K", "run+extra K", run + Counter({"K" + t: 1})),
        (1, "run+extra Q", "run+extra Q", run + Counter({"Q" + t: 1})),
        (1, "run+trump marriage", "run+trump marriage", run + Counter({"K" + t: 1, "Q" + t: 1})),
        (1, "double run", "double run", run + run),
        (1, "dix", "dix", Counter({"9" + t: 1})),
        (1, "trump marriage", "trump marriage", Counter({"K" + t: 1, "Q" + t: 1})),
    ]
    for suit in SUITS:
        if suit != t:
            shapes.append(
                (1, "marriage", f"marriage ({suit})", Counter({"K" + suit: 1, "Q" + suit: 1}))
            )
    pinochle = Counter({"QS": 1, "JD": 1})
    shapes.append((2, "pinochle", "pinochle", pinochle))
    shapes.append((2, "double pinochle", "double pinochle", pinochle + pinochle))
    for rank, word in _AROUND_NAMES.items():
        around = Counter({rank + s: 1 for s in SUITS})
        shapes.append((3, f"{word} around", f"{word} around", around))
        shapes.append((3, f"eight {word}", f"eight {word}", around + around))
    return tuple((cls, name, values[key], need) for cls, key, name, need in shapes if key in values)


def _fits(need: Counter, have: Counter) -> bool:
    return all(have[card] >= n for card, n in need.items())


def _best_in_class(cands: list[Candidate], i: int, have: Counter) -> tuple[int, list]:
    """Exhaustive search: best total over multisets of cands[i:] that fit in `have`.

    At each candidate either skip it for good (move to i+1) or use it once more (stay at i,
    with its cards removed, so it can be used again if a second copy of its cards exists).
    """
    if i == len(cands):
        return 0, []
    best_pts, best_list = _best_in_class(cands, i + 1, have)
    _, name, pts, need = cands[i]
    if _fits(need, have):
        sub_pts, sub_list = _best_in_class(cands, i, have - need)
        if pts + sub_pts > best_pts:
            best_pts, best_list = pts + sub_pts, [(name, pts), *sub_list]
    return best_pts, best_list


def ref_meld_list(cards: list[str], trump: str, table: str) -> list[tuple[str, int]]:
    """One optimal set of melds as (name, points), by exhaustive search (docs/rules.md 3).

    Within one class each physical card copy serves at most one meld; a card may serve melds
    of different classes. The classes therefore never compete, and the best total is the sum
    of the best choice inside each class.
    """
    _check_suit(trump)
    if table not in MELD_TABLES:
        raise ValueError(f"meld table must be one of {sorted(MELD_TABLES)}, got {table!r}")
    have = Counter(_canon_hand(cards))
    melds: list[tuple[str, int]] = []
    present = [c for c in _candidates(trump, table) if _fits(c[3], have)]
    for cls in (1, 2, 3):
        # Prune: only candidates whose cards are all present can ever be chosen.
        cands = [c for c in present if c[0] == cls]
        _, chosen = _best_in_class(cands, 0, have)
        melds.extend(chosen)
    return melds


def ref_meld(cards: list[str], trump: str, table: str) -> int:
    """The best total meld of `cards` for `trump` under meld table "A".."D" (docs/rules.md 3)."""
    return sum(pts for _, pts in ref_meld_list(cards, trump, table))


# --------------------------------------------------------------------------- tricks (RULES 1, 7)


def ref_beats(a: str, b: str, trump: str, led: str) -> bool:
    """Does card `a`, played after `b`, beat `b` (the card currently winning the trick)?

    Only a trump or a card of the led suit can win. Trumps outrank the led suit; inside one
    suit the trick order decides. An identical card does not beat: the first played wins.
    """
    _check_suit(trump)
    _check_suit(led, "led suit")
    a_rank, a_suit = parse_card(a)
    b_rank, b_suit = parse_card(b)

    def power(rank: str, suit: str) -> tuple[int, int] | None:
        if suit == trump:
            return (2, TRICK_STRENGTH[rank])
        if suit == led:
            return (1, TRICK_STRENGTH[rank])
        return None  # a card of another non-trump suit never wins

    pa, pb = power(a_rank, a_suit), power(b_rank, b_suit)
    if pa is None:
        return False
    if pb is None:
        return True
    return pa > pb  # strict: equal (identical cards) -> first played keeps the trick


def ref_trick_winner(trick: list[str], trump: str) -> int:
    """Index, in play order, of the card that wins `trick` (docs/rules.md 5)."""
    if not trick:
        raise ValueError("empty trick has no winner")
    led = parse_card(trick[0])[1]
    winner = 0
    for i in range(1, len(trick)):
        if ref_beats(trick[i], trick[winner], trump, led):
            winner = i
    return winner


HEAD_MODES = ("always", "trump-led", "never")


def ref_legal(hand: list[str], trick: list[str], trump: str, head: str) -> set[str]:
    """Distinct card faces in `hand` that may legally be played to `trick` (docs/rules.md 5).

    1. follow the led suit if able; 2. else play a trump if able; 3. else any card;
    4. among those, if heading applies, play one that beats the currently winning card
       whenever one exists (even over partner). head="always": always applies;
       "trump-led": only if the led suit is trump (joedog, two-hand play-out); "never": never.
    If no allowed card can beat, the set from 1-3 stands: in particular a player void in the
    led suit who cannot over-trump an earlier trump must still play a trump.
    Faces are returned in canonical spelling ("TH" in the hand comes back as "10H").
    """
    _check_suit(trump)
    if head not in HEAD_MODES:
        raise ValueError(f"head must be one of {HEAD_MODES}, got {head!r}")
    cards = _canon_hand(hand)
    if not cards:
        raise ValueError("empty hand has no legal play")
    played = [canon(c) for c in trick]
    if not played:
        return set(cards)  # the leader may lead anything

    led = parse_card(played[0])[1]
    winning = played[ref_trick_winner(played, trump)]

    follow = [c for c in cards if parse_card(c)[1] == led]
    trumps = [c for c in cards if parse_card(c)[1] == trump]
    if follow:
        allowed = follow
    elif trumps:
        allowed = trumps
    else:
        allowed = cards

    must_head = head == "always" or (head == "trump-led" and led == trump)
    if must_head:
        beaters = [c for c in allowed if ref_beats(c, winning, trump, led)]
        if beaters:
            allowed = beaters
    return set(allowed)


def ref_card_points(card: str, values: dict[str, int]) -> int:
    """Trick points of one card; `values` maps rank ("A", "10", ...) to points (docs/rules.md 2).

    A rank missing from `values` is worth 0; a "T" key is read as "10".
    """
    rank, _ = parse_card(card)
    norm = {("10" if k == "T" else k): v for k, v in values.items()}
    return norm.get(rank, 0)


def ref_trick_points(
    tricks_won_cards: list[str], values: dict[str, int], got_last: bool, last_bonus: int
) -> int:
    """Card points of all cards a side took in tricks, plus the last-trick bonus if it had it."""
    total = sum(ref_card_points(c, values) for c in tricks_won_cards)
    return total + (last_bonus if got_last else 0)


# --------------------------------------------------------------------------- auction (RULES 4)


def ref_auction(
    calls: list[int | None],
    dealer: int,
    min_bid: int,
    steps: tuple[int, ...],
    players: int = 4,
) -> tuple[int, int, bool]:
    """Validate a complete auction and return (winner seat, winning bid, dealer stuck).

    `calls` are in order, starting with the seat left of the dealer, skipping players who
    have passed; None is a pass. Rules (docs/rules.md 4.2): the opening bid equals `min_bid`
    exactly; every later bid is the current bid plus one of `steps`; a passed player is out;
    the auction ends as soon as all but one have passed and that one has bid (the winner makes
    no further call). If everybody before the dealer passes without a bid, the dealer either
    opens at the minimum (and wins there) or passes and is stuck with the minimum.
    Raises ValueError on an illegal, incomplete or over-long sequence.
    """
    if players < 2:
        raise ValueError("an auction needs at least 2 players")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer {dealer} is not a seat of {players} players")
    if not steps or any(s <= 0 for s in steps):
        raise ValueError(f"bid steps must be positive, got {steps!r}")

    active = [True] * players
    high_bid: int | None = None
    high_seat: int | None = None
    seat = (dealer + 1) % players

    def finished() -> tuple[int, int, bool] | None:
        alive = [s for s in range(players) if active[s]]
        if not alive:  # everyone passed without a bid: dealer stuck at the minimum
            return dealer, min_bid, True
        if len(alive) == 1 and high_seat == alive[0]:
            return high_seat, high_bid, False
        return None

    for k, call in enumerate(calls):
        if finished() is not None:
            raise ValueError(
                f"auction was already over before call #{k} ({call!r}); "
                f"{len(calls) - k} extra call(s)"
            )
        while not active[seat]:  # passed players are skipped
            seat = (seat + 1) % players
        if call is None:
            active[seat] = False
        else:
            if isinstance(call, bool) or not isinstance(call, int):
                raise ValueError(f"call #{k} by seat {seat} is not a bid or pass: {call!r}")
            if high_bid is None:
                if call != min_bid:
                    raise ValueError(
                        f"call #{k}: opening bid by seat {seat} must be exactly {min_bid}, "
                        f"got {call}"
                    )
            elif call - high_bid not in steps:
                raise ValueError(
                    f"call #{k}: seat {seat} bid {call} over {high_bid}; a raise must be "
                    f"one of +{', +'.join(map(str, steps))}"
                )
            high_bid, high_seat = call, seat
        seat = (seat + 1) % players

    result = finished()
    if result is None:
        raise ValueError(f"auction incomplete after {len(calls)} call(s)")
    return result


# --------------------------------------------------------------------------- scoring (RULES 8)


def ref_score(
    team_meld: tuple[int, int],
    team_tricks: tuple[int, int],
    bidder_team: int,
    bid: int,
    save_rule: bool,
    conceded: bool,
) -> tuple[int, int]:
    """Hand scores (team 0, team 1) for the auction presets (docs/rules.md 6).

    Save rule: a side with zero trick points scores nothing, its meld included; so a bidding
    side with zero trick points is set. Bidding side: meld + tricks >= bid scores that,
    otherwise -bid. Other side: meld + tricks (subject to the save rule). Concede: bidding
    side -bid, other side its meld (no tricks are played, so the save rule does not apply).
    """
    if bidder_team not in (0, 1):
        raise ValueError(f"bidder_team must be 0 or 1, got {bidder_team!r}")
    other = 1 - bidder_team
    scores = [0, 0]
    if conceded:
        scores[bidder_team] = -bid
        scores[other] = team_meld[other]
        return scores[0], scores[1]

    for side in (0, 1):
        saved = not (save_rule and team_tricks[side] == 0)
        counted = team_meld[side] + team_tricks[side] if saved else 0
        if side == bidder_team:
            scores[side] = counted if (saved and counted >= bid) else -bid
        else:
            scores[side] = counted
    return scores[0], scores[1]


def ref_throw_in_allowed(bid: int, bidding_meld: int, total_trick_points: int) -> bool:
    """May the bidder concede? Only if the bid cannot be made: bid - meld > all trick points."""
    return bid - bidding_meld > total_trick_points


# --------------------------------------------------------------------------- full play replay


def ref_check_play(
    hands: list[list[str]],
    leader: int,
    tricks: list[list[str]],
    trump: str,
    head: str,
) -> list[int]:
    """Replay a play phase and assert every card is held and legal; return winner seats.

    `hands` are the players' hands before play; `tricks[i]` lists trick i's cards in play
    order starting with its leader (the first is `leader`, then each trick's winner leads).
    """
    n = len(hands)
    remaining = [Counter(_canon_hand(h)) for h in hands]
    assert 0 <= leader < n, f"leader {leader} is not a seat of {n} players"
    winners: list[int] = []
    for t, trick in enumerate(tricks):
        assert len(trick) == n, f"trick {t} has {len(trick)} cards for {n} players"
        played: list[str] = []
        seat = leader
        for card in trick:
            c = canon(card)
            held = sorted(remaining[seat].elements())
            assert remaining[seat][c] > 0, f"trick {t}: seat {seat} plays {c} not held ({held})"
            legal = ref_legal(held, played, trump, head)
            assert c in legal, (
                f"trick {t}: seat {seat} plays {c} to {played}; legal were {sorted(legal)}"
            )
            remaining[seat][c] -= 1
            played.append(c)
            seat = (seat + 1) % n
        leader = (leader + ref_trick_winner(played, trump)) % n
        winners.append(leader)
    return winners


def ref_record_winners(records, head: str):
    """For each hand record played out (not conceded), ``(the reference's trick winners, the
    record's)``: :func:`ref_check_play` over its dealt hands and tricks."""
    for rec in records:
        if rec["conceded"]:
            continue
        tricks = [t["cards"] for t in rec["tricks"]]
        want = ref_check_play(rec["hands"], rec["bidder"], tricks, rec["trump"], head)
        yield want, [t["winner"] for t in rec["tricks"]]
