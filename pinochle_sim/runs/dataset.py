"""Run folders: atomic Parquet part files, a manifest, provenance metadata, resume, checks.

A run folder holds ``part-NNNNN.parquet`` files (part ``k`` covers hands
``[k*part_size, min((k+1)*part_size, hands))``) and ``_manifest.json`` (the run's settings and the
parts completed). Every part and the manifest are written to a temporary name and renamed, so an
interrupted run (Ctrl-C, ``kill -9``) leaves only complete files; ``resume`` finishes it with no
gap and no duplicate. Every part carries the run's provenance in its Parquet schema metadata
under the key ``pinochle_sim``.

Nothing here trusts the manifest alone. :func:`check_run` compares the parts on disk with it
(part count, hand ranges, row counts, readable footers, provenance; with ``verify`` every row
group is decoded) and says what is wrong and how to mend it. A resumed run checks every part it
keeps the same way, down to the last row group, and simulates a damaged or foreign part again;
what it sets aside (a damaged part, an unreadable manifest) is moved into ``_damaged/``, never
deleted. Every read error names the file and the remedy.
"""

from __future__ import annotations

import datetime as _dt
import errno
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pinochle_sim.core.version import __version__
from pinochle_sim.policies import POLICY_KINDS, REGISTRY, PolicySet
from pinochle_sim.rules import PRESETS, RulesError, Ruleset, loads_ruleset
from pinochle_sim.rules.toml_io import dumps_ruleset
from pinochle_sim.runs.storage import StorageError, UrlPath, arrow, location, replace, rmtree
from pinochle_sim.runs.storage import first_line as _reason

MANIFEST = "_manifest.json"  # leading "_": Parquet readers skip it
DAMAGED = "_damaged"  # where resume sets aside what it cannot use (readers skip "_" folders)
META_KEY = b"pinochle_sim"
FORMAT = 1
PART_GLOB = "part-*.parquet"


class RunFolderError(ValueError):
    """The output folder cannot be used as asked (exists, settings differ, corrupt)."""


@dataclass(frozen=True)
class RunSettings:
    """What determines a run's records (resume must match all of it)."""

    rules: Ruleset
    policies: PolicySet
    seed: int
    hands: int
    part_size: int
    dealer: int | None = None
    games: bool = False
    """``hands`` counts whole games (:mod:`pinochle_sim.runs.games`); parts hold whole games."""
    kinds: tuple[str, ...] = ()
    """The policy kinds the rules' engine asks for (what provenance lists)."""
    engine_version: int = 0
    """The engine's behaviour version (from its descriptor)."""
    fixed: dict[str, str] | None = None
    """Cards fixed per seat (``{"0": "AS AS 10S ..."}``; None: a free deal)."""
    dd: bool = False
    """The records carry the double-dummy columns (``run --dd``, :mod:`.dd`)."""

    @property
    def unit(self) -> str:
        return "games" if self.games else "hands"

    def to_dict(self) -> dict[str, Any]:
        return (
            {
                "unit": self.unit,
                "rules_name": self.rules.name,
                "rules_toml": dumps_ruleset(self.rules),
                "policies": self.policies.resolved(self.kinds),
                "seed": self.seed,
                "hands": self.hands,
                "part_size": self.part_size,
                "dealer": self.dealer,
                "engine_version": self.engine_version,
            }
            | ({"fixed": self.fixed} if self.fixed else {})
            | ({"dd": True} if self.dd else {})
        )

    @property
    def n_parts(self) -> int:
        return _n_parts(self.hands, self.part_size)

    def part_range(self, k: int) -> tuple[int, int]:
        return _part_range(self.hands, self.part_size, k)


def _n_parts(hands: int, part_size: int) -> int:
    return (hands + part_size - 1) // part_size


def _part_range(hands: int, part_size: int, k: int) -> tuple[int, int]:
    start = k * part_size
    return start, min(part_size, hands - start)


_NO_DICTIONARY = {
    "hand",
    "game",
    "passed_to_bidder",
    "passed_to_partner",
    "widow",
    "discards",
    "stock_lo",
    "stock_hi",
}


