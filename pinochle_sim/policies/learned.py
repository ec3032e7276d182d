"""The ``learned`` play policy: search distilled into a small model that plays at bot speed.

From trick ``from_trick`` on, the seat scores each legal card by a weighted sum of the card's
features (:data:`FEATURES`, worked out by :func:`card_features` and :func:`context_features`
from what the seat sees: its hand, the cards played, the card winning the trick, what each
seat has shown), plus, in a *pairs* model, a weighted sum of products of two features (a
card's features with each other and with the decision's context: the tricks left, the side,
the place in the trick), and plays the card with the highest score, unless ``counting``'s card
scores within ``margin`` of it. It plays ``counting``'s card before ``from_trick``, and for the
leads ``leads`` leaves to ``counting`` (0: every lead; 2: the defenders'; 1: none; -1, the
default: as the model's data say). Equal scores go to the card with fewer points, then the
lower rank, then the first suit (S, H, D, C). A seat with one legal card plays it. Each model's
score is compiled from its data as straight-line code (:func:`_compile`) that scores the legal
cards side by side, a card a vector lane.

The weights were fitted by ``experiments/learned_train.py``, at decisions recorded by
``experiments/learned_data.py``: to the value ``pimc`` gives every legal card (its side's points
from the trick on, averaged over sampled worlds solved double dummy), or to the hand played out
after each legal card by the real players on the real deal (``--values rollout``): a lead's
target the hand's score margin divided by 15, a follow's the side's trick points. Models 1-5
are fitted to pimc's values, 6 and 7 lead by rollouts, 8 plays every card by them: pimc's
values, each world played as if every seat saw every card, misjudge leads most, follows too.
The weights are package data (``policies/data/learned_play.json``): per model version a
weights row for leads and one for the other plays, a pairs model's products (feature indices
and weight) for each, the model's own ``margin``, ``from_trick`` and ``leads`` (the
parameters' defaults play them), and its provenance (the data's seeds, the fit, the held-out
agreement with the search); the ``model`` parameter picks the version, so a new model is a new
setting and leaves every other policy's records alone.

The features count a card's points on the partnership scale: the rules' best card is worth 10
(joedog's counters, worth 1, count 10; the classic count's ace, 11, counts 10), so one model
and one ``margin`` serve every preset.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from pinochle_sim.core.bits import highest_bit_index, lowest_bit_index, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import (
    PLANE,
    beaters,
    higher_in_suit,
    rank_of,
    seat_after,
    suit_len,
    suit_mask,
    suit_of,
)
from pinochle_sim.policies.counting import _can_ruff, _counting_play, _safe
from pinochle_sim.policies.known import scratch
from pinochle_sim.policies.play import _unseen_faces, face_points, tie_key
from pinochle_sim.policies.slots import (
    LEARNED_FROM_TRICK,
    LEARNED_LEADS,
    LEARNED_MARGIN,
    LEARNED_MODEL,
)
from pinochle_sim.policies.view import PlayView

DATA_FILE = Path(__file__).parent / "data" / "learned_play.json"

CARD_FEATURES = (
    "counting",
    "points",
    "trump",
    "rank",
    "takes",
    "may_take",
    "partner_takes",
    "points_if_takes",
    "points_if_may_take",
    "points_to_partner",
    "points_given",
    "boss",
    "leads_boss",
    "leads_boss_points",
    "leads_trump",
    "leads_trump_bidding_side",
    "ruffs",
    "suit_length",
    "suit_unseen",
    "lead_ruffed",
    "lead_partner_ruffs",
    "lowest_of_suit",
    "highest_of_suit",
    "both_copies",
    "trumps_held_if_trump",
    "rank_if_takes",
    "tricks_left_if_trump",
    "leads_short_suit",
)
CONTEXT = (
    "tricks_left",
    "bidding_side",
    "plays_second",
    "plays_third",
    "plays_fourth",
)
FEATURES = CARD_FEATURES + CONTEXT
"""The features of one legal card, in the order of a model's weights (integers; points on the
partnership scale, see the module's text):

* ``counting``: 1 for the card ``counting`` would play;
* ``points`` (scaled so that the best card scores 10), ``trump``, ``rank`` (0 = 9 .. 5 = A):
  the card itself;
