"""The README shows the two commands at the top and every CLI command."""

from pathlib import Path

from pinochle_sim.cli import main

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_two_commands_at_the_top():
    top = README[: README.index("## Commands")]
    assert "make demo" in top and "make test" in top


def test_every_command_appears_in_readme():
    for name in main.commands:
        assert f"pinochle-sim {name}" in README, name


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci
