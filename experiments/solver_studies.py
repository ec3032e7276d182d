"""Studies: the double-dummy solver against the bots (results/solver/).

* ``card_play_cost``: double-dummy against actual trick points of the bidding side, for the
  ``greedy`` (default) and ``counting`` play policies, by bid and by trumps;
* ``go_set_dd``: P(set | bid) and P(set | points needed) when every seat plays double dummy,
  beside the bots' curves;
* ``makeable``: how often the bots' bids are makeable at all;
* ``solver_play``: the two-hand ``solver`` play policy (perfect play-out) in a duplicate match
  against the default, ``compare play=solver default --rules two-hand``.

The partnership studies read ``run --dd`` folders (:data:`DD_RUNS`: seed, hands) made here or
resumed in ``results/runs/`` (not committed), 100 hands a part so an interruption loses little.
The double-dummy value of a hand depends only on where trick play starts, which the play policy
does not change, so the ``counting`` figures pair each hand of a ``--dd`` run with the same
deal played by ``counting`` bots (simulated here, no solving; the script checks the deals,
auctions and passes are the same).

Solving is slow (a partnership deal takes about 0.5 s on one thread, on average: 20,000 hands
are about 1.4 hours on two cores): ``python experiments/solver_studies.py`` makes every run to
the end on every core;
``--available`` writes the studies from the parts already solved (a partial run: the READMEs
say how many hands); ``--redraw`` only draws the charts again from the stored tables. Run
alone; ``make experiments`` does not include it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
from _common import RESULTS

from pinochle_sim.analysis.compare import compare, write_match
from pinochle_sim.analysis.reports import charts_dd, dd_studies
from pinochle_sim.analysis.reports.catalog import STUDIES
from pinochle_sim.analysis.reports.style import save
from pinochle_sim.engines import ENGINE_VERSION
from pinochle_sim.policies import PolicySet
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.simulate.hands import play_hands
from pinochle_sim.runs.spec import RunSpec
from pinochle_sim.runs.store.files import MANIFEST, META_KEY
from pinochle_sim.runs.store.provenance import provenance

OUT = RESULTS / "solver"
DD_RUNS = ((0, 20000),)
"""(seed, hands) of the partnership ``--dd`` runs the studies pool."""
PART = 100
COMPARE_DEALS = 2000
SAME_START = (
    "dealer", "bidder", "bid", "trump", "conceded", "passed_to_bidder", "passed_to_partner",
    *(f"dealt_{p}" for p in range(4)), "team_meld_0", "team_meld_1",
)  # fmt: skip
"""Columns that fix where trick play starts: equal in the greedy and counting records."""


def run_folder(seed: int, hands: int) -> Path:
    return RESULTS / "runs" / ("solver-dd-partnership" + (f"-seed{seed}" if seed else ""))


def solved_parts(seed: int, hands: int, available: bool) -> tuple[pd.DataFrame, dict]:
    """The records of one ``--dd`` run (made or finished first unless ``available``)."""
    folder = run_folder(seed, hands)
    if not available:
        resume = (folder / MANIFEST).exists()
        run(hands, seed=seed, dd=True, part_size=PART, out=str(folder), resume=resume)
    parts = sorted(folder.glob("part-*.parquet"))
    if not parts:
        return pd.DataFrame(), {}
    meta = json.loads(pq.read_schema(parts[0]).metadata[META_KEY])
    frame = pd.concat([pq.read_table(p).to_pandas() for p in parts], ignore_index=True)
    return frame, meta


def with_counting(greedy: pd.DataFrame, seed: int) -> pd.DataFrame:
    """The same hands played by ``counting`` bots, with the greedy run's dd columns."""
    n = int(greedy["hand"].max()) + 1
    cols = play_hands(seed, 0, n, policies=PolicySet.from_options(play="counting"))
    other = pd.DataFrame(cols).set_index("hand").loc[greedy["hand"].to_numpy()].reset_index()
    for c in SAME_START:
        if not np.array_equal(other[c].to_numpy(), greedy[c].to_numpy().astype(np.int64)):
            raise SystemExit(f"counting and greedy records differ in {c}: not the same deals")
    other["dd_points"] = greedy["dd_points"].to_numpy()
    other["dd_made"] = greedy["dd_made"].to_numpy()
    return other


