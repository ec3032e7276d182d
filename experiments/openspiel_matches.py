"""Study: OpenSpiel's IS-MCTS against our players (results/strategy/openspiel/).

Duplicate matches at the stepwise table (``compare openspiel:ismcts:N POLICIES``): IS-MCTS
with random rollouts, ``SIMULATIONS`` a decision, worlds sampled by
``pinochle_sim.agents.determinize``, against ``counting`` and against ``pimc`` (16 worlds from trick
7), the engine's deals of seed 0, partnership. Each match writes pairs.csv, summary.csv and
summary.json; the README says what the figures mean and what limits them. Run with
``python experiments/openspiel_matches.py [DEALS]`` (minutes per ten deals: IS-MCTS is Python).
"""

from __future__ import annotations

import json
import sys

from _common import RESULTS

from pinochle_sim import PolicySet
from pinochle_sim.agents.duplicate import match_lines, write_agent_match
from pinochle_sim.openspiel import agent_match

OUT = RESULTS / "strategy" / "openspiel"
SIMULATIONS = 100
OPPONENTS = {
    "counting": PolicySet(play="counting"),
    # from trick 7, as the committed match played it (pimc's default then)
    "pimc": PolicySet.from_options(["play.from_trick=7"], play="pimc"),
}


def main(deals: int, which: list[str]) -> None:
    for name in which:
        pairs, s = agent_match("partnership", (f"openspiel:ismcts:{SIMULATIONS}", None),
                               (name, OPPONENTS[name]), deals, seed=0)  # fmt: skip
        write_agent_match(pairs, s, str(OUT / f"ismcts_vs_{name}"), overwrite=True)
        print("\n".join(match_lines(s)), file=sys.stderr)
    readme()


def readme() -> None:
    rows = []
    for name in OPPONENTS:
        f = OUT / f"ismcts_vs_{name}" / "summary.json"
        if f.exists():
            s = json.loads(f.read_text())
            cpu_a, cpu_b = s["cpu_s_per_decision_a"] * 1000, s["cpu_s_per_decision_b"] * 1000
            rows.append(
                f"| {s['b']} | {s['deals']} | {s['diff_per_deal']:+.1f} ({s['diff_lo']:+.1f} to "
                f"{s['diff_hi']:+.1f}) | {s['mean_score_a']:.1f} | {s['mean_score_b']:.1f} | "
                f"{cpu_a:.0f} ms | {cpu_b:.1f} ms |"
            )
    (OUT / "README.md").write_text(
        "# OpenSpiel's IS-MCTS against our players\n\n"
        f"Duplicate matches, partnership, the engine's deals of seed 0, each deal played twice "
        f"with the seats swapped (`pinochle-sim compare openspiel:ismcts:{SIMULATIONS} "
        "play=counting --hands N`). IS-MCTS: OpenSpiel's Python implementation, random-rollout "
        f"evaluator, {SIMULATIONS} simulations a decision, UCT c = 2, worlds from "
        "`pinochle_sim.agents.determinize` (the hidden cards dealt again, melds and voids kept). "
        "It decides everything its seats decide: bids, trump, the pass, the throw-in, cards. "
        "`pimc` samples from trick 7 here (`play.from_trick=7`, its default when these "
        "matches were played; its default now starts at trick 4 in partnership).\n\n"
        "| IS-MCTS against | deals | IS-MCTS minus it, per deal (95% CI) | IS-MCTS score/hand | "
        "its score/hand | IS-MCTS CPU a decision | its CPU a decision |\n"
        "|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n\n"
        "**What limits the comparison.** IS-MCTS with random rollouts values a bid by hands "
        "played out at random, so it bids with no sense of what its cards are worth, and a "
        "deal's score is dominated by the auction; a hundred simulations a decision is a small "
        "budget for a hand of about 15 decisions a seat, most with hidden cards; the match is "
        "short (the Python search costs about a quarter of a second a decision), so the intervals "
        "are wide. The figures show where a general-purpose search stands without pinochle "
        "knowledge, not how strong IS-MCTS can be with an evaluator or bidding of its own.\n\n"
        "Data: `ismcts_vs_*/pairs.csv` (one row per deal), `summary.csv`, `summary.json`; made "
        "by `experiments/openspiel_matches.py`.\n"
    )


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    main(n, sys.argv[2:] or list(OPPONENTS))
