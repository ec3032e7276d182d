"""Reports: one pandas function per question (:mod:`.questions`, :mod:`.questions_two_hand`), one
chart per question (:mod:`.charts_report`, house style in :mod:`.style`), the studies a report can
hold (:mod:`.catalog`), a publishable report (:mod:`.report`), and one question over several runs
with its chart (:mod:`.overlay`, :mod:`.charts_overlay`; public as :mod:`pinochle_sim.charts`)."""

from pinochle_sim.analysis.reports.catalog import STUDIES
from pinochle_sim.analysis.reports.questions import (
    auction_summary,
    bid_vs_meld,
    bidding_side_tricks,
    go_set,
    meld_by_trump_length,
    meld_distribution,
    partner_meld,
    pass_value,
)
from pinochle_sim.analysis.reports.questions_two_hand import (
    early_tricks,
    meld_laid,
    score_margin,
    win_probability,
)
from pinochle_sim.analysis.reports.report import write_report

__all__ = [
    "STUDIES",
    "auction_summary",
    "bid_vs_meld",
    "bidding_side_tricks",
    "early_tricks",
    "go_set",
    "meld_by_trump_length",
    "meld_distribution",
    "meld_laid",
    "partner_meld",
    "pass_value",
    "score_margin",
    "win_probability",
    "write_report",
]
