"""pinochle-sim: fast Monte Carlo simulation and strategy analysis for Pinochle.

The public library a notebook uses; the ``pinochle-sim`` command is a thin layer over it. Every
name below imports from the package top, wherever its module lives::

    from pinochle_sim import RunSpec, run, play_hands, hand_record, compare, PolicySet

Names load on first use (PEP 562), so ``import pinochle_sim`` stays cheap and importing one
layer never drags in the layers above it (pandas and matplotlib load with the analysis names).

>>> from pinochle_sim import score_meld
>>> score_meld("AH 10H KH QH JH KH QH 9H 9H", "H").total
250
"""

from __future__ import annotations

import importlib
import importlib.abc
import sys
from typing import Any

from pinochle_sim.core.version import __version__

_API: dict[str, str] = {
    # core: cards, notation and bounds
    "decode_hand": "pinochle_sim.core.cards",
    "encode_hand": "pinochle_sim.core.cards",
    "parse_card": "pinochle_sim.core.cards",
    "parse_cards": "pinochle_sim.core.cards",
    "parse_suit": "pinochle_sim.core.cards",
    "MAX_SEED": "pinochle_sim.core.limits",
    "MAX_HAND_INDEX": "pinochle_sim.core.limits",
    "MAX_RUN_HANDS": "pinochle_sim.core.limits",
    "MIN_REPORT_HANDS": "pinochle_sim.core.limits",
    # rules
    "PRESETS": "pinochle_sim.rules",
    "MeldTable": "pinochle_sim.rules",
    "RulesError": "pinochle_sim.rules",
    "Ruleset": "pinochle_sim.rules",
    "dumps_ruleset": "pinochle_sim.rules",
    "get_preset": "pinochle_sim.rules",
    "load_ruleset": "pinochle_sim.rules",
    "resolve_rules": "pinochle_sim.rules",
    "presets_text": "pinochle_sim.rules.describe",
    "ruleset_text": "pinochle_sim.rules.describe",
    "Meld": "pinochle_sim.rules.meld",
    "MeldResult": "pinochle_sim.rules.meld",
    "score_meld": "pinochle_sim.rules.meld",
    # solver
    "Position": "pinochle_sim.solver",
    "SolveResult": "pinochle_sim.solver",
    "position_request": "pinochle_sim.solver",
    "solve": "pinochle_sim.solver",
    "solve_positions": "pinochle_sim.solver.batch",
    "format_result": "pinochle_sim.solver.text",
    # policies
    "PolicySet": "pinochle_sim.policies",
    "DEFAULT_POLICIES": "pinochle_sim.policies",
    "KINDS": "pinochle_sim.policies",
    "POLICY_KINDS": "pinochle_sim.policies",
    "REGISTRY": "pinochle_sim.policies",
    "parse_policy_spec": "pinochle_sim.policies",
    "Seating": "pinochle_sim.policies.seating",
    "policies_markdown": "pinochle_sim.policies.registry",
    "policies_text": "pinochle_sim.policies.registry",
    # engines
    "ENGINES": "pinochle_sim.engines",
    "ENGINE_VERSION": "pinochle_sim.engines",
    "engine_for": "pinochle_sim.engines",
    # runs: what a run is, the driver, who hears of it
    "RunSpec": "pinochle_sim.runs.spec",
    "DEFAULT_PART_SIZE": "pinochle_sim.runs.spec",
    "run": "pinochle_sim.runs.runner",
    "RunSummary": "pinochle_sim.runs.summary",
    "estimate": "pinochle_sim.runs.estimate",
    "RunEstimate": "pinochle_sim.runs.estimate",
    "WorkEstimate": "pinochle_sim.runs.estimate",
    "Observer": "pinochle_sim.runs.observer",
    "warm": "pinochle_sim.runs.compile.warmup",
    # runs: playing hands
    "engine_inputs": "pinochle_sim.runs.simulate.hands",
    "play_hands": "pinochle_sim.runs.simulate.hands",
    "deal_constraints": "pinochle_sim.runs.simulate.hands",
    "play_accepted": "pinochle_sim.runs.simulate.accept",
    "per_deal": "pinochle_sim.runs.simulate.accept",
    "Accepted": "pinochle_sim.runs.simulate.accept",
    "threads": "pinochle_sim.runs.simulate.pool",
    "MAX_THREADS": "pinochle_sim.runs.simulate.pool",
    # runs: the store
    "StorageError": "pinochle_sim.runs.store.location",
    "beside": "pinochle_sim.runs.store.location",
    "is_url": "pinochle_sim.runs.store.location",
    "location": "pinochle_sim.runs.store.location",
    "outlives_the_process": "pinochle_sim.runs.store.location",
    "schema_for": "pinochle_sim.runs.store.schema",
    "schema_text": "pinochle_sim.runs.store.schema",
    "RunFolderError": "pinochle_sim.runs.store.files",
    "holds_files": "pinochle_sim.runs.store.folder",
    "read_provenance": "pinochle_sim.runs.store.read",
    "read_columns": "pinochle_sim.runs.store.read",
    "read_every_row_group": "pinochle_sim.runs.store.read",
    "provenance_lines": "pinochle_sim.runs.store.provenance",
    "check_run": "pinochle_sim.runs.store.check",
    "RunCheck": "pinochle_sim.runs.store.check",
    "export_run": "pinochle_sim.runs.store.export",
    "EXPORT_FORMATS": "pinochle_sim.runs.store.export",
    # runs: backends (the Dask one needs the [cluster] extra: loaded only when this name is used)
    "InputsSpec": "pinochle_sim.runs.backends.tasks",
    "LocalBackend": "pinochle_sim.runs.backends.local",
    "connect_cluster": "pinochle_sim.runs.backends.cluster",
    # runs: one hand up close
    "hand_record": "pinochle_sim.runs.inspect.show",
    "format_hand": "pinochle_sim.runs.inspect.show",
    "solve_deal": "pinochle_sim.runs.inspect.solve",
    "format_deal": "pinochle_sim.runs.inspect.solve",
    "trick_play": "pinochle_sim.runs.inspect.solve",
    # analysis
    "exact": "pinochle_sim.analysis.exact",
    "ExactMeld": "pinochle_sim.analysis.exact",
    "exact_meld_distribution": "pinochle_sim.analysis.exact",
    "game_results": "pinochle_sim.analysis.game_results",
    "games_line": "pinochle_sim.analysis.game_results",
    "Advice": "pinochle_sim.analysis.advise",
    "advise": "pinochle_sim.analysis.advise",
    "hands_needed": "pinochle_sim.analysis.advise",
    "advised_deals": "pinochle_sim.analysis.advise",
    "default_keep": "pinochle_sim.analysis.advise",
    "advice_chart": "pinochle_sim.analysis.reports.charts_advise",
    "partner_meld_given": "pinochle_sim.analysis.advise",
    "pass_value_given": "pinochle_sim.analysis.advise",
    "threats_given": "pinochle_sim.analysis.advise",
    "Session": "pinochle_sim.analysis.session",
    "open_session": "pinochle_sim.analysis.session",
    "compare": "pinochle_sim.analysis.compare",
    "BREAKDOWNS": "pinochle_sim.analysis.breakdown",
    "gain_by": "pinochle_sim.analysis.breakdown",
    "gain_lines": "pinochle_sim.analysis.breakdown",
    "check_match": "pinochle_sim.analysis.matches",
    "check_output": "pinochle_sim.analysis.compare",
    "default_study_out": "pinochle_sim.analysis.compare",
    "duplicate": "pinochle_sim.analysis.matches",
    "parse_range": "pinochle_sim.analysis.compare",
    "plays_per_deal": "pinochle_sim.analysis.matches",
    "summary_lines": "pinochle_sim.analysis.compare",
    "sweep": "pinochle_sim.analysis.compare",
    "keeps_deals": "pinochle_sim.analysis.matches",
    "kept_deals": "pinochle_sim.analysis.kept",
    "discard_kept": "pinochle_sim.analysis.kept",
    "sweep_lines": "pinochle_sim.analysis.compare",
    "sweep_meta": "pinochle_sim.analysis.compare",
    "write_match": "pinochle_sim.analysis.compare",
    "write_sweep": "pinochle_sim.analysis.compare",
    "write_report": "pinochle_sim.analysis.reports",
    "SelfCheckError": "pinochle_sim.analysis.reports.selfcheck",
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
    "charts": "pinochle_sim.charts",
    # agents: the OpenSpiel adapter needs the [agents] extra (loaded only when used)
    "agent_match": "pinochle_sim.openspiel",
    "match_lines": "pinochle_sim.agents.duplicate",
    "write_agent_match": "pinochle_sim.agents.duplicate",
    # bench
    "BenchOptions": "pinochle_sim.bench.suite",
    "bench_lines": "pinochle_sim.bench.suite",
    "parse_solver_cards": "pinochle_sim.bench.suite",
}
"""Public name -> the module that defines it."""

