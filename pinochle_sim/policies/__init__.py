"""Policies: pluggable, parameterised decision makers, selected by name.

Each kind of decision (``bid``, ``pass``, ``play``, ``concede``) has a registry of named policies;
each policy is a small jitted function with documented integer parameters. A :class:`PolicySet`
picks one policy of each kind plus parameter overrides and flattens itself to the int64 array the
kernels read (layout in :mod:`pinochle_sim.policies.slots`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import slots


@dataclass(frozen=True)
class PolicyInfo:
    """A registered policy: its kind, name, kernel id, parameters ``{name: (default, doc)}``."""

    kind: str
    name: str
    id: int
    doc: str
    params: dict[str, tuple[int, str]] = field(default_factory=dict)


REGISTRY: dict[str, dict[str, PolicyInfo]] = {
    "bid": {
        "estimate": PolicyInfo(
            "bid",
            "estimate",
            slots.BID_ESTIMATE,
            "values each trump from own meld, trump length, aces, partner and pass allowances",
            {
                "margin": (0, "points added to the hand's value before bidding (risk appetite)"),
                "partner": (20, "expected meld from the partner, partnership points"),
                "pass_gain": (60, "expected meld gained through the pass, partnership points"),
                "trick_base": (150, "trick points expected with 4 trumps and no aces"),
                "per_trump": (15, "trick points per trump card beyond four"),
                "per_ace": (9, "trick points per ace held"),
                "jump": (60, "raise by the largest step when the value exceeds it by this"),
                "widow_gain": (40, "expected meld gained from the widow (widow games)"),
                "solo_trick_base": (
                    70,
                    "trick_base for a bidder without a partner, discards included (three-hand)",
                ),
            },
        ),
        "pass": PolicyInfo(
            "bid",
            "pass",
            slots.BID_PASS,
            "never bids; the dealer is always stuck (meld-only studies)",
        ),
    },
    "pass": {
        "standard": PolicyInfo(
            "pass",
            "standard",
            slots.PASS_STANDARD,
            "partner gives trumps, aces, tens, kings; bidder returns cards that add no meld",
            {
                "keep_trump": (1, "1: the bidder gives back trump only when nothing else is left"),
            },
        ),
        "random": PolicyInfo("pass", "random", slots.PASS_RANDOM, "uniform random cards"),
    },
    "play": {
        "greedy": PolicyInfo(
            "play",
            "greedy",
            slots.PLAY_GREEDY,
            "sensible human-like play with memory of played cards",
            {
                "draw_trump": (1, "1: the bidding side draws trump when it holds most of them"),
                "smear": (1, "1: give counters to a partner who is sure to win the trick"),
            },
        ),
        "random": PolicyInfo("play", "random", slots.PLAY_RANDOM, "uniform among legal cards"),
    },
    "concede": {
        "concede": PolicyInfo(
            "concede", "concede", slots.CONCEDE_CONCEDE, "throw in whenever the bid is out of reach"
        ),
        "play-on": PolicyInfo(
            "concede", "play-on", slots.CONCEDE_PLAY_ON, "always play the hand out"
        ),
    },
    "discard": {
        "standard": PolicyInfo(
            "discard",
            "standard",
            slots.DISCARD_STANDARD,
            "after taking the widow, discard the cards that cost least meld, keeping trump, "
            "voiding short suits, high cards first (discarded counters score for the bidder)",
            {"keep_trump": (1, "1: discard trump only when nothing else is left")},
        ),
        "random": PolicyInfo("discard", "random", slots.DISCARD_RANDOM, "uniform random cards"),
    },
}
KINDS = tuple(REGISTRY)
PARAM_LIMIT = 1_000_000
"""Policy parameters are points or flags; bounding them keeps every kernel sum far from int64
overflow."""
DEFAULTS = {
    "bid": "estimate",
    "pass": "standard",
    "play": "greedy",
    "concede": "concede",
    "discard": "standard",
}


def _lookup(kind: str, name: str) -> PolicyInfo:
    if name not in REGISTRY[kind]:
        raise ValueError(f"unknown {kind} policy {name!r}: choose {', '.join(REGISTRY[kind])}")
    return REGISTRY[kind][name]


@dataclass(frozen=True)
class PolicySet:
    """One policy per kind plus parameter overrides ``{"bid.margin": 20, ...}``."""

    bid: str = "estimate"
    pass_: str = "standard"
    play: str = "greedy"
    concede: str = "concede"
    params: tuple[tuple[str, int], ...] = ()
    discard: str = "standard"

    def __post_init__(self) -> None:
        for kind in KINDS:
            _lookup(kind, self.name(kind))
        for key, value in self.params:
            kind, _, pname = key.partition(".")
            if kind not in REGISTRY:
                raise ValueError(
                    f"bad parameter {key!r}: write KIND.NAME with KIND one of {', '.join(KINDS)}"
                )
            info = _lookup(kind, self.name(kind))
            if pname not in info.params:
                known = ", ".join(info.params) or "none"
                raise ValueError(
                    f"unknown parameter {key!r} of {kind} policy {info.name!r} "
                    f"(its parameters: {known})"
                )
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"parameter {key!r} must be an integer, got {value!r}")
            if abs(value) > PARAM_LIMIT:
                raise ValueError(
                    f"parameter {key!r} = {value} is out of range "
                    f"(-{PARAM_LIMIT:,} .. {PARAM_LIMIT:,})"
                )

    @classmethod
    def from_options(
        cls,
        bid: str | None = None,
        pass_: str | None = None,
        play: str | None = None,
        concede: str | None = None,
        params: dict[str, Any] | list[str] | None = None,
        discard: str | None = None,
    ) -> PolicySet:
        """Build from names and ``KIND.NAME=VALUE`` strings or a dict (validated)."""
        items: dict[str, int] = {}
        if isinstance(params, dict):
            pairs = list(params.items())
        else:
            pairs = []
            for text in params or []:
                key, eq, value = text.partition("=")
                if not eq:
                    raise ValueError(
                        f"bad parameter {text!r}: write KIND.NAME=VALUE, e.g. bid.margin=20"
                    )
                pairs.append((key.strip(), value.strip()))
        for key, value in pairs:
            try:
                items[key] = int(value)
            except (TypeError, ValueError):
                raise ValueError(f"parameter {key!r} must be an integer, got {value!r}") from None
        return cls(
            bid or DEFAULTS["bid"],
            pass_ or DEFAULTS["pass"],
            play or DEFAULTS["play"],
            concede or DEFAULTS["concede"],
            tuple(sorted(items.items())),
            discard or DEFAULTS["discard"],
        )

    def name(self, kind: str) -> str:
        names = {
            "bid": self.bid,
            "pass": self.pass_,
            "play": self.play,
            "concede": self.concede,
            "discard": self.discard,
        }
        return names[kind]

    def resolved(self) -> dict[str, dict[str, Any]]:
        """Every policy with every parameter value (defaults filled in), for provenance."""
        overrides = dict(self.params)
        out: dict[str, dict[str, Any]] = {}
        for kind in KINDS:
            info = _lookup(kind, self.name(kind))
            values = {p: overrides.get(f"{kind}.{p}", d) for p, (d, _) in info.params.items()}
            out[kind] = {"name": info.name, "params": values}
        return out

    def to_array(self) -> np.ndarray:
        """The int64 policy array the kernels read."""
        a = np.zeros(slots.PP_SIZE, dtype=np.int64)
        for kind, spec in self.resolved().items():
            a[slots.ID_SLOTS[kind]] = REGISTRY[kind][spec["name"]].id
            base, width = slots.PARAM_SLOTS[kind]
            for i, value in enumerate(spec["params"].values()):
                assert i < width
                a[base + i] = value
        a.flags.writeable = False
        return a


DEFAULT_POLICIES = PolicySet()
