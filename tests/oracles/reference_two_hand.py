"""Slow, independent pure-Python oracle for the `two-hand` Pinochle preset.

Written from docs/rules.md (sections 1, 2 `two-hand` column, 3 table D and 7, section 7
being the authority) and its seed text 002_5dad48ae6d59dfea.txt. It shares no code with
``pinochle_sim``: plain Python only, clarity over speed.

``validate_two_hand(rec)`` replays one two-hand deal record from scratch, tracking every
physical card (face + copy number 0/1), and raises ``AssertionError`` with a message naming the
trick and the rule on the first violation or wrong number.

Decisions where the rules text is silent (documented here so the engine can match them):

* Within one trick the order is: both plays, winner and points, the optional meld, the optional
  dix (show, maybe exchange), then the draws. So neither a card drawn after the trick nor the
  up-card gained by a dix exchange can join that same turn's meld (RULES 9: "A card drawn
  cannot be melded in the same turn").
* A dix exchange needs the ORIGINAL up-card still face up; once it was exchanged (or taken
  after trick 12) no further exchange is possible.
* A turned-up 9 of trump counts as already shown (the dealer scored it), so it can never be
  shown as dix again, whoever later holds it.
"""

from __future__ import annotations

from collections import Counter

# --------------------------------------------------------------------------- cards (RULES 1, 2)

SUITS = ("S", "H", "D", "C")
RANKS = ("9", "J", "Q", "K", "10", "A")
# Trick-taking strength, RULES 1: A > 10 > K > Q > J > 9.
STRENGTH = {rank: i for i, rank in enumerate(RANKS)}
# Card points of the `two-hand` column of RULES 2.
CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
LAST_TRICK_BONUS = 10  # RULES 2 / 9
TOTAL_TRICK_POINTS = 250  # RULES 9
DIX_POINTS = 10  # RULES 6 table D
HAND_SIZE = 12
STOCK_TRICKS = 12
TOTAL_TRICKS = 24


def split_card(card: str) -> tuple[str, str]:
    """Split a canonical card string ("10H", "QS") into (rank, suit); AssertionError if bad."""
    assert isinstance(card, str) and len(card) >= 2, f"not a card: {card!r}"
    rank, suit = card[:-1], card[-1]
    assert rank in RANKS and suit in SUITS, f"not a card: {card!r}"
    return rank, suit


def suit_of(card: str) -> str:
    return split_card(card)[1]


def rank_of(card: str) -> str:
    return split_card(card)[0]


def card_points(card: str) -> int:
    """Trick points of one card, RULES 2 `two-hand`: A 11, 10 10, K 4, Q 3, J 2, 9 0."""
    return CARD_POINTS[rank_of(card)]


def trick_winner(led: str, second: str, trump: str) -> int:
    """0 if the led card wins the two-card trick, 1 if the second card does (RULES 1, 9).

    Trump beats non-trump; otherwise the higher card of the led suit wins; a non-trump card
    of another suit never wins; identical cards: the first played wins.
    """
    led_rank, led_suit = split_card(led)
    sec_rank, sec_suit = split_card(second)
    if sec_suit == led_suit:
        return 1 if STRENGTH[sec_rank] > STRENGTH[led_rank] else 0
    return 1 if sec_suit == trump else 0


def round_tens_7up(x: int) -> int:
    """Round a trick total to tens, units 7-9 up and 0-6 down (RULES 9: 87->90, 126->120)."""
    units = x % 10
    return x - units + (10 if units >= 7 else 0)


# --------------------------------------------------------------------------- meld (RULES 6, D)

CLASS_RUNS_MARRIAGES = 1  # runs, marriages, dix
CLASS_PINOCHLES = 2
CLASS_AROUNDS = 3

# name -> (class, points), RULES 6 table D.
MELD_TABLE_D: dict[str, tuple[int, int]] = {
    "run": (CLASS_RUNS_MARRIAGES, 150),
    "trump marriage": (CLASS_RUNS_MARRIAGES, 40),
    "marriage": (CLASS_RUNS_MARRIAGES, 20),
    "pinochle": (CLASS_PINOCHLES, 40),
    "double pinochle": (CLASS_PINOCHLES, 300),
    "aces around": (CLASS_AROUNDS, 100),
    "kings around": (CLASS_AROUNDS, 80),
    "queens around": (CLASS_AROUNDS, 60),
    "jacks around": (CLASS_AROUNDS, 40),
}
AROUND_RANK = {"aces around": "A", "kings around": "K", "queens around": "Q", "jacks around": "J"}


