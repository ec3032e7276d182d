"""The folder tree is the architecture (docs/architecture.md): the import graph of the package,
read from the source (every import statement, also those inside functions), has no loops and no
import from a lower layer to a higher one; engines reach each other only through the shared
modules; storage never imports an engine; no import hides inside a function; the CLI reaches
the library only through the package top; no module is over 800 lines; no import is renamed to
dodge a clash, and no two modules of different layers share a name unless they are the same
role of two engines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pinochle_sim"
LAYERS = (
    "core",
    "rules",
    "solver",
    "policies",
    "engines",
    "runs",
    "analysis",
    "agents",
    "bench",
    "cli",
)
"""Lowest first: a module may import its own layer and those before it."""
FACADES = {"charts", "openspiel", "pettingzoo"}
"""Modules beside the package top that, like it, gather public names of the layers for a
notebook (``pinochle_sim.charts``: the analysis layer's charts and their house style) or adapt
them to another framework (``pinochle_sim.openspiel`` and ``pinochle_sim.pettingzoo``: the
agents layer's table, with the ``[agents]`` extra)."""
AGENT_FRAMEWORKS = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium")
SHARED_ENGINE_MODULES = {"base", "trickplay", "game_end"}
"""Modules of ``engines/`` every engine may use; the other folders are engines."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int | None:
    """The layer index of a package module (None: the package top, a facade over all)."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in FACADES:
        return None
    head = "cli" if parts[1] in ("cli", "__main__") else parts[1]
    return LAYERS.index(head)


def resolve(importer: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The package modules one import statement loads (a submodule where one is named)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            pkg = importer.split(".")
            if MODULES[importer].name != "__init__.py":
                pkg = pkg[:-1]
            pkg = pkg[: len(pkg) - node.level + 1]
            base = ".".join([*pkg, base] if base else pkg)
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
    return sorted({n for n in names if n.split(".")[0] == "pinochle_sim" and n in MODULES})


def imports(module: str) -> list[tuple[str, bool]]:
    """(imported module, inside a function) for every import statement of ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    deferred: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            deferred |= {
                id(n) for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))
            }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found += [(m, id(node) in deferred) for m in resolve(module, node)]
    return found


GRAPH = {m: imports(m) for m in MODULES}
OPTIONAL_DEPENDENCY_MODULE = "pinochle_sim.runs.backends.cluster"
"""Imports Dask (the ``[cluster]`` extra); nothing in the package imports it at load time."""


def test_the_optional_dependency_module_is_never_loaded_with_the_package() -> None:
    """No module imports the Dask backend (the package top loads it when its name is used, for
    --cluster), so ``import pinochle_sim`` and every command without --cluster work without
    Dask."""
    importers = [
        m for m, edges in GRAPH.items() for t, _ in edges if t == OPTIONAL_DEPENDENCY_MODULE
    ]
    assert not importers, importers
    import pinochle_sim

    assert pinochle_sim._API["connect_cluster"] == OPTIONAL_DEPENDENCY_MODULE


def test_the_agent_frameworks_load_only_with_their_adapters() -> None:
    """Only the framework adapters import OpenSpiel, PettingZoo or Gymnasium: the package and
    every command work without the ``[agents]`` extra."""
    users = []
    for m, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            )  # fmt: skip
            if any(n.split(".")[0] in AGENT_FRAMEWORKS for n in names):
                users.append(m)
    assert sorted(set(users)) == ["pinochle_sim.openspiel", "pinochle_sim.pettingzoo"]
    importers = [m for m, edges in GRAPH.items() for t, _ in edges
                 if t in ("pinochle_sim.openspiel", "pinochle_sim.pettingzoo")]  # fmt: skip
    assert not importers, importers


def test_the_layers_are_the_folders() -> None:
    tops = {m.split(".")[1] for m in MODULES if "." in m}
    assert tops == {*LAYERS, "__main__", *FACADES}


def test_no_import_goes_up_a_layer() -> None:
    """Each layer imports its own and those below; the package top, a facade over every
    layer, only the CLI."""
    cli = LAYERS.index("cli")
    upward = [
        f"{m} -> {t}"
        for m, edges in GRAPH.items()
        for t, _ in edges
        if layer(m) is not None
        and (layer(t) > layer(m) if layer(t) is not None else layer(m) != cli)
    ]
    assert not upward, upward


def test_engines_meet_only_through_shared_modules() -> None:
    """An engine folder imports no other engine; shared engine modules import no engine."""
    engines = {m.split(".")[2] for m in MODULES if m.count(".") >= 3 and ".engines." in m}
    engines -= SHARED_ENGINE_MODULES
    assert engines >= {"auction", "two_hand"}
    bad = []
    for m, edges in GRAPH.items():
        parts = m.split(".")
        if parts[1:2] != ["engines"] or len(parts) < 3:
            continue
        for t, _ in edges:
            tp = t.split(".")
            if tp[1] == "engines" and len(tp) >= 3 and tp[2] in engines and tp[2] != parts[2]:
                bad.append(f"{m} -> {t}")
            if tp[1:] == ["engines"] and len(parts) >= 3:
                bad.append(f"{m} -> {t} (the registry is above every engine)")
    assert not bad, bad


def reachable(start: str) -> set[str]:
    """Modules loaded by importing ``start`` (parent packages included, as Python does)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        parts = m.split(".")
        todo += [".".join(parts[:i]) for i in range(2, len(parts))]
        todo += [t for t, _ in GRAPH[m]]
    return seen


STORE_WITHOUT_ENGINES = ("location", "files", "provenance", "read", "check", "folder", "scan")
"""The run folder's machinery: it knows nothing of engines (the engine's version travels in the
run's settings); only the schema and the decoded export read an engine's columns."""


def test_storage_never_imports_an_engine() -> None:
    for storage in [f"pinochle_sim.runs.store.{m}" for m in STORE_WITHOUT_ENGINES]:
        loaded = reachable(storage)
        assert not [m for m in loaded if m.startswith("pinochle_sim.engines")], storage


def test_kernels_never_import_runs_analysis_or_cli() -> None:
    for m in MODULES:
        kernels = ("core", "rules", "solver", "policies", "engines")
        if m.startswith(tuple(f"pinochle_sim.{k}" for k in kernels)):
            runs = LAYERS.index("runs")
            above = {t for t in reachable(m) if layer(t) is not None and layer(t) >= runs}
            assert not above, (m, above)


def test_no_import_loops() -> None:
    """Strongly connected components of the module graph (Tarjan) are single modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    loops: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w, _ in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                loops.append(sorted(comp))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert not loops, loops


DEFERRED = {("pinochle_sim.cli", "pinochle_sim.cli.commands")}
"""Imports inside a function besides the package top's: the console entry point installs its
Ctrl-C handler before it loads the commands (half a second), so that Ctrl-C during the load is
one line, not a traceback (tests/cli/test_startup.py)."""


def test_imports_are_not_hidden_in_functions() -> None:
    """Only the package top (a lazy facade) imports package modules inside functions, and the
    entry point its commands (:data:`DEFERRED`)."""
    hidden = [f"{m} -> {t}" for m, edges in GRAPH.items() for t, inside in edges
              if inside and m != "pinochle_sim" and (m, t) not in DEFERRED]  # fmt: skip
    assert not hidden, hidden


def test_the_cli_reaches_the_library_through_the_package_top() -> None:
    """A CLI module imports the package top and its own siblings, nothing below them."""
    cli = LAYERS.index("cli")
    below = [
        f"{m} -> {t}"
        for m, edges in GRAPH.items()
        if layer(m) == cli
        for t, _ in edges
        if t != "pinochle_sim" and not t.startswith("pinochle_sim.cli")
    ]
    assert not below, below


def test_no_module_is_over_800_lines_nor_a_cli_module_over_400() -> None:
    sizes = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in MODULES.items()}
    long = [f"{m}: {n}" for m, n in sizes.items() if n > 800]
    long += [f"{m}: {n}" for m, n in sizes.items() if layer(m) == LAYERS.index("cli") and n > 400]
    long += [
        f"{m}: {n}" for m, n in sizes.items() if m.startswith("pinochle_sim.solver") and n > 500
    ]
    assert not long, long


ABBREVIATIONS = {
    "numpy": "np",
    "pandas": "pd",
    "pyarrow": "pa",
    "pyarrow.parquet": "pq",
    "pyarrow.dataset": "ds",
    "pyarrow.compute": "pc",
    "matplotlib.pyplot": "plt",
}
"""The conventional short names of third-party modules (not renames to dodge a clash)."""


def test_no_import_is_renamed() -> None:
    renamed = []
    for m, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    full = a.name if isinstance(node, ast.Import) else f"{node.module}.{a.name}"
                    if a.asname and ABBREVIATIONS.get(full) != a.asname:
                        renamed.append(f"{m}: {full} as {a.asname}")
    assert not renamed, renamed


def test_no_two_layers_share_a_module_name() -> None:
    """Two modules of one name in different layers only where they are the same role of two
    engines (``engines/auction/kernel.py`` and ``engines/two_hand/kernel.py``)."""
    by_name: dict[str, set[str]] = {}
    for m, path in MODULES.items():
        if path.name != "__init__.py":
            by_name.setdefault(path.stem, set()).add(m)
        else:
            by_name.setdefault(m.rsplit(".", 1)[-1], set()).add(m)
    clashes = []
    for name, mods in by_name.items():
        engines = {m for m in mods if m.count(".") == 3 and m.split(".")[1] == "engines"}
        others = mods - engines
        if len(others) > 1 or (others and engines):
            clashes.append(f"{name}: {sorted(mods)}")
    assert not clashes, clashes


@pytest.mark.parametrize("name", ["play_hands", "run", "hand_record", "compare", "sweep",
                                  "PolicySet", "engine_for", "write_report"])  # fmt: skip
def test_the_public_api_is_at_the_package_top(name: str) -> None:
    import pinochle_sim

    assert callable(getattr(pinochle_sim, name))
    assert name in pinochle_sim.__all__


def test_every_public_name_imports_in_a_fresh_interpreter() -> None:
    """``from pinochle_sim import NAME`` must work as a notebook's first line, not only after
    some other import loaded NAME's module: each module's names are imported in a new process
    of their own (four at a time)."""
    import collections
    import subprocess
    import sys

    import pinochle_sim

    by_module: dict[str, list[str]] = collections.defaultdict(list)
    for name in pinochle_sim.__all__:
        by_module[pinochle_sim._API.get(name, "pinochle_sim")].append(name)
    failed: list[str] = []
    running: list[tuple[list[str], subprocess.Popen[str]]] = []

    def finish(names: list[str], proc: subprocess.Popen[str]) -> None:
        _, err = proc.communicate(timeout=120)
        if proc.returncode:
            failed.append(f"{', '.join(names)}: {err.strip().splitlines()[-1]}")

    for names in by_module.values():
        code = f"from pinochle_sim import {', '.join(names)}"
        cmd = [sys.executable, "-c", code]
        running.append((names, subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)))
        if len(running) == 4:
            finish(*running.pop(0))
    for names, proc in running:
        finish(names, proc)
    assert not failed, failed
    assert sum(len(v) for v in by_module.values()) == len(pinochle_sim.__all__)
