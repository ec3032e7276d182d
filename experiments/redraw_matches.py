"""Draw every duplicate match's chart in results/ again from its stored summary (a chart change
needs no match played again): each folder holding ``summary.json`` (the match's provenance and
summary table, as ``compare`` writes it) gets ``compare.png`` and ``compare.svg`` anew.

Run with ``python experiments/redraw_matches.py``; the matches themselves are made by
``strategy_lab.py``, ``pimc_strength.py`` and ``solver_studies.py``.
"""

from __future__ import annotations

import json
import sys

import pandas as pd
from _common import RESULTS

from pinochle_sim.analysis.reports.charts_compare import match_chart
from pinochle_sim.analysis.reports.style import save

if __name__ == "__main__":
    for path in sorted(RESULTS.rglob("summary.json")):
        if "runs" in path.relative_to(RESULTS).parts or not (path.parent / "compare.png").exists():
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        summary = pd.DataFrame(doc.pop("summary"))
        save(match_chart(summary, doc), str(path.parent / "compare"))
        print(f"redrawn: {path.parent / 'compare.png'}", file=sys.stderr)