def readme(name: str, title: str, text: str, meta: dict, n: int, planned: int) -> str:
    partial = (
        f"\n> **Partial**: {n:,} of the {planned:,} hands the script plans were solved by the "
        "deadline; `python experiments/solver_studies.py` finishes the runs and rewrites this "
        "page.\n"
        if n < planned
        else ""
    )
    seeds = ", ".join(str(s) for s, _ in DD_RUNS)
    made = meta.get("engine_version")
    same = (
        f" (engine {ENGINE_VERSION} makes the same records: the versions since changed only "
        "`pimc`'s default first trick, which these runs do not play)"
        if made is not None and made != ENGINE_VERSION
        else ""
    )
    return (
        f"# {title}\n\n![{title}]({name}.png)\n\n{text}\n{partial}\n"
        f"*Runs*: `pinochle-sim run --hands H --seed S --dd` of `partnership`, seeds {seeds}, "
        f"default policies (bid: estimate, pass: standard, play: greedy, throw-in: concede); "
        f"{n:,} hands in all (hands 0.. of each seed, complete parts of 100). "
        f"pinochle-sim {meta.get('package_version', '?')}, engine {meta.get('engine_version')}"
        f"{same}. "
        f"Made by `experiments/solver_studies.py`.\n\nData: [`{name}.csv`]({name}.csv)\n"
    )


