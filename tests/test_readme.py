"""The README a newcomer reads: at most 250 lines, the two commands at the top, every CLI command
named, and every command and the Python example it shows run as shown (with smaller counts of
hands, in a temporary folder)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from pinochle_sim.cli.commands import main

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

SMALLER = {"run": 4000, "compare": 2000, "sweep": 1000, "advise": 400}
"""The most hands (games: a hundredth) each command is run with here."""


def test_at_most_250_lines() -> None:
    assert len(README.splitlines()) <= 250


def test_two_commands_at_the_top() -> None:
    top = README[: README.index("\n## ", README.index("## Two commands") + 1)]
    assert "make demo" in top and "make test" in top


def test_every_command_appears_in_readme() -> None:
    for name in main.commands:
        assert f"pinochle-sim {name}" in README, name


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def shown_commands() -> list[str]:
    """Every ``pinochle-sim`` command of the README's shell blocks and of its table's example
    column, in the order they appear."""
    found: list[tuple[int, int, str]] = []
    for m in re.finditer(r"```bash\n(.*?)```", README, flags=re.S):
        for i, line in enumerate(m.group(1).splitlines()):
            if line.startswith("pinochle-sim "):
                found.append((m.start(), i, line.split("  #", 1)[0].strip()))
    for m in re.finditer(r"^\| `pinochle-sim \w+` \|.*\| `(pinochle-sim [^`]+)` \|$", README, re.M):
        found.append((m.start(), 0, m.group(1)))
    return [cmd for _, _, cmd in sorted(found)]


def smaller(args: list[str]) -> list[str]:
    """``args`` with fewer hands (or games) than the README shows."""
    most = SMALLER.get(args[0])
    out = list(args)
    for i, a in enumerate(args[:-1]):
        if a in ("--hands", "--games") and most is not None:
            n = int(float(args[i + 1]))
            out[i + 1] = str(min(n, most if a == "--hands" else most // 100))
    if args[0] == "advise" and "--hands" not in args:
        out += ["--hands", str(most)]
    return out


def test_the_readme_shows_commands_of_every_group() -> None:
    names = {shlex.split(c)[1] for c in shown_commands()}
    assert names >= {"run", "report", "advise", "compare", "meld", "exact", "solve", "show"}


def test_every_command_the_readme_shows_runs(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    failed = []
    for command in shown_commands():
        args = smaller(shlex.split(command)[1:])
        result = CliRunner().invoke(main, args)
        if result.exit_code != 0:
            failed.append(f"{command}: {result.output[-500:]}")
    assert not failed, "\n".join(failed)


def test_the_python_example_runs(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (code,) = blocks("python")
    code = code.replace("200_000", "3_000").replace("100_000", "3_000").replace("20_000", "300")
    exec(compile(code, "README.md", "exec"), {})
    assert (tmp_path / "runs" / "bold" / "_manifest.json").exists()