* ``takes`` (it wins the trick now and no later opponent may beat it), ``may_take`` (it wins
  now, but a later opponent may beat it), ``partner_takes`` (it does not win, and the partner's
  winning card is safe); ``points_if_*`` and ``points_given`` (none of the three): its points in
  each case;
* ``boss``: no unseen card of its suit ranks higher; ``leads_boss`` and ``leads_boss_points``;
  ``leads_trump`` (and by the bidding side); ``ruffs``: a trump on a side-suit lead;
* ``suit_length``: the seat's cards of its suit; ``suit_unseen``: copies of it neither played
  nor held; ``lead_ruffed``: a lead of a suit an opponent may ruff; ``lead_partner_ruffs``: a
  side-suit lead the partner may ruff; ``leads_short_suit``: a side-suit lead from a single
  card or pair;
* ``lowest_of_suit``, ``highest_of_suit``, ``both_copies``: the card within the seat's suit;
* ``trumps_held_if_trump``, ``rank_if_takes``, ``tricks_left_if_trump``: interactions;
* ``tricks_left`` (the current one included), ``bidding_side``, ``plays_second`` ..
  ``plays_fourth``: the decision's context, the same for every card (they matter only in the
  products of a pairs model, below).
"""
N_FEATURES = len(FEATURES)
N_CARD = len(CARD_FEATURES)
"""Features ``0 .. N_CARD - 1`` differ from card to card; the others (:data:`CONTEXT`) are the
decision's."""
MAX_FEATURES = 64
"""Room for features in a weights row, and in the scratch words: a card's features at
``0 ..``, the decision's effective weights of the card features at ``MAX_FEATURES ..``."""
MAX_FROM_TRICK = 16
MODEL_FROM_TRICK = 0
"""The ``from_trick`` parameter's default: each model's own first trick (:data:`FROM_TRICKS`;
7 for models 1 and 2, where their training data begin)."""
MODEL_MARGIN = -1
"""The ``margin`` parameter's default: each model's own (:data:`MARGINS`), chosen for it by
duplicate matches on seed 11 (results/strength/README.md)."""
MODEL_LEADS = -1
"""The ``leads`` parameter's default: each model's own (:data:`LEADS`)."""
LEADS_NONE = 0
LEADS_ALL = 1
LEADS_BIDDING_SIDE = 2
"""``leads``: ``counting`` leads (0); the model leads for every seat (1); the model leads for
the bidding side, ``counting`` for the defenders (2)."""
MAX_PAIRS = 128
"""Room for the products of a pairs model, per role."""
LANES = 24
"""Legal cards a decision scores side by side (one a face, at most): the cards' features are
kept feature by feature, a card a lane, so that one loop over the cards scores them all and
the compiler packs four or eight cards into each vector instruction."""
LANE_FEATURES = 2 * MAX_FEATURES
"""Scratch words from here: the legal cards' features, ``LANE_FEATURES + f * LANES + j`` for
feature ``f`` of the ``j``-th card (below: a decision's own features and weights)."""
LANE_SCORES = LANE_FEATURES + N_CARD * LANES
"""Scratch words from here: the ``j``-th card's score."""
SCRATCH_WORDS = LANE_SCORES + LANES
"""The scratch words the policy uses (:data:`pinochle_sim.policies.known.SCRATCH` holds them)."""


ROLES = ("lead", "follow")
"""A model holds one weights row for leads and one for the other plays of a trick."""
ROLE_ZEROS = {
    "lead": ("partner_takes", "points_to_partner", "points_given", "ruffs"),
    "follow": ("leads_boss", "leads_boss_points", "leads_trump", "leads_trump_bidding_side",
               "lead_ruffed", "lead_partner_ruffs", "leads_short_suit"),
}  # fmt: skip
"""Card features that are zero in a role by their definition (a lead wins the trick for now,
so nothing goes to the partner or is given; the ``lead*`` features need a lead): a card's
score leaves them out."""


class Shipped(NamedTuple):
    """The shipped models as the kernels read them (``[version - 1, role]`` rows, a role per
    :data:`ROLES`): the linear weights; a pairs model's products, feature indices ``(i, j)``
    with their weights and how many, arranged for the kernel (:func:`_arrange`: the
    ``n_context`` products with a context feature first); each model's default margin, first
    trick and leads (0 where its data do not say); the descriptions and the version played by
    default."""

    weights: np.ndarray
    pair_index: np.ndarray
    pair_weight: np.ndarray
    n_pairs: np.ndarray
    n_context: np.ndarray
    margins: np.ndarray
    from_tricks: np.ndarray
    leads: np.ndarray
    models: list[dict[str, Any]]
    default: int