def partnership_studies(available: bool) -> None:
    greedy, counting, meta = [], [], {}
    for seed, hands in DD_RUNS:
        g, m = solved_parts(seed, hands, available)
        if len(g):
            greedy.append(g.assign(seed=seed))
            counting.append(with_counting(g, seed).assign(seed=seed))
            meta = meta or m
    if not greedy:
        raise SystemExit("no solved parts yet: run without --available first")
    g = pd.concat(greedy, ignore_index=True)
    c = pd.concat(counting, ignore_index=True)
    n, planned = len(g), sum(h for _, h in DD_RUNS)
    seeds = ", ".join(str(s) for s, _ in DD_RUNS)
    meta = meta | {"hands_read": n, "partial": n < planned, "planned": planned, "seed": seeds}
    print(f"{n:,} solved hands", file=sys.stderr)
    studies = {
        "card_play_cost": (dd_studies.card_play_cost, charts_dd.card_play_cost, True),
        "go_set_dd": (dd_studies.go_set_dd, charts_dd.go_set_dd, True),
        "makeable": (dd_studies.makeable, charts_dd.makeable, False),
    }
    for name, (question, chart, both) in studies.items():
        t = question(g)
        if both:
            t = pd.concat(
                [t.assign(policy="greedy"), question(c).assign(policy="counting")],
                ignore_index=True,
            )
            if name == "go_set_dd":  # the double-dummy curve is the same for both
                t = t[(t["who"] == "bots") | (t["policy"] == "greedy")]
        out = OUT / name
        out.mkdir(parents=True, exist_ok=True)
        t.to_csv(out / f"{name}.csv", index=False, float_format="%.4f")
        (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
        save(chart(t, meta), str(out / name))
        study = STUDIES[name]
        text = study.text(t, None)  # type: ignore[arg-type]
        (out / "README.md").write_text(readme(name, study.title, text, meta, n, planned))
        print(f"{name}: {out}", file=sys.stderr)


def redraw() -> None:
    """Draw the partnership studies' charts again from their CSVs and ``meta.json`` (a chart
    change needs no solving); a study without ``meta.json`` (written by this script from now
    on) gets the provenance of the ``--dd`` runs it was made from, rebuilt from their spec."""
    charts = {"card_play_cost": charts_dd.card_play_cost, "go_set_dd": charts_dd.go_set_dd,
              "makeable": charts_dd.makeable}  # fmt: skip
    for name, chart in charts.items():
        out = OUT / name
        if not (out / f"{name}.csv").exists():
            continue
        t = pd.read_csv(out / f"{name}.csv", keep_default_na=False, na_values=[""])
        if "policy" in t:
            t["policy"] = t["policy"].replace("", None)
        if (out / "meta.json").exists():
            meta = json.loads((out / "meta.json").read_text())
        else:
            seed, hands = DD_RUNS[0]
            spec = RunSpec(hands, seed=seed, dd=True, part_size=PART)
            meta = provenance(spec, 0, hands, created="") | {
                "hands_read": hands, "partial": False, "planned": hands,
                "seed": ", ".join(str(s) for s, _ in DD_RUNS),
            }  # fmt: skip
            (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
        save(chart(t, meta), str(out / name))
        print(f"{name}: redrawn in {out}", file=sys.stderr)


def context() -> str:
    """The ``counting`` match on the same deals, when it was made (``compare play=counting
    default --rules two-hand --hands 2000 --out results/runs/compare-counting-two-hand``)."""
    path = RESULTS / "runs" / "compare-counting-two-hand" / "summary.json"
    if not path.exists():
        return ""
    a = pd.DataFrame(json.loads(path.read_text())["summary"]).iloc[0]
    return (
        "For comparison, on the same deals `counting` minus `default`: "
        f"{a['diff_per_deal']:+.2f} points per deal (95% CI {a['diff_lo']:+.2f} to "
        f"{a['diff_hi']:+.2f}, {int(a['deals']):,} deals): card counting alone loses to "
        "greedy play in the two-hand play-out, where a search is the fix.\n\n"
    )


def solver_play() -> None:
    out = OUT / "solver_play"
    folder = RESULTS / "runs" / "compare-solver-two-hand"
    if not (folder / "summary.json").exists():
        a = ("play=solver", PolicySet.from_options(play="solver"))
        b = ("default", PolicySet.from_options())
        write_match(compare("two-hand", a, b, COMPARE_DEALS, 0), folder, overwrite=True)
    doc = json.loads((folder / "summary.json").read_text())
    out.mkdir(parents=True, exist_ok=True)
    for f in ("summary.csv", "compare.png", "compare.svg"):
        shutil.copy(folder / f, out / f)
    s = pd.DataFrame(doc["summary"])
    a = s.iloc[0]
    (out / "README.md").write_text(
        "# A perfect two-hand play-out: `solver` against the default play\n\n"
        "![compare](compare.png)\n\n"
        f"`pinochle-sim compare play=solver default --rules two-hand --hands "
        f"{int(a['deals'])} --seed 0`: a duplicate match, every deal played twice with the "
        "seats swapped. `solver` plays the play-out of the last 12 tricks perfectly (every "
        "card is known once the stock is gone); the stock phase and the melds are the default "
        f"policies' on both sides.\n\n`solver` minus `default`: **{a['diff_per_deal']:+.2f} "
        f"points per deal** (95% CI {a['diff_lo']:+.2f} to {a['diff_hi']:+.2f}; "
        f"{int(a['deals']):,} deals, each played twice), {a['diff_per_hand']:+.2f} per hand.\n\n"
        + context()
        + "Data: [`summary.csv`](summary.csv); made by `experiments/solver_studies.py`.\n"
    )
    print(f"solver_play: {out}", file=sys.stderr)


def index() -> None:
    """results/solver/README.md: the studies, each with its headline figure."""
    lines = [
        "# The double-dummy solver against the bots",
        "",
        "Made by `experiments/solver_studies.py` (see its docstring). Double dummy: every seat "
        "plays perfectly with every card seen, from the position where trick play starts.",
        "",
    ]
    for name in ("card_play_cost", "go_set_dd", "makeable", "solver_play"):
        md = OUT / name / "README.md"
        if md.exists():
            title = md.read_text().splitlines()[0].lstrip("# ")
            lines.append(f"* [{title}]({name}/)")
    (OUT / "README.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--available", action="store_true", help="use the parts solved so far")
    ap.add_argument(
        "--redraw", action="store_true", help="only draw the charts again from the stored tables"
    )
    args = ap.parse_args()
    if args.redraw:
        redraw()
        sys.exit(0)
    solver_play()
    partnership_studies(args.available)
    index()
