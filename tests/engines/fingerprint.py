"""Fingerprints of engine records, for the stored-reference test (``test_records.py``).

This module imports nothing from the package: the caller passes the functions to fingerprint,
so the same code can fingerprint an older version of the package (that is how the stored
reference was first made, from the version before the engines were split into folders).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import numpy as np

SEED = 20261201
HANDS = 1500
GAMES = 25
TRACES = 3


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def column_digests(columns: dict[str, np.ndarray]) -> dict[str, str]:
    """One digest per column, of its values as little-endian int64."""
    return {k: digest(np.ascontiguousarray(v, dtype="<i8").tobytes()) for k, v in columns.items()}


def cases(presets: list[str], kinds_for: Callable[[str], tuple[str, ...]],
          registry: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, str]]]:  # fmt: skip
    """(preset, policy choices) to fingerprint: each preset's defaults, then every other
    registered policy of each kind the preset uses, one at a time. Policies flagged
    ``sees_all`` (``solver``: a search per card, ~0.1 s a deal) are left out: 1,500 deals would
    take minutes, and ``tests/engines/two_hand/test_solver_policy.py`` pins their records to
    the solver's values deal by deal instead."""
    out: list[tuple[str, dict[str, str]]] = []
    for preset in presets:
        out.append((preset, {}))
        for kind in kinds_for(preset):
            for name in list(registry[kind])[1:]:
                if "sees_all" in getattr(registry[kind][name], "flags", ()):
                    continue
                out.append((preset, {kind: name}))
    return out


def case_key(preset: str, choice: dict[str, str]) -> str:
    return preset + "".join(f" {k}={v}" for k, v in sorted(choice.items()))


def fingerprint_case(
    preset: str,
    choice: dict[str, str],
    play_hands: Callable[..., dict[str, np.ndarray]],
) -> dict[str, str]:
    names = {("pass_" if k == "pass" else k): v for k, v in choice.items()}
    return column_digests(play_hands(preset, names, SEED, HANDS))


def fingerprint_extras(
    preset: str,
    play_games: Callable[[str, int, int], np.ndarray],
    hand_record: Callable[[str, int, int], dict[str, Any]],
) -> dict[str, str]:
    """Whole games (every deal row) and ``show`` records of the first hands."""
    games = play_games(preset, SEED, GAMES)
    traces = [hand_record(preset, SEED, h) for h in range(TRACES)]
    return {
        "games": digest(np.ascontiguousarray(games, dtype="<i8").tobytes()),
        "games_rows": str(games.shape[1]),
        "show": digest(json.dumps(traces, sort_keys=True, default=str).encode()),
    }