_KEYS = ("hand", "game")
"""The columns whose statistics a part file keeps (:func:`parquet_options`)."""


def parquet_options(names: list[str]) -> dict[str, Any]:
    """How part files with these columns are written (measured: ~53 bytes per hand, ~1 s per
    million rows)."""
    return {
        "compression": "zstd",
        "compression_level": 1,  # level 3 is no smaller here and 13% slower to write
        # A CRC per page (+1% size): without it a quarter of the places where garbage can land
        # in a part decode silently to wrong values (measured); with it every read that checks
        # (info --verify, resume, this package's readers) finds the damage.
        "write_page_checksum": True,
        # Packed hands are nearly all distinct: a dictionary only costs space and time there.
        "use_dictionary": [n for n in names if n not in _NO_DICTIONARY and "dealt" not in n],
        "column_encoding": {"hand": "DELTA_BINARY_PACKED"},
        # Min/max statistics only where a reader's filter can skip a part by them (a hand or
        # game range; every other column spans its whole range in every part): 8% of the write.
        "write_statistics": [n for n in _KEYS if n in names],
    }


def part_name(k: int) -> str:
    return f"part-{k:05d}.parquet"


def _part_index(name: str) -> int | None:
    stem = name.removeprefix("part-").removesuffix(".parquet")
    return int(stem) if stem.isdigit() else None


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def _write_json_atomic(path: Path | UrlPath, doc: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    replace(tmp, path)


def _dealer_text(players: int, dealer: int | None) -> str | int:
    return f"hand index mod {players}" if dealer is None else dealer


def provenance(settings: RunSettings, start: int, count: int, created: str) -> dict[str, Any]:
    """The metadata stored in each part file."""
    return (
        {
            "package": "pinochle-sim",
            "package_version": __version__,
            "engine_version": settings.engine_version,
            "rules": settings.rules.name,
            "ruleset_toml": dumps_ruleset(settings.rules),
            "policies": settings.policies.resolved(settings.kinds),
            "seed": settings.seed,
            "unit": settings.unit,
            "run_hands": settings.hands,
            "hand_start": start,
            "hand_count": count,
            "dealer": _dealer_text(settings.rules.players, settings.dealer),
            "created": created,
        }
        | ({"fixed": settings.fixed} if settings.fixed else {})
        | ({"dd": True} if settings.dd else {})
    )


# ----------------------------------------------------------------------------- checking parts


def _expected_meta(settings: dict[str, Any], start: int, count: int) -> dict[str, Any]:
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
    }
    if players is not None:
        want["dealer"] = _dealer_text(players, settings.get("dealer"))
    return want


def check_part(
    path: Path | UrlPath,
    settings: dict[str, Any],
    start: int,
    count: int,
    size: int | None = None,
    verify: bool = False,
) -> str | None:
    """What is wrong with one part file of a run (None: nothing).

    Always read: the footer (row count, schema metadata), checked against the run's settings and
    the part's hand range, and the file size recorded when the part was written (``size``).
    With ``verify``, every row group is decoded too (what damage inside the data needs)."""
    if not path.exists():
        return "missing"
    try:
        source, fs = arrow(path)
        pf = pq.ParquetFile(source, filesystem=fs, page_checksum_verification=True)
    except (pa.ArrowException, OSError, ValueError) as e:
        return f"unreadable footer: {_reason(e)}"
    with pf:
        meta = pf.schema_arrow.metadata or {}
        if META_KEY not in meta:
            return "carries no pinochle-sim provenance"
        try:
            got = json.loads(meta[META_KEY])
        except ValueError as e:
            return f"unreadable provenance: {_reason(e)}"
        want = _expected_meta(settings, start, count)
        wrong = [k for k, v in want.items() if got.get(k) != v]
        if wrong:
            return f"belongs to another run or range (differs in: {', '.join(wrong)})"
        games = settings.get("unit") == "games"
        rows = pf.metadata.num_rows
        if not games and rows != count:
            return f"{rows:,} rows where {count:,} hands belong"
        if isinstance(size, int) and path.stat().st_size != size:
            return f"{path.stat().st_size:,} bytes where {size:,} were written"
        if verify:
            for i in range(pf.num_row_groups):
                try:
                    pf.read_row_group(i)
                except (pa.ArrowException, OSError, ValueError) as e:
                    return f"row group {i} unreadable: {_reason(e)}"
    return None


