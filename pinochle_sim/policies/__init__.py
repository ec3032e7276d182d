"""Policies: pluggable, parameterised decision makers, selected by name.

Each kind of decision (``bid``, ``pass``, ``play``, ``concede``, ``discard``, and two-hand
``meld`` and ``stock``) has named policies listed once in :mod:`.registry`; each policy is a small
jitted function with documented integer parameters. A :class:`PolicySet` picks one policy of
each kind plus parameter overrides and flattens itself to the int64 array the kernels read
(layout in :mod:`.slots`).

Kernels by kind: :mod:`.bid` and :mod:`.calibrated` (bidding), :mod:`.pass_` (passing and
discards), :mod:`.play` (``greedy``, ``random``), :mod:`.counting`, and :mod:`.dispatch` (which
play policy a seat uses). The two-hand ``meld`` and ``stock`` kernels live with their engine
(:mod:`pinochle_sim.engines.two_hand.policies`), since they work on its table state.
"""

from pinochle_sim.policies.registry import (
    DEFAULT_POLICIES,
    DEFAULTS,
    KIND,
    KINDS,
    PARAM_LIMIT,
    POLICY_KINDS,
    REGISTRY,
    SEATS,
    PolicyInfo,
    PolicyKind,
    PolicySet,
    parse_policy_spec,
    seat_policy_array,
)

__all__ = [
    "DEFAULTS",
    "DEFAULT_POLICIES",
    "KIND",
    "KINDS",
    "PARAM_LIMIT",
    "POLICY_KINDS",
    "REGISTRY",
    "SEATS",
    "PolicyInfo",
    "PolicyKind",
    "PolicySet",
    "parse_policy_spec",
    "seat_policy_array",
]