def meld_faces_ok(name: str, faces: list[str], trump: str) -> bool:
    """True iff `faces` is exactly the card multiset of meld `name` for `trump` (table D)."""
    got = Counter(faces)
    if name == "run":
        want = Counter(r + trump for r in ("A", "10", "K", "Q", "J"))
    elif name == "trump marriage":
        want = Counter(["K" + trump, "Q" + trump])
    elif name == "marriage":
        suits = {suit_of(f) for f in faces}
        if len(suits) != 1 or trump in suits:
            return False
        suit = suits.pop()
        want = Counter(["K" + suit, "Q" + suit])
    elif name == "pinochle":
        want = Counter(["QS", "JD"])
    elif name == "double pinochle":
        want = Counter(["QS", "QS", "JD", "JD"])
    elif name in AROUND_RANK:
        want = Counter(AROUND_RANK[name] + s for s in SUITS)
    else:
        return False
    return got == want


# --------------------------------------------------------------------------- replay state

HAND, TABLE, STOCK, UP, PLAYED = "hand", "table", "stock", "up", "played"


class PhysicalCard:
    """One of the 48 physical cards: its face, copy number and current whereabouts."""

    def __init__(self, face: str, copy: int) -> None:
        self.face = face
        self.copy = copy
        self.owner: int | None = None  # seat, or None while in the stock / face up
        self.place = STOCK  # HAND (concealed), TABLE (melded), STOCK, UP or PLAYED
        self.used: dict[int, int] = {}  # meld class -> highest meld value it served in
        self.shown_dix = False

    def __repr__(self) -> str:
        return f"{self.face}#{self.copy}"


def _get(d: dict, key: str, where: str):
    assert isinstance(d, dict), f"{where}: expected a dict, got {type(d).__name__}"
    assert key in d, f"{where}: missing key {key!r}"
    return d[key]


