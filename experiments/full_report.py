"""The whole report of the default 1,000,000-hand run: results/report/report.md and its charts.

Run alone with `python experiments/full_report.py` (or everything with `make experiments`).
"""

from _common import RESULTS, ensure_run

if __name__ == "__main__":
    from pinochle_sim.analysis.reports import write_report

    print(write_report(ensure_run(), RESULTS / "report"))
