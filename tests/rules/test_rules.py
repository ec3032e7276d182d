"""Rulesets as data: presets vs docs/rules.md section 2, TOML load/dump, validation messages."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_sim import score_meld
from pinochle_sim.rules import (
    PRESETS,
    TABLE_B,
    TABLE_C,
    MeldTable,
    RulesError,
    Ruleset,
    dumps_ruleset,
    get_preset,
    load_ruleset,
    loads_ruleset,
    resolve_rules,
)

PRESET_NAMES = ("partnership", "partnership-classic", "joedog", "two-hand", "three-hand")

# docs/rules.md section 2, transcribed cell by cell (each value cites the table's wording).
# trick_points are by rank 9, J, Q, K, 10, A.
RULES_MD_TABLE: dict[str, dict] = {
    "partnership": {
        "players": 4,
        "partnerships": True,  # "4, partners opposite"
        "hand_size": 12,
        "widow": 0,  # "12"
        "trump_by": "auction",  # "auction winner"
        "min_bid": 250,
        "bid_steps": (10, 20),  # "250", "+10 or +20"
        "all_pass": "dealer-stuck",  # "dealer stuck at minimum"
        "pass_cards": 4,  # "partner->bidder 4, bidder->partner 4"
        "meld": "A",  # "table A"
        "trick_points": (0, 0, 0, 10, 10, 10),  # "A,10,K = 10 each"
        "last_trick": 10,
        "total": 250,
        "must_follow": True,
        "must_trump": True,  # "follow; else trump; else any"
        "head_trick": "always",  # "always, when a legal card can win"
        "save_rule": True,  # "yes (a side with 0 trick points ...)"
        "throw_in": True,  # "allowed iff bid - meld > total"
        "game_target": 1500,  # "1500, bidding side wins ties"
        "bidder_wins_ties": True,
    },
    "partnership-classic": {
        "players": 4,
        "partnerships": True,
        "hand_size": 12,
        "widow": 0,
        "trump_by": "auction",
        "min_bid": 250,
        "bid_steps": (10, 20),
        "all_pass": "dealer-stuck",
        "pass_cards": 4,  # "4 and 4"
        "meld": "B",  # "table B"
        "trick_points": (0, 0, 0, 10, 10, 10),
        "last_trick": 10,
        "total": 250,
        "must_follow": True,
        "must_trump": True,  # "same"
        "head_trick": "always",  # "always, when able"
        "save_rule": False,  # "no"
        "throw_in": True,  # "same"
        "game_target": 1500,
        "bidder_wins_ties": True,  # "1500, same"
    },
    "joedog": {
        "players": 4,
        "partnerships": True,
        "hand_size": 12,
        "widow": 0,
        "trump_by": "auction",
        "min_bid": 25,
        "bid_steps": (1, 2),  # "25 (scale /10)", "+1 or +2"
        "all_pass": "dealer-stuck",
        "pass_cards": 3,  # "3 and 3"
        "meld": "C",  # "table C (scale /10)"
        "trick_points": (0, 0, 0, 1, 1, 1),  # "A,10,K = 1 each"
        "last_trick": 1,
        "total": 25,  # "1", "25"
        "must_follow": True,
        "must_trump": True,
        "head_trick": "trump-led",  # "only when trump is led"
        "save_rule": True,  # "yes"
        "throw_in": True,  # "same (scale /10)"
        "game_target": 150,
        "bidder_wins_ties": True,  # "150 (scale /10)"
        "scale": 10,
    },
    "two-hand": {
        "players": 2,
        "partnerships": False,  # "2, no teams"
        "hand_size": 12,
        "widow": 0,  # "12 + draws from stock"
        "trump_by": "turn-up",  # "turned-up card"
        "min_bid": 0,
        "bid_steps": (),  # "none", "none"
        "pass_cards": 0,  # "none"
        "meld": "D",  # "table D, melded after winning tricks"
        "meld_timing": "after-tricks",
        "trick_points": (0, 2, 3, 4, 10, 11),  # "A 11, 10 10, K 4, Q 3, J 2, 9 0"
        "last_trick": 10,
        "total": 250,
        "stock_phase": True,  # "stock phase: any card"
        "must_follow": True,
        "must_trump": True,  # "last 12 tricks: follow, else trump"
        "head_trick": "trump-led",  # "last 12 tricks, only when trump is led"
        "save_rule": False,
        "throw_in": False,  # "n/a", "n/a"
        "game_target": 1000,  # "one deal, or 1000 cumulative"
    },
    "three-hand": {
        "players": 3,
        "partnerships": False,  # "3, each for self"
        "hand_size": 15,
        "widow": 3,  # "15, widow of 3"
        "trump_by": "auction",
        "min_bid": 250,
        "bid_steps": (10, 20),
        "all_pass": "dealer-stuck",
        "pass_cards": 0,
        "discard": 3,  # "bidder takes widow, discards 3"
        "discards_count": True,  # "(discards count for bidder)"
        "meld": "B",  # "table B"
        "trick_points": (0, 0, 0, 10, 10, 10),
        "last_trick": 10,
        "total": 250,
        "must_follow": True,
        "must_trump": True,  # "same as partnership"
        "head_trick": "always",  # "always, when able"
        "save_rule": True,  # "yes"
        "throw_in": True,
        "game_target": 1500,
    },
}


# --------------------------------------------------------------------------- presets


def test_five_presets() -> None:
    assert tuple(PRESETS) == PRESET_NAMES
    for name in PRESET_NAMES:
        r = get_preset(name)
        assert isinstance(r, Ruleset)
        assert r.name == name
        assert r.description and r.source


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_matches_rules_md(name: str) -> None:
    r = get_preset(name)
    for key, want in RULES_MD_TABLE[name].items():
        if key == "meld":
            got = r.meld.name
        elif key == "total":
            got = r.total_trick_points
        else:
            got = getattr(r, key)
        assert got == want, f"{name}.{key}: docs/rules.md says {want!r}, preset has {got!r}"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_total_trick_points(name: str) -> None:
    r = get_preset(name)
    assert r.total_trick_points == (25 if name == "joedog" else 250)
    # independent count: two copies of 6 ranks in 4 suits, plus the last trick
    assert r.total_trick_points == 8 * sum(r.trick_points) + r.last_trick


def test_deck_is_dealt_in_auction_presets() -> None:
    for r in PRESETS.values():
        if r.trump_by == "auction":
            assert r.players * r.hand_size + r.widow == 48, r.name


def test_joedog_is_partnership_over_ten() -> None:
    """docs/rules.md 2: joedog is every point value of partnership divided by ten."""
    p, j = get_preset("partnership"), get_preset("joedog")
    assert j.min_bid * 10 == p.min_bid
    assert tuple(s * 10 for s in j.bid_steps) == p.bid_steps
    assert tuple(x * 10 for x in j.trick_points) == p.trick_points
    assert j.last_trick * 10 == p.last_trick
    assert j.game_target * 10 == p.game_target
    assert j.total_trick_points * 10 == p.total_trick_points
    for f in dataclasses.fields(MeldTable):
        if f.name == "name":
            continue
        cv, bv = getattr(TABLE_C, f.name), getattr(TABLE_B, f.name)
        if isinstance(cv, tuple):
            assert tuple(x * 10 for x in cv) == bv, f.name
        else:
            assert cv * 10 == bv, f.name


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("Partnership", "partnership"),
        ("PARTNERSHIP_CLASSIC", "partnership-classic"),
        (" joedog ", "joedog"),
        ("Two-Hand", "two-hand"),
        ("three_hand", "three-hand"),
    ],
)
def test_get_preset_is_forgiving(alias: str, name: str) -> None:
    assert get_preset(alias) is PRESETS[name]


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="no-such-game"):
        get_preset("no-such-game")
    assert issubclass(RulesError, ValueError)


# --------------------------------------------------------------------------- TOML round trip


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_toml_round_trip(name: str) -> None:
    r = get_preset(name)
    text = dumps_ruleset(r)
    tomllib.loads(text)  # valid TOML
    back = loads_ruleset(text)
    assert back == r
    assert back.meld == r.meld
    assert dumps_ruleset(back) == text


@pytest.mark.parametrize(
    "description",
    ['say "hi"', "back\\slash", "C:\\path\\", "ünïcödé ♠♥♦♣", "tab\there", "'single'"],
)
def test_toml_round_trip_strings(description: str) -> None:
    r = get_preset("joedog").replace(description=description, name="my " + description)
    assert loads_ruleset(dumps_ruleset(r)) == r


def test_toml_round_trip_multiline_description() -> None:
    # A TOML file may hold a multi-line description (a legal """...""" string); dumping the
    # loaded ruleset must give TOML that loads back (dumps_ruleset promises that).
    r = loads_ruleset('description = """two\nlines"""\n')
    assert r.description == "two\nlines"
    assert loads_ruleset(dumps_ruleset(r)) == r


_printable = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=20
)


@settings(max_examples=150, deadline=None)
@given(
    base=st.sampled_from(PRESET_NAMES),
    name=_printable,
    description=st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), max_size=30),
    dix=st.integers(0, 100_000),  # VALUE_LIMIT: rule values are bounded
    around=st.tuples(*[st.integers(0, 5000)] * 4),
    target=st.integers(1, 100_000),
    save=st.booleans(),
)
def test_toml_round_trip_hypothesis(
    base: str, name: str, description: str, dix: int, around: tuple, target: int, save: bool
) -> None:
    r = get_preset(base)
    r = r.replace(
        name=name,
        description=description,
        game_target=target,
        save_rule=save,
        meld=dataclasses.replace(r.meld, name=name, dix=dix, around=around),
    )
    assert loads_ruleset(dumps_ruleset(r)) == r


# --------------------------------------------------------------------------- TOML overrides

OVERRIDE = """
preset = "partnership"
name = "partnership-3pass"
pass_cards = 3
save_rule = false

