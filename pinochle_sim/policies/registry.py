"""The policy registry: every policy of every kind, its parameters, and ``PolicySet``.

Each kind of decision (``bid``, ``pass``, ``play``, ``concede``, ``discard``, and two-hand ``meld``
and ``stock``) has a registry of named policies;
each policy is a small jitted function with documented integer parameters. A :class:`PolicySet`
picks one policy of each kind plus parameter overrides and flattens itself to the int64 array the
kernels read (layout in :mod:`pinochle_sim.policies.slots`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pinochle_sim.policies import (
    calibrated,
    learned,
    learned_bid,
    pimc,
    slots,
)


@dataclass(frozen=True)
class Param:
    """One integer parameter of a policy: its default, the range it accepts, its unit."""

    default: int
    lo: int
    hi: int
    unit: str
    doc: str

    def __post_init__(self) -> None:
        assert self.lo <= self.default <= self.hi, self

    @property
    def range_text(self) -> str:
        return f"{self.lo:,}..{self.hi:,}"


def _params(**specs: tuple[int, int, int, str, str]) -> dict[str, Param]:
    """``name=(default, lo, hi, unit, meaning)`` -> ``{name: Param}``."""
    return {name: Param(*spec) for name, spec in specs.items()}


FLAG = "0/1"
"""Unit of on/off parameters."""


@dataclass(frozen=True)
class PolicyInfo:
    """A registered policy: its kind, name, kernel id (stable: the id travels in the policy
    array, the name in provenance), a line of help, its parameters in the order the kernels read
    them, and flags (``reads_caps``: it reads what seats have shown, so the trick loop keeps
    track; ``reads_table``: it reads what the table knows beyond that, :mod:`.known`;
    ``auction_only``: engines without an auction refuse it; ``partnerships_only``: rules
    without partners refuse it; ``sees_all``: it needs every card seen, so only engines whose
    card play is open take it)."""

    kind: str
    name: str
    id: int
    doc: str
    params: dict[str, Param] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()


_PLAY_FLAGS = {
    "draw_trump": (1, 0, 1, FLAG, "1: the bidding side draws trump when it holds most of them"),
    "smear": (1, 0, 1, FLAG, "1: give counters to a partner who is sure to win the trick"),
}
_ESTIMATE = {
    "margin": (0, -500, 500, "points", "added to the hand's value before bidding (risk appetite)"),
    "partner": (20, 0, 500, "points", "expected meld from the partner"),
    "pass_gain": (60, 0, 500, "points", "expected meld gained through the pass"),
    "trick_base": (150, 0, 500, "points", "trick points expected with 4 trumps and no aces"),
    "per_trump": (15, -100, 100, "points", "trick points per trump card beyond four"),
    "per_ace": (9, -100, 100, "points", "trick points per ace held"),
    "jump": (
        60,
        0,
        10_000,
        "points",
        "raise by the largest step when the value exceeds it by this",
    ),
    "widow_gain": (40, 0, 500, "points", "expected meld gained from the widow (widow games)"),
    "solo_trick_base": (
        70,
        0,
        500,
        "points",
        "trick_base for a bidder without a partner, discards included (three-hand)",
    ),
}

PIMC_DEFAULT_WORLDS = 16
PIMC_DEFAULT_FROM_TRICK = pimc.BY_THE_RULES
"""``pimc`` defaults, chosen by cost and strength (results/strategy/pimc/README.md): 16 worlds,
from the earliest trick at which 1,000 duplicate deals take at most 10 minutes on two cores
(:func:`~pinochle_sim.policies.pimc.first_sampled_trick`: trick 4 where every trick must be
headed with four players, else 5)."""

REGISTRY: dict[str, dict[str, PolicyInfo]] = {
    "bid": {
        "estimate": PolicyInfo(
            "bid",
            "estimate",
            slots.BID_ESTIMATE,
            "values each trump from own meld, trump length, aces, partner and pass allowances",
            _params(**_ESTIMATE),
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
            _params(**calibrated.default_params()),
        ),
        "learned": PolicyInfo(
            "bid",
            "learned",
            slots.BID_LEARNED,
            "bids while taking the contract is worth more than leaving it to the opponents "
            "(less `margin`), from models of both sides' points fitted on forced contracts "
            "played out (experiments/learned_bid_train.py), the model of the seat's own play "
            "(pimc's outcomes for search); four-hand partnership presets",
            _params(
                model=(
                    0,
                    0,
                    max(1, learned_bid.N_MODELS),
                    "version",
                    "0: the model fitted to the seat's play policy; 1..: that shipped model "
                    "(policies/data/learned_bid.json)",
                ),
                margin=(
                    learned_bid.DEFAULT_MARGIN,
                    -1000,
                    1000,
                    "partnership points",
                    "added to what taking the contract is worth before it is set against leaving "
                    "it (negative: more cautious)",
                ),
                jump=(
                    60,
                    0,
                    10_000,
                    "points",
                    "raise by the largest step when the limit exceeds it by this",
                ),
            ),
            frozenset({"auction_only", "partnerships_only"}),
        ),
    },
    "pass": {
        "standard": PolicyInfo(
            "pass",
            "standard",
            slots.PASS_STANDARD,
            "partner gives trumps, aces, tens, kings; bidder returns cards that add no meld",
            _params(
                keep_trump=(
                    1,
                    0,
                    1,
                    FLAG,
                    "1: the bidder gives back trump only when nothing else is left",
                ),
            ),
        ),
        "random": PolicyInfo(
            "pass",
            "random",
            slots.PASS_RANDOM,
            "uniform random cards",
        ),
    },
    "play": {
        "greedy": PolicyInfo(
            "play",
            "greedy",
            slots.PLAY_GREEDY,
            "sensible human-like play with memory of played cards",
            _params(**_PLAY_FLAGS),
        ),
        "random": PolicyInfo(
            "play",
            "random",
            slots.PLAY_RANDOM,
            "uniform among legal cards",
        ),
        "counting": PolicyInfo(
            "play",
            "counting",
            slots.PLAY_COUNTING,
            "greedy plus card counting: boss cards, voids shown by each seat, safe smears and "
            "wins, no trump drawn once the opponents are out of it",
            _params(
                draw_trump=(
                    1,
                    0,
                    1,
                    FLAG,
                    "1: the bidding side draws trump while opponents may hold some",
                ),
                smear=(1, 0, 1, FLAG, "1: give counters to a partner no later opponent can beat"),
            ),
            frozenset({"reads_caps"}),
        ),
        "pimc": PolicyInfo(
            "play",
            "pimc",
            slots.PLAY_PIMC,
            "sampled worlds: from trick `from_trick` on, deals the unseen cards `worlds` times "
            "consistently with what the seat knows (meld shown, its pass, voids, the widow), "
            "solves each double dummy and plays the best card on average; counting before "
            "(four-hand and three-hand)",
            _params(
                worlds=(
                    PIMC_DEFAULT_WORLDS,
                    1,
                    pimc.MAX_WORLDS,
                    "deals",
                    "worlds sampled and solved per decision",
                ),
                from_trick=(
                    PIMC_DEFAULT_FROM_TRICK,
                    0,
                    pimc.MAX_FROM_TRICK,
                    "trick",
                    "first trick (1 = the first) played by sampling, counting before it; 0: "
                    "by the rules, the earliest within 10 minutes for 1,000 duplicate deals on "
                    "two cores (trick 4 in partnership and partnership-classic, 5 in joedog and "
                    "three-hand)",
                ),
            ),
            frozenset({"reads_caps", "reads_table", "auction_only"}),
        ),
        "learned": PolicyInfo(
            "play",
            "learned",
            slots.PLAY_LEARNED,
            "search distilled into a model of each card's features (linear, or with products "
            "of feature pairs; experiments/learned_train.py; fitted to pimc's values or to "
            "hands played out), at bot speed: from trick `from_trick` on, it plays "
            "the card the model values most where that is `margin` above counting's card; "
            "counting otherwise, and for the leads `leads` leaves to counting (four-hand and "
            "three-hand)",
            _params(
                model=(
                    max(1, learned.DEFAULT_MODEL),
                    1,
                    max(1, learned.N_MODELS),
                    "version",
                    "the shipped model to play (policies/data/learned_play.json)",
                ),
                from_trick=(
                    learned.MODEL_FROM_TRICK,
                    0,
                    learned.MAX_FROM_TRICK,
                    "trick",
                    "first trick (1 = the first) played by the model, counting before it; 0: "
                    "the model's own (policies/data/learned_play.json)",
                ),
                margin=(
                    learned.MODEL_MARGIN,
                    -1,
                    1000,
                    "points",
                    "the model's card only where it expects at least this much more than "
                    "counting's card (model score units: partnership trick points for follows, "
                    "15 points of score for leads fitted to played-out hands); -1: the "
                    "model's own (policies/data/learned_play.json)",
                ),
                leads=(
                    learned.MODEL_LEADS,
                    -1,
                    2,
                    "who",
                    "leads by the model: 1 every seat's, 2 the bidding side's (counting leads "
                    "for the defenders), 0 none (counting leads); -1: the model's own "
                    "(policies/data/learned_play.json)",
                ),
            ),
            frozenset({"reads_caps", "auction_only"}),
        ),
        "solver": PolicyInfo(
            "play",
            "solver",
            slots.PLAY_SOLVER,
            "two-hand play-out only: perfect play, every card being known once the stock is "
            "gone (the double-dummy solver's best card; ties: fewest points, lowest rank)",
            flags=frozenset({"sees_all"}),
        ),
    },
    "concede": {
        "concede": PolicyInfo(
            "concede",
            "concede",
            slots.CONCEDE_CONCEDE,
            "throw in whenever the bid is out of reach",
        ),
        "play-on": PolicyInfo(
            "concede",
            "play-on",
            slots.CONCEDE_PLAY_ON,
            "always play the hand out",
        ),
    },
    "discard": {
        "standard": PolicyInfo(
            "discard",
            "standard",
            slots.DISCARD_STANDARD,
            "after taking the widow, discard the cards that cost least meld, keeping trump, "
            "voiding short suits, high cards first (discarded counters score for the bidder)",
            _params(keep_trump=(1, 0, 1, FLAG, "1: discard trump only when nothing else is left")),
        ),
        "random": PolicyInfo(
            "discard",
            "random",
            slots.DISCARD_RANDOM,
            "uniform random cards",
        ),
    },
    # The two-hand kinds' kernels read that engine's table state, so they live with the engine
    # (pinochle_sim.engines.two_hand.decisions declares its hooks with them).
    "meld": {
        "greedy": PolicyInfo(
            "meld",
            "greedy",
            slots.MELD_GREEDY,
            "two-hand: lay the best meld after each stock trick won (a marriage before its run, "
            "a pinochle before the double while tricks remain); always show and exchange the dix",
            _params(
                build_up=(1, 0, 1, FLAG, "1: lay the smaller meld inside a bigger one first"),
                build_up_min=(3, 0, 12, "tricks", "stock tricks that must remain to build up"),
                exchange=(1, 0, 1, FLAG, "1: exchange the dix for a face-up trump above the 9"),
            ),
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
            _params(
                win_meld=(
                    60,
                    0,
                    1500,
                    "points",
                    "meld in hand that makes winning the trick worthwhile",
                ),
                meld_weight=(50, 0, 200, "percent", "of that meld counted as the value of winning"),
                trump_cost=(20, 0, 500, "points", "keep value of a trump beyond its points"),
                meld_cost=(30, 0, 500, "points", "keep value of a card of a meld layable now"),
                near_cost=(10, 0, 500, "points", "keep value of a card of a meld one card short"),
            ),
        ),
        "random": PolicyInfo(
            "stock", "random", slots.STOCK_RANDOM, "two-hand stock phase: a uniformly random card"
        ),
    },
}


@dataclass(frozen=True)
class PolicyKind:
    """One kind of decision: where its policy id and parameters sit in the policy array
    (:mod:`pinochle_sim.policies.slots`), its default policy, a line of help, and its hooks
    (the decision points a policy of this kind implements, one kernel each)."""

    name: str
    id_slot: int
    params_slot: int
    width: int
    default: str
    help: str
    hooks: tuple[str, ...]


POLICY_KINDS: tuple[PolicyKind, ...] = (
    PolicyKind(
        "bid", slots.PP_BID, slots.PP_BID_PARAMS, 16, "estimate", "Bidding policy.",
        ("limit", "jump"),
    ),
    PolicyKind(
        "pass", slots.PP_PASS, slots.PP_PASS_PARAMS, 8, "standard", "Passing policy.",
        ("give", "give_back"),
    ),
    PolicyKind(
        "play", slots.PP_PLAY, slots.PP_PLAY_PARAMS, 8, "greedy", "Card-play policy.", ("play",)
    ),
    PolicyKind(
        "concede", slots.PP_CONCEDE, slots.PP_CONCEDE_PARAMS, 8, "concede",
        "Throw in hopeless bids or not.", ("concede",),
    ),
    PolicyKind(
        "discard", slots.PP_DISCARD, slots.PP_DISCARD_PARAMS, 8, "standard",
        "Discards after taking the widow (three-hand).", ("discard",),
    ),
    PolicyKind(
        "meld", slots.PP_MELD, slots.PP_MELD_PARAMS, 8, "greedy",
        "Which meld to lay down after winning a stock trick (two-hand).", ("choose", "dix"),
    ),
    PolicyKind(
        "stock", slots.PP_STOCK, slots.PP_STOCK_PARAMS, 8, "standard",
        "Card play while the stock lasts (two-hand).", ("play",),
    ),
)  # fmt: skip
"""Every kind of decision, in the order provenance lists them: the one place kinds are named."""
KIND = {k.name: k for k in POLICY_KINDS}
KINDS = tuple(KIND)
assert set(KINDS) == set(REGISTRY), "every policy kind needs registry entries"
PARAM_LIMIT = 1_000_000
"""No parameter range reaches beyond this, which keeps every kernel sum far from int64
overflow (a registry test checks it)."""
DEFAULTS = {k.name: k.default for k in POLICY_KINDS}


def _lookup(kind: str, name: str) -> PolicyInfo:
    if name not in REGISTRY[kind]:
        raise ValueError(f"unknown {kind} policy {name!r}: choose {', '.join(REGISTRY[kind])}")
    return REGISTRY[kind][name]


def _kind_key(key: str) -> str:
    """``pass_`` (a Python keyword with a trailing underscore) names the ``pass`` kind."""
    return key[:-1] if key.endswith("_") else key


@dataclass(frozen=True, init=False)
class PolicySet:
    """One policy per kind plus parameter overrides ``{"bid.margin": 20, ...}``.

    ``PolicySet(play="counting", params=(("bid.margin", 20),))``; kinds not named take their
    default. Each kind's choice reads as an attribute (``p.play``, ``p.pass_``).
    """

    choices: tuple[tuple[str, str], ...]
    """(kind, policy name) for every kind, in :data:`KINDS` order."""
    params: tuple[tuple[str, int], ...]

    def __init__(
        self,
        params: tuple[tuple[str, int], ...] = (),
        choices: tuple[tuple[str, str], ...] = (),
        **names: str | None,
    ) -> None:
        # ``choices`` (the stored form) lets ``dataclasses.replace`` rebuild a set; names win.
        chosen = {_kind_key(k): v for k, v in (*choices, *names.items())}
        unknown = sorted(set(chosen) - set(KINDS))
        if unknown:
            raise ValueError(f"unknown policy kind {unknown[0]!r}: use {', '.join(KINDS)}")
        choices = tuple((kind, chosen.get(kind) or DEFAULTS[kind]) for kind in KINDS)
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "params", tuple(params))
        self._validate()

    def __getattr__(self, attr: str) -> str:
        kind = _kind_key(attr)
        if kind in KIND:
            return self.name(kind)
        raise AttributeError(attr)

    def _validate(self) -> None:
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
            spec = info.params[pname]
            if not spec.lo <= value <= spec.hi:
                raise ValueError(
                    f"parameter {key} = {value} is out of range: {info.name} {pname} takes "
                    f"{spec.range_text} ({spec.unit}; {spec.doc})"
                )

    @classmethod
    def from_options(
        cls, params: dict[str, Any] | list[str] | None = None, **names: str | None
    ) -> PolicySet:
        """Build from policy names by kind (``play="counting"``; ``pass_`` for passing) and
        ``KIND.NAME=VALUE`` strings or a dict of parameters (validated)."""
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
            if key in items:
                raise ValueError(f"parameter {key!r} is given twice: give each once")
            try:
                items[key] = int(value)
            except (TypeError, ValueError):
                raise ValueError(f"parameter {key!r} must be an integer, got {value!r}") from None
        return cls(tuple(sorted(items.items())), **names)

    def name(self, kind: str) -> str:
        """The policy chosen for ``kind``."""
        return dict(self.choices)[kind]

    def resolved(self, kinds: tuple[str, ...] = KINDS) -> dict[str, dict[str, Any]]:
        """Every policy of ``kinds`` with every parameter value (defaults filled in)."""
        overrides = dict(self.params)
        out: dict[str, dict[str, Any]] = {}
        for kind in kinds:
            info = _lookup(kind, self.name(kind))
            values = {p: overrides.get(f"{kind}.{p}", d.default) for p, d in info.params.items()}
            out[kind] = {"name": info.name, "params": values}
        return out

    def to_array(self) -> np.ndarray:
        """The int64 policy array the kernels read."""
        a = np.zeros(slots.PP_SIZE, dtype=np.int64)
        for kind, spec in self.resolved().items():
            k = KIND[kind]
            a[k.id_slot] = REGISTRY[kind][spec["name"]].id
            values = list(spec["params"].values())
            assert len(values) <= k.width
            a[k.params_slot : k.params_slot + len(values)] = values
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


def parse_policy_spec(spec: str) -> tuple[str, PolicySet]:
    """A policy set from ``spec``: ``default``; inline ``KIND=NAME`` and ``KIND.PARAM=VALUE``
    items separated by commas (``play=counting,bid.margin=-20``); or a TOML file::

        name = "bold counter"      # optional label
        play = "counting"
        [params]
        bid.margin = 20            # or "bid.margin" = 20

    Returns (label, policies); the label is the file's ``name``, else the spec itself.
    """
    label, names, params = spec_items(spec)
    return label, PolicySet.from_options(params, **names)


def spec_items(spec: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    """What a policy spec (:func:`parse_policy_spec`) names, nothing filled in: its label, the
    policy of each kind it names and the parameters it sets."""
    text = spec.strip()
    if text.endswith(".toml") or Path(text).is_file():
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
        return label, {k: str(v) for k, v in doc.items()}, params
    if text in ("", "default"):
        return "default", {}, {}
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
        if key in params or key in names:
            raise ValueError(f"{key!r} is given twice in {spec!r}: give each once")
        if "." in key:
            params[key] = value
        elif key in KINDS:
            names[key] = value
        else:
            raise ValueError(f"unknown policy kind {key!r} in {spec!r}: use {', '.join(KINDS)}")
    return text, names, params


def policies_markdown() -> str:
    """Every policy of every kind with its parameters, as Markdown (``docs/policies.md``)."""
    lines = [
        "# Policies",
        "",
        "Generated from the policy registry (`pinochle_sim/policies/registry.py`) by "
        "`pinochle-sim policies --markdown`; `tests/test_docs.py` keeps this file in step with "
        "it. A policy set picks one policy of each kind (`--bid-policy`, `--play-policy`, ... on "
        "the command line; `PolicySet(play=...)` in Python) and overrides parameters as "
        "`KIND.NAME=VALUE` (`--param bid.margin=20`). Every parameter is an integer within the "
        "range shown; a value outside it, or a parameter of a kind the rules never use, is an "
        "error.",
    ]
    for k in POLICY_KINDS:
        lines += ["", f"## {k.name}", "", f"{k.help} Default: `{k.default}`."]
        for info in REGISTRY[k.name].values():
            lines += ["", f"### {k.name}={info.name}", "", info.doc[0].upper() + info.doc[1:] + "."]
            if info.params:
                lines += [
                    "",
                    "| parameter | default | range | unit | meaning |",
                    "|---|---|---|---|---|",
                ]
                for pname, spec in info.params.items():
                    lines.append(
                        f"| `{k.name}.{pname}` | {spec.default} | {spec.range_text} | "
                        f"{spec.unit} | {spec.doc} |"
                    )
    return "\n".join(lines) + "\n"


def policies_text(kinds: tuple[str, ...] = KINDS) -> str:
    """Every policy of ``kinds`` with what it does and each parameter's default, range, unit
    and meaning, for people (``pinochle-sim policies``)."""
    lines: list[str] = []
    for kind in kinds:
        k = KIND[kind]
        if lines:
            lines.append("")
        lines.append(f"{kind}: {k.help} (default {k.default})")
        for info in REGISTRY[kind].values():
            lines.append(f"  {info.name}: {info.doc}")
            for pname, spec in info.params.items():
                lines.append(
                    f"      {kind}.{pname} = {spec.default}  [{spec.range_text} {spec.unit}]  "
                    f"{spec.doc}"
                )
    return "\n".join(lines)
