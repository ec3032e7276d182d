"""How strong is ``pimc`` play, and what does it cost?

Steps (each writes under results/strategy/pimc/, and ``readme`` rebuilds the README and the
chart from what the others wrote):

* ``match RULES``: duplicate match ``play=pimc`` (defaults) against ``play=counting`` on
  ``--deals`` deals of seed SEED, timed: the process CPU time (all threads) and wall time per
  deal go into ``costs.csv``; the match itself into ``RULES/`` (pairs, summary, chart);
* ``sweep``: ``pimc`` with other ``worlds`` and ``from_trick`` values against ``counting`` on
  ``--deals`` deals (partnership), each timed the same way, into ``sweep.csv``;
* ``readme``: ``README.md`` and ``strength_cost.png/svg`` (gain per deal with its 95% CI
  against CPU seconds per deal, one point per setting).

Run: ``python experiments/pimc_strength.py match partnership --deals 2000``, then
``... sweep --deals 300``, then ``... readme``. CPU-bound: run it with ``nice`` on a shared
machine; CPU seconds per deal do not depend on how busy the machine is, wall time does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from pinochle_sim.analysis.compare import compare, write_match
from pinochle_sim.analysis.reports.style import PALETTE, new_figure, note, save
from pinochle_sim.core.version import __version__
from pinochle_sim.policies import REGISTRY, PolicySet
from pinochle_sim.policies.pimc import first_trick_for
from pinochle_sim.rules import PRESETS, get_preset

OUT = Path(__file__).resolve().parent.parent / "results" / "strategy" / "pimc"
SEED = 0
COUNTING = ("counting", PolicySet(play="counting"))
DEFAULTS = {p: s.default for p, s in REGISTRY["play"]["pimc"].params.items()}
SWEEP = [(4, 7), (32, 7), (16, 8), (16, 9), (8, 6), (16, 6), (32, 6), (16, 5), (8, 5)]
"""(worlds, from_trick) settings tried besides the defaults."""
COST_COLUMNS = ["rules", "worlds", "from_trick", "deals", "cpu_s", "wall_s", "gain", "lo", "hi"]


def _pimc(worlds: int, from_trick: int) -> tuple[str, PolicySet]:
    params = [f"play.worlds={worlds}", f"play.from_trick={from_trick}"]
    return f"pimc w{worlds} t{from_trick}", PolicySet.from_options(play="pimc", params=params)


def _timed_match(rules: str, worlds: int, from_trick: int, deals: int, folder: Path | None):
    a = _pimc(worlds, from_trick)
    compare(rules, a, COUNTING, 1, SEED)  # compile (or load) the kernels outside the clock
    cpu, wall = time.process_time(), time.perf_counter()
    m = compare(rules, a, COUNTING, deals, SEED)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if folder is not None:
        write_match(m, folder, overwrite=True)
    row = m.summary.iloc[0]
    return {
        "rules": rules, "worlds": worlds, "from_trick": from_trick, "deals": deals,
        "cpu_s": cpu, "wall_s": wall, "gain": row["diff_per_deal"], "lo": row["diff_lo"],
        "hi": row["diff_hi"],
    }  # fmt: skip


def _append(csv: Path, row: dict, replace_rules: bool = False) -> None:
    """Add ``row`` to ``csv`` in place of the row of its setting (``replace_rules``: of its
    rules, whatever the setting: the defaults' row of each rules)."""
    old = pd.read_csv(csv) if csv.exists() else pd.DataFrame(columns=COST_COLUMNS)
    keep = ~((old["rules"] == row["rules"]) & (old["worlds"] == row["worlds"])
             & (old["from_trick"] == row["from_trick"]))  # fmt: skip
    if replace_rules:
        keep &= old["rules"] != row["rules"]
    new = pd.concat([old[keep], pd.DataFrame([row])], ignore_index=True)
    new[COST_COLUMNS].to_csv(csv, index=False, float_format="%.4f")
    print(json.dumps(row), file=sys.stderr)


def default_trick(rules: str) -> int:
    """The first trick pimc samples at its defaults under ``rules`` (the rules' own)."""
    return first_trick_for(get_preset(rules), DEFAULTS["from_trick"])


def match(rules: str, deals: int) -> None:
    """The defaults against counting, into RULES/ and costs.csv (the first sampled trick
    written out: the same records as the default's 0, by the rules)."""
    OUT.mkdir(parents=True, exist_ok=True)
    trick = default_trick(rules)
    row = _timed_match(rules, DEFAULTS["worlds"], trick, deals, OUT / rules)
    _append(OUT / "costs.csv", row, replace_rules=True)


def sweep(deals: int, only: list[tuple[int, int]] | None = None) -> None:
    """Other settings (``only`` those, if given) against counting on the same deals
    (partnership), into sweep.csv."""
    OUT.mkdir(parents=True, exist_ok=True)
    for worlds, from_trick in only or SWEEP:
        _append(OUT / "sweep.csv", _timed_match("partnership", worlds, from_trick, deals, None))


def _chart(points: pd.DataFrame) -> None:
    fig, (ax,) = new_figure(
        "Sampled-world play (pimc) against counting: strength and cost",
        f"partnership, duplicate deals of seed {SEED}; pimc plays by sampling from trick "
        f"`from_trick` on, `worlds` deals per decision; pinochle-sim {__version__}",
    )
    per = (points["cpu_s"] / points["deals"]).to_numpy()
    is_default = ((points["worlds"] == DEFAULTS["worlds"])
                  & (points["from_trick"] == default_trick("partnership"))).to_numpy()  # fmt: skip
    err = np.vstack([points["gain"] - points["lo"], points["hi"] - points["gain"]])
    for mask, colour, name in ((~is_default, PALETTE[0], "other settings"),
                               (is_default, PALETTE[1], "defaults")):  # fmt: skip
        ax.errorbar(per[mask], points["gain"][mask], yerr=err[:, mask], fmt="o", capsize=6,
                    markersize=10, lw=2, color=colour, label=name)  # fmt: skip
    above: list[tuple[float, float]] = []  # labels placed over their bars: (log10 x, top)
    for x, (_, r) in sorted(zip(per, points.iterrows(), strict=True), key=lambda t: t[0]):
        label = (
            f"{int(r['worlds'])} worlds\nfrom trick {int(r['from_trick'])}\nn = {int(r['deals']):,}"
        )
        # a label that would sit on a neighbour's goes under its own bar instead
        near = any(abs(np.log10(x) - lx) < 0.12 and abs(r["hi"] - top) < 15 for lx, top in above)
        if near:
            ax.annotate(label, (x, r["lo"]), xytext=(0, -8), textcoords="offset points",
                        fontsize=12, ha="center", va="top")  # fmt: skip
        else:
            above.append((float(np.log10(x)), float(r["hi"])))
            ax.annotate(label, (x, r["hi"]), xytext=(0, 8), textcoords="offset points",
                        fontsize=12, ha="center", va="bottom")  # fmt: skip
    ax.margins(y=0.18)
    ax.set_xscale("log")
    ax.margins(x=0.12)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax.legend(loc="upper left", frameon=False)
    ax.axhline(0, color="#444444", lw=1)
    ax.set_xlabel("CPU seconds per duplicate deal (both plays, all seats; log scale)")
    ax.set_ylabel("pimc minus counting, points per deal (95% CI)")
    note(fig, "A deal is played twice with the sides swapped; its gain is the sum over both "
              "plays. Bars: normal 95% intervals over deals.")  # fmt: skip
    save(fig, str(OUT / "strength_cost"))


def readme() -> None:
    costs = pd.read_csv(OUT / "costs.csv")
    costs = costs.sort_values("rules", key=lambda r: r.map(list(PRESETS).index), kind="stable")
    swept = pd.read_csv(OUT / "sweep.csv") if (OUT / "sweep.csv").exists() else costs[:0]
    points = pd.concat([costs[costs["rules"] == "partnership"], swept], ignore_index=True)
    _chart(points)
    w = DEFAULTS["worlds"]
    firsts = {r: default_trick(r) for r in costs["rules"]}
    own = ", ".join(f"{t} in {r}" for r, t in firsts.items())
    lines = [
        "# Sampled-world play (`pimc`) against `counting`",
        "",
        f"`pimc` (defaults: `worlds` = {w}, `from_trick` = {DEFAULTS['from_trick']}: the rules' "
        f"own first trick, the earliest at which 1,000 duplicate deals take at most 10 minutes "
        f"on two cores: {own}) plays `counting` until that trick, then at each decision deals "
        f"the cards it has not seen {w} times, uniformly "
        "among the deals consistent with what it knows (meld shown, its pass, the widow, "
        'voids and "nothing higher"), solves each deal double dummy and plays the card with '
        "the best total. Duplicate matches against `counting`, seed "
        f"{SEED}: each deal is played with pimc on one side and counting on the other, then "
        "swapped (three-hand: pimc in each seat in turn); the gain per deal sums both plays.",
        "",
        "## At the defaults",
        "",
        "| rules | from trick | deals | pimc minus counting per deal (95% CI) | CPU s per deal | "
        "CPU ms per hand | wall s per deal (2 shared cores) | 1,000 deals on 2 idle cores |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for _, r in costs.iterrows():
        per = r["cpu_s"] / r["deals"]
        plays = 3 if get_preset(r["rules"]).players == 3 else 2
        lines.append(
            f"| {r['rules']} | {int(r['from_trick'])} | {int(r['deals']):,} | "
            f"{r['gain']:+.2f} ({r['lo']:+.2f} to "
            f"{r['hi']:+.2f}) | {per:.3f} | {1000 * per / plays:.0f} | "
            f"{r['wall_s'] / r['deals']:.3f} | {1000 * per / 2 / 60:.1f} min |"
        )
    lines += [
        "",
        "A deal is two hands (one play each way; three-hand: three, pimc in each seat in turn), "
        "each with pimc on one side: CPU ms per hand is the deal's CPU time per play, for the "
        "whole hand (auction, pass, the pimc seats' "
        "searches and the counting seats). 1,000 deals on 2 idle cores divides the CPU time "
        "by two; the wall time depends on what else ran on the two cores (up to four other "
        "jobs for the earlier rows, tests and editing for the later ones).",
        "",
        "## Other settings (partnership)",
        "",
        "| worlds | from trick | deals | gain per deal (95% CI) | CPU s per deal |",
        "|---|---|---|---|---|",
    ]
    for _, r in points.sort_values(["from_trick", "worlds"]).iterrows():
        lines.append(
            f"| {int(r['worlds'])} | {int(r['from_trick'])} | {int(r['deals']):,} | "
            f"{r['gain']:+.2f} ({r['lo']:+.2f} to {r['hi']:+.2f}) | "
            f"{r['cpu_s'] / r['deals']:.3f} |"
        )
    notes = OUT / "notes.md"
    lines += ["", "![strength and cost](strength_cost.png)", ""]
    if notes.exists():
        lines += [notes.read_text(encoding="utf-8").strip(), ""]
    lines += [
        "Files: `costs.csv` and `sweep.csv` (one row per setting: deals, CPU and wall "
        "seconds, gain and CI), each preset's match in its folder (`pairs.parquet`, "
        "`summary.csv`, `summary.json`, chart). Script: `experiments/pimc_strength.py`.",
        "",
        f"pinochle-sim {__version__}, seed {SEED}.",
    ]
    (OUT / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=["match", "sweep", "readme"])
    ap.add_argument("rules", nargs="?", default="partnership")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--only", nargs="*", default=None, help="sweep settings WORLDS,FROM_TRICK")
    args = ap.parse_args()
    if args.step == "match":
        match(args.rules, args.deals)
    elif args.step == "sweep":
        only = [tuple(map(int, x.split(","))) for x in args.only] if args.only else None
        sweep(args.deals, only)
    else:
        readme()
