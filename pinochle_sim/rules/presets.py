"""The five named presets of docs/rules.md section 2 and the registry that looks them up."""

from __future__ import annotations

from pinochle_sim.rules.ruleset import TABLE_B, TABLE_C, TABLE_D, RulesError, Ruleset

PARTNERSHIP = Ruleset()
"""Default. Four-hand partnership, table A, must head every trick, save rule (seed 000)."""

PARTNERSHIP_CLASSIC = PARTNERSHIP.replace(
    name="partnership-classic",
    description="Four-hand partnership, classic meld table B, no save rule",
    source="004_aad4ed1131946047.txt",
    meld=TABLE_B,
    save_rule=False,
)
"""Seed 004: table B (no run bonuses), a side keeps its meld without trick points."""

JOEDOG = PARTNERSHIP.replace(
    name="joedog",
    description="Four-hand partnership, small scoring (/10), 3-card pass, head only on trump leads",
    source="003_33180280d8f3130e.txt",
    min_bid=25,
    bid_steps=(1, 2),
    pass_cards=3,
    meld=TABLE_C,
    trick_points=(0, 0, 0, 1, 1, 1),
    last_trick=1,
    head_trick="trump-led",
    game_target=150,
    scale=10,
)
"""Seed 003: every value divided by ten; must beat the table only when trump is led."""

TWO_HAND = Ruleset(
    name="two-hand",
    description="Two-hand pinochle: turned-up trump, 23-card stock, meld after winning tricks",
    source="002_5dad48ae6d59dfea.txt",
    players=2,
    partnerships=False,
    hand_size=12,
    trump_by="turn-up",
    min_bid=0,
    bid_steps=(),
    pass_cards=0,
    meld=TABLE_D,
    meld_timing="after-tricks",
    trick_points=(0, 2, 3, 4, 10, 11),
    head_trick="trump-led",
    stock_phase=True,
    save_rule=False,
    throw_in=False,
    game_target=1000,
    rounding="tens-7up",
    turnup_dix=10,
)
"""Seed 002: played by the engine in a later issue; its rules are complete data already."""

THREE_HAND = PARTNERSHIP.replace(
    name="three-hand",
    description="Three-hand cut-throat: 15 cards each, 3-card widow to the bidder, table B",
    source="003_33180280d8f3130e.txt (mentions it), pagat cut-throat",
    players=3,
    partnerships=False,
    hand_size=15,
    widow=3,
    pass_cards=0,
    discard=3,
    discards_count=True,
    meld=TABLE_B,
)
"""Each for self; bidder takes the widow and discards 3, whose counters score for the bidder.

Choices where the rule texts are silent (pagat cut-throat / Hoyle): trump is named from the 15 dealt
cards before the widow is seen (docs/rules.md 4.3: name trump, then the widow); meld is scored
from the 15 cards kept, so a discarded card never melds; discarded counters are added to the
bidder's trick points, but only points won in play save the bidder from the save rule ("the
discard counts, but he must still win a trick to score the meld")."""

PRESETS: dict[str, Ruleset] = {
    r.name: r for r in (PARTNERSHIP, PARTNERSHIP_CLASSIC, JOEDOG, TWO_HAND, THREE_HAND)
}
ALIASES = {
    "default": "partnership",
    "classic": "partnership-classic",
    "2": "two-hand",
    "3": "three-hand",
    "cutthroat": "three-hand",
}
DEFAULT = "partnership"


def get_preset(name: str) -> Ruleset:
    """Look up a preset by name or alias, case-insensitively."""
    key = name.strip().lower().replace("_", "-")
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        also = ", ".join(f"{a} ({b})" for a, b in ALIASES.items())
        raise RulesError(
            f"unknown rules {name!r}: choose one of {', '.join(PRESETS)} (also: {also}), or "
            "give a TOML file"
        )
    return PRESETS[key]