def _ranges(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge (start, count) spans into inclusive (first, last) ranges."""
    out: list[tuple[int, int]] = []
    for start, count in sorted(spans):
        if out and out[-1][1] + 1 == start:
            out[-1] = (out[-1][0], start + count - 1)
        else:
            out.append((start, start + count - 1))
    return out


def _range_text(ranges: list[tuple[int, int]], limit: int = 4) -> str:
    words = [f"{a}..{b}" if a != b else str(a) for a, b in ranges[:limit]]
    more = len(ranges) - limit
    return ", ".join(words) + (f" and {more} more range{'s' * (more > 1)}" if more > 0 else "")


def resume_command(settings: dict[str, Any], path: str | Path | UrlPath) -> str:
    """The ``pinochle-sim run ... --resume`` command that finishes a run with these (manifest)
    settings; where the rules are not a preset, the TOML file is left to the user."""
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
    words += _policy_words(settings.get("policies") or {})
    if settings.get("dealer") is not None:
        words.append(f"--dealer {settings['dealer']}")
    for seat, cards in (settings.get("fixed") or {}).items():
        words.append(f"--fix '{seat}={cards}'")
    if settings.get("dd"):
        words.append("--dd")
    from_default = 1 << 14 if unit == "games" else 1 << 17
    if settings.get("part_size") not in (None, from_default):
        words.append(f"--part-size {settings['part_size']}")
    words += [f"--out {str(path)!r}" if " " in str(path) else f"--out {path}", "--resume"]
    return " ".join(words)


def _policy_words(resolved: dict[str, dict[str, Any]]) -> list[str]:
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


@dataclass
class RunCheck:
    """What :func:`check_run` found in a run folder."""

    path: Path
    settings: dict[str, Any] | None
    """The manifest's settings (None when the manifest is missing or unreadable)."""
    manifest_problem: str | None = None
    n_parts: int = 0
    good: list[int] = field(default_factory=list)
    """Parts that check out (listed in the manifest or not)."""
    missing: list[tuple[int, int]] = field(default_factory=list)
    """(start, count) of the parts not on disk."""
    damaged: dict[str, str] = field(default_factory=dict)
    """Part file name -> what is wrong with it."""
    strays: list[str] = field(default_factory=list)
    """Part files beyond the run's last part."""
    unlisted: list[int] = field(default_factory=list)
    """Good parts the manifest does not list yet (a crash between rename and manifest update)."""
    temporaries: int = 0
    set_aside: list[str] = field(default_factory=list)
    """Files in ``_damaged/`` (set aside by an earlier resume)."""
    verified: bool = False

    @property
    def unit(self) -> str:
        return (self.settings or {}).get("unit", "hands")

    @property
    def total(self) -> int:
        return int((self.settings or {}).get("hands", 0))

    @property
    def done(self) -> int:
        if self.settings is None:
            return 0
        hands, size = self.total, int(self.settings["part_size"])
        return sum(_part_range(hands, size, k)[1] for k in self.good)

    @property
    def complete(self) -> bool:
        return (
            self.settings is not None
            and self.manifest_problem is None
            and len(self.good) == self.n_parts
            and not self.damaged
            and not self.strays
        )

    @property
    def state(self) -> str:
        """``complete``, ``incomplete`` or ``damaged`` (the word ``info`` prints first)."""
        if self.complete:
            return "complete"
        return "damaged" if self.damaged or self.manifest_problem else "incomplete"

    def problems(self) -> list[str]:
        """One line per thing that is wrong, each naming the files or hands (empty: none)."""
        lines: list[str] = []
        if self.manifest_problem:
            lines.append(f"damaged: {MANIFEST} ({self.manifest_problem})")
        if self.settings is None:
            return lines
        unit = self.unit
        if self.missing:
            n = len(self.missing)
            lines.append(
                f"incomplete: {unit} {_range_text(_ranges(self.missing))} missing "
                f"({n} of {self.n_parts} part{'s' * (self.n_parts > 1)})"
            )
        for name, why in sorted(self.damaged.items()):
            lines.append(f"damaged: {name} ({why})")
        if self.strays:
            lines.append(f"not part of this run: {', '.join(self.strays)}")
        return lines

    def remedy(self) -> str | None:
        """What to run to mend the folder (None when nothing needs mending)."""
        if self.settings is None:
            if self.manifest_problem and self.good:
                return (
                    "rerun the run's own command with --resume: it rebuilds the manifest from "
                    "the parts' provenance"
                )
            return None
        if self.complete and not self.unlisted:
            return None
        if self.strays and not (self.missing or self.damaged):
            return f"move {', '.join(self.strays)} out of the folder"
        return f"finish it with: {resume_command(self.settings, self.path)}"

    def summary(self) -> str:
        """The first line of ``info``: state, hands done, parts."""
        if self.settings is None:
            n = len(self.good)
            return f"run: damaged: {MANIFEST} {self.manifest_problem}; {n} part files on disk"
        unit = self.unit
        good = len(self.good)
        word = f"{good} of {self.n_parts} part{'s' * (self.n_parts > 1)}"
        how = (
            " (every row group read)"
            if self.verified
            else " (footers checked; --verify reads every row group)"
        )
        return f"run: {self.done:,} of {self.total:,} {unit} in {word}, {self.state}{how}"


def check_run(path: str | Path | UrlPath, verify: bool = False) -> RunCheck:
    """Compare a run folder's parts with its manifest (see :class:`RunCheck`). Reads only
    footers unless ``verify`` (then every row group); never writes."""
    p = location(path)
    if not p.is_dir():
        raise RunFolderError(f"{str(p)!r} is not a folder")
    doc, problem = _manifest_or_problem(p)
    if doc is None and problem == "missing" and not any(p.glob(PART_GLOB)):
        raise RunFolderError(f"{str(p)!r} has no {MANIFEST} and no part files: not a run folder")
    aside = p / DAMAGED
    check = RunCheck(
        p,
        doc["settings"] if doc else None,
        problem,
        temporaries=len(list(p.glob(".*.tmp-*"))),
        set_aside=sorted(f.name for f in aside.iterdir()) if aside.is_dir() else [],
        verified=verify,
    )
    if doc is None:
        # No manifest to check against: the parts that carry consistent provenance count.
        check.good = _consistent_parts(p)
        return check
    s = check.settings
    hands, size = int(s["hands"]), int(s["part_size"])
    check.n_parts = _n_parts(hands, size)
    listed = _listed_parts(doc)
    for k in range(check.n_parts):
        start, count = _part_range(hands, size, k)
        name = part_name(k)
        why = check_part(p / name, s, start, count, listed.get(k, {}).get("bytes"), verify)
        if why is None:
            check.good.append(k)
            if k not in listed:
                check.unlisted.append(k)
        elif why == "missing":
            check.missing.append((start, count))
        else:
            check.damaged[name] = why
            check.missing.append((start, count))
    for f in sorted(p.glob(PART_GLOB)):
        k = _part_index(f.name)
        if k is None or k >= check.n_parts:
            check.strays.append(f.name)
    return check


def _consistent_parts(p: Path | UrlPath) -> list[int]:
    """Part indices whose footers are readable and carry provenance (no manifest to hold them
    against; ``resume`` checks them against its own settings)."""
    good = []
    for f in sorted(p.glob(PART_GLOB)):
        k = _part_index(f.name)
        try:
            meta = read_provenance(f)
        except RunFolderError:
            continue
        if k is not None and meta.get("hand_start") is not None:
            good.append(k)
    return good


# ------------------------------------------------------------------------------- run folders


def write_part_file(folder: str | Path | UrlPath, k: int, table: Any) -> dict[str, Any]:
    """Write part ``k`` of a run into ``folder`` atomically (a temporary name, then a rename:
    a reader, a resume or a second writer of the same part never sees half a file); returns
    its manifest entry fields (``file``, ``bytes``). The run's own process and cluster workers
    alike write parts with this."""
    final = location(folder) / part_name(k)
    tmp = final.with_name(f".{final.name}.tmp-{os.getpid()}")
    source, fs = arrow(tmp)
    pq.write_table(table, source, filesystem=fs, **parquet_options(table.column_names))
    replace(tmp, final)
    return {"file": final.name, "bytes": final.stat().st_size}


def holds_files(path: Path | UrlPath) -> bool:
    """Whether ``path`` is a folder with something in it: a run there needs ``resume`` or
    ``overwrite`` (an empty or missing folder is simply written)."""
    return path.exists() and any(path.iterdir())


def _check_creatable(path: Path | UrlPath) -> None:
    """Fail now, before any work, if ``path`` cannot become a folder (a store's URL: its
    first write says)."""
    if isinstance(path, UrlPath):
        return
    for parent in (path, *path.parents):
        if parent.exists():
            if not parent.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(parent))
            if not os.access(parent, os.W_OK | os.X_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(parent))
            return