def _arrange(pairs: list) -> tuple[list[tuple[int, int, float]], int]:
    """A model's products ``[(i, j, weight), ...]`` in the order the kernel works them: first
    those with a context feature, as ``(feature, context feature)`` (once a decision, they
    fold into the card features' weights, :func:`_fold_lines`), then the products of two card
    features (compiled into straight-line code, :func:`_compile`). Returns the
    products and how many of them involve the context."""
    context = [(a, b, w) if b >= N_CARD else (b, a, w) for a, b, w in pairs
               if a >= N_CARD or b >= N_CARD]  # fmt: skip
    cards = [(a, b, w) for a, b, w in pairs if a < N_CARD and b < N_CARD]
    return context + cards, len(context)


def _load(path: Path = DATA_FILE) -> Shipped:
    """The models of the package data (:class:`Shipped`), checked: versions 1, 2, ..., the
    features a prefix of :data:`FEATURES`, a weight a feature, products of known features."""
    data = json.loads(path.read_text())
    models = sorted(data["models"], key=lambda m: m["version"])
    n = max(1, len(models))
    weights = np.zeros((n, len(ROLES), MAX_FEATURES), dtype=np.float64)
    pair_index = np.zeros((n, len(ROLES), MAX_PAIRS, 2), dtype=np.int64)
    pair_weight = np.zeros((n, len(ROLES), MAX_PAIRS), dtype=np.float64)
    n_pairs = np.zeros((n, len(ROLES)), dtype=np.int64)
    n_context = np.zeros((n, len(ROLES)), dtype=np.int64)
    margins = np.zeros(n, dtype=np.float64)
    from_tricks = np.zeros(n, dtype=np.int64)
    leads = np.zeros(n, dtype=np.int64)
    for i, m in enumerate(models):
        if m["version"] != i + 1:
            raise ValueError(
                f"{path.name}: model versions must run 1, 2, ... (found {m['version']})"
            )
        n_feats = len(m["features"])
        if tuple(m["features"]) != FEATURES[:n_feats]:
            raise ValueError(f"{path.name}: model {m['version']} names other features")
        if "margin" not in m or "from_trick" not in m:
            raise ValueError(f"{path.name}: model {m['version']} lacks its margin or first trick")
        margins[i] = float(m["margin"])
        from_tricks[i] = int(m["from_trick"])
        leads[i] = int(m.get("leads", LEADS_NONE))
        if leads[i] not in (LEADS_NONE, LEADS_ALL, LEADS_BIDDING_SIDE):
            raise ValueError(f"{path.name}: model {m['version']} has leads other than 0, 1, 2")
        for j, role in enumerate(ROLES):
            w = m["weights"][role]
            if len(w) != n_feats:
                raise ValueError(f"{path.name}: model {m['version']} has one weight a feature")
            weights[i, j, : len(w)] = w
            pairs = m.get("pairs", {}).get(role, [])
            if not np.isfinite([*w, *(pw for *_, pw in pairs)]).all():
                raise ValueError(
                    f"{path.name}: model {m['version']} has a weight that is not finite"
                )
            if len(pairs) > MAX_PAIRS or any(
                not (0 <= a < n_feats and 0 <= b < n_feats) for a, b, _ in pairs
            ):
                raise ValueError(
                    f"{path.name}: model {m['version']} has products of unknown features "
                    f"or more than {MAX_PAIRS}"
                )
            zero = {FEATURES.index(name) for name in ROLE_ZEROS[role]}
            if any(a in zero or b in zero for a, b, _ in pairs):  # the policy never writes them
                raise ValueError(
                    f"{path.name}: model {m['version']} has a product of a feature that is 0 "
                    f"in a {role}"
                )
            arranged, n_context[i, j] = _arrange(pairs)
            for k, (a, b, pw) in enumerate(arranged):
                pair_index[i, j, k] = (a, b)
                pair_weight[i, j, k] = pw
            n_pairs[i, j] = len(pairs)
    default = int(data.get("default", len(models)))
    if models and not 1 <= default <= len(models):
        raise ValueError(f"{path.name}: the default model {default} is not shipped")
    return Shipped(
        weights, pair_index, pair_weight, n_pairs, n_context, margins, from_tricks, leads, models,
        default,
    )  # fmt: skip


