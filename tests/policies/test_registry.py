"""The policy registry: every kind named once (``POLICY_KINDS``), slots that do not overlap, ids
unique, ``PolicySet`` built from the kinds table, and the play dispatch reading integer
parameters for any registered play policy."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from pinochle_sim.engines.two_hand import decisions as two_hand_decisions
from pinochle_sim.policies import (
    KIND,
    KINDS,
    PARAM_LIMIT,
    POLICY_KINDS,
    REGISTRY,
    PolicySet,
    parse_policy_spec,
    slots,
)
from pinochle_sim.policies.bundle import HOOKS, policy_hook
from pinochle_sim.policies.dispatch import PLAY_PARAMS
from pinochle_sim.policies.registry import FLAG
from tests.catalog import policies_of


def test_kinds_are_listed_once_and_match_the_registry() -> None:
    assert tuple(k.name for k in POLICY_KINDS) == KINDS
    assert set(KINDS) == set(REGISTRY) and set(KIND) == set(KINDS)
    for k in POLICY_KINDS:
        assert k.default == next(iter(REGISTRY[k.name])), "the default is listed first"


def test_slots_do_not_overlap_and_fit_the_array() -> None:
    ids = [k.id_slot for k in POLICY_KINDS]
    assert len(set(ids)) == len(ids)
    blocks = sorted((k.params_slot, k.params_slot + k.width) for k in POLICY_KINDS)
    assert all(hi <= lo2 for (_, hi), (lo2, _) in itertools.pairwise(blocks))
    assert max(ids) < blocks[0][0] and blocks[-1][1] <= slots.PP_SIZE
    for k in POLICY_KINDS:
        for info in REGISTRY[k.name].values():
            assert len(info.params) <= k.width, (k.name, info.name)


@pytest.mark.parametrize("kind", KINDS)
def test_policy_ids_are_unique_within_a_kind(kind: str) -> None:
    ids = [info.id for info in REGISTRY[kind].values()]
    assert len(set(ids)) == len(ids)
    assert all(info.kind == kind and info.doc for info in REGISTRY[kind].values())


def test_parameter_ranges_hold_their_defaults_and_stay_bounded() -> None:
    for kind in KINDS:
        for info in REGISTRY[kind].values():
            for pname, spec in info.params.items():
                assert -PARAM_LIMIT <= spec.lo <= spec.default <= spec.hi <= PARAM_LIMIT
                assert spec.unit and spec.doc, (kind, info.name, pname)
                if spec.unit == FLAG:
                    assert (spec.lo, spec.hi) == (0, 1)


@pytest.mark.parametrize(
    ("param", "message"),
    [
        ("bid.risk=500", r"bid.risk = 500 is out of range: calibrated risk takes 1\.\.99"),
        ("bid.risk=-50", r"bid.risk = -50 is out of range: calibrated risk takes 1\.\.99"),
        (
            "play.draw_trump=7",
            r"play.draw_trump = 7 is out of range: greedy draw_trump takes 0\.\.1",
        ),
        ("bid.margin=501", r"takes -500\.\.500 \(points"),
    ],
)
def test_out_of_range_parameters_are_refused_with_the_range(param: str, message: str) -> None:
    bid = "calibrated" if "risk" in param else None
    with pytest.raises(ValueError, match=message):
        PolicySet.from_options(params=[param], bid=bid)


def test_a_parameter_or_a_kind_given_twice_is_refused() -> None:
    """Not the last one silently kept: an earlier value would never even be checked."""
    with pytest.raises(ValueError, match=r"'bid\.margin' is given twice: give each once"):
        PolicySet.from_options(params=["bid.margin=10", "bid.margin=20"])
    with pytest.raises(ValueError, match=r"'play\.from_trick' is given twice in"):
        parse_policy_spec("play=pimc,play.from_trick=abc,play.from_trick=6")
    with pytest.raises(ValueError, match="'play' is given twice in 'play=pimc,play=counting'"):
        parse_policy_spec("play=pimc,play=counting")
    assert parse_policy_spec("play=pimc,play.from_trick=6")[1].params == (("play.from_trick", 6),)


def test_every_policy_has_a_kernel_for_every_hook_of_its_kind() -> None:
    """Every hook of every kind is declared once, with a kernel for every policy of its kind
    (the policy layer's hooks in policies.dispatch, the two-hand kinds' with that engine)."""
    assert two_hand_decisions.choose_meld.policy_kind == "meld"
    for k in POLICY_KINDS:
        for hook in k.hooks:
            stub = HOOKS[(k.name, hook)]
            assert set(stub.kernels) == set(REGISTRY[k.name]), (k.name, hook)
            assert all(callable(f) for f in stub.kernels.values())


def test_a_hook_without_a_kernel_for_a_registered_policy_is_refused() -> None:
    with pytest.raises(ValueError, match=r"missing \['play-on'\], not registered \['x'\]"):
        policy_hook("concede", "concede", {"concede": object(), "x": object()})
    with pytest.raises(ValueError, match="no hook"):
        policy_hook("play", "nonsense", {})


def test_play_parameters_fit_the_dispatch() -> None:
    assert all(len(i.params) <= PLAY_PARAMS for i in REGISTRY["play"].values())


@pytest.mark.parametrize("kind", KINDS)
def test_policy_array_holds_ids_and_integer_parameters(kind: str) -> None:
    k = KIND[kind]
    for name in policies_of(kind):
        info = REGISTRY[kind][name]
        # distinct in-range values (each parameter's range is checked, see below)
        want = [s.lo + (7 * i + 3) % (s.hi - s.lo + 1) for i, s in enumerate(info.params.values())]
        params = {f"{kind}.{p}": v for p, v in zip(info.params, want, strict=True)}
        a = PolicySet(**{kind: name}, params=tuple(sorted(params.items()))).to_array()
        assert a[k.id_slot] == info.id
        assert list(a[k.params_slot : k.params_slot + len(want)]) == want


def test_policy_set_from_the_kinds_table() -> None:
    p = PolicySet(play="counting", pass_="random")
    assert p.play == "counting" and p.pass_ == "random" and p.bid == "estimate"
    assert dict(p.choices) == {**{k.name: k.default for k in POLICY_KINDS},
                               "play": "counting", "pass": "random"}  # fmt: skip
    q = dataclasses.replace(p, params=(("bid.margin", 5),))
    assert q.play == "counting" and q.params == (("bid.margin", 5),)
    assert PolicySet() == PolicySet(**{k.name + ("_" if k.name == "pass" else ""): k.default
                                       for k in POLICY_KINDS})  # fmt: skip
    with pytest.raises(ValueError, match="unknown policy kind 'bidding'"):
        PolicySet(bidding="estimate")
    with pytest.raises(ValueError, match="unknown play policy 'psychic'"):
        PolicySet(play="psychic")
    with pytest.raises(AttributeError):
        _ = p.nonsense
    assert np.array_equal(p.to_array(), PolicySet.from_options(play="counting", pass_="random")
                          .to_array())  # fmt: skip