class RunFolder:
    """A run's output folder: which parts are done, atomic part writes, the manifest.

    Construction only reads (it refuses a folder that cannot be used as asked, before any
    work); :meth:`open` then clears, repairs and writes the manifest."""

    def __init__(
        self,
        path: str | Path | UrlPath,
        settings: RunSettings,
        resume: bool = False,
        overwrite: bool = False,
    ) -> None:
        if resume and overwrite:
            raise RunFolderError("use either --resume or --overwrite, not both")
        self.path = location(path)
        self.settings = settings
        self.resume = resume
        self.overwrite = overwrite
        self.manifest_path = self.path / MANIFEST
        self.done: dict[int, dict[str, Any]] = {}
        self.created = _now()
        self.repairs: list[str] = []
        """What resume mended (parts set aside and simulated again, a rebuilt manifest)."""
        self._listed: dict[int, dict[str, Any]] = {}
        self._manifest_bad: str | None = None
        _check_creatable(self.path)
        self.exists = holds_files(self.path)
        if self.exists and not (resume or overwrite):
            raise RunFolderError(
                f"output folder {str(self.path)!r} already exists{self._state_words()}: pass "
                "--resume to finish it or --overwrite to replace it"
            )
        if self.exists and overwrite:
            self._check_clearable()
        if resume and self.exists:
            self._read_manifest_for_resume()

    def _state_words(self) -> str:
        """`` (it holds an incomplete run: ...)`` for the refusal message, as ``info`` says."""
        try:
            check = check_run(self.path)
        except RunFolderError:
            return ""
        if check.settings is None:
            return f" (its {MANIFEST} is {check.manifest_problem})"
        unit = check.unit
        return (
            f" (it holds {'a complete' if check.complete else 'an ' + check.state} run, "
            f"{check.done:,} of {check.total:,} {unit})"
        )

    def _check_clearable(self) -> None:
        if not self.manifest_path.exists():
            strangers = [q.name for q in self.path.iterdir() if not q.name.startswith(".")]
            if strangers:
                raise RunFolderError(
                    f"refusing to overwrite {str(self.path)!r}: it is not a run folder "
                    f"(contains {strangers[0]!r})"
                )

    def _read_manifest_for_resume(self) -> None:
        doc, problem = _manifest_or_problem(self.path)
        if doc is None:
            if problem == "missing" and not any(self.path.glob(PART_GLOB)):
                raise RunFolderError(f"{str(self.path)!r} has no {MANIFEST}: not a run folder")
            if problem is not None and problem.startswith("unreadable"):
                # the file could not be read at all (permissions, a store's refusal): its
                # contents may be fine, so nothing is set aside on the strength of that
                raise RunFolderError(
                    f"cannot read {str(self.manifest_path)!r}: {problem}: fix the access and "
                    "resume again"
                )
            # Missing or not a manifest: the parts' own provenance rebuilds it (each part is
            # checked against this run's settings on open).
            self._manifest_bad = problem
            return
        old = doc["settings"]
        new = self.settings.to_dict()
        # both ways: a key only one side has (``dd``, ``fixed``) is a difference too
        diffs = [k for k in {**old, **new} if k != "created" and old.get(k) != new.get(k)]
        if diffs:
            raise RunFolderError(
                f"--resume with different settings than the run in {str(self.path)!r} "
                f"(differs in: {', '.join(diffs)})"
            )
        self.created = doc.get("created", self.created)
        self._listed = _listed_parts(doc)

    def open(self) -> RunFolder:
        """Make the folder ready to take parts: clear it (``overwrite``), or check every part
        already there (``resume``: footer, provenance and every row group), set aside what is
        damaged or foreign and rebuild the list of parts done; then write the manifest."""
        if self.exists and self.overwrite:
            rmtree(self.path)
        self.path.mkdir(parents=True, exist_ok=True)
        self._clean_temporaries()
        if self._manifest_bad is not None and self.manifest_path.exists():
            self._set_aside(
                self.manifest_path,
                f"was unreadable ({self._manifest_bad})",
                "rebuilt from the parts' provenance",
            )
        elif self._manifest_bad == "missing":
            self.repairs.append(f"{MANIFEST} was missing: rebuilt from the parts' provenance")
        self._check_parts()
        self._save_manifest()
        return self

    def _set_aside(self, f: Path | UrlPath, why: str, then: str) -> None:
        """Move ``f`` into ``_damaged/`` (never delete what a user may want to look at)."""
        aside = self.path / DAMAGED
        aside.mkdir(exist_ok=True)
        target = aside / f.name
        n = 1
        while target.exists():
            target = aside / f"{f.name}.{n}"
            n += 1
        replace(f, target)
        self.repairs.append(f"{f.name} {why}: moved to {DAMAGED}/{target.name}, {then}")

    def _check_parts(self) -> None:
        """Every part on disk that belongs to this run is kept; any other is set aside."""
        s = self.settings.to_dict()
        for k in range(self.settings.n_parts):
            f = self.path / part_name(k)
            if not f.exists():
                continue
            start, count = self.settings.part_range(k)
            size = self._listed.get(k, {}).get("bytes")
            why = check_part(f, s, start, count, size, verify=True)
            if why is None:
                self.done[k] = self._entry(k, f)
            else:
                self._set_aside(f, f"was damaged ({why})", "simulated again")
        for f in sorted(self.path.glob(PART_GLOB)):
            k = _part_index(f.name)
            if k is None or k >= self.settings.n_parts:
                self._set_aside(f, "is not a part of this run", "left out")

    def _entry(self, k: int, f: Path | UrlPath) -> dict[str, Any]:
        start, count = self.settings.part_range(k)
        return {"file": f.name, "start": start, "count": count, "bytes": f.stat().st_size}

    def _clean_temporaries(self) -> None:
        for q in self.path.glob(".*.tmp-*"):
            q.unlink(missing_ok=True)

    def _save_manifest(self) -> None:
        doc = {
            "format": FORMAT,
            "package_version": __version__,
            "created": self.created,
            "updated": _now(),
            "settings": self.settings.to_dict(),
            "parts": {str(k): v for k, v in sorted(self.done.items())},
            "complete": len(self.done) == self.settings.n_parts,
        }
        _write_json_atomic(self.manifest_path, doc)

    def listed_done(self) -> int:
        """Hands the manifest lists as done (before :meth:`open` checks them)."""
        n = self.settings.n_parts
        return sum(self.settings.part_range(k)[1] for k in self._listed if 0 <= k < n)

    def todo(self) -> list[int]:
        return [k for k in range(self.settings.n_parts) if k not in self.done]

    def hands_done(self) -> int:
        return sum(v["count"] for v in self.done.values())

    def write_part(self, k: int, table: Any) -> None:
        """Write part ``k`` atomically and record it in the manifest."""
        self.add_part(k, write_part_file(self.path, k, table))

    def add_part(self, k: int, entry: dict[str, Any]) -> None:
        """Record part ``k``, written by :func:`write_part_file` (here or on a worker), in the
        manifest."""
        start, count = self.settings.part_range(k)
        self.done[k] = {"file": part_name(k), "start": start, "count": count} | {
            "bytes": int(entry["bytes"])
        }
        self._save_manifest()

    def clean_temporaries(self) -> None:
        """Remove temporary part files (a worker killed mid-write leaves one behind)."""
        self._clean_temporaries()

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.glob(PART_GLOB))


