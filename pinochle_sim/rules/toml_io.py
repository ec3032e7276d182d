"""Rulesets in TOML: load (``tomllib``) with a preset to start from, and dump.

A file may start from a preset and override some keys::

    preset = "partnership"      # optional; the default preset otherwise
    name = "partnership-3pass"
    pass_cards = 3
    save_rule = false

    [meld]                      # optional; starts from the preset's table or from `base`
    base = "B"
    dix = 20

Unknown keys and bad values raise :class:`RulesError` naming the key. A file that sets no key
at all is refused (``loads_ruleset("")`` is the default preset; an empty *file* is nearly
always a mistake).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from pathlib import Path
from typing import Any

from pinochle_sim.rules.presets import DEFAULT, get_preset
from pinochle_sim.rules.ruleset import MELD_TABLES, MeldTable, RulesError, Ruleset

_TUPLE_KEYS = {"bid_steps", "trick_points", "around", "eight"}


def _coerce(key: str, value: Any) -> Any:
    if key.removeprefix("meld.") in _TUPLE_KEYS:
        if not isinstance(value, list):
            raise RulesError(f"{key}: must be a list of integers, got {value!r}")
        return tuple(value)
    return value


def _meld_from(data: dict[str, Any], start: MeldTable) -> MeldTable:
    data = dict(data)
    if "base" in data:
        base = data.pop("base")
        if not isinstance(base, str) or base not in MELD_TABLES:
            raise RulesError(f"meld.base: unknown table {base!r}, choose {', '.join(MELD_TABLES)}")
        start = MELD_TABLES[base]
    known = {f.name for f in dataclasses.fields(MeldTable)}
    for key in data:
        if key not in known:
            raise RulesError(f"meld.{key}: unknown key (known: {', '.join(sorted(known))})")
    changes = {k: _coerce(f"meld.{k}", v) for k, v in data.items()}
    try:
        return dataclasses.replace(start, **changes)
    except TypeError as e:  # pragma: no cover - unknown keys are caught above
        raise RulesError(f"meld: {e}") from None


def ruleset_from_dict(data: dict[str, Any]) -> Ruleset:
    """Build a ruleset from TOML-like data (see the module docstring)."""
    data = dict(data)
    preset = data.pop("preset", DEFAULT)
    if not isinstance(preset, str):
        raise RulesError(f"preset: must be a preset name, got {preset!r}")
    start = get_preset(preset)
    known = {f.name for f in dataclasses.fields(Ruleset)}
    for key in data:
        if key not in known:
            raise RulesError(f"{key}: unknown key (known: preset, {', '.join(sorted(known))})")
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key == "meld":
            if isinstance(value, str):
                if value not in MELD_TABLES:
                    raise RulesError(
                        f"meld: unknown table {value!r}, choose {', '.join(MELD_TABLES)}"
                    )
                changes[key] = MELD_TABLES[value]
            elif isinstance(value, dict):
                changes[key] = _meld_from(value, start.meld)
            else:
                raise RulesError(f"meld: must be a table name or a [meld] table, got {value!r}")
        else:
            changes[key] = _coerce(key, value)
    return start.replace(**changes)


def loads_ruleset(text: str, source: str = "<string>") -> Ruleset:
    """Parse a ruleset from TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{source}: not valid TOML: {e}") from None
    return ruleset_from_dict(data)


def load_ruleset(path: str | Path) -> Ruleset:
    """Read a ruleset TOML file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise RulesError(f"cannot read rules file {str(p)!r}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RulesError(f"rules file {str(p)!r} is not UTF-8 text") from None
    try:
        empty = not tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{p}: not valid TOML: {e}") from None
    if empty:  # most likely a failed `rules NAME --toml > FILE`; loads_ruleset("") is the default
        raise RulesError(
            f'rules file {str(p)!r} sets no keys: write preset = "partnership" to play a preset '
            "as it is, or start from `pinochle-sim rules NAME --toml > FILE`"
        )
    return loads_ruleset(text, source=str(p))


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):  # JSON string escapes are valid TOML basic-string escapes
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, tuple | list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


def dumps_ruleset(rules: Ruleset) -> str:
    """The full ruleset as TOML; :func:`loads_ruleset` reads it back to an equal ruleset."""
    lines = [
        f"# pinochle-sim ruleset {rules.name!r}, every key explicit",
        f"preset = {_toml_value(DEFAULT)}",
    ]
    for f in dataclasses.fields(Ruleset):
        if f.name != "meld":
            lines.append(f"{f.name} = {_toml_value(getattr(rules, f.name))}")
    lines.append("")
    lines.append("[meld]")
    for f in dataclasses.fields(MeldTable):
        lines.append(f"{f.name} = {_toml_value(getattr(rules.meld, f.name))}")
    return "\n".join(lines) + "\n"


def resolve_rules(spec: str | Path | Ruleset | None) -> Ruleset:
    """A ruleset from a preset name, a TOML file path, or a ``Ruleset`` (returned as is)."""
    if spec is None:
        return get_preset(DEFAULT)
    if isinstance(spec, Ruleset):
        return spec
    text = str(spec)
    if text.lower().endswith(".toml") or Path(text).is_file():
        return load_ruleset(text)
    return get_preset(text)
