"""pinochle-sim: fast Monte Carlo simulation and strategy analysis for Pinochle.

The public library a notebook uses; the ``pinochle-sim`` command is a thin layer over it. Every
name below imports from the package top, wherever its module lives::

    from pinochle_sim import play_hands, run, hand_record, compare, PolicySet

Names load on first use (PEP 562), so ``import pinochle_sim`` stays cheap and importing one
layer never drags in the layers above it (pandas and matplotlib load with the analysis names).

>>> from pinochle_sim import score_meld
>>> score_meld("AH 10H KH QH JH KH QH 9H 9H", "H").total
250
"""

from __future__ import annotations

import importlib
from typing import Any

from pinochle_sim.core.version import __version__

_API: dict[str, str] = {
    # core: cards and notation
    "decode_hand": "pinochle_sim.core.cards",
    "encode_hand": "pinochle_sim.core.cards",
    "parse_card": "pinochle_sim.core.cards",
    "parse_cards": "pinochle_sim.core.cards",
    # rules
    "PRESETS": "pinochle_sim.rules",
    "MeldTable": "pinochle_sim.rules",
    "RulesError": "pinochle_sim.rules",
    "Ruleset": "pinochle_sim.rules",
    "get_preset": "pinochle_sim.rules",
    "load_ruleset": "pinochle_sim.rules",
    "resolve_rules": "pinochle_sim.rules",
    "Meld": "pinochle_sim.rules.meld",
    "MeldResult": "pinochle_sim.rules.meld",
    "score_meld": "pinochle_sim.rules.meld",
    # solver
    "Position": "pinochle_sim.solver",
    "SolveResult": "pinochle_sim.solver",
    "solve": "pinochle_sim.solver",
    # policies
    "PolicySet": "pinochle_sim.policies",
    "DEFAULT_POLICIES": "pinochle_sim.policies",
    "REGISTRY": "pinochle_sim.policies",
    "parse_policy_spec": "pinochle_sim.policies",
    # engines
    "ENGINES": "pinochle_sim.engines",
    "ENGINE_VERSION": "pinochle_sim.engines",
    "engine_for": "pinochle_sim.engines",
    # run
    "engine_inputs": "pinochle_sim.runs.simulate",
    "play_hands": "pinochle_sim.runs.simulate",
    "deal_constraints": "pinochle_sim.runs.simulate",
    "play_accepted": "pinochle_sim.runs.accept",
    "per_deal": "pinochle_sim.runs.accept",
    "Accepted": "pinochle_sim.runs.accept",
    "threads": "pinochle_sim.runs.parallel",
    "run": "pinochle_sim.runs.runner",
    "RunSummary": "pinochle_sim.runs.runner",
    "hand_record": "pinochle_sim.runs.show",
    "solve_deal": "pinochle_sim.runs.solve",
    "trick_play": "pinochle_sim.runs.solve",
    "format_hand": "pinochle_sim.runs.show",
    "game_results": "pinochle_sim.analysis.games",
    "read_provenance": "pinochle_sim.runs.dataset",
    "read_columns": "pinochle_sim.runs.dataset",
    "check_run": "pinochle_sim.runs.dataset",
    "RunCheck": "pinochle_sim.runs.dataset",
    "export_run": "pinochle_sim.runs.export",
    "estimate": "pinochle_sim.runs.runner",
    "RunEstimate": "pinochle_sim.runs.runner",
    "warm_up": "pinochle_sim.runs.warmup",
    "schema_for": "pinochle_sim.runs.records",
    "InputsSpec": "pinochle_sim.runs.backend",
    # the Dask backend (the [cluster] extra): loaded only when this name is used
    "connect_cluster": "pinochle_sim.runs.cluster",
    # analysis
    "exact": "pinochle_sim.analysis",
    "ExactMeld": "pinochle_sim.analysis.exact",
    "exact_meld_distribution": "pinochle_sim.analysis.exact",
    "Advice": "pinochle_sim.analysis.advise",
    "advise": "pinochle_sim.analysis.advise",
    "advice_chart": "pinochle_sim.analysis.reports.charts_advise",
    "partner_meld_given": "pinochle_sim.analysis.advise",
    "pass_value_given": "pinochle_sim.analysis.advise",
    "threats_given": "pinochle_sim.analysis.advise",
    "compare": "pinochle_sim.analysis.compare",
    "duplicate": "pinochle_sim.analysis.compare",
    "sweep": "pinochle_sim.analysis.compare",
    "write_match": "pinochle_sim.analysis.compare",
    "write_sweep": "pinochle_sim.analysis.compare",
    "write_report": "pinochle_sim.analysis.reports",
    "STUDIES": "pinochle_sim.analysis.reports",
    "auction_summary": "pinochle_sim.analysis.reports",
    "bid_vs_meld": "pinochle_sim.analysis.reports",
    "bidding_side_tricks": "pinochle_sim.analysis.reports",
    "early_tricks": "pinochle_sim.analysis.reports",
    "go_set": "pinochle_sim.analysis.reports",
    "meld_by_trump_length": "pinochle_sim.analysis.reports",
    "meld_distribution": "pinochle_sim.analysis.reports",
    "meld_laid": "pinochle_sim.analysis.reports",
    "partner_meld": "pinochle_sim.analysis.reports",
    "pass_value": "pinochle_sim.analysis.reports",
    "score_margin": "pinochle_sim.analysis.reports",
    "win_probability": "pinochle_sim.analysis.reports",
}
"""Public name -> the module that defines it."""

__all__ = ["__version__", *sorted(_API)]


def __getattr__(name: str) -> Any:
    if name not in _API:
        raise AttributeError(f"module 'pinochle_sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(_API[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