# ------------------------------------------------------------------------------------ reading

_REMEDY = (
    "`pinochle-sim info {dir} --verify` lists every problem; rerun the run's command with "
    "--resume to simulate damaged parts again"
)


def damaged_part_error(f: Path | UrlPath, e: BaseException) -> RunFolderError:
    """The error for a file that cannot be read: its name, the reason and the remedy."""
    return _damage(f, e)


def _damage(f: Path | UrlPath, e: BaseException) -> RunFolderError:
    where = f.parent if f.suffix == ".parquet" else f
    return RunFolderError(f"cannot read {str(f)!r} ({_reason(e)}): {_REMEDY.format(dir=where)}")


def read_provenance(path: str | Path | UrlPath) -> dict[str, Any]:
    """The provenance of a part file, or of a run folder (its first part)."""
    p = location(path)
    if p.is_dir():
        parts = sorted(p.glob(PART_GLOB))
        if not parts:
            if (p / MANIFEST).exists():
                raise RunFolderError(
                    f"{str(p)!r} holds no part files yet: `pinochle-sim info {p}` says what to run"
                )
            raise RunFolderError(f"{str(p)!r} holds no part files: not a run folder")
        p = parts[0]
    if not p.exists():
        raise RunFolderError(f"no such file or folder: {str(p)!r}")
    try:
        source, fs = arrow(p)
        meta = pq.read_schema(source, filesystem=fs).metadata or {}
    except (pa.ArrowException, OSError, ValueError) as e:
        raise _damage(p, e) from None
    if META_KEY not in meta:
        raise RunFolderError(f"{str(p)!r} carries no pinochle-sim provenance")
    try:
        return json.loads(meta[META_KEY])
    except ValueError as e:
        raise _damage(p, e) from None


