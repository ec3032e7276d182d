"""Who plays which policies: one set at every seat, named seats with sets of their own, or one
set for the side that wins the auction and another for its defenders.

The engine's policy array ``pp[row, slot]`` has :data:`~.registry.SEATS` rows, one per seat, for
a run with one policy set or with sets by seat. With sets by role it has ``SEATS`` more rows for
each seat that can win the bid: the auction reads the seat rows (no one knows the roles before
it ends), and from the pass on the kernel reads block ``1 + bidder`` (rows
``SEATS * (1 + bidder) ..``), where the bidder's side holds the bidding side's set and every
other seat the defenders'. A run with one set everywhere has the plain array, so its records do
not change.

>>> from pinochle_sim.policies import PolicySet
>>> s = Seating(bidding_side=PolicySet(play="counting"))
>>> s.describe()
'bidding side: play=counting'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pinochle_sim.policies.registry import (
    KINDS,
    REGISTRY,
    SEATS,
    PolicySet,
    seat_policy_array,
    spec_items,
)

BEFORE_ROLES = ("bid",)
"""Policy kinds that act before the auction ends: a role's set must keep the run's."""


@dataclass(frozen=True)
class Seating:
    """Policy sets by seat (``seats``: ``(seat, set)`` pairs; the other seats play the run's
    set) or by role (``bidding_side``, ``defenders``: None plays the run's set). Roles and seats
    do not mix."""

    seats: tuple[tuple[int, PolicySet], ...] = ()
    bidding_side: PolicySet | None = None
    defenders: PolicySet | None = None

    def __post_init__(self) -> None:
        seats = self.seats
        if isinstance(seats, dict):
            seats = tuple(sorted(seats.items()))
        object.__setattr__(self, "seats", tuple((int(s), p) for s, p in seats))
        named = [s for s, _ in self.seats]
        if len(set(named)) != len(named):
            raise ValueError("a seat is named twice: give each seat's policies once")
        for s, p in self.seats:
            if not isinstance(p, PolicySet):
                raise ValueError(f"seat {s}'s policies must be a PolicySet, got {p!r}")
        if self.seats and self.by_role:
            raise ValueError("give policies by seat or by role (bidding side, defenders), not both")

    @classmethod
    def parse(
        cls,
        base: PolicySet,
        seats: list[str] | tuple[str, ...] = (),
        bidding_side: str | None = None,
        defenders: str | None = None,
    ) -> Seating:
        """The seating the command line's ``--seat SEAT=ITEMS`` (repeatable),
        ``--bidding-side ITEMS`` and ``--defenders ITEMS`` describe: each seat's or role's
        items (``play=pimc,play.worlds=40``, or a policy TOML file) put over ``base``."""
        named = []
        for text in seats:
            seat, eq, items = text.partition("=")
            if not eq or not seat.strip().isdigit() or not items.strip():
                raise ValueError(
                    f"bad seat policies {text!r}: write SEAT=ITEMS, e.g. 1=play=counting"
                )
            named.append((int(seat), over(base, items)))
        return cls(
            tuple(named),
            over(base, bidding_side) if bidding_side is not None else None,
            over(base, defenders) if defenders is not None else None,
        )

    @property
    def by_role(self) -> bool:
        return self.bidding_side is not None or self.defenders is not None

    def __bool__(self) -> bool:
        return bool(self.seats) or self.by_role

    def check(self, rules: Any, base: PolicySet, has_auction: bool) -> None:
        """Refuse what the rules cannot play: a seat they lack, roles without an auction, a role
        whose bidding differs from the run's (the auction is over before roles exist)."""
        for seat, _ in self.seats:
            if not 0 <= seat < rules.players:
                raise ValueError(
                    f"rules {rules.name!r} have seats 0..{rules.players - 1}, not seat {seat}"
                )
        if not self.by_role:
            return
        if not has_auction:
            raise ValueError(
                f"rules {rules.name!r} have no auction, so no bidding side: give policies by "
                "seat (--seat) instead"
            )
        for whose, p in (("bidding side's", self.bidding_side), ("defenders'", self.defenders)):
            if p is None:
                continue
            for kind in BEFORE_ROLES:
                if p.resolved((kind,)) != base.resolved((kind,)):
                    raise ValueError(
                        f"the {whose} {kind} policy differs from the run's, but the {kind} "
                        "decisions are made before anyone knows who will win the bid: give it "
                        f"for every seat (--{kind}-policy, --param) or by seat (--seat)"
                    )

    def sets(self, base: PolicySet) -> list[PolicySet]:
        """Every distinct policy set the seating uses (the run's first)."""
        out = [base]
        for p in [p for _, p in self.seats] + [self.bidding_side, self.defenders]:
            if p is not None and p not in out:
                out.append(p)
        return out

    def array(self, base: PolicySet, players: int, partners: bool) -> np.ndarray:
        """The engine's policy array (see the module docstring)."""
        own = dict(self.seats)
        rows = [own.get(s, base) for s in range(SEATS)]
        if not self.by_role:
            return seat_policy_array(rows)
        bidding = self.bidding_side or base
        defending = self.defenders or base
        blocks = [seat_policy_array(rows)]
        for bidder in range(SEATS):
            side = [
                bidding if _side(p, partners, players) == _side(bidder, partners, players)
                else defending
                for p in range(SEATS)
            ]  # fmt: skip
            blocks.append(seat_policy_array(side))
        a = np.ascontiguousarray(np.concatenate(blocks))
        a.flags.writeable = False
        return a

    def resolved(self, kinds: tuple[str, ...]) -> dict[str, Any]:
        """What provenance and a manifest record: each named seat's or role's policies with
        every parameter."""
        out: dict[str, Any] = {}
        if self.seats:
            out["seats"] = {str(s): p.resolved(kinds) for s, p in self.seats}
        if self.bidding_side is not None:
            out["bidding side"] = self.bidding_side.resolved(kinds)
        if self.defenders is not None:
            out["defenders"] = self.defenders.resolved(kinds)
        return out

    def describe(self, base: PolicySet | None = None) -> str:
        """``bidding side: play=pimc; defenders: play=greedy``: each role's or seat's policies
        where they differ from ``base`` (the defaults when None)."""
        base = base or PolicySet()
        parts = [(f"seat {s}", p) for s, p in self.seats]
        parts += [(r, p) for r, p in (("bidding side", self.bidding_side),
                                      ("defenders", self.defenders)) if p is not None]  # fmt: skip
        return "; ".join(f"{who}: {difference(p, base) or 'the run policies'}" for who, p in parts)


def _side(seat: int, partners: bool, players: int) -> int:
    return seat % 2 if partners else seat


def difference(p: PolicySet, base: PolicySet) -> str:
    """The items that turn ``base`` into ``p`` (``play=pimc,play.worlds=40``)."""
    items = []
    pr, br = p.resolved(), base.resolved()
    for kind in KINDS:
        if pr[kind] == br[kind]:
            continue
        if pr[kind]["name"] != br[kind]["name"]:
            items.append(f"{kind}={pr[kind]['name']}")
        info = REGISTRY[kind][pr[kind]["name"]]
        for name, value in pr[kind]["params"].items():
            same_policy = pr[kind]["name"] == br[kind]["name"]
            was = br[kind]["params"].get(name) if same_policy else info.params[name].default
            if value != was:
                items.append(f"{kind}.{name}={value}")
    return ",".join(items)


def from_resolved(resolved: dict[str, dict[str, Any]]) -> PolicySet:
    """The policy set a manifest or provenance records (:meth:`PolicySet.resolved`)."""
    names = {k: v["name"] for k, v in resolved.items()}
    params = {f"{k}.{p}": x for k, v in resolved.items() for p, x in v["params"].items()}
    return PolicySet.from_options(params, **names)


def over(base: PolicySet, spec: str) -> PolicySet:
    """``base`` with the items of ``spec`` (``play=pimc,play.worlds=40``, or a TOML policy
    file) put over it: a kind named takes that policy with its own parameters' defaults and
    those given; kinds not named keep the base's policy and parameters. ``default`` is the
    package's default set."""
    if spec.strip() == "default":
        return PolicySet()
    _, names, params = spec_items(spec)
    choices = {k: base.name(k) for k in KINDS} | names
    kept = {k: v for k, v in base.params if k.partition(".")[0] not in names}
    return PolicySet.from_options(kept | params, **choices)


__all__ = ["BEFORE_ROLES", "Seating", "difference", "from_resolved", "over"]