class TwoHandReplay:
    """Replays a two-hand record trick by trick (RULES 9), asserting every rule on the way."""

    def __init__(self, rec: dict) -> None:
        self.rec = rec
        self.cards: dict[tuple[str, int], PhysicalCard] = {}
        self.stock: list[PhysicalCard] = []
        self.stock_next = 0
        self.face_up: PhysicalCard | None = None
        self.original_up: PhysicalCard | None = None
        self.meld_points = [0, 0]
        self.raw_points = [0, 0]
        self.points_sum = 0

    # ----------------------------------------------------------------- setup (RULES 1, 3, 9)

    def check_header(self) -> None:
        """Record basics; trump is the up-card's suit, the turned-up 9 is 10 at once (RULES 9)."""
        rec = self.rec
        for key in ("hand", "seed"):
            assert isinstance(_get(rec, key, "record"), int), f"record: {key} must be an int"
        assert _get(rec, "rules", "record") == "two-hand", f"rules is {rec['rules']!r}"
        self.dealer = _get(rec, "dealer", "record")
        assert self.dealer in (0, 1), f"dealer must be 0 or 1, got {self.dealer!r}"
        self.trump = _get(rec, "trump", "record")
        up = _get(rec, "up_card", "record")
        rank, suit = split_card(up)
        assert self.trump == suit, f"trump {self.trump!r} is not the up-card's suit ({up})"
        want_dix = DIX_POINTS if rank == "9" else 0
        got_dix = _get(rec, "turnup_dix", "record")
        assert got_dix == want_dix, (
            f"turnup_dix is {got_dix}, expected {want_dix} (up-card {up}; RULES 9: a turned-up "
            f"9 scores 10 for the dealer)"
        )
        self.turnup_dix = want_dix

    def deal(self) -> None:
        """48 cards, each face twice; copies numbered in dealt0, dealt1, up, stock order."""
        rec = self.rec
        dealt = _get(rec, "dealt", "record")
        assert len(dealt) == 2, "dealt must hold two hands"
        for seat in (0, 1):
            assert len(dealt[seat]) == HAND_SIZE, (
                f"seat {seat} was dealt {len(dealt[seat])} cards, expected {HAND_SIZE}"
            )
        stock = _get(rec, "stock", "record")
        assert len(stock) == 48 - 2 * HAND_SIZE - 1, f"stock has {len(stock)} cards, expected 23"
        order = [*dealt[0], *dealt[1], rec["up_card"], *stock]
        counts = Counter(order)
        for card in order:
            split_card(card)
        wrong = {c: n for c, n in counts.items() if n != 2}
        missing = [r + s for s in SUITS for r in RANKS if r + s not in counts]
        assert not wrong and not missing, (
            f"deck must hold every face exactly twice; wrong counts {wrong}, missing {missing}"
        )
        seen: Counter = Counter()
        physical = []
        for face in order:
            card = PhysicalCard(face, seen[face])
            seen[face] += 1
            self.cards[(face, card.copy)] = card
            physical.append(card)
        for i, card in enumerate(physical):
            if i < 2 * HAND_SIZE:
                card.owner, card.place = i // HAND_SIZE, HAND
            elif i == 2 * HAND_SIZE:
                card.place = UP
                self.face_up = self.original_up = card
                card.shown_dix = self.turnup_dix > 0  # the dealer already scored it
            else:
                self.stock.append(card)

    # ----------------------------------------------------------------- lookups

    def resolve(self, face: str, copy: int, where: str) -> PhysicalCard:
        """The physical card named by (face, copy)."""
        split_card(face)
        assert copy in (0, 1), f"{where}: copy must be 0 or 1, got {copy!r}"
        return self.cards[(face, copy)]

    def unplayed(self, seat: int) -> list[PhysicalCard]:
        """The seat's unplayed cards: concealed hand plus its melds on the table."""
        return [c for c in self.cards.values() if c.owner == seat and c.place in (HAND, TABLE)]

    def assert_held(self, card: PhysicalCard, seat: int, where: str) -> None:
        """The seat owns the card now and has not played it (RULES 9)."""
        if card.place == PLAYED:
            raise AssertionError(f"{where}: {card} was already played to an earlier trick")
        if card.place == STOCK:
            raise AssertionError(f"{where}: {card} is still in the stock, seat {seat} lacks it")
        if card.place == UP:
            raise AssertionError(f"{where}: {card} is the face-up card, seat {seat} lacks it")
        assert card.owner == seat, f"{where}: {card} belongs to seat {card.owner}, not {seat}"

    @staticmethod
    def assert_from(card: PhysicalCard, given: str, where: str) -> None:
        """ "from" is "table" iff the copy is currently laid down in a meld."""
        want = "table" if card.place == TABLE else "hand"
        assert given == want, f"{where}: {card} is marked from {given!r}, but it is in the {want}"

    # ----------------------------------------------------------------- tricks (RULES 9)

    def play_trick(self, n: int, trick: dict, leader: int) -> int:
        """Check one trick; returns its winner."""
        where = f"trick {n}"
        assert _get(trick, "n", where) == n, f"{where}: numbered {trick['n']!r}"
        phase = "stock" if n <= STOCK_TRICKS else "playout"
        assert _get(trick, "phase", where) == phase, f"{where}: phase must be {phase!r}"
        assert _get(trick, "leader", where) == leader, (
            f"{where}: leader is {trick['leader']!r}, expected seat {leader} (RULES 9: the "
            f"non-dealer leads trick 1, then the trick winner leads)"
        )
        plays = _get(trick, "cards", where)
        assert len(plays) == 2, f"{where}: needs exactly two cards"
        faces = []
        for i, play in enumerate(plays):
            seat = leader if i == 0 else 1 - leader
            pwhere = f"{where}, card {i + 1}"
            assert _get(play, "seat", pwhere) == seat, f"{pwhere}: must be played by seat {seat}"
            card = self.resolve(_get(play, "card", pwhere), _get(play, "copy", pwhere), pwhere)
            self.assert_held(card, seat, pwhere)
            self.assert_from(card, _get(play, "from", pwhere), pwhere)
            if i == 1 and phase == "playout":
                self.assert_playout_legal(seat, faces[0], card.face, pwhere)
            faces.append(card.face)
            card.place = PLAYED
        winner = leader if trick_winner(faces[0], faces[1], self.trump) == 0 else 1 - leader
        assert _get(trick, "winner", where) == winner, (
            f"{where}: winner is {trick['winner']!r}, but seat {winner} wins {faces} "
            f"(trump {self.trump})"
        )
        points = card_points(faces[0]) + card_points(faces[1])
        if n == TOTAL_TRICKS:
            points += LAST_TRICK_BONUS
        assert _get(trick, "points", where) == points, (
            f"{where}: points is {trick['points']!r}, expected {points} for {faces}"
        )
        self.raw_points[winner] += points
        self.points_sum += trick["points"]
        meld, dix, draws = (_get(trick, k, where) for k in ("meld", "dix", "draws"))
        if phase == "playout":
            assert meld is None and dix is None, f"{where}: no meld or dix in the play-out"
            assert list(draws) == [], f"{where}: no draws in the play-out"
            return winner
        if meld is not None:
            self.lay_meld(meld, winner, where)
        if dix is not None:
            self.show_dix(dix, winner, where)
        self.draw(n, draws, winner, where)
        if n == STOCK_TRICKS:
            for card in self.cards.values():
                if card.place == TABLE:
                    card.place = HAND  # RULES 9: melds return to the hands
        for seat in (0, 1):
            held = len(self.unplayed(seat))
            assert held == HAND_SIZE, f"{where}: after the draws seat {seat} holds {held} cards"
        return winner

    def assert_playout_legal(self, seat: int, led: str, played: str, where: str) -> None:
        """Play-out obligations of the second player (RULES 9, last 12 tricks).

        Follow suit if able; if trump is led, beat the led card if able (else still follow);
        if void in the led suit, trump if able; otherwise any card.
        """
        hand = [c.face for c in self.unplayed(seat)]
        led_rank, led_suit = split_card(led)
        same = [f for f in hand if suit_of(f) == led_suit]
        if same:
            assert suit_of(played) == led_suit, (
                f"{where}: renege - seat {seat} played {played} but must follow {led_suit} "
                f"(holds {sorted(same)})"
            )
            if led_suit == self.trump:
                beaters = [f for f in same if STRENGTH[rank_of(f)] > STRENGTH[led_rank]]
                assert not beaters or STRENGTH[rank_of(played)] > STRENGTH[led_rank], (
                    f"{where}: trump {led} was led; seat {seat} must beat it with one of "
                    f"{sorted(beaters)}, not {played}"
                )
            return
        trumps = [f for f in hand if suit_of(f) == self.trump]
        assert not trumps or suit_of(played) == self.trump, (
            f"{where}: seat {seat} is void in {led_suit} and must trump with one of "
            f"{sorted(trumps)}, not {played}"
        )

    # ----------------------------------------------------------------- meld (RULES 6, 9)

    def lay_meld(self, meld: dict, winner: int, where: str) -> None:
        """One meld by the stock-trick winner, before the draws (RULES 9).

        Exact faces and table-D points; all cards held by the winner and unplayed; at least one
        from the concealed hand; a tabled card serves again only in another class or in a
        strictly higher meld of the same class (RULES 6 and 9).
        """
        where = f"{where}, meld"
        seat = _get(meld, "seat", where)
        assert seat == winner, f"{where}: seat {seat} melds but seat {winner} won the trick"
        name = _get(meld, "name", where)
        assert name in MELD_TABLE_D, f"{where}: unknown meld {name!r}"
        cls, value = MELD_TABLE_D[name]
        assert _get(meld, "points", where) == value, (
            f"{where}: {name} is worth {value}, recorded {meld['points']!r}"
        )
        cards = []
        for entry in _get(meld, "cards", where):
            card = self.resolve(_get(entry, "card", where), _get(entry, "copy", where), where)
            assert card not in cards, f"{where}: {card} listed twice"
            self.assert_held(card, seat, where)
            self.assert_from(card, _get(entry, "from", where), where)
            cards.append(card)
        faces = [c.face for c in cards]
        assert meld_faces_ok(name, faces, self.trump), (
            f"{where}: {sorted(faces)} is not a {name} with trump {self.trump}"
        )
        assert any(c.place == HAND for c in cards), (
            f"{where}: {name} uses no card from the concealed hand (RULES 9: each new meld "
            f"needs at least one)"
        )
        for card in cards:
            prior = card.used.get(cls)
            assert prior is None or value > prior, (
                f"{where}: {card} already served in a class-{cls} meld worth {prior}; it may "
                f"not serve again in {name} ({value}) - RULES 6/9 allow only another class or "
                f"a higher meld of the same class"
            )
        for card in cards:
            card.place = TABLE
            card.used[cls] = value
        self.meld_points[seat] += value

    def show_dix(self, dix: dict, winner: int, where: str) -> None:
        """Dix: the winner shows an unshown 9 of trump for 10, maybe exchanging it (RULES 9)."""
        where = f"{where}, dix"
        assert _get(dix, "seat", where) == winner, f"{where}: only the trick winner may show dix"
        assert _get(dix, "points", where) == DIX_POINTS, f"{where}: dix is worth {DIX_POINTS}"
        ref = _get(dix, "card", where)
        card = self.resolve(_get(ref, "card", where), _get(ref, "copy", where), where)
        assert card.face == "9" + self.trump, f"{where}: {card} is not the 9 of trump"
        self.assert_held(card, winner, where)
        assert not card.shown_dix, f"{where}: {card} was already shown as dix"
        exchanged = _get(dix, "exchanged", where)
        assert isinstance(exchanged, bool), f"{where}: exchanged must be a bool"
        card.shown_dix = True
        if exchanged:
            up = self.face_up
            assert up is self.original_up and up is not None and up.place == UP, (
                f"{where}: dix exchange, but the up-card is no longer face up ({up})"
            )
            up.owner, up.place = winner, HAND
            card.owner, card.place = None, UP
            self.face_up = card
        else:
            card.place = TABLE
        self.meld_points[winner] += DIX_POINTS

    # ----------------------------------------------------------------- draws (RULES 9)

    def draw(self, n: int, draws: list, winner: int, where: str) -> None:
        """Winner draws the top stock card, then the loser the next; after trick 12 the loser
        takes the face-up card (the up-card or the exchanged dix)."""
        assert len(draws) == 2, f"{where}: a stock trick needs two draws, got {len(draws)}"
        loser = 1 - winner
        first = self.stock[self.stock_next]
        if n < STOCK_TRICKS:
            second = self.stock[self.stock_next + 1]
            self.stock_next += 2
        else:
            assert self.stock_next == len(self.stock) - 1, f"{where}: stock count is off"
            second = self.face_up
            self.stock_next += 1
        for i, (seat, card) in enumerate(((winner, first), (loser, second))):
            dwhere = f"{where}, draw {i + 1}"
            entry = draws[i]
            assert _get(entry, "seat", dwhere) == seat, (
                f"{dwhere}: seat {entry['seat']!r} draws, expected seat {seat} (winner first)"
            )
            got = (_get(entry, "card", dwhere), _get(entry, "copy", dwhere))
            assert got == (card.face, card.copy), (
                f"{dwhere}: seat {seat} draws {got[0]}#{got[1]}, but the next card is {card}"
            )
            assert card.place in (STOCK, UP), f"{dwhere}: {card} is not drawable"
            card.owner, card.place = seat, HAND
        if n == STOCK_TRICKS:
            self.face_up = None

    # ----------------------------------------------------------------- scoring (RULES 9)

    def check_totals(self) -> None:
        """Conservation and the final score (RULES 9, 10)."""
        rec = self.rec
        left = [c for c in self.cards.values() if c.place != PLAYED]
        assert not left, f"cards never played: {left}"
        assert self.points_sum == TOTAL_TRICK_POINTS, (
            f"trick points sum to {self.points_sum}, expected {TOTAL_TRICK_POINTS}"
        )
        raw = list(_get(rec, "trick_points_raw", "record"))
        assert raw == self.raw_points, (
            f"trick_points_raw {raw} != {self.raw_points} (points of the tricks each seat won)"
        )
        assert sum(raw) == TOTAL_TRICK_POINTS, f"trick_points_raw {raw} must sum to 250"
        rounded = [round_tens_7up(x) for x in raw]
        got = list(_get(rec, "trick_points", "record"))
        assert got == rounded, (
            f"trick_points {got} != {rounded} (RULES 9 rounds to tens, units 7-9 up, 0-6 down)"
        )
        meld = list(self.meld_points)
        meld[self.dealer] += self.turnup_dix
        got = list(_get(rec, "meld", "record"))
        assert got == meld, f"meld {got} != {meld} (melds + dix, turnup dix for the dealer)"
        score = [rounded[s] + meld[s] for s in (0, 1)]
        got = list(_get(rec, "score", "record"))
        assert got == score, f"score {got} != {score} (rounded trick points + meld)"
        want = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)
        got = _get(rec, "winner", "record")
        assert got == want, f"winner {got!r} != {want!r} for score {score}"

    def run(self) -> None:
        self.check_header()
        self.deal()
        tricks = _get(self.rec, "tricks", "record")
        assert len(tricks) == TOTAL_TRICKS, f"{len(tricks)} tricks, expected {TOTAL_TRICKS}"
        leader = 1 - self.dealer
        for n, trick in enumerate(tricks, start=1):
            leader = self.play_trick(n, trick, leader)
        self.check_totals()


def validate_two_hand(rec: dict) -> None:
    """Replay one two-hand deal record; AssertionError on the first rule violation (RULES 9)."""
    TwoHandReplay(rec).run()