def read_every_row_group(path: str | Path | UrlPath) -> None:
    """Decode every row group of one part file; a :class:`RunFolderError` naming it otherwise."""
    p = location(path)
    source, fs = arrow(p)
    try:
        with pq.ParquetFile(source, filesystem=fs, page_checksum_verification=True) as pf:
            for i in range(pf.num_row_groups):
                pf.read_row_group(i)
    except (pa.ArrowException, OSError, ValueError) as e:
        raise _damage(p, e) from None


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
    meta["dealer"] = _dealer_text(players, settings.get("dealer"))
    meta["ruleset_toml"] = settings["rules_toml"]
    return meta


def part_files(path: str | Path | UrlPath) -> list[Path | UrlPath]:
    """The part files of a run folder (or the one file given)."""
    path = location(path)
    parts = sorted(path.glob(PART_GLOB)) if path.is_dir() else [path]
    if not parts:
        raise RunFolderError(f"{str(path)!r} holds no part files: not a run folder")
    return parts


def _first_damage(parts: list[Path | UrlPath], columns: list[str] | None) -> RunFolderError:
    """The error naming the first part that cannot be read (footer, then the columns)."""
    for f in parts:
        try:
            source, fs = arrow(f)
            pq.read_table(source, filesystem=fs, columns=columns, page_checksum_verification=True)
        except (pa.ArrowException, OSError, ValueError) as e:
            return _damage(f, e)
    return RunFolderError(
        f"cannot read the run in {str(parts[0].parent)!r}: " + _REMEDY.format(dir=parts[0].parent)
    )


