"""The engine registry: exactly one engine plays each preset, each descriptor is complete, and
its record layout, column docs and policy kinds agree with the rest of the package."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pinochle_sim.engines import ENGINE_VERSION, ENGINES, engine_for
from pinochle_sim.engines.base import Engine
from pinochle_sim.policies import KINDS, PolicySet
from pinochle_sim.rules import PRESETS, get_preset
from pinochle_sim.runs.store.schema import fields_for, layout_of
from tests.catalog import ALL_PRESETS


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_exactly_one_engine_plays_each_preset(preset: str) -> None:
    rules = PRESETS[preset]
    assert [e.name for e in ENGINES if e.plays(rules)] == [engine_for(rules).name]


def test_engine_names_are_unique_and_versions_bounded() -> None:
    names = [e.name for e in ENGINES]
    assert len(set(names)) == len(names)
    assert ENGINE_VERSION == max(e.version for e in ENGINES) >= 1


def test_no_engine_for_rules_it_cannot_play() -> None:
    rules = dataclasses.replace(get_preset("partnership"), trump_by="auction")
    assert engine_for(rules).name == "auction"
    fake = dataclasses.replace(get_preset("partnership"))
    object.__setattr__(fake, "trump_by", "dealer-names")
    with pytest.raises(ValueError, match="no engine plays"):
        engine_for(fake)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_descriptor_is_complete(engine: Engine) -> None:
    for field in dataclasses.fields(Engine):
        value = getattr(engine, field.name)
        assert value is not None and value != "", field.name
    assert engine.trace_size > 0 and engine.doc.strip()
    assert engine.name in {engine_for(PRESETS[p]).name for p in ALL_PRESETS}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_layout_policy_kinds_and_docs_agree(preset: str) -> None:
    rules = PRESETS[preset]
    engine = engine_for(rules)
    lay = engine.layout(rules)
    assert lay == layout_of(rules) or lay.names == layout_of(rules).names
    assert len(set(lay.names)) == lay.ncol and lay.offsets.dtype == np.int64
    kinds = engine.policy_kinds(rules)
    assert kinds and set(kinds) <= set(KINDS) and "play" in kinds
    inputs = engine.inputs(rules, PolicySet())
    assert inputs.policy_kinds == kinds and inputs.layout.names == lay.names
    fields = fields_for(rules)
    assert [name for name, _, _ in fields] == list(lay.names)
    undocumented = [name for name, _, doc in fields if not doc.strip()]
    assert not undocumented, "every column has a documented meaning"


def test_engines_ask_for_different_kinds() -> None:
    """The auction engine asks for bidding decisions, the two-hand engine for stock play."""
    auction = engine_for(get_preset("partnership")).policy_kinds(get_preset("partnership"))
    two = engine_for(get_preset("two-hand")).policy_kinds(get_preset("two-hand"))
    assert "bid" in auction and "stock" not in auction
    assert "stock" in two and "meld" in two and "bid" not in two
