"""Rulesets as data: the ``Ruleset`` dataclass, meld tables, presets, TOML load/dump."""

from pinochle_sim.rules.presets import ALIASES, DEFAULT, PRESETS, get_preset
from pinochle_sim.rules.ruleset import (
    MELD_TABLES,
    TABLE_A,
    TABLE_B,
    TABLE_C,
    TABLE_D,
    MeldTable,
    RulesError,
    Ruleset,
)
from pinochle_sim.rules.toml_io import (
    dumps_ruleset,
    load_ruleset,
    loads_ruleset,
    resolve_rules,
    ruleset_from_dict,
)

__all__ = [
    "ALIASES",
    "DEFAULT",
    "MELD_TABLES",
    "PRESETS",
    "TABLE_A",
    "TABLE_B",
    "TABLE_C",
    "TABLE_D",
    "MeldTable",
    "RulesError",
    "Ruleset",
    "dumps_ruleset",
    "get_preset",
    "load_ruleset",
    "loads_ruleset",
    "resolve_rules",
    "ruleset_from_dict",
]