def read_columns(path: str | Path | UrlPath, columns: list[str] | None = None) -> pa.Table:
    """The named columns (None: all) of a run folder or part file as one Arrow table, parts in
    hand order, page checksums verified. A part that cannot be read gives a
    :class:`RunFolderError` naming it and the remedy.

    Part by part with ``pq.ParquetFile``, not ``pq.read_table`` or ``pyarrow.dataset`` (they
    load pandas, about half a second): ``run`` reads its summary back with this."""
    p = location(path)
    parts = part_files(p)
    try:
        source, fs = arrow(parts[0])
        names = pq.read_schema(source, filesystem=fs).names
    except (pa.ArrowException, OSError, ValueError):
        raise _first_damage(parts, None) from None
    missing = [c for c in columns or [] if c not in names]
    if missing:
        raise RunFolderError(f"{str(p)!r} has no column(s) {', '.join(missing)}")
    tables = []
    for f in parts:
        try:
            source, fs = arrow(f)
            with pq.ParquetFile(source, filesystem=fs, page_checksum_verification=True) as part:
                tables.append(part.read(columns=columns))
        except (pa.ArrowException, OSError, ValueError) as e:
            raise _damage(f, e) from None
    try:
        return pa.concat_tables(tables)
    except (pa.ArrowException, ValueError):
        raise RunFolderError(
            f"the parts in {str(p)!r} do not share one schema: not one run"
        ) from None


