"""One hand, move by move, as a plain dict (``show --json``) and as text for people.

Built from the same kernel as batch runs (:func:`pinochle_sim.runs.simulate.trace_arrays`); the
engine's descriptor decodes its trace.
"""

from __future__ import annotations

from typing import Any

from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset
from pinochle_sim.runs.simulate.hands import engine_inputs, trace_arrays


def hand_record(
    seed: int,
    hand: int,
    rules: str | Ruleset | None = None,
    policies: PolicySet | None = None,
    dealer: int | None = None,
) -> dict[str, Any]:
    """Everything that happened in hand ``hand`` of ``seed`` (keys as in ``show --json``).

    >>> rec = hand_record(seed=1, hand=0)
    >>> rec["hand"], len(rec["tricks"]) in (0, 12)
    (0, True)
    """
    inputs = engine_inputs(rules, policies)
    row, trace = trace_arrays(inputs, seed, hand, dealer)
    col = {name: int(row[i]) for name, i in inputs.layout.index.items()}
    return inputs.engine.decode(inputs, seed, hand, col, trace)


def format_hand(rec: dict[str, Any]) -> str:
    """A hand from :func:`hand_record` as a person would read it."""
    return engine_inputs(rec["rules"]).engine.format(rec)
