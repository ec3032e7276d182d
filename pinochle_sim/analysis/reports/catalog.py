"""The studies a report can hold: for each, its question (what it gathers from every part of a
run), its chart, its paragraph of text for ``report.md``, the runs it applies to and the exact
values its estimates are checked against. :mod:`.report` writes them."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from pinochle_sim.analysis.reports import (
    charts_dd,
    charts_report,
    dd_studies,
    questions,
    questions_two_hand,
    selfcheck,
)
from pinochle_sim.analysis.reports.gather import Question
from pinochle_sim.analysis.reports.load import Data
from pinochle_sim.core.limits import MIN_REPORT_HANDS
from pinochle_sim.rules import Ruleset


def _row(t: pd.DataFrame, **where: Any) -> pd.Series:
    m = pd.Series(True, index=t.index)
    for k, v in where.items():
        m &= t[k] == v
    return t[m].iloc[0]


def _ci(r: pd.Series, fmt: str = ".1f") -> str:
    return f"{r['mean']:{fmt}} (95% CI {r['ci_lo']:{fmt}}-{r['ci_hi']:{fmt}}, n = {int(r['n']):,})"


def _pct(r: pd.Series) -> str:
    return f"{r['p']:.1%} (95% CI {r['ci_lo']:.1%}-{r['ci_hi']:.1%}, n = {int(r['n']):,})"


def _text_meld_by_length(t: pd.DataFrame, r: Ruleset) -> str:
    sd = _row(t, suits="spades/diamonds", trump_length=6)
    hc = _row(t, suits="hearts/clubs", trump_length=6)
    return (
        "Each circle is a seat's simulated average meld from the dealt hand if a suit were "
        "trump, against how many cards of that suit the seat holds, with its 95% confidence "
        "interval; the line through it is the exact average (computed, not sampled: "
        "`pinochle-sim exact`), and the pale bar beside it the exact middle 80% of hands, the "
        "tick the exact median. With six trumps a seat melds "
        f"{_ci(sd)} in spades or diamonds (exact {sd['exact_mean']:.1f}) and {_ci(hc)} in "
        f"hearts or clubs (exact {hc['exact_mean']:.1f}): the pinochle cards (QS, JD) make the "
        "first two suits worth more once they are trump."
    )


def _text_meld_distribution(t: pd.DataFrame, r: Ruleset) -> str:
    x = r.min_bid if (t["x"] == r.min_bid).any() else int(t["x"].iloc[len(t) // 4])
    who = "bidding team" if r.partnerships else "bidder"
    pre = _row(t, who=who, stage="pre-pass", x=x)
    post = _row(t, who=who, stage="post-pass", x=x)
    side = "bidding partnership" if r.partnerships else "bidder"
    change = "passing" if r.partnerships else "taking the widow and discarding"
    fixed = t[t["stage"] == questions.FIXED_TRUMP]
    left = ""
    if len(fixed):
        f = _row(fixed, x=x)
        left = (
            "The left panel is a dealt hand in a trump chosen before the cards are seen: its "
            "exact curve (computed, not sampled) against the simulated hands; a hand melds at "
            f"least {x} in {f['exact_p']:.3%} of cases (simulated {f['p']:.3%}, 95% CI "
            f"{f['ci_lo']:.3%}-{f['ci_hi']:.3%}, n = {int(f['n']):,} seat-suit hands). The "
            "other panels use the trump the auction named, which the bidder picks to suit the "
            "hand, so dealt hands there meld more. "
        )
    return (
        f"{left}Read a curve at x to get the chance that meld is at least x (log scale, so rare "
        "big melds stay visible); dashed lines are dealt hands, solid lines after the pass. "
        "Each simulated curve runs as far as 20 hands reach, so the flat stretches and the "
        f"last steps are real hands, not an artefact. The {side} holds at least {x} meld in "
        f"{_pct(pre)} of hands as dealt and {_pct(post)} after {change}."
    )


def _text_partner(t: pd.DataFrame, r: Ruleset) -> str:
    zero = t[(t["given"] == "own meld")].sort_values("order").iloc[0]
    bid = t[(t["given"] == "bidder meld (auction)")].sort_values("order")
    mid = bid.iloc[min(4, len(bid) - 1)]
    return (
        "The blue lines show the partner's meld in the same trump as yours, by your own meld "
        "(left, each point at the mean own meld of its shaded bucket) and by your trump length "
        "(right): the partner's expectation falls slightly as your hand "
        f"improves (you hold the cards they would need), from {_ci(zero)} when yours is "
        f"{zero['level']}. "
        "The orange line is what actual bidders got from partner and pass together: with "
        f"{mid['level']} of their own it was {_ci(mid)} points."
    )


def _text_pass(t: pd.DataFrame, r: Ruleset) -> str:
    bg = _row(t, measure="bidder gain", team_trumps="all")
    tg = _row(t, measure="team gain", team_trumps="all")
    return (
        "Lines compare the bidder's meld before and after the pass and the gain for the bidder "
        "and for the partnership, by how many trumps the partnership holds. On average the pass "
        f"adds {_ci(bg)} to the bidder's meld and {_ci(tg)} to the partnership's."
    )


def _text_bid_vs_meld(t: pd.DataFrame, r: Ruleset) -> str:
    top = t.iloc[(t["n"]).to_numpy().argmax()]
    return (
        "For each winning bid, the line is the bidding side's average meld after the pass; the "
        "dashed line is the meld needed if the side takes half of the trick points, the dotted "
        f"one the meld needed even if it takes them all. The most common winning bid, "
        f"{int(top['bid'])}, came with {_ci(top)} meld."
    )


def _text_go_set(t: pd.DataFrame, r: Ruleset) -> str:
    a = _row(t, by="all", level="all")
    bucket = t[(t["by"] == "needed from tricks") & (t["p"] >= 0.5)].sort_values("order")
    tip = (
        f" Once the side needs {bucket.iloc[0]['level']} points from tricks it goes set more "
        "often than not."
        if len(bucket)
        else ""
    )
    bids = t[(t["by"] == "bid") & (t["n"] >= questions.MIN_N)]
    bids = bids[bids["ci_hi"] - bids["ci_lo"] <= 0.05]  # rates known to +-2.5 points
    worst = ""
    if len(bids) and "mean_needed" in bids:
        w = bids.loc[bids["p"].idxmax()]
        mean_all = float(a["mean_needed"]) if "mean_needed" in a else float("nan")
        worst = (
            " Among bids whose rate is known to within 2.5 points the set rate peaks at "
            f"{w['level']} ({_pct(w)}): there the bidding side needs {w['mean_needed']:.0f} "
            f"points from tricks on average (the dashed line), against {mean_all:.0f} over all "
            "bids. Higher bids need more from tricks but come with stronger hands, so the "
            "rate by bid is not simply that need."
        )
    return (
        "Left: the chance of going set (conceded hands count as set) for each winning bid, the "
        "axis fitted to the rates; right: the same against the points the bidding side still "
        "needs from tricks after meld, which is what really decides it. Overall the bidder "
        f"went set in {_pct(a)} of hands and conceded in {a['concede_p']:.1%}.{tip}{worst}"
    )


def _text_tricks(t: pd.DataFrame, r: Ruleset) -> str:
    six = t[(t["by"] == "team trumps") & (t["level"] == 6)]
    if not r.partnerships:
        extra = f" With six trumps dealt the bidder took {_ci(six.iloc[0])}." if len(six) else ""
        return (
            "Average trick points (including the last trick and the discarded counters) of the "
            "bidder in hands played out, by the trumps and aces of the bidder's dealt hand; the "
            f"dashed line is half of the {r.total_trick_points} available.{extra}"
        )
    extra = (
        f" With six trumps between them the partners took {_ci(six.iloc[0])}." if len(six) else ""
    )
    return (
        "Average trick points (including the last trick) of the bidding partnership in hands "
        "played out, by the trumps and by the aces the partners hold (both unchanged by the "
        f"pass); the dashed line is half of the {r.total_trick_points} available.{extra}"
    )


def _text_widow(t: pd.DataFrame, r: Ruleset) -> str:
    gain = _row(t, measure="bidder gain", trumps="all")
    disc = _row(t, measure="discard points", trumps="all")
    return (
        "Lines compare the bidder's meld in the named trump before and after taking the widow "
        "and discarding, and the trick points of the discarded counters (they score for the "
        f"bidder), by the bidder's dealt trump length. The widow adds {_ci(gain)} meld and the "
        f"discards {_ci(disc)} points on average."
    )


def _text_auction(t: pd.DataFrame, r: Ruleset) -> str:
    s = _row(t, what="stuck")
    bids = t[t["what"] == "winning bid"]
    top = bids.iloc[bids["p"].to_numpy().argmax()]
    return (
        "Left: how often each winning bid occurs (log scale); right: who wins the auction, "
        f"counted from the dealer. The dealer was stuck in {_pct(s)} of hands and the most "
        f"common winning bid was {top['level']} ({top['p']:.1%} of hands)."
    )


def _text_meld_laid(t: pd.DataFrame, r: Ruleset) -> str:
    a = _row(t, by="all")
    won = t[t["by"] == "stock tricks won"].set_index("level")
    step = (
        f" Each stock trick won beyond six is worth about "
        f"{won.loc['7', 'mean'] - won.loc['6', 'mean']:.0f} more meld."
        if {"6", "7"} <= set(won.index)
        else ""
    )
    dealt = t[(t["by"] == "dealt meld in trump") & (t["n"] >= questions.MIN_N)]
    short = dealt[dealt["mean"] < dealt["dealt_mean"]]
    tip = (
        f" Seats dealt {short.iloc[0]['level']} in trump laid only {_ci(short.iloc[0])}, less "
        f"than the {short.iloc[0]['dealt_mean']:.0f} their dealt cards held."
        if len(short)
        else ""
    )
    return (
        "Each seat's meld laid down during the deal (dix and a turned-up 9 included) against the "
        "best meld its 12 dealt cards held in the turned-up trump (left) and against the stock "
        "tricks it won (right); the dashed line is the dealt meld of the same seats. A seat lays "
        f"{_ci(a)} points from a dealt hand holding {a['dealt_mean']:.1f}: the twelve cards "
        "drawn from the stock, and melding again with cards already on the table, count for "
        f"more than the deal.{step}{tip}"
    )


def _text_early_tricks(t: pd.DataFrame, r: Ruleset) -> str:
    margin = t[t["measure"] == "margin of the winner"]
    first, last = margin.iloc[0], margin.iloc[-1]
    wins = t[t["measure"] == "winner wins the deal"].set_index("level")
    by_won = t[t["measure"] == "win by stock tricks"].set_index("level")
    half = len(margin) // 2
    more = (
        f" Winning {half + 1} stock tricks instead of {half} raises the chance of winning the "
        f"deal from {_pct(by_won.loc[half])} to {_pct(by_won.loc[half + 1])}."
        if {half, half + 1} <= set(by_won.index)
        else ""
    )
    return (
        "Left: for each stock trick, the final score margin of the seat that won it over the "
        "seat that lost it, and the meld the winner laid right after it; right: the chance of "
        "winning the deal by the number of stock tricks won. The winner of the first trick ends "
        f"{_ci(first)} points ahead and wins the deal in {wins.loc[1, 'p']:.1%} of deals; the "
        f"winner of the last stock trick ({int(last['level'])}) ends {_ci(last)} ahead and wins "
        f"{wins.loc[int(last['level']), 'p']:.1%}. Winning a trick is not a cause: the seat with "
        f"the better cards wins more of them.{more}"
    )


def _text_score_margin(t: pd.DataFrame, r: Ruleset) -> str:
    out = t[t["what"] == "outcome"].set_index("level")
    mean = _row(t, what="mean margin", side="dealer - non-dealer")
    return (
        "Left: the share of deals ending with each score margin, seat 0 minus seat 1 (bars) and "
        "dealer minus non-dealer (line); right: who wins the deal. The dealer wins "
        f"{_pct(out.loc['dealer wins'])} of deals, the non-dealer "
        f"{_pct(out.loc['non-dealer wins'])}, and {_pct(out.loc['tie'])} are tied; the dealer "
        f"ends {_ci(mean)} points ahead on average. The non-dealer leads the first trick, and "
        f"the dealer scores {r.turnup_dix} for a turned-up 9 of trump."
    )


def _bin_label(lo: float, width: float) -> str:
    """``1200-1274`` for the bin [1200, 1275) of whole points."""
    return f"{math.ceil(lo)}-{math.ceil(lo + width) - 1}"


def _text_win_probability(t: pd.DataFrame, r: Ruleset) -> str:
    width = float(t["width"].iloc[0])
    target = r.game_target

    def cell(view: str, own: float, opp: float) -> pd.Series | None:
        own, opp = own // width * width, opp // width * width  # the bins holding these scores
        m = t[(t["view"] == view) & (t["own_lo"] == own) & (t["opp_lo"] == opp)]
        return m.iloc[0] if len(m) and m.iloc[0]["n"] >= questions.MIN_N else None

    first = _row(t, view="first deal")
    own, opp = 0.8 * target, 2 / 3 * target
    ahead = cell("pooled", own, opp)
    example = (
        f" A side with {_bin_label(own // width * width, width)} against "
        f"{_bin_label(opp // width * width, width)} wins {_pct(ahead)}."
        if ahead is not None
        else ""
    )
    step = round(target / 5 / width) * width
    leads = t[(t["view"] == "lead") & (t["lead"] == step)]
    by_lead = f" A lead of about {step:g} points wins {_pct(leads.iloc[0])}." if len(leads) else ""
    auction = ""
    end = t[t["view"] == "end game"]
    if len(end):
        auction = (
            f" Near the end the auction decides: once both sides have {end.iloc[0]['own_lo']:g} "
            f"or more, the side that takes the next bid wins the game {_pct(end.iloc[0])} of the "
            "time (a side that makes its bid usually goes out, and the bidding side wins when "
            "both reach the target). The bidding policy ignores the score, so this is what is "
            "at stake in an end-game auction, not the best way to bid it."
        )
    return (
        "Left: the chance that a side goes on to win the game, by its own score and the "
        "opponents' score before a deal (every deal seen from both sides, so a cell and its "
        "mirror image across the diagonal add up to 100% and the diagonal is 50% by "
        "construction; the bottom row and left column gather every negative score). Right: the "
        "same by the lead alone"
        + (", and split by the side that wins the next auction" if auction else "")
        + f". The first dealer's side wins {_pct(first)} of games.{example}{by_lead}{auction}"
    )


MADE_BY = {
    "game": "a games run: pinochle-sim run --games N",
    "dd_points": "a double-dummy run: pinochle-sim run --hands N --dd",
    "dd_made": "a double-dummy run: pinochle-sim run --hands N --dd",
    "bid": "rules with an auction",
    "stock_tricks_0": "rules with a stock and a turned-up trump",
}
"""How to get a run with a column some study requires."""


def _policy_rows(t: pd.DataFrame) -> pd.DataFrame:
    """The rows of the first play policy of a table that has several (``policy`` column)."""
    return t[t["policy"] == t["policy"].iloc[0]] if "policy" in t.columns else t


def _text_card_play_cost(t: pd.DataFrame, r: Ruleset) -> str:
    parts = []
    for p in dict.fromkeys(t["policy"]) if "policy" in t.columns else [None]:
        a = _row(t if p is None else t[t["policy"] == p], by="all", level="all")
        who = f"`{p}` bots" if p else "the bots"
        parts.append(
            f"with {who} the bidding side took {a['bots_mean']:.1f} trick points where perfect "
            f"play gives {a['dd_mean']:.1f}: a cost of {_ci(a)}"
        )
    return (
        "Double dummy: every seat plays perfectly with every card seen, from the position "
        "where trick play starts. The lines are the bidding side's double-dummy trick points "
        "minus those it actually took, by winning bid (left) and by the side's trumps "
        "(right); hands played out only. On average " + "; ".join(parts) + ". Perfect "
        "defence counts too: a negative cost means the defenders gave points away."
    )


def _text_go_set_dd(t: pd.DataFrame, r: Ruleset) -> str:
    dd_ = _row(t, who="double dummy", by="all", level="all")
    bots = _row(_policy_rows(t), who="bots", by="all", level="all")
    return (
        "Left: P(set) by winning bid; right: against the points the bidding side needs from "
        "tricks after meld. The bots (conceded hands count as set) beside perfect play by "
        f"all four seats on the same deals: the bots went set in {_pct(bots)}, double dummy "
        f"{_pct(dd_)} of the hands."
    )


def _text_makeable(t: pd.DataFrame, r: Ruleset) -> str:
    a = _row(t, by="all", level="all")
    conc = t[(t["by"] == "bots' result") & (t["level"] == "conceded")]
    tail = (
        f" Of the bids the bots conceded, {_pct(conc.iloc[0])} were makeable after all."
        if len(conc)
        else ""
    )
    return (
        "A bid is makeable when the bidding side's meld plus its double-dummy trick points "
        f"reach it (with the save rule where the rules have it). {_pct(a)} of the bots' bids "
        "were makeable; right: the same split by what the bots did with the bid." + tail
    )


DD_MIN_HANDS = 100
"""The fewest hands of a ``--dd`` study: double-dummy runs are small (minutes a hundred hands),
and their charts draw groups of 20."""


@dataclass(frozen=True)
class Study:
    title: str
    question: Callable[[Data], pd.DataFrame]
    """The study's table of one run (checks that the run is of the right kind)."""
    ask: Callable[[Ruleset], Question]
    """The question as its class: what the study gathers from each part of a run (a report
    answers every study it writes over one reading of the run)."""
    chart: Callable[[pd.DataFrame, dict[str, Any]], Any]
    text: Callable[[pd.DataFrame, Ruleset], str]
    applies: Callable[[Ruleset], bool] = lambda r: True
    requires: tuple[str, ...] = ()
    """Columns the run must have beyond those of every run (e.g. ``game``: a games run)."""
    checks: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    """The table's estimates that have exact values, beside them (:mod:`.selfcheck`)."""
    min_hands: int = MIN_REPORT_HANDS
    """The fewest hands (rows) the study is written for: with fewer, its chart's groups are
    mostly empty, and a report leaves it out and says so."""

    def fits(self, rules: Ruleset, names: list[str]) -> bool:
        """Whether the study applies to a run with these rules and column names."""
        return self.applies(rules) and set(self.requires) <= set(names)