_SHIPPED = _load()
"""The shipped models. Their weights and products reach the kernels as literals of the
generated source (:func:`_compile`), the margins, first tricks and leads below as constant
arrays; the package data is part of the compile cache's key."""
MARGINS = _SHIPPED.margins
FROM_TRICKS = _SHIPPED.from_tricks
LEADS = _SHIPPED.leads
MODELS = _SHIPPED.models
DEFAULT_MODEL = _SHIPPED.default
N_MODELS = len(MODELS)


def _tree(terms: list[str]) -> str:
    """``terms`` summed as a balanced tree of additions (independent partial sums, each
    added in a fixed order)."""
    if len(terms) == 1:
        return terms[0]
    half = len(terms) // 2
    return f"({_tree(terms[:half])} + {_tree(terms[half:])})"


def _lane(f: int) -> str:
    """Source of card feature ``f`` of the card in lane ``c`` (:data:`LANE_FEATURES`)."""
    return f"x[at + {LANE_FEATURES + f * LANES} + c]"


def _folded(shipped: Shipped, i: int, j: int) -> list[int]:
    """The card features of model ``i + 1``'s role ``j`` whose weight the decision's context
    folds into (each has a product with a context feature)."""
    first = int(shipped.n_context[i, j])
    return sorted({int(a) for a in shipped.pair_index[i, j, :first, 0] if a < N_CARD})


def _score_terms(shipped: Shipped, i: int, j: int) -> list[str]:
    """The terms of a card's score under model ``i + 1`` for role ``j``, as source: a card
    feature's weight times it (the decision's weight ``w{f}``, read from ``x[at +
    MAX_FEATURES + f]`` before the loop over the cards, where a product with the context
    folds into it; none for a feature that is zero in the role), then each product of two
    card features; the card's features are those of lane ``c``."""
    first, end = int(shipped.n_context[i, j]), int(shipped.n_pairs[i, j])
    folded = _folded(shipped, i, j)
    terms = []
    for f in range(N_CARD):
        if FEATURES[f] in ROLE_ZEROS[ROLES[j]]:
            continue
        if f in folded:
            terms.append(f"w{f} * {_lane(f)}")
        elif shipped.weights[i, j, f] != 0.0:
            terms.append(f"{float(shipped.weights[i, j, f])!r} * {_lane(f)}")
    for p in range(first, end):
        a, b = shipped.pair_index[i, j, p]
        terms.append(f"{float(shipped.pair_weight[i, j, p])!r} * {_lane(a)} * {_lane(b)}")
    return terms or ["0.0"]


def _fold_lines(shipped: Shipped, i: int, j: int) -> list[str]:
    """The statements, as source, that fold the decision's context into model ``i + 1``'s
    weights for role ``j``: each card feature with a product with the context gets its weight
    plus those products' weights times the context, in ``x[at + MAX_FEATURES + f]`` (what
    :func:`_score_terms` reads); then the context's own part of every card's score (its
    weights, and its products with itself) is returned."""
    first = int(shipped.n_context[i, j])
    folded: dict[int, str] = {}
    context = []
    for p in range(first):
        a, c = shipped.pair_index[i, j, p]
        term = f"{float(shipped.pair_weight[i, j, p])!r} * x[at + {c}]"
        if a < N_CARD:
            start = folded.get(a, f"{float(shipped.weights[i, j, a])!r}")
            folded[a] = f"({start} + {term})"
        else:
            context.append(f"{float(shipped.pair_weight[i, j, p])!r} * x[at + {a}] * x[at + {c}]")
    lines = [f"x[at + {MAX_FEATURES + a}] = {value}" for a, value in folded.items()]
    base = ["0.0"] + [
        f"{float(shipped.weights[i, j, f])!r} * x[at + {f}]" for f in range(N_CARD, N_FEATURES)
    ]
    return [*lines, "return " + " + ".join(base + context)]


