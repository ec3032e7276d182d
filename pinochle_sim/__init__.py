"""pinochle-sim: fast Monte Carlo simulation and strategy analysis for Pinochle.

The public API a notebook uses; the ``pinochle-sim`` command is a thin layer over it.

>>> from pinochle_sim import score_meld
>>> score_meld("AH 10H KH QH JH KH QH 9H 9H", "H").total
250
"""

__version__ = "0.1.0"

from .cards import decode_hand, encode_hand, parse_card, parse_cards
from .meld import Meld, MeldResult, score_meld
from .rules import PRESETS, MeldTable, RulesError, Ruleset, get_preset, load_ruleset, resolve_rules

__all__ = [
    "PRESETS",
    "Meld",
    "MeldResult",
    "MeldTable",
    "RulesError",
    "Ruleset",
    "__version__",
    "decode_hand",
    "encode_hand",
    "get_preset",
    "load_ruleset",
    "parse_card",
    "parse_cards",
    "resolve_rules",
    "score_meld",
]
