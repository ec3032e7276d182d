"""The hand advisor: its numbers against the definitions in docs/advise.md, and bad input.

Expectations: the meld now is the ``meld`` of the hand; P(make) can only fall as the bid
rises (a deal that reaches b reaches every lower bid); at the minimum bid it equals the
engine's own ``made`` column for the forced contract (the engine scores that very bid); the
answer depends on the seed only, never on threads; an opponent cannot hold 1000 aces when I
hold an ace.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from pinochle_sim.analysis.advise import (
    advise,
    partner_meld_given,
    pass_value_given,
    threats_given,
)
from pinochle_sim.cli import main
from pinochle_sim.core.cards import card_name, format_cards, parse_card, parse_cards
from pinochle_sim.rules import get_preset
from pinochle_sim.rules.meld import score_meld
from pinochle_sim.runs.simulate.hands import deal_constraints, engine_inputs, play_hands_array

HAND = "AS AS 10S KS QS JS 9S KH QH AD AC 9C"
N = 3000


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def advice():
    return advise(HAND, seat=1, dealer=0, hands=N, seed=5)


def test_meld_now_is_the_meld_of_the_hand(advice) -> None:
    rules = get_preset("partnership")
    for t, suit in zip(advice.by_trump, "SHDC", strict=True):
        assert t.meld_now == score_meld(HAND, suit, rules).total


def test_p_make_never_rises_with_the_bid(advice) -> None:
    for t in advice.by_trump:
        p = [b.p_make for b in t.bids]
        assert all(a >= b for a, b in itertools.pairwise(p))
        assert p[-1] < 0.05 or t.bids[-1].bid > 1000
        for b in t.bids:
            assert b.ci_low <= b.p_make <= b.ci_high


def test_min_bid_matches_the_engines_own_scoring(advice) -> None:
    inputs = engine_inputs("partnership")
    for t in range(4):
        fx = deal_constraints(inputs, {1: HAND}, bidder=1, trump=t)
        out = play_hands_array(inputs, 5, 0, N, dealer=0, fx=fx)
        cols = {name: out[i] for i, name in enumerate(inputs.layout.names)}
        assert (cols["bidder"] == 1).all() and (cols["trump"] == t).all()
        assert advice.by_trump[t].bids[0].p_make == pytest.approx(cols["made"].mean())
        score = np.where(cols["made"], cols["score_1"], -250).mean()
        assert advice.by_trump[t].bids[0].expected_score == pytest.approx(score)


def test_best_and_risk_bids(advice) -> None:
    for t in advice.by_trump:
        best = max(t.bids, key=lambda b: b.expected_score)
        assert t.best_bid == best.bid
        ok = [b.bid for b in t.bids if b.p_make >= 0.75]
        assert t.max_bid_at_risk == (max(ok) if ok else None)
    rec = advice.recommendation
    assert rec["trump"] == "spades" and rec["bid"] is not None
    assert advice.verdict.startswith(f"Bid up to {rec['bid']} in spades")


def test_no_opponent_holds_1000_aces_against_an_ace(advice) -> None:
    assert advice.threats["double_aces"]["p"] == 0.0
    assert advice.threats["opponents"] == [0, 2]


def test_same_answer_whatever_the_threads() -> None:
    a = advise(HAND, hands=1000, seed=2, threads=1).to_json()
    b = advise(HAND, hands=1000, seed=2, threads=2).to_json()
    assert a == b


def test_three_hand_takes_the_widow() -> None:
    a = advise("AS AS AH AH 10H KH QH JH 9D KC QC JC 9C KS QS", rules="three-hand", hands=1000)
    hearts = a.by_trump[1]
    assert hearts.meld_now == score_meld("AS AS AH AH 10H KH QH JH 9D KC QC JC 9C KS QS", "H",
                                         get_preset("three-hand")).total  # fmt: skip
    assert hearts.pass_value is not None and hearts.pass_value >= 0  # the widow adds cards


def test_two_hand_with_the_upcard() -> None:
    a = advise(HAND, rules="two-hand", hands=1000, upcard="9H")
    t = a.two_hand
    assert t is not None and 0 <= t["p_win"]["p"] <= 1
    assert t["meld_in_hand_now"] == score_meld(HAND, "H", get_preset("two-hand")).total
    inputs = engine_inputs("two-hand")
    fx = deal_constraints(inputs, {0: HAND}, upcard="9H")
    out = play_hands_array(inputs, 0, 0, 300, fx=fx)
    cols = {name: out[i] for i, name in enumerate(inputs.layout.names)}
    assert (cols["up_card"] == parse_card("9H")).all() and (cols["trump"] == 1).all()


def test_json_fields() -> None:
    r = invoke("advise", HAND, "--hands", "500", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    for key in ("by_trump", "recommendation", "hands", "seat", "dealer", "rules"):
        assert key in doc
    t = doc["by_trump"][0]
    for key in ("trump", "meld_now", "meld_after_pass", "bids", "best_bid", "max_bid_at_risk"):
        assert key in t
    assert set(t["meld_after_pass"]) == {"mean", "p10", "p50", "p90"}
    assert set(t["bids"][0]) >= {"bid", "p_make", "ci_low", "ci_high", "expected_score"}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["advise", "AS AS 10S KS QS JS 9S KH QH AD AC"], "has 12 cards, got 11"),
        (["advise", HAND + " 9D"], "has 12 cards, got 13"),
        (["advise", "AS AS AS KS QS JS 9S KH QH AD AC 9C"], "too many copies of AS"),
        (["advise", HAND, "--risk", "0"], "between 1 and 99"),
        (["advise", HAND, "--risk", "100"], "between 1 and 99"),
        (["advise", HAND, "--rules", "three-hand"], "has 15 cards"),
        (["advise", HAND, "--seat", "4"], "seat must be 0..3"),
        (["run", "--hands", "10", "--fix", "0=AS AS", "--fix", "1=AS"], "fixed for seats 0 and 1"),
        (["run", "--hands", "10", "--rules", "three-hand", "--fix", "3=AS"], "seats 0..2"),
        (["run", "--hands", "10", "--fix", "AS"], "SEAT=CARDS"),
        (["run", "--hands", "10", "--fix", "0="], "SEAT=CARDS"),
    ],
)
def test_bad_input_gets_one_line(args, needle, tmp_path) -> None:
    r = invoke(*args, *(["--out", str(tmp_path / "r")] if args[0] == "run" else []))
    assert r.exit_code != 0
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert any(needle in x for x in lines), r.output
    assert "Traceback" not in r.output
    assert sum(x.startswith("Error") for x in lines) == 1


def test_run_records_the_fixed_cards(tmp_path) -> None:
    out = tmp_path / "run"
    r = invoke("run", "--hands", "300", "--fix", f"2={HAND}", "--dealer", "1", "--out", str(out),
               "--quiet")  # fmt: skip
    assert r.exit_code == 0, r.output
    table = pq.read_table(out)
    meta = json.loads(table.schema.metadata[b"pinochle_sim"])
    assert meta["fixed"] == {"2": format_cards(parse_cards(HAND))}
    assert meta["dealer"] == 1
    assert len(set(table.column("dealt_2").to_pylist())) == 1


def test_partner_meld_agrees_with_an_independent_sampler() -> None:
    rules = get_preset("partnership")
    got = partner_meld_given(HAND, "S", seat=0, hands=4000, seed=3)
    rest = [f for f in range(24) for _ in range(2)]
    for f in parse_cards(HAND):
        rest.remove(f)
    rng = np.random.default_rng(7)
    names = [card_name(f) for f in rest]
    sample = [
        score_meld(" ".join(rng.choice(names, 12, replace=False)), "S", rules).total
        for _ in range(3000)
    ]
    se = np.hypot(got["ci95"] / 1.96, np.std(sample) / np.sqrt(len(sample)))
    assert abs(got["mean"] - np.mean(sample)) < 4 * se


def test_conditional_helpers_agree_with_the_advice(advice) -> None:
    assert threats_given(HAND, seat=1, hands=N, seed=5)["double_aces"]["p"] == 0.0
    spades = pass_value_given(HAND, "S", seat=1, hands=N, seed=5)
    # the advice's deals have dealer 0; these rotate the dealer, so compare within CIs
    assert abs(spades["mean"] - advice.by_trump[0].pass_value) < 4 * spades["ci95"] + 5


def test_out_writes_a_normal_run_folder_and_chart(tmp_path) -> None:
    out = tmp_path / "adv"
    chart = tmp_path / "chart"
    r = invoke("advise", HAND, "--hands", "400", "--seat", "3", "--out", str(out), "--chart",
               str(chart))  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "Bid up to" in r.output or "Pass:" in r.output
    assert (tmp_path / "chart.png").stat().st_size > 10_000
    table = pq.read_table(out)
    meta = json.loads(table.schema.metadata[b"pinochle_sim"])
    assert meta["fixed"] == {"3": format_cards(parse_cards(HAND))}
    assert table.num_rows == 400
    assert len(set(table.column("dealt_3").to_pylist())) == 1


@pytest.mark.parametrize("rules", ["partnership", "three-hand"])
def test_auction_only_hands_end_as_the_full_hands_auction_does(rules) -> None:
    """The default-bidder question stops each hand after its auction; the auction must be the
    one the full hand plays (same deal stream, nothing after it can change it)."""
    inputs = engine_inputs(rules)
    fixed = {1: HAND}
    full = play_hands_array(inputs, 9, 0, 2000, fx=deal_constraints(inputs, fixed))
    stop = play_hands_array(
        inputs, 9, 0, 2000, fx=deal_constraints(inputs, fixed, auction_only=True)
    )
    names = inputs.layout.names
    for col in ["hand", "dealer", "bidder", "bid", "trump", "stuck", "dealt_0", "dealt_2"]:
        i = names.index(col)
        assert np.array_equal(full[i], stop[i]), col


def test_auction_only_refuses_what_has_no_auction() -> None:
    with pytest.raises(ValueError, match="no auction"):
        deal_constraints(engine_inputs("two-hand"), auction_only=True)
    with pytest.raises(ValueError, match="forced contract"):
        deal_constraints(engine_inputs("partnership"), bidder=0, trump=0, auction_only=True)


def test_chart_path_with_a_suffix_is_not_doubled(tmp_path) -> None:
    r = invoke("advise", HAND, "--hands", "300", "--chart", str(tmp_path / "c.png"))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.png", "c.svg"]


def test_two_hand_chart_is_refused_before_the_deals(tmp_path) -> None:
    r = invoke("advise", "AS AS AH AH 10H KH QH JH 9D KC QC JC", "--rules", "two-hand",
               "--chart", str(tmp_path / "c"))  # fmt: skip
    assert r.exit_code != 0
    assert "no auction" in r.output and "Traceback" not in r.output
    assert not list(tmp_path.iterdir())


def test_advise_out_is_checked_before_the_deals_and_can_be_replaced(tmp_path) -> None:
    out = tmp_path / "adv"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    r = invoke("advise", HAND, "--hands", "300", "--out", str(out))
    assert r.exit_code != 0
    assert "already exists: pass --overwrite" in r.output
    assert "Bid up to" not in r.output and "Pass:" not in r.output  # nothing simulated
    assert (out / "keep.txt").read_text() == "mine"
    empty = tmp_path / "empty"
    empty.mkdir()  # an empty folder is written, as run writes it
    assert invoke("advise", HAND, "--hands", "300", "--out", str(empty)).exit_code == 0
    first = invoke("run", "--hands", "300", "--out", str(tmp_path / "r"), "--quiet")
    assert first.exit_code == 0, first.output
    r = invoke("advise", HAND, "--hands", "300", "--out", str(tmp_path / "r"), "--overwrite")
    assert r.exit_code == 0, r.output
    meta = json.loads(pq.read_table(tmp_path / "r").schema.metadata[b"pinochle_sim"])
    assert meta["fixed"] == {"0": format_cards(parse_cards(HAND))}


def test_a_low_risk_gets_a_ladder_long_enough_to_answer() -> None:
    a = advise(HAND, hands=2000, seed=1, risk=1)
    for t in a.by_trump:
        last = t.bids[-1]
        assert last.p_make < 0.01 or last.bid > 2000  # the ladder ran past the 1% bid
        made = [b.bid for b in t.bids if b.p_make >= 0.01]
        assert t.max_bid_at_risk == (max(made) if made else None)


def test_bad_dealer_leaves_no_folder_behind(tmp_path) -> None:
    out = tmp_path / "r"
    r = invoke("run", "--hands", "100", "--quiet", "--dealer", "4", "--out", str(out))
    assert r.exit_code != 0 and "dealer must be a seat 0..3" in r.output
    assert not out.exists()
    r = invoke("run", "--hands", "100", "--quiet", "--dealer", "3", "--out", str(out))
    assert r.exit_code == 0, r.output


def test_library_refuses_a_dealer_that_is_not_a_seat_number() -> None:
    from pinochle_sim import play_hands

    for bad in (1.0, True):
        with pytest.raises(ValueError, match="dealer must be a seat number"):
            play_hands(10, dealer=bad)


def test_info_shows_the_fixed_cards_and_resumes_with_them(tmp_path) -> None:
    out = tmp_path / "r"
    r = invoke("run", "--hands", "300", "--part-size", "100", "--fix", f"2={HAND}", "--dealer",
               "1", "--out", str(out), "--quiet")  # fmt: skip
    assert r.exit_code == 0, r.output
    whole = pq.read_table(out).to_pandas()
    info = invoke("info", str(out))
    assert f"fixed, seat 2: {format_cards(parse_cards(HAND))}" in info.output, info.output
    (out / "part-00001.parquet").unlink()
    info = invoke("info", str(out))
    line = next(x for x in info.output.splitlines() if "finish it with:" in x)
    command = line.split("finish it with: pinochle-sim ", 1)[1]
    import shlex

    r = invoke(*shlex.split(command))
    assert r.exit_code == 0, r.output
    again = pq.read_table(out).to_pandas()
    assert again.equals(whole)