def _compile(shipped: Shipped) -> tuple[Any, Any]:
    """The shipped models compiled from their package data as straight-line code, the
    features' offsets and the weights constants: ``card_scores(row, role, x, at, base, n)``,
    the scores under model ``row + 1`` for ``role`` of the cards in lanes ``0 .. n - 1``
    (``base``, the context's own part, plus the sum of the card's terms as a balanced tree
    of additions), written to ``x[at + LANE_SCORES + c]``; and ``context_fold(row, role, x,
    at)``, once a decision, the context folded into the weights and its own part returned
    (:func:`_fold_lines`; in the order a loop over the products would add them).

    Loops over arrays of the products' indices and weights took about 2 ns a product (the
    loads, and one chain of additions): half of the policy's time, and the fold a fifth of
    what was left. Built from the data, a new model needs no new code and costs what its
    terms cost. The loop over the cards is the only loop: each card's score is the same
    expression, so the compiler computes four or eight cards at a time (a vector lane a card,
    the same operations in the same order as one card alone: the same bits)."""
    score = ["def card_scores(row, role, x, at, base, n):"]
    fold = ["def context_fold(row, role, x, at):"]
    for i in range(len(shipped.models)):
        for j in range(len(ROLES)):
            test = f"    if row == {i} and role == {j}:"
            score += [
                test,
                # the decision's weights first: the loop then reads only the cards' features
                *(f"        w{f} = x[at + {MAX_FEATURES + f}]" for f in _folded(shipped, i, j)),
                "        for c in range(n):",
                f"            x[at + {LANE_SCORES} + c] = base + "
                f"{_tree(_score_terms(shipped, i, j))}",
                "        return",
            ]
            fold += [test, *(f"        {line}" for line in _fold_lines(shipped, i, j))]
    fold.append("    return 0.0")
    namespace: dict[str, Any] = {}
    exec("\n".join(score + fold), namespace)  # the models' own source, built from their data
    return tuple(
        jit(cache=False, inline="always")(namespace[name])
        for name in ("card_scores", "context_fold")
    )  # type: ignore[return-value]


card_scores, context_fold = _compile(_SHIPPED)


@lru_cache(maxsize=1)
def models() -> list[dict[str, Any]]:
    """The shipped models: version, features, weights and provenance (data, fit, held-out
    agreement with the search)."""
    return [dict(m) for m in MODELS]


@jit
def _top_points(points: int) -> int:
    """The most points a card scores under the rules (at least 1)."""
    top = 1
    for r in range(6):
        top = max(top, (points >> (10 * r)) & 1023)
    return top


@jit(inline="always")
def card_features(
    v: PlayView, c: int, lead: bool, pick: int, unseen: int, mate_safe: bool, ruffs: int,
    out: np.ndarray, at: int, step: int, zeros: bool,
) -> None:  # fmt: skip
    """The card's own features (the first :data:`N_CARD` of :data:`FEATURES`) of legal card
    ``c``, the ``i``-th written to ``out[at + i * step]`` (``lead``: whether ``v`` leads the
    trick, a constant where the policy calls it; ``zeros``: also the features that are 0 in
    the role by definition, which a training row needs and a model's score never reads;
    ``pick``: the card ``counting`` plays; ``unseen``: faces with a copy neither played nor
    held; ``mate_safe``: the partner wins the trick so far and no later opponent may beat it;
    ``ruffs``: :func:`ruff_mask`).
    :func:`features_of` gives all the features as an array."""
    hand, seat, trump, players, partners = v.hand, v.seat, v.trump, v.players, v.partners
    k = v.n_played
    suit = suit_of(c)
    pts = face_points(v.points, c)  # as a 10-point counter (no division where it is one)
    top = _top_points(v.points)
    if top != 10:
        pts = pts * 10 // top
    is_trump = suit == trump
    wins = lead or (beaters(v.winner, trump) >> c) & 1 != 0
    led = suit if lead else v.led
    n_after = players - 1 - k
    safe = wins and _safe(c, seat, led, trump, players, n_after, partners, unseen, v.caps)
    takes = wins and safe
    may_take = wins and not safe
    to_mate = (not wins) and mate_safe
    given = not (takes or may_take or to_mate)
    boss = (higher_in_suit(c) & unseen) == 0
    held = hand & PLANE & suit_mask(suit)
    length = suit_len(hand, suit)
    bidding_side = _bidding_side(v)
    ruffed = lead and (ruffs >> suit) & 1 != 0
    mate_ruffs = lead and (ruffs >> (4 + suit)) & 1 != 0
    out[at] = c == pick
    out[at + 1 * step] = pts
    out[at + 2 * step] = is_trump
    out[at + 3 * step] = rank_of(c)
    out[at + 4 * step] = takes
    out[at + 5 * step] = may_take
    out[at + 7 * step] = pts if takes else 0
    out[at + 8 * step] = pts if may_take else 0
    out[at + 11 * step] = boss
    out[at + 17 * step] = length
    out[at + 18 * step] = 12 - length - suit_len(v.played, suit)
    if zeros or not lead:  # a lead's are 0 (:data:`ROLE_ZEROS`)
        out[at + 6 * step] = to_mate
        out[at + 9 * step] = pts if to_mate else 0
        out[at + 10 * step] = pts if given else 0
        out[at + 16 * step] = (not lead) and is_trump and v.led != trump
    if zeros or lead:  # a follow's are 0
        out[at + 12 * step] = lead and boss
        out[at + 13 * step] = pts if lead and boss else 0
        out[at + 14 * step] = lead and is_trump
        out[at + 15 * step] = lead and is_trump and bidding_side
        out[at + 19 * step] = ruffed
        out[at + 20 * step] = mate_ruffs
    out[at + 21 * step] = c == lowest_bit_index(held)
    out[at + 22 * step] = c == highest_bit_index(held)
    out[at + 23 * step] = (hand >> (24 + c)) & 1
    out[at + 24 * step] = suit_len(hand, trump) if is_trump else 0
    out[at + 25 * step] = rank_of(c) if wins else 0
    cards = popcount(hand & PLANE) + popcount(hand >> 24)
    out[at + 26 * step] = cards if is_trump else 0
    if zeros or lead:
        out[at + 27 * step] = lead and not is_trump and length <= 2


