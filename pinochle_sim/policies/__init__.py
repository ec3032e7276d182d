"""Policies: pluggable, parameterised decision makers, selected by name.

Each kind of decision (``bid``, ``pass``, ``play``, ``concede``, ``discard``, and two-hand ``meld``
and ``stock``) has a registry of named policies;
each policy is a small jitted function with documented integer parameters. A :class:`PolicySet`
picks one policy of each kind plus parameter overrides and flattens itself to the int64 array the
kernels read (layout in :mod:`pinochle_sim.policies.slots`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import calibrated, slots


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
        "calibrated": PolicyInfo(
            "bid",
            "calibrated",
            slots.BID_CALIBRATED,
            "bids up to the score it makes with probability `risk`, from a model of the bidding "
            "side's points fitted on simulated hands (experiments/calibrate_bidding.py)",
            calibrated.default_params(),
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
        "counting": PolicyInfo(
            "play",
            "counting",
            slots.PLAY_COUNTING,
            "greedy plus card counting: boss cards, voids shown by each seat, safe smears and "
            "wins, no trump drawn once the opponents are out of it",
            {
                "draw_trump": (1, "1: the bidding side draws trump while opponents may hold some"),
                "smear": (1, "1: give counters to a partner no later opponent can beat"),
            },
        ),
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
    "meld": {
        "greedy": PolicyInfo(
            "meld",
            "greedy",
            slots.MELD_GREEDY,
            "two-hand: lay the best meld after each stock trick won (a marriage before its run, "
            "a pinochle before the double while tricks remain); always show and exchange the dix",
            {
                "build_up": (1, "1: lay the smaller meld inside a bigger one first"),
                "build_up_min": (3, "stock tricks that must remain to build up"),
                "exchange": (1, "1: exchange the dix for a face-up trump above the 9"),
            },
        ),
        "random": PolicyInfo(
            "meld", "random", slots.MELD_RANDOM, "two-hand: a uniformly random layable meld or none"
        ),
    },
    "stock": {
        "standard": PolicyInfo(
            "stock",
            "standard",
            slots.STOCK_STANDARD,
            "two-hand stock phase: win tricks worth points or the right to meld, keep trumps "
            "and meld cards, throw the cheapest card otherwise",
            {
                "win_meld": (60, "meld points in hand that make winning the trick worthwhile"),
                "meld_weight": (50, "percent of that meld counted as the value of winning"),
                "trump_cost": (20, "keep value of a trump beyond its points"),
                "meld_cost": (30, "keep value of a card of a meld layable now"),
                "near_cost": (10, "keep value of a card of a meld one card short"),
            },
        ),
        "random": PolicyInfo(
            "stock", "random", slots.STOCK_RANDOM, "two-hand stock phase: a uniformly random card"
        ),
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
    "meld": "greedy",
    "stock": "standard",
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
    meld: str = "greedy"
    stock: str = "standard"

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
        meld: str | None = None,
        stock: str | None = None,
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
            meld or DEFAULTS["meld"],
            stock or DEFAULTS["stock"],
        )

    def name(self, kind: str) -> str:
        names = {
            "bid": self.bid,
            "pass": self.pass_,
            "play": self.play,
            "concede": self.concede,
            "discard": self.discard,
            "meld": self.meld,
            "stock": self.stock,
        }
        return names[kind]

    def resolved(self, kinds: tuple[str, ...] = KINDS) -> dict[str, dict[str, Any]]:
        """Every policy of ``kinds`` with every parameter value (defaults filled in)."""
        overrides = dict(self.params)
        out: dict[str, dict[str, Any]] = {}
        for kind in kinds:
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
        calibrated.fill_derived(a)
        a.flags.writeable = False
        return a


DEFAULT_POLICIES = PolicySet()

SEATS = 4
"""Rows of the engine's policy array: one per seat (games with fewer seats ignore the rest)."""


def seat_policy_array(per_seat: PolicySet | list[PolicySet] | tuple[PolicySet, ...]) -> np.ndarray:
    """The engine's policy array ``pp[seat, slot]`` (int64, :data:`SEATS` rows): one policy set
    for every seat, or one per seat (as in a ``compare`` tournament)."""
    sets = [per_seat] * SEATS if isinstance(per_seat, PolicySet) else list(per_seat)
    if not 1 <= len(sets) <= SEATS:
        raise ValueError(f"give 1 to {SEATS} policy sets, one per seat")
    sets += [sets[0]] * (SEATS - len(sets))
    a = np.stack([p.to_array() for p in sets])
    a.flags.writeable = False
    return a


def kinds_for(rules: Any) -> tuple[str, ...]:
    """The decisions a ruleset's games ask for (what provenance records)."""
    if rules.trump_by == "turn-up":
        return ("play", "meld", "stock")
    kinds = ["bid"]
    if rules.pass_cards:
        kinds.append("pass")
    kinds += ["play", "concede"] if rules.throw_in else ["play"]
    if rules.widow:
        kinds.append("discard")
    return tuple(kinds)


def parse_policy_spec(spec: str) -> tuple[str, PolicySet]:
    """A policy set from ``spec``: ``default``; inline ``KIND=NAME`` and ``KIND.PARAM=VALUE``
    items separated by commas (``play=counting,bid.margin=-20``); or a TOML file::

        name = "bold counter"      # optional label
        play = "counting"
        [params]
        bid.margin = 20            # or "bid.margin" = 20

    Returns (label, policies); the label is the file's ``name``, else the spec itself.
    """
    from pathlib import Path

    text = spec.strip()
    if text.endswith(".toml") or Path(text).is_file():
        import tomllib

        try:
            doc = tomllib.loads(Path(text).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"policy file {text!r} does not exist") from None
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise ValueError(f"cannot read policy file {text!r}: {e}") from None
        label = str(doc.pop("name", Path(text).stem))
        raw = doc.pop("params", {})
        params: dict[str, Any] = {}
        for key, value in raw.items():
            if isinstance(value, dict):
                params.update({f"{key}.{k}": v for k, v in value.items()})
            else:
                params[key] = value
        unknown = [k for k in doc if k not in KINDS]
        if unknown:
            raise ValueError(
                f"policy file {text!r}: unknown key {unknown[0]!r} (use {', '.join(KINDS)}, "
                "name and [params])"
            )
        names = {k: str(v) for k, v in doc.items()}
        return label, _from_names(names, params)
    if text in ("", "default"):
        return "default", DEFAULT_POLICIES
    names = {}
    params = {}
    for item in text.split(","):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise ValueError(
                f"bad policy item {item.strip()!r} in {spec!r}: write KIND=NAME or "
                "KIND.PARAM=VALUE, e.g. play=counting,bid.margin=-20"
            )
        if "." in key:
            params[key] = value
        elif key in KINDS:
            names[key] = value
        else:
            raise ValueError(f"unknown policy kind {key!r} in {spec!r}: use {', '.join(KINDS)}")
    return text, _from_names(names, params)


def _from_names(names: dict[str, str], params: dict[str, Any]) -> PolicySet:
    return PolicySet.from_options(
        names.get("bid"),
        names.get("pass"),
        names.get("play"),
        names.get("concede"),
        params,
        names.get("discard"),
        names.get("meld"),
        names.get("stock"),
    )
