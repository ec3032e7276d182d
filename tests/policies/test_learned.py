"""The ``learned`` play policy: its features on positions worked out by hand, its choice (the
highest score under the shipped weights, recomputed here in numpy), legal play under the rules
oracle, records independent of threads and chunks, ``counting`` before its trick, the shipped
models' data, and its parameters' ranges."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pinochle_sim import hand_record, parse_card
from pinochle_sim.agents.duplicate import deal_table
from pinochle_sim.agents.players import PolicyPlayer, seat_view, view_args
from pinochle_sim.agents.stepwise import DONE, PLAY, table_rules
from pinochle_sim.core.cards import encode_faces
from pinochle_sim.core.tricks import PLANE, legal_mask
from pinochle_sim.policies import REGISTRY, PolicySet
from pinochle_sim.policies import learned as L
from pinochle_sim.policies.dispatch import CAPS_NONE
from pinochle_sim.policies.known import SCRATCH
from pinochle_sim.policies.play import face_points, pack_points
from pinochle_sim.policies.view import PlayView
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands
from tests.oracles.reference import ref_record_winners

HEAD = {"partnership": "always", "joedog": "trump-led", "three-hand": "always"}
COUNTERS = pack_points(np.array([0, 0, 0, 10, 10, 10]))


def learned(*params: str) -> PolicySet:
    return PolicySet.from_options(play="learned", params=list(params))


def faces(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def view(hand: str, trick: str, leader: int, seat: int, trump: str, played: str = "") -> PlayView:
    """A partnership view (nothing learned of the others' hands) of ``seat`` holding ``hand``
    with ``trick`` on the table led by ``leader``; seat 0 is the bidder."""
    h = encode_faces(faces(hand))
    on = faces(trick)
    t = "SHDC".index(trump)
    led = on[0] // 6 if on else -1
    winner, ws = -1, -1
    for i, f in enumerate(on):
        if (
            winner < 0
            or (f // 6 == winner // 6 and f % 6 > winner % 6)
            or (f // 6 == t and winner // 6 != t)
        ):
            winner, ws = f, (leader + i) % 4
    legal = legal_mask(h & PLANE, led, winner, t, True, True, 0)
    return PlayView(h, legal, encode_faces(faces(played) + on), len(on), winner, ws, seat, 0, t,
                    4, True, COUNTERS, CAPS_NONE, led, 0)  # fmt: skip


def features(v: PlayView, card: str) -> dict[str, int]:
    return dict(zip(L.FEATURES, L.features_of(v, parse_card(card)).tolist(), strict=True))


def test_features_of_a_lost_trick() -> None:
    """Seat 3 plays last to KS (seat 0), 9S (seat 1), AS (seat 2), hearts trump. Nothing it
    holds beats the AS on the table (a second copy does not), so every spade is legal and each
    loses: its points go to the other side."""
    v = view("10S AS 9S KH", "KS 9S AS", leader=0, seat=3, trump="H")
    assert v.legal == encode_faces(faces("9S 10S AS")) & PLANE
    ace = features(v, "AS")
    assert ace["takes"] == 0 and ace["may_take"] == 0 and ace["partner_takes"] == 0
    assert ace["points_given"] == 10 and ace["points"] == 10 and ace["rank"] == 5
    assert ace["counting"] == 0 and ace["highest_of_suit"] == 1
    nine = features(v, "9S")
    assert nine["points_given"] == 0 and nine["lowest_of_suit"] == 1
    assert nine["counting"] == 1  # counting throws its cheapest card on a lost trick


def test_features_of_wins_sure_and_unsure() -> None:
    """Diamonds led, spades trump. Last to play, any card that heads the trick takes it; second
    to last, a card that an unseen higher card may still beat only may take it."""
    # seat 3 on QD (seat 0), KD (seat 1, its partner), 9D (seat 2): it must head with 10D or AD
    v = view("AD 10D JS", "QD KD 9D", leader=0, seat=3, trump="S")
    assert v.legal == encode_faces(faces("10D AD")) & PLANE
    ten = features(v, "10D")
    assert ten["takes"] == 1 and ten["points_if_takes"] == 10
    assert ten["rank_if_takes"] == 4 and ten["points_given"] == 0
    # seat 2 on QD (seat 0, its partner), KD (seat 1): seat 3 may still hold the other AD
    v = view("AD 10D JS", "QD KD", leader=0, seat=2, trump="S")
    ten = features(v, "10D")
    assert ten["may_take"] == 1 and ten["takes"] == 0 and ten["points_if_may_take"] == 10
    ace = features(v, "AD")  # nothing ranks above it (a second AD never beats the first)
    assert ace["takes"] == 1 and ace["may_take"] == 0


def test_features_of_points_to_a_partner() -> None:
    """Seat 2 on AD (seat 0, its partner) and 9D (seat 1), spades trump: nothing unseen beats
    the AD, so the partner takes the trick; counting smears its KD on it."""
    v = view("KD 9D JS", "AD 9D", leader=0, seat=2, trump="S")
    king = features(v, "KD")
    assert king["partner_takes"] == 1 and king["points_to_partner"] == 10
    assert king["counting"] == 1 and king["takes"] == 0 and king["points_given"] == 0
    nine = features(v, "9D")
    assert nine["partner_takes"] == 1 and nine["points_to_partner"] == 0


def test_features_of_leads() -> None:
    """Seat 0 leads, clubs trump, every other card unseen."""
    v = view("AS KS QH AC 9C", "", leader=0, seat=0, trump="C")
    a = features(v, "AS")
    assert a["takes"] + a["may_take"] == 1 and a["leads_short_suit"] == 1
    assert a["boss"] == 1 and a["leads_boss"] == 1 and a["leads_boss_points"] == 10
    assert a["suit_length"] == 2 and a["suit_unseen"] == 10
    t = features(v, "AC")
    assert t["leads_trump"] == 1 and t["leads_trump_bidding_side"] == 1  # seat 0 is the bidder
    assert t["trumps_held_if_trump"] == 2 and t["tricks_left_if_trump"] == 5
    q = features(v, "QH")
    assert q["boss"] == 0 and q["leads_short_suit"] == 1 and q["points"] == 0
    # the context: 5 cards in hand, seat 0 bids, it leads
    assert (q["tricks_left"], q["bidding_side"], q["plays_second"], q["plays_fourth"]) == (
        5,
        1,
        0,
        0,
    )


def test_features_of_the_context() -> None:
    """Seat 3 plays last to a trick seat 0 (the bidder) led: the defending side."""
    v = view("KS 9S JH", "AS QS 10S", leader=0, seat=3, trump="C")
    k = features(v, "KS")
    assert (k["tricks_left"], k["bidding_side"]) == (3, 0)
    assert (k["plays_second"], k["plays_third"], k["plays_fourth"]) == (0, 0, 1)


def _decisions(rules: str, policies: PolicySet, hands: range):
    """Every play decision of ``hands`` deals of seed 3 with every seat a policy player: the
    view and work array the seat sees, and the card its player chose."""
    tr = table_rules(rules)
    player = PolicyPlayer(policies)
    bundle = player.bundle
    for h in hands:
        rec = hand_record(seed=3, hand=h, rules=rules, policies=policies)
        t = deal_table(rules, 3, h)
        while t.phase != DONE:
            seat = t.current_player()
            action = player.decide(t, seat, h)
            if t.phase == PLAY:
                v, _work = seat_view(bundle, tr.ra, tr.ma, seat, *view_args(t, seat))
                yield len(t.tricks), v, action
            t.apply(action)
        assert [c for _, c in t.tricks] == [faces(" ".join(x["cards"])) for x in rec["tricks"]]


def _tie(f: int, points: int) -> int:
    return face_points(points, f) * 64 + (f % 6) * 4 + f // 6


def _score(model: dict, role: str, x: np.ndarray) -> float:
    """A card's score under a shipped model, from its description (weights and products)."""
    w = np.array(model["weights"][role])
    score = float(x[: len(w)] @ w)
    for a, b, pw in model.get("pairs", {}).get(role, []):
        score += pw * x[a] * x[b]
    return score


@pytest.mark.slow  # the policy players' kernels for this bundle compile for about 2 minutes
@pytest.mark.parametrize("rules", ["partnership", "three-hand"])
def test_it_plays_the_highest_score_of_the_shipped_weights(rules: str) -> None:
    """Recomputed in numpy from the documented rule: each legal card's features times the
    model's weights, plus its products of pairs of features times theirs (read from the
    package data, not from the kernel's arrays), the highest score (ties: fewer points, lower
    rank, first suit); counting before ``from_trick``. The stepwise hands are the engine's
    (checked card for card)."""
    policies = learned("play.leads=1", "play.margin=0")
    model = L.models()[L.DEFAULT_MODEL - 1]
    assert model.get("pairs"), "the default model is a pairs model: its products are tested"
    scored = 0
    for trick, v, action in _decisions(rules, policies, range(25)):
        legal = [f for f in range(24) if (v.legal >> f) & 1]
        if len(legal) == 1 or trick < L.FROM_TRICKS[L.DEFAULT_MODEL - 1]:
            continue
        role = "lead" if v.n_played == 0 else "follow"
        scores = {}
        for f in legal:
            x = L.features_of(v, f).astype(float)
            scores[f] = _score(model, role, x)
            # the features the kernel leaves out of a role's score are zero there
            assert not any(x[L.FEATURES.index(name)] for name in L.ROLE_ZEROS[role])
        best = max(legal, key=lambda f: (scores[f], -_tie(f, v.points)))
        assert action == best, (trick, scores)
        scored += 1
    assert scored > 50


@pytest.mark.slow
def test_counting_leads_and_plays_within_the_margin() -> None:
    """With the defaults (``leads`` 0, ``margin`` 2): every lead is counting's, and a card
    other than counting's only where the model scores it at least the margin higher."""
    deviations = 0
    policies = learned("play.model=1")
    margin = L.models()[0]["margin"]
    for trick, v, action in _decisions("partnership", policies, range(25)):
        legal = [f for f in range(24) if (v.legal >> f) & 1]
        pick = L.decision_context(v)[0]
        if v.n_played == 0 or trick < L.FROM_TRICKS[0] or len(legal) == 1:
            assert action == pick or len(legal) == 1
            continue
        if action != pick:
            score = {f: _score(L.models()[0], "follow", L.features_of(v, f).astype(float))
                     for f in (action, pick)}  # fmt: skip
            assert score[action] - score[pick] >= margin
            deviations += 1
    assert deviations > 0


@pytest.mark.slow
def test_leads_2_leaves_the_defenders_leads_to_counting() -> None:
    """``leads`` 2: a seat of the bidding side leads the card of the highest score (recomputed
    in numpy from the package data), a defender ``counting``'s card."""
    model = L.models()[L.DEFAULT_MODEL - 1]
    first = L.FROM_TRICKS[L.DEFAULT_MODEL - 1]
    seen = {True: 0, False: 0}
    differs = 0
    for trick, v, action in _decisions("partnership", learned("play.leads=2", "play.margin=0"),
                                       range(25)):  # fmt: skip
        legal = [f for f in range(24) if (v.legal >> f) & 1]
        if v.n_played or len(legal) == 1 or trick < first:
            continue
        bidding = (v.seat - v.bidder) % 2 == 0
        pick = L.decision_context(v)[0]
        if bidding:
            scores = {f: _score(model, "lead", L.features_of(v, f).astype(float)) for f in legal}
            assert action == max(legal, key=lambda f: (scores[f], -_tie(f, v.points)))
            differs += action != pick
        else:
            assert action == pick
        seen[bidding] += 1
    assert seen[True] > 20 and seen[False] > 20 and differs > 0


@pytest.mark.parametrize("rules", ["partnership", "joedog", "three-hand"])
def test_every_card_is_legal_under_the_rules_oracle(rules: str) -> None:
    recs = (hand_record(41, h, rules, learned()) for h in range(8))
    played = 0
    for want, got in ref_record_winners(recs, HEAD[rules]):
        assert want == got
        played += 1
    assert played >= 4


def test_records_do_not_depend_on_threads_or_chunks() -> None:
    one = play_hands(seed=9, count=40, rules="partnership", policies=learned(), threads=1, chunk=40)
    two = play_hands(seed=9, count=40, rules="partnership", policies=learned(), threads=2, chunk=7)
    for k in one:
        assert np.array_equal(one[k], two[k]), k


def test_before_its_trick_it_is_counting() -> None:
    """With ``from_trick`` past the last trick it plays every card as ``counting`` does; from
    its trick on it differs somewhere."""
    counting = play_hands(seed=5, count=300, policies=PolicySet(play="counting"))
    never = play_hands(seed=5, count=300, policies=learned("play.from_trick=13"))
    for k in counting:
        assert np.array_equal(counting[k], never[k]), k
    model = play_hands(seed=5, count=300, policies=learned())
    assert not np.array_equal(counting["score_0"], model["score_0"])


def test_shipped_models_carry_their_provenance(tmp_path) -> None:
    models = L.models()
    assert [m["version"] for m in models] == list(range(1, L.N_MODELS + 1))
    for m in models:
        assert m["features"] == list(L.FEATURES[: len(m["features"])])
        assert all(len(m["weights"][role]) == len(m["features"]) for role in L.ROLES)
        prov = m["provenance"]
        assert prov["data"] and prov["held_out"] and "held_out_results" in prov
    bad = tmp_path / "m.json"
    bad.write_text(json.dumps({"models": [{**models[-1], "version": 2}]}))
    with pytest.raises(ValueError, match="versions must run 1, 2"):
        L._load(bad)
    bad.write_text(json.dumps({"default": 3, "models": [{**models[-1], "version": 1}]}))
    with pytest.raises(ValueError, match="default model 3 is not shipped"):
        L._load(bad)
    one = {**models[-1], "version": 1}
    bad.write_text(json.dumps({"models": [{**one, "features": ["points"]}]}))
    with pytest.raises(ValueError, match="names other features"):
        L._load(bad)
    bad.write_text(json.dumps({"models": [{**one, "weights": {"lead": [1.0], "follow": [1.0]}}]}))
    with pytest.raises(ValueError, match="one weight a feature"):
        L._load(bad)
    n = len(one["features"])
    for pairs in ([[0, n, 1.0]], [[0, 1, 1.0]] * (L.MAX_PAIRS + 1)):
        bad.write_text(json.dumps({"models": [{**one, "pairs": {"lead": [], "follow": pairs}}]}))
        with pytest.raises(ValueError, match="products of unknown features"):
            L._load(bad)
    nan = {**one, "weights": {**one["weights"], "lead": [float("nan")] * n}}
    bad.write_text(json.dumps({"models": [nan]}))  # json writes NaN; the generated code could not
    with pytest.raises(ValueError, match="not finite"):
        L._load(bad)
    zero = L.FEATURES.index("leads_boss")  # 0 in every follow: the policy never writes it
    follow_zero = {"lead": [], "follow": [[0, zero, 1.0]]}
    bad.write_text(json.dumps({"models": [{**one, "pairs": follow_zero}]}))
    with pytest.raises(ValueError, match="product of a feature that is 0 in a follow"):
        L._load(bad)
    bad.write_text(json.dumps({"models": [{**one, "leads": 3}]}))
    with pytest.raises(ValueError, match="leads other than 0, 1, 2"):
        L._load(bad)
    bad.write_text(json.dumps({"models": [{k: v for k, v in one.items() if k != "margin"}]}))
    with pytest.raises(ValueError, match="lacks its margin or first trick"):
        L._load(bad)
    shipped = L._load()
    assert L.SCRATCH_WORDS <= SCRATCH  # the cards' lanes and the decision's weights fit the scratch
    for i, m in enumerate(models):  # the kernels' arrays hold what the descriptions say
        assert shipped.margins[i] == m["margin"]
        assert shipped.leads[i] == m.get("leads", 0)
        for j, role in enumerate(L.ROLES):
            pairs = m.get("pairs", {}).get(role, [])
            n, n_context = shipped.n_pairs[i, j], shipped.n_context[i, j]
            assert n == len(pairs)
            held = [(*shipped.pair_index[i, j, k], shipped.pair_weight[i, j, k]) for k in range(n)]
            assert sorted((min(a, b), max(a, b), w) for a, b, w in held) == sorted(
                (min(a, b), max(a, b), w) for a, b, w in pairs
            )  # the same products, arranged: those with a context feature first, it second
            assert n_context == sum(1 for a, b, _ in pairs if max(a, b) >= L.N_CARD)
            assert all(b >= L.N_CARD for _, b, _ in held[:n_context])
            assert all(a < L.N_CARD and b < L.N_CARD for a, b, _ in held[n_context:])


def test_the_default_margin_and_first_trick_are_the_models_own() -> None:
    """``margin`` -1, ``from_trick`` 0 and ``leads`` -1 (the defaults) play each model with the
    margin, first trick and leads its data name (no leads named: counting leads)."""
    for version, m in enumerate(L.models(), start=1):
        own = m["margin"]
        first = m["from_trick"]
        leads = m.get("leads", 0)
        a = [
            hand_record(41, h, "partnership", learned(f"play.model={version}"))["tricks"]
            for h in range(6)
        ]
        b = [
            hand_record(
                41,
                h,
                "partnership",
                learned(
                    f"play.model={version}",
                    f"play.margin={own:g}",
                    f"play.from_trick={first}",
                    f"play.leads={leads}",
                ),
            )["tricks"]
            for h in range(6)
        ]
        assert a == b
    other = [
        hand_record(41, h, "partnership", learned("play.margin=1000"))["tricks"] for h in range(6)
    ]
    assert other != a  # the margin matters on these hands: the test can fail


def test_parameters_are_range_checked() -> None:
    info = REGISTRY["play"]["learned"]
    assert info.params["model"].default == L.DEFAULT_MODEL
    assert info.params["model"].hi == L.N_MODELS
    assert info.params["from_trick"].hi == 16
    assert info.params["margin"].default == L.MODEL_MARGIN == -1
    assert info.params["leads"].default == L.MODEL_LEADS == -1
    assert (info.params["leads"].lo, info.params["leads"].hi) == (-1, 2)
    assert info.params["from_trick"].default == L.MODEL_FROM_TRICK == 0
    with pytest.raises(ValueError, match="out of range"):
        learned("play.model=0")
    with pytest.raises(ValueError, match="out of range"):
        learned(f"play.model={L.N_MODELS + 1}")
    with pytest.raises(ValueError, match="only games with an auction"):
        engine_inputs("two-hand", learned())