@jit(inline="always")
def _bidding_side(v: PlayView) -> bool:
    """Whether the seat of ``v`` holds the contract, itself or through its partner."""
    return v.seat == v.bidder or (v.partners and (v.seat - v.bidder) % 2 == 0)


@jit(inline="always")
def context_features(v: PlayView, out: np.ndarray, at: int) -> None:
    """The decision's features (:data:`CONTEXT`), written after the card's, to
    ``out[at + N_CARD:at + N_FEATURES]``."""
    k = v.n_played
    out[at + N_CARD] = popcount(v.hand & PLANE) + popcount(v.hand >> 24)
    out[at + N_CARD + 1] = _bidding_side(v)
    out[at + N_CARD + 2] = k == 1
    out[at + N_CARD + 3] = k == 2
    out[at + N_CARD + 4] = k == 3


@jit(inline="always")
def all_features(
    v: PlayView, c: int, ctx: tuple[int, int, bool, int], out: np.ndarray
) -> None:  # fmt: skip
    """Every one of the :data:`FEATURES` of legal card ``c`` in view ``v`` (``ctx``: its
    :func:`decision_context`), to ``out[:N_FEATURES]``: the training data's (the policy writes
    the context once a decision)."""
    pick, unseen, mate_safe, ruffs = ctx
    card_features(v, c, v.n_played == 0, pick, unseen, mate_safe, ruffs, out, 0, 1, True)
    context_features(v, out, 0)


def features_of(v: PlayView, c: int) -> np.ndarray:
    """The :data:`FEATURES` of legal card ``c`` in view ``v``, an int64 array (for Python
    callers: tests and training)."""
    out = np.zeros(N_FEATURES, dtype=np.int64)
    all_features(v, c, decision_context(v), out)
    return out


@jit(inline="always")
def ruff_mask(v: PlayView, unseen: int) -> int:
    """For a lead: bit ``s`` set where an opponent may ruff a lead of side suit ``s``, bit
    ``4 + s`` where the partner may (0 for a follow, and for trumps)."""
    mask = 0
    if v.n_played > 0:
        return mask
    for suit in range(4):
        if suit == v.trump:
            continue
        for i in range(1, v.players):
            other = seat_after(v.seat, i, v.players)
            if _can_ruff(other, suit, v.trump, unseen, v.caps):
                mask |= 1 << (4 + suit if v.partners and i == 2 else suit)
    return mask


