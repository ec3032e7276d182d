"""OpenSpiel's IS-MCTS in our duplicate matches: the match's arithmetic, the CLI, and bad
agent specs as one line. (Its strength is in results/strategy/openspiel/.)"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

pytest.importorskip("pyspiel", reason="the [agents] extra (open-spiel) is not installed")
from pinochle_sim import PolicySet
from pinochle_sim.cli.commands import main
from pinochle_sim.openspiel import agent_match, parse_agent


@pytest.mark.parametrize("rules", ["partnership", "three-hand"])
def test_an_ismcts_match_adds_up(rules):
    pairs, s = agent_match(rules, ("openspiel:ismcts:4", None), ("default", PolicySet()), 2)
    plays = 2 if rules == "partnership" else 3
    assert s["plays"] == plays and s["deals"] == 2 and s["a"] == "ismcts-4"
    for _, row in pairs.iterrows():
        diff = sum(row[f"score_a_{k}"] - row[f"score_b_{k}"] for k in range(1, plays + 1))
        assert diff == pytest.approx(row["diff"])
    assert s["diff_per_deal"] == pytest.approx(pairs["diff"].mean())
    assert s["decisions_a"] > 0 and s["cpu_s_per_decision_a"] > 0


def test_compare_with_an_openspiel_agent_from_the_command_line(tmp_path):
    out = tmp_path / "m"
    r = CliRunner().invoke(main, ["compare", "openspiel:ismcts:3", "play=counting", "--hands",
                                  "2", "--out", str(out)])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "ismcts-3 minus play=counting" in r.output and "CPU a decision" in r.output
    s = json.loads((out / "summary.json").read_text())
    assert s["deals"] == 2 and (out / "pairs.csv").exists()


@pytest.mark.parametrize("spec,match", [
    ("openspiel:mcts", "unknown agent"),
    ("openspiel:ismcts:0", "positive whole number"),
    ("openspiel:ismcts:ten", "positive whole number"),
])  # fmt: skip
def test_bad_agent_specs(spec, match):
    with pytest.raises(ValueError, match=match):
        parse_agent(spec, "partnership")
    r = CliRunner().invoke(main, ["compare", spec, "default", "--hands", "2"])
    assert r.exit_code == 1 and match in r.output and len(r.output.strip().splitlines()) == 1