[meld]
base = "B"
dix = 20
"""


def test_toml_overrides_from_preset() -> None:
    r = loads_ruleset(OVERRIDE)
    p = get_preset("partnership")
    assert r.name == "partnership-3pass"
    assert r.pass_cards == 3
    assert r.save_rule is False
    assert r.meld == dataclasses.replace(TABLE_B, dix=20)
    assert r.meld.run_extra_king == 0  # table B, not A
    # everything else is the preset's
    assert r == p.replace(
        name="partnership-3pass",
        pass_cards=3,
        save_rule=False,
        meld=dataclasses.replace(TABLE_B, dix=20),
    )
    assert score_meld("9H 9H", "H", r).total == 40
    assert score_meld("AH 10H KH QH JH KH", "H", r).total == 150


def test_toml_overrides_other_preset_and_meld_forms() -> None:
    r = loads_ruleset('preset = "joedog"\ngame_target = 100\nmeld = "A"\n')
    assert r == get_preset("joedog").replace(game_target=100, meld=get_preset("partnership").meld)
    # a [meld] table without `base` starts from the preset's own table
    r = loads_ruleset('preset = "two-hand"\n[meld]\nmarriage = 25\n')
    assert r.meld == dataclasses.replace(get_preset("two-hand").meld, marriage=25)
    # no preset key: the default preset
    assert loads_ruleset("") == get_preset("partnership")
    assert loads_ruleset("bid_steps = [10]\n").bid_steps == (10,)
    r = loads_ruleset("trick_points = [0, 2, 3, 4, 10, 11]\n")
    assert r.trick_points == (0, 2, 3, 4, 10, 11) and r.total_trick_points == 250


def test_load_ruleset_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(OVERRIDE, encoding="utf-8")
    r = load_ruleset(path)
    assert r == loads_ruleset(OVERRIDE)
    assert load_ruleset(str(path)) == r
    assert resolve_rules(str(path)) == r
    assert resolve_rules(path) == r
    assert resolve_rules("joedog") is get_preset("joedog")
    assert resolve_rules(None) is get_preset("partnership")
    assert resolve_rules(r) is r


def test_load_ruleset_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope" / "missing.toml"
    with pytest.raises(RulesError, match=re.escape(str(missing))):
        load_ruleset(missing)
    with pytest.raises(RulesError, match=r"missing\.toml"):
        resolve_rules(str(missing))


def test_load_ruleset_bad_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("pass_cards = = 3\n", encoding="utf-8")
    with pytest.raises(RulesError, match=r"bad\.toml.*TOML"):
        load_ruleset(path)


@pytest.mark.parametrize(
    "text",
    [
        "pass_cards = ",
        "pass_cards = 3 4",
        "[meld\ndix = 1",
        "name = 'unterminated",
        "= 3",
        "pass_cards = 3\npass_cards = 4",
    ],
)
def test_bad_toml_syntax(text: str) -> None:
    with pytest.raises(RulesError, match="TOML"):
        loads_ruleset(text)


# --------------------------------------------------------------------------- bad keys / values


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("colour = 1", "colour"),
        ("pass_card = 3", "pass_card"),
        ("[meld]\nsparkle = 10", "meld.sparkle"),
        ("[meld]\nrunn = 150", "meld.runn"),
        ("[extra]\nx = 1", "extra"),
    ],
)
def test_unknown_keys(text: str, key: str) -> None:
    with pytest.raises(RulesError, match=re.escape(key)):
        loads_ruleset(text)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('pass_cards = "three"', "pass_cards"),
        ("pass_cards = 3.0", "pass_cards"),
        ("pass_cards = true", "pass_cards"),
        ("pass_cards = -1", "pass_cards"),
        ("pass_cards = 13", "pass_cards"),
        ("save_rule = 1", "save_rule"),
        ('save_rule = "yes"', "save_rule"),
        ("players = 5", "players"),
        ("players = 3", "partnerships"),
        ("hand_size = 10", "hand_size"),
        ("hand_size = 0", "hand_size"),
        ("widow = -3", "widow"),
        ("min_bid = 0", "min_bid"),
        ("bid_steps = 10", "bid_steps"),
        ("bid_steps = []", "bid_steps"),
        ('bid_steps = [10, "x"]', "bid_steps"),
        ("bid_steps = [10, -20]", "bid_steps"),
        ("trick_points = [10, 10, 10]", "trick_points"),
        ("trick_points = [0, 0, 0, 10, 10, -10]", "trick_points"),
        ("trick_points = 10", "trick_points"),
        ('head_trick = "sometimes"', "head_trick"),
        ('trump_by = "dice"', "trump_by"),
        ('meld_timing = "never"', "meld_timing"),
        ('rounding = "up"', "rounding"),
        ('all_pass = "redeal"', "all_pass"),
        ("game_target = 0", "game_target"),
        ("last_trick = -10", "last_trick"),
        ("scale = 0", "scale"),
        ("name = 5", "name"),
        ('name = ""', "name"),
        ("discard = 2", "discard"),
        ("[players]\nx = 1", "players"),
        ("preset = 3", "preset"),
        ('preset = "bridge"', "bridge"),
        ('meld = "Z"', "meld"),
        ("meld = 5", "meld"),
        ('[meld]\nbase = "Z"', "meld.base"),
        ("[meld]\ndix = -1", "meld.dix"),
        ('[meld]\ndix = "ten"', "meld.dix"),
        ("[meld]\ndix = 1.5", "meld.dix"),
        ("[meld]\ndix = true", "meld.dix"),
        ("[meld]\nrun = 0", "meld.run"),
        ("[meld]\naround = [100, 80, 60]", "meld.around"),
        ("[meld]\naround = 100", "meld.around"),
        ("[meld]\neight = 800", "meld.eight"),
        ('[meld]\neight = [1000, 800, 600, "x"]', "meld.eight"),
        ("[meld]\neight = [1000, 800, 600, -1]", "meld.eight"),
        ('[meld]\nname = ""', "meld.name"),
    ],
)
def test_bad_values_name_the_key(text: str, key: str) -> None:
    with pytest.raises(RulesError, match=re.escape(key)):
        loads_ruleset(text)


def test_ruleset_constructor_validates() -> None:
    with pytest.raises(RulesError, match="players"):
        Ruleset(players=7)
    with pytest.raises(RulesError, match="head_trick"):
        get_preset("partnership").replace(head_trick="maybe")
    with pytest.raises(RulesError, match=r"meld\.dix"):
        MeldTable(dix=-1)


def test_values_beyond_the_limit_are_refused() -> None:
    from pinochle_sim.rules.ruleset import VALUE_LIMIT

    with pytest.raises(RulesError, match="game_target"):
        loads_ruleset(f"game_target = {VALUE_LIMIT + 1}\n")
    with pytest.raises(RulesError, match=r"meld\.dix"):
        loads_ruleset(f"[meld]\ndix = {VALUE_LIMIT + 1}\n")