def column_array(table: pa.Table, name: str) -> np.ndarray:
    """Column ``name`` of a table of records as one numpy array (a copy), read from the Arrow
    buffers: ``to_numpy`` loads pandas (about half a second of a ``run``'s summary)."""
    col = table.column(name)
    typ = col.type
    pieces = []
    for ch in col.chunks:
        if ch.null_count:
            raise RunFolderError(f"column {name!r} has missing values: not a record column")
        data = ch.buffers()[1]
        if pa.types.is_boolean(typ):
            bits = np.frombuffer(data, dtype=np.uint8)
            flat = np.unpackbits(bits, count=ch.offset + len(ch), bitorder="little")
            pieces.append(flat[ch.offset :].astype(bool))
        else:
            dt = np.dtype(typ.to_pandas_dtype())
            pieces.append(
                np.frombuffer(data, dtype=dt, count=len(ch), offset=ch.offset * dt.itemsize)
            )
    if not pieces:
        return np.empty(0, dtype=bool if pa.types.is_boolean(typ) else typ.to_pandas_dtype())
    return np.concatenate(pieces)


def _manifest_or_problem(folder: Path | UrlPath) -> tuple[dict[str, Any] | None, str | None]:
    """(the manifest, None), or (None, what is wrong with it: ``missing``, ``not valid JSON
    (...)``, ...)."""
    p = folder / MANIFEST
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, "missing"
    except (OSError, StorageError) as e:  # a store's refusal is not the file's damage
        return None, f"unreadable ({_reason(e)})"
    except ValueError as e:
        return None, f"not valid JSON ({_reason(e)})"
    settings = doc.get("settings") if isinstance(doc, dict) else None
    needed = ("hands", "part_size")
    if (
        not isinstance(settings, dict)
        or not all(_is_count(settings.get(k)) for k in needed)
        or not _is_count(settings.get("seed"), 0)
    ):
        return None, "holds no run settings"
    if not isinstance(doc.get("parts", {}), dict):
        return None, "its list of parts is unreadable"
    return doc, None


def _is_count(v: Any, least: int = 1) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= least


def _listed_parts(doc: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The manifest's parts by index (malformed entries are left out: resume checks the files)."""
    out = {}
    for k, v in doc.get("parts", {}).items():
        if str(k).isdigit() and isinstance(v, dict):
            out[int(k)] = v
    return out


def read_manifest(path: str | Path | UrlPath) -> dict[str, Any]:
    """The manifest of a run folder; a missing or unreadable one is a :class:`RunFolderError`
    naming the file and the remedy."""
    p = location(path)
    doc, problem = _manifest_or_problem(p)
    if doc is not None:
        return doc
    if problem == "missing":
        raise RunFolderError(f"{str(p)!r} has no {MANIFEST}: not a run folder")
    raise RunFolderError(
        f"cannot read {str(p / MANIFEST)!r}: {problem}: rerun the run's command with "
        "--resume to rebuild it from the parts' provenance"
    )


def ruleset_of(meta: dict[str, Any]) -> Ruleset:
    """The exact ruleset a run used, from its provenance."""
    return loads_ruleset(meta["ruleset_toml"])
