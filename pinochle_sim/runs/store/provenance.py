"""What a run's files say about how they were made: the provenance each part carries, what a
part of a run must carry, and the command that finishes a run.

Every part file carries, in its Parquet schema metadata under ``pinochle_sim``, the rules (as
TOML), the policies with every parameter, the seed, its hand range, the dealer, the package and
engine versions and the run's creation time (:func:`provenance`); the manifest holds the run's
settings (:meth:`pinochle_sim.runs.spec.RunSpec.settings`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pinochle_sim.core.version import __version__
from pinochle_sim.policies import POLICY_KINDS, REGISTRY
from pinochle_sim.policies.seating import difference, from_resolved
from pinochle_sim.rules import PRESETS, RulesError, Ruleset, dumps_ruleset, loads_ruleset
from pinochle_sim.runs.store.files import RunSettings
from pinochle_sim.runs.store.location import UrlPath


def dealer_text(players: int, dealer: int | None) -> str | int:
    """The dealer as provenance records it."""
    return f"hand index mod {players}" if dealer is None else dealer


def provenance(spec: RunSettings, start: int, count: int, created: str) -> dict[str, Any]:
    """The metadata stored in each part file of the run ``spec`` (hands ``start`` ..
    ``start + count - 1``; ``created``: the run's creation time)."""
    return (
        {
            "package": "pinochle-sim",
            "package_version": __version__,
            "engine_version": spec.engine_version,
            "rules": spec.rules.name,
            "ruleset_toml": dumps_ruleset(spec.rules),
            "policies": spec.policies.resolved(spec.kinds),
            "seed": spec.seed,
            "unit": spec.unit,
            "run_hands": spec.hands,
            "hand_start": start,
            "hand_count": count,
            "dealer": dealer_text(spec.rules.players, spec.dealer),
            "created": created,
        }
        | ({"fixed": spec.fixed_text} if spec.fixed_text else {})
        | ({"dd": True} if spec.dd else {})
        | ({"seating": spec.seating.resolved(spec.kinds)} if spec.seating else {})
    )


def expected_meta(settings: dict[str, Any], start: int, count: int) -> dict[str, Any]:
    """The provenance fields a part of a run with these (manifest) settings must carry."""
    try:
        players = loads_ruleset(settings["rules_toml"]).players
    except (KeyError, RulesError):
        players = None
    want = {
        "engine_version": settings.get("engine_version"),
        "ruleset_toml": settings.get("rules_toml"),
        "policies": settings.get("policies"),
        "seed": settings.get("seed"),
        "unit": settings.get("unit", "hands"),
        "run_hands": settings.get("hands"),
        "hand_start": start,
        "hand_count": count,
        "dd": settings.get("dd"),
        "seating": settings.get("seating"),
    }
    if players is not None:
        want["dealer"] = dealer_text(players, settings.get("dealer"))
    return want


def resume_command(settings: dict[str, Any], path: str | Path | UrlPath) -> str:
    """The ``pinochle-sim run ... --resume`` command that finishes a run with these (manifest)
    settings; where the rules are not a preset, the TOML file is left to the user."""
    return run_command(settings, path, resume=True)


def run_command(
    settings: dict[str, Any], path: str | Path | UrlPath, *, resume: bool = False
) -> str:
    """The ``pinochle-sim run`` command that makes a run with these (manifest) settings into
    ``path`` (with ``--resume``: finishes it); every option the run was made with is named
    (rules, policies and their parameters, dealer, fixed cards, ``--dd``, part size); where the
    rules are not a preset, the TOML file is left to the user."""
    unit = settings.get("unit", "hands")
    words = ["pinochle-sim run", f"--{'games' if unit == 'games' else 'hands'} {settings['hands']}"]
    words.append(f"--seed {settings['seed']}")
    name = settings.get("rules_name", "")
    preset = PRESETS.get(name)
    if preset is not None and dumps_ruleset(preset) == settings.get("rules_toml"):
        if name != "partnership":
            words.append(f"--rules {name}")
    else:
        words.append("--rules YOUR-RULES.toml")
    words += policy_words(settings.get("policies") or {})
    words += seating_words(settings.get("policies") or {}, settings.get("seating") or {})
    if settings.get("dealer") is not None:
        words.append(f"--dealer {settings['dealer']}")
    for seat, cards in (settings.get("fixed") or {}).items():
        words.append(f"--fix '{seat}={cards}'")
    if settings.get("dd"):
        words.append("--dd")
    from_default = 1 << 14 if unit == "games" else 1 << 9 if settings.get("dd") else 1 << 17
    if settings.get("part_size") not in (None, from_default):
        words.append(f"--part-size {settings['part_size']}")
    words.append(f"--out {str(path)!r}" if " " in str(path) else f"--out {path}")
    if resume:
        words.append("--resume")
    return " ".join(words)


def _seating_items(base: dict[str, Any], seating: dict[str, Any]) -> list[tuple[str, str]]:
    """(who, items) for each named seat or role: ``("seat 1", "play=counting")``."""
    run_set = from_resolved(base)
    same = f"play={run_set.name('play')}"  # the run's own policies, said as an item

    def items(resolved: dict[str, Any]) -> str:
        return difference(from_resolved(resolved), run_set) or same

    out = [(f"seat {seat}", items(r)) for seat, r in (seating.get("seats") or {}).items()]
    roles = [r for r in ("bidding side", "defenders") if r in seating]
    out += [(role, items(seating[role])) for role in roles]
    return out


def seating_words(base: dict[str, Any], seating: dict[str, Any]) -> list[str]:
    """``--seat 1=play=counting`` or ``--bidding-side play=pimc --defenders ...``: what turns
    the run's policies into each named seat's or role's."""
    if not seating:
        return []
    try:
        items = _seating_items(base, seating)
    except (KeyError, ValueError):  # a policy this version does not know
        return ["(and the run's seating: pinochle-sim info DIR --json)"]
    return [
        f"--seat {who.removeprefix('seat ')}={what}" if who.startswith("seat ")
        else f"--{who.replace(' ', '-')} {what}"
        for who, what in items
    ]  # fmt: skip


def seating_text(meta: dict[str, Any]) -> str:
    """``bidding side: play=pimc; defenders: play=greedy`` (empty for one set everywhere)."""
    if not meta.get("seating"):
        return ""
    try:
        items = _seating_items(meta.get("policies") or {}, meta["seating"])
    except (KeyError, ValueError):
        return "policies by seat or role (pinochle-sim info DIR --json)"
    return "; ".join(f"{who}: {what}" for who, what in items)


def policy_words(resolved: dict[str, dict[str, Any]]) -> list[str]:
    defaults = {k.name: k.default for k in POLICY_KINDS}
    words: list[str] = []
    for kind, spec in resolved.items():
        name = spec.get("name")
        info = REGISTRY.get(kind, {}).get(name)
        if info is None:
            return ["(and the run's policy options: pinochle-sim info DIR --json)"]
        if name != defaults.get(kind):
            words.append(f"--{kind}-policy {name}")
        for p, value in spec.get("params", {}).items():
            spec_p = info.params.get(p)
            if spec_p is None or value != spec_p.default:
                words.append(f"--param {kind}.{p}={value}")
    return words


def manifest_provenance(settings: dict[str, Any]) -> dict[str, Any]:
    """What a manifest's settings tell of the provenance (for a run with no sound part yet)."""
    meta: dict[str, Any] = {
        "engine_version": settings.get("engine_version"),
        "rules": settings.get("rules_name"),
        "seed": settings.get("seed"),
        "policies": settings.get("policies") or {},
    }
    try:
        players = loads_ruleset(settings["rules_toml"]).players
    except (KeyError, RulesError):
        return meta
    meta["dealer"] = dealer_text(players, settings.get("dealer"))
    meta["ruleset_toml"] = settings["rules_toml"]
    return meta


def ruleset_of(meta: dict[str, Any]) -> Ruleset:
    """The exact ruleset a run used, from its provenance."""
    return loads_ruleset(meta["ruleset_toml"])


def provenance_lines(meta: dict[str, Any]) -> list[str]:
    """A run's provenance as ``info`` prints it: versions, rules, seed, dealer, fixed cards,
    policies with their parameters, and the ruleset as TOML."""
    lines = []
    for key in ("package_version", "engine_version", "rules", "seed", "dealer", "created"):
        if key in meta:
            lines.append(f"{key}: {meta[key]}")
    for seat, cards in (meta.get("fixed") or {}).items():
        lines.append(f"fixed, seat {seat}: {cards}")
    for kind, spec in meta.get("policies", {}).items():
        ps = ", ".join(f"{k}={v}" for k, v in spec["params"].items())
        lines.append(f"policy {kind}: {spec['name']}" + (f" ({ps})" if ps else ""))
    if meta.get("seating"):
        lines.append(f"policies by seat or role: {seating_text(meta)}")
    if "ruleset_toml" in meta:
        lines.append("ruleset (TOML):")
        lines.append("  " + meta["ruleset_toml"].rstrip().replace("\n", "\n  "))
    return lines