__all__ = ["__version__", *sorted(_API)]


MOVED: dict[str, str] = {
    "pinochle_sim.runs.dataset": "pinochle_sim.runs.store (files, folder, check, read, "
    "provenance) and pinochle_sim.runs.spec (RunSpec, which replaces RunSettings)",
    "pinochle_sim.runs.parallel": "pinochle_sim.runs.simulate.pool",
    "pinochle_sim.runs.games": "pinochle_sim.runs.simulate.games",
    "pinochle_sim.runs.accept": "pinochle_sim.runs.simulate.accept",
    "pinochle_sim.runs.dd": "pinochle_sim.runs.simulate.dd (its warm-up: pinochle_sim.runs."
    "compile.warmup)",
    "pinochle_sim.runs.records": "pinochle_sim.runs.store.schema",
    "pinochle_sim.runs.storage": "pinochle_sim.runs.store.location",
    "pinochle_sim.runs.scan": "pinochle_sim.runs.store.scan",
    "pinochle_sim.runs.export": "pinochle_sim.runs.store.export",
    "pinochle_sim.runs.backend": "pinochle_sim.runs.backends.tasks and .local",
    "pinochle_sim.runs.cluster": "pinochle_sim.runs.backends.cluster",
    "pinochle_sim.runs.warmup": "pinochle_sim.runs.compile.warmup (warm_up is now warm)",
    "pinochle_sim.runs.precompile": "pinochle_sim.runs.compile.helper",
    "pinochle_sim.runs.show": "pinochle_sim.runs.inspect.show",
    "pinochle_sim.runs.solve": "pinochle_sim.runs.inspect.solve",
    "pinochle_sim.runs.bench": "pinochle_sim.bench.stages",
    "pinochle_sim.runs.bench_solver": "pinochle_sim.bench.solver_times",
    "pinochle_sim.runs.yardstick": "pinochle_sim.bench.yardstick",
    "pinochle_sim.solver.kernel": "the solver's parts: pinochle_sim.solver.driver (dd_solve, "
    "dd_best, dd_bounds, dd_move_values), .workspace (new_table, pack_trick), .search, .moves, "
    ".transposition, .context",
    "pinochle_sim.solver.table": "pinochle_sim.solver.workspace",
    "pinochle_sim.engines.games": "pinochle_sim.engines.game_end",
    "pinochle_sim.engines.two_hand.policies": "pinochle_sim.engines.two_hand.decisions",
    "pinochle_sim.analysis.games": "pinochle_sim.analysis.game_results",
    "pinochle_sim.analysis.reports.dd": "pinochle_sim.analysis.reports.dd_studies",
    "pinochle_sim.analysis.reports.charts": "pinochle_sim.analysis.reports.charts_report (the "
    "report's charts) and pinochle_sim.charts (charts over several runs, the house style)",
}
"""Modules that moved when the package was grouped by role, and where they went."""


class _MovedModules(importlib.abc.MetaPathFinder):
    """Answers an import of a module that moved with an error naming its new place (consulted
    only after the module was not found where it is looked for)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> None:
        where = MOVED.get(fullname)
        if where is not None:
            # no ``name``: ``from pinochle_sim.runs import dataset`` would swallow the message
            raise ModuleNotFoundError(
                f"{fullname} moved: see {where}; every public name also imports from the "
                "package top (from pinochle_sim import ...)"
            )


sys.meta_path.append(_MovedModules())


def __getattr__(name: str) -> Any:
    if name not in _API:
        raise AttributeError(f"module 'pinochle_sim' has no attribute {name!r}")
    module = importlib.import_module(_API[name])
    # a name that is its module (`exact`) is the module itself
    value = getattr(module, name) if hasattr(module, name) else module
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