@jit(inline="always")
def decision_context(v: PlayView) -> tuple[int, int, bool, int]:
    """What every card's features share: (counting's card, unseen faces, whether the
    partner's winning card is safe, :func:`ruff_mask`)."""
    pick = _counting_play(v, True, True)
    unseen = _unseen_faces(v.hand, v.played)
    mate_safe = False
    k = v.n_played
    if v.partners and k > 0 and (v.winner_seat - v.seat) % 2 == 0:
        n_after = v.players - 1 - k
        mate_safe = _safe(
            v.winner, v.seat, v.led, v.trump, v.players, n_after, v.partners,
            unseen, v.caps,
        )  # fmt: skip
    return pick, unseen, mate_safe, ruff_mask(v, unseen)


@jit(inline="always")
def _fill_lanes(
    v: PlayView, lead: bool, pick: int, unseen: int, mate_safe: bool, ruffs: int,
    x: np.ndarray, at: int,
) -> int:  # fmt: skip
    """The card features of each legal card of ``v``, lowest face first, to its lane
    (:data:`LANE_FEATURES`), without the role's zeros; returns the number of cards. ``lead``
    is a constant where it is called, so each role compiles without the other's features."""
    n = 0
    m = v.legal & PLANE
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        card_features(
            v, f, lead, pick, unseen, mate_safe, ruffs, x, at + LANE_FEATURES + n, LANES, False
        )
        n += 1
    return n


@jit
def learned_play(
    v: PlayView, model: int, from_trick: int, margin: int, leads: int, work: np.ndarray
) -> int:
    """The face ``v.seat`` plays under ``learned`` with model version ``model``: the card of
    the highest score (the linear weights, plus the products of a pairs model), unless
    ``counting``'s card scores within ``margin`` of it (then ``counting``'s; a negative
    ``margin``: the model's own); ``counting`` before trick ``from_trick`` (0: the model's
    own), and for the leads that ``leads`` leaves to ``counting`` (:data:`LEADS_NONE` ..
    :data:`LEADS_BIDDING_SIDE`; -1: the model's own). The features, the cards' scores and the
    decision's weights go to the scratch words of ``work``, read as floats."""
    legal = v.legal
    if popcount(legal) == 1:
        return lowest_bit_index(legal)
    n_cards = popcount(v.played)
    trick = (n_cards - v.n_played) // v.players
    first = FROM_TRICKS[model - 1] if from_trick < 1 else from_trick
    if trick + 1 < first:
        return _counting_play(v, True, True)
    if v.n_played == 0:
        who = LEADS[model - 1] if leads < 0 else leads
        if who == LEADS_NONE or (who == LEADS_BIDDING_SIDE and not _bidding_side(v)):
            return _counting_play(v, True, True)
    pick, unseen, mate_safe, ruffs = decision_context(v)
    x = work.view(np.float64)
    at = scratch(work)
    row = model - 1
    role = 0 if v.n_played == 0 else 1
    context_features(v, x, at)
    base = context_fold(row, role, x, at)
    # a copy of the features for leads, one for follows: each without the other's work
    if role == 0:
        n = _fill_lanes(v, True, pick, unseen, mate_safe, ruffs, x, at)
    else:
        n = _fill_lanes(v, False, pick, unseen, mate_safe, ruffs, x, at)
    card_scores(row, role, x, at, base, min((n + 3) & ~3, LANES))  # whole vectors of four
    best = -1
    best_score = 0.0
    pick_score = 0.0
    m = legal & PLANE
    for j in range(n):
        f = lowest_bit_index(m)
        m &= m - 1
        score = x[at + LANE_SCORES + j]
        if (
            best < 0
            or score > best_score
            or (score == best_score and tie_key(f, v.points) < tie_key(best, v.points))
        ):
            best = f
            best_score = score
        if f == pick:
            pick_score = score
    least = MARGINS[row] if margin < 0 else margin
    if best != pick and best_score - pick_score < least:
        return pick
    return best


@jit
def learned(v: PlayView, q: tuple, rs: np.ndarray, work: np.ndarray) -> int:
    """Kernel of the ``play`` hook for ``learned``: ``q`` = (model, from_trick, margin, leads,
    ...)."""
    model, from_trick, margin = q[LEARNED_MODEL], q[LEARNED_FROM_TRICK], q[LEARNED_MARGIN]
    return learned_play(v, model, from_trick, margin, q[LEARNED_LEADS], work)