STUDIES: dict[str, Study] = {
    "meld_by_trump_length": Study(
        "Expected meld by trump length",
        questions.meld_by_trump_length,
        questions.MeldByTrumpLength,
        charts_report.meld_by_trump_length,
        _text_meld_by_length,
        checks=selfcheck.meld_by_trump_length,
        min_hands=250,
    ),
    "meld_distribution": Study(
        "How much meld: tail probabilities",
        questions.meld_distribution,
        questions.MeldDistribution,
        charts_report.meld_distribution,
        _text_meld_distribution,
        requires=questions.AUCTION_COLUMNS,
        checks=selfcheck.meld_distribution,
    ),
    "partner_meld": Study(
        "What to expect from your partner",
        questions.partner_meld,
        questions.PartnerMeld,
        charts_report.partner_meld,
        _text_partner,
        lambda r: r.partnerships,
    ),
    "pass_value": Study(
        "The value of the pass",
        questions.pass_value,
        questions.PassValue,
        charts_report.pass_value,
        _text_pass,
        lambda r: r.partnerships and r.pass_cards > 0,
        min_hands=500,
    ),
    "bid_vs_meld": Study(
        "Winning bid against meld",
        questions.bid_vs_meld,
        questions.BidVsMeld,
        charts_report.bid_vs_meld,
        _text_bid_vs_meld,
        requires=questions.AUCTION_COLUMNS,
    ),
    "go_set": Study(
        "Go-set probability",
        questions.go_set,
        questions.GoSet,
        charts_report.go_set,
        _text_go_set,
        requires=questions.AUCTION_COLUMNS,
    ),
    "bidding_side_tricks": Study(
        "Trick points of the bidding side",
        questions.bidding_side_tricks,
        questions.BiddingSideTricks,
        charts_report.bidding_side_tricks,
        _text_tricks,
        requires=questions.AUCTION_COLUMNS,
    ),
    "auction_summary": Study(
        "The auction",
        questions.auction_summary,
        questions.AuctionSummary,
        charts_report.auction_summary,
        _text_auction,
        requires=questions.AUCTION_COLUMNS,
        min_hands=250,
    ),
    "widow_value": Study(
        "The value of the widow",
        questions.widow_value,
        questions.WidowValue,
        charts_report.widow_value,
        _text_widow,
        lambda r: r.widow > 0,
        min_hands=500,
    ),
    "meld_laid": Study(
        "Meld scored by hand",
        questions_two_hand.meld_laid,
        questions_two_hand.MeldLaid,
        charts_report.meld_laid,
        _text_meld_laid,
        requires=questions_two_hand.STOCK_COLUMNS,
    ),
    "early_tricks": Study(
        "The value of winning stock tricks",
        questions_two_hand.early_tricks,
        questions_two_hand.EarlyTricks,
        charts_report.early_tricks,
        _text_early_tricks,
        requires=questions_two_hand.STOCK_COLUMNS,
    ),
    "score_margin": Study(
        "Final score margin",
        questions_two_hand.score_margin,
        questions_two_hand.ScoreMargin,
        charts_report.score_margin,
        _text_score_margin,
        requires=questions_two_hand.STOCK_COLUMNS,
    ),
    "card_play_cost": Study(
        "The cost of card play (double dummy)",
        dd_studies.card_play_cost,
        dd_studies.CardPlayCost,
        charts_dd.card_play_cost,
        _text_card_play_cost,
        requires=dd_studies.DD_COLUMNS,
        min_hands=DD_MIN_HANDS,
    ),
    "go_set_dd": Study(
        "Going set under perfect play (double dummy)",
        dd_studies.go_set_dd,
        dd_studies.GoSetDD,
        charts_dd.go_set_dd,
        _text_go_set_dd,
        requires=dd_studies.DD_COLUMNS,
        min_hands=DD_MIN_HANDS,
    ),
    "makeable": Study(
        "How often the bots' bids are makeable (double dummy)",
        dd_studies.makeable,
        dd_studies.Makeable,
        charts_dd.makeable,
        _text_makeable,
        requires=dd_studies.DD_COLUMNS,
        min_hands=DD_MIN_HANDS,
    ),
    "win_probability": Study(
        "Who wins from here: game win probability by score situation",
        questions_two_hand.win_probability,
        questions_two_hand.WinProbability,
        charts_report.win_probability,
        _text_win_probability,
        lambda r: r.teams == 2,
        requires=questions_two_hand.GAME_COLUMNS,
    ),
}
