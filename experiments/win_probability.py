"""Study: who wins from here - the chance of winning the game from the score before a deal.

Writes results/win_probability/ from a 20,000-game partnership run and
results/two-hand/win_probability/ from a 20,000-game two-hand run (seed 0, default policies;
games played to the rules' target, one row per deal). Run alone with
`python experiments/win_probability.py`, or every study with `make experiments`.
"""

from _common import ensure_run, write_study

GAMES = 20_000

if __name__ == "__main__":
    write_study("win_probability", ensure_run("partnership", GAMES, games=True))
    write_study("win_probability", ensure_run("two-hand", GAMES, games=True), under="two-hand")
