"""Records are a contract: for every preset, the same seed, rules and policies give the same
records as the stored reference (``tests/data/records_reference.json``).

The reference fingerprints every column of a batch of hands for each preset under its default
policies and under every other registered policy of each kind it uses, plus whole games and the
``show`` records of the first hands. It was first made by the version before the engines were
split into folders, so it pins that refactor to byte-identical records. When a deliberate change
bumps ``ENGINE_VERSION``, rewrite it with ``python -m tests.engines.test_records --write``.
"""

from __future__ import annotations

import json
import sys

import pytest

from pinochle_sim import PolicySet, engine_for, hand_record, play_hands
from pinochle_sim.engines import ENGINE_VERSION
from pinochle_sim.policies import REGISTRY
from pinochle_sim.rules import PRESETS
from pinochle_sim.runs.simulate.games import play_games_array
from pinochle_sim.runs.simulate.hands import engine_inputs
from tests.catalog import ALL_PRESETS, kinds_of
from tests.conftest import DATA
from tests.engines import fingerprint as fp

REFERENCE = DATA / "records_reference.json"
REFERENCE_ENGINE_VERSION = 3
"""The ``ENGINE_VERSION`` the stored reference was made with."""


SEARCH_HANDS = 12
"""Hands fingerprinted for a policy that searches during play (``reads_table``: ``pimc``, about
half a second a hand from its default first trick): a batch of the usual size would take
minutes. (Once 24: the 12-hand fingerprints were made by the build before the change and by
the build after it, and were the same.)"""


def _flags(kind: str, name: str) -> frozenset[str]:
    return REGISTRY[kind][name].flags


def _play_hands(preset: str, names: dict[str, str], seed: int, n: int) -> dict:
    """``names``: a policy name by kind (``pass_`` for passing), and parameters (``play.x``)."""
    params = {k: v for k, v in names.items() if "." in k}
    names = {k: v for k, v in names.items() if "." not in k}
    kinds = {k.rstrip("_"): v for k, v in names.items()}
    if any("reads_table" in _flags(k, v) for k, v in kinds.items()):
        n = min(n, SEARCH_HANDS)
    return play_hands(seed, 0, n, preset, PolicySet.from_options(params, **names))


def _play_games(preset: str, seed: int, n: int):
    return play_games_array(engine_inputs(preset), seed, 0, n)


def _hand_record(preset: str, seed: int, hand: int) -> dict:
    return hand_record(seed, hand, preset)


def _playable(preset: str, choice: dict[str, str]) -> bool:
    """Whether the preset's engine accepts the choice (``auction_only`` policies need an
    auction, ``partnerships_only`` ones partners: the engine refuses them elsewhere, tested in
    tests/policies/test_pimc.py and tests/policies/test_learned_bid.py)."""
    auction = engine_for(PRESETS[preset]).has_auction
    partners = PRESETS[preset].partnerships
    return all(
        (auction or "auction_only" not in _flags(k, v))
        and (partners or "partnerships_only" not in _flags(k, v))
        for k, v in choice.items()
    )


PINNED = [
    (preset, {"play": "pimc", "play.from_trick": "7"})
    for preset in ("partnership", "partnership-classic", "joedog", "three-hand")
] + [
    (preset, {"play": "pimc", "play.from_trick": "5"})
    for preset in ("partnership", "partnership-classic")
]
"""Settings whose records were once a default's: ``pimc`` from trick 7, its default until the
first sampled trick became the rules' own (5, 6 or 7); from trick 5 in partnership and
partnership-classic, their default until ``ENGINE_VERSION`` 3 moved it to trick 4. Their stored
fingerprints are the ones ``play=pimc`` had then, so they pin that each change moved the
default and nothing else."""

CASES = [c for c in fp.cases(list(ALL_PRESETS), kinds_of, REGISTRY) if _playable(*c)] + PINNED


def _stored() -> dict:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def test_reference_covers_every_preset_and_registered_policy() -> None:
    stored = _stored()
    assert set(stored["extras"]) == set(PRESETS)
    missing = [fp.case_key(p, c) for p, c in CASES if fp.case_key(p, c) not in stored["cases"]]
    assert not missing, f"no stored reference for {missing}: rerun with --write"


def test_engine_version_matches_the_reference() -> None:
    assert ENGINE_VERSION == REFERENCE_ENGINE_VERSION, "records changed: rewrite the reference"


@pytest.mark.parametrize(("preset", "choice"), CASES, ids=[fp.case_key(*c) for c in CASES])
def test_hand_records_match_the_reference(preset: str, choice: dict[str, str]) -> None:
    want = _stored()["cases"][fp.case_key(preset, choice)]
    got = fp.fingerprint_case(preset, choice, _play_hands)
    assert got.keys() == want.keys()
    changed = sorted(k for k in want if got[k] != want[k])
    assert not changed, f"{preset} {choice}: columns {changed} differ from the reference"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_games_and_show_records_match_the_reference(preset: str) -> None:
    want = _stored()["extras"][preset]
    assert fp.fingerprint_extras(preset, _play_games, _hand_record) == want
    assert engine_for(PRESETS[preset]).version <= ENGINE_VERSION


def write() -> None:
    """Rewrite the stored reference from this version."""
    out = {
        "cases": {fp.case_key(p, c): fp.fingerprint_case(p, c, _play_hands) for p, c in CASES},
        "extras": {p: fp.fingerprint_extras(p, _play_games, _hand_record) for p in ALL_PRESETS},
    }
    REFERENCE.write_text(json.dumps(out, indent=1, sort_keys=True), encoding="utf-8")
    print(f"wrote {REFERENCE} ({len(out['cases'])} cases)", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.engines.test_records --write")
    write()
