"""The hand advisor: "what should I bid with this hand?", answered by simulation.

The user's cards are fixed in their seat; every other card is dealt at random (the constrained
deal of :mod:`pinochle_sim.core.deal`), and the other seats play the chosen policies. So the
answer is *against this table*, not against perfect play (docs/advise.md).

How a bid "is made" (auction games): for each trump ``t`` the advisor plays ``hands`` deals in
which the user's seat is made the bidder at trump ``t`` (a forced contract at the minimum bid,
after the auction the policies played). Each deal gives the bidding side's counted points:
meld after the pass (or after taking the widow and discarding) plus trick points, with the
discarded counters of three-hand, and zero under the save rule when the side took no trick
points. A bid ``b`` is made in that deal when the counted points reach ``b``; the hand score
at ``b`` is the counted points if made, else ``-b``. The play of the hand does not depend on
the bid (the policies play the cards the same way), so one set of deals answers every ``b``.

Two-hand has no auction: given the dealt 12 (and the turned-up card, if known) the advisor
reports the expected deal score, P(win the deal) and the meld laid.

An advice whose players search (``pimc``: a deal or two a second) is paced like a slow match,
and given a keep folder (:func:`default_keep`) it keeps each finished step's deals there as
they land (:mod:`.kept`: a subfolder a trump), so that an interrupted advice resumes and plays
only the deals still missing: the same advice as in one go.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pinochle_sim.analysis.kept import Kept
from pinochle_sim.analysis.session import Pacer, Session, open_session, slow, task_deals
from pinochle_sim.analysis.stats import Z95, wilson
from pinochle_sim.core.cards import SUIT_NAMES, SUITS, format_cards, parse_cards, parse_suit
from pinochle_sim.policies import DEFAULT_POLICIES, PolicySet
from pinochle_sim.rules import Ruleset, dumps_ruleset
from pinochle_sim.rules.meld import score_meld
from pinochle_sim.runs.backends.tasks import Backend, HandsTask, InputsSpec, hands_array, play_task
from pinochle_sim.runs.observer import QUIET, Observer
from pinochle_sim.runs.simulate.hands import (
    deal_constraints,
    engine_inputs,
    play_hands_array,
    searches,
)

STOP_BELOW = 0.05
"""The bid ladder stops at the first bid made less often than this (or than ``risk``, when
that is lower, so that the highest bid made at least ``risk`` percent of the time is on it)."""
DEFAULT_RISK = 75

ACES = (5, 11, 17, 23)
RUN_RANKS = (1, 2, 3, 4, 5)  # J Q K 10 A


@dataclass(frozen=True)
class BidRow:
    bid: int
    p_make: float
    ci_low: float
    ci_high: float
    expected_score: float
    expected_score_ci: float
    """Half-width of the 95% normal interval of the expected score."""


@dataclass(frozen=True)
class TrumpAdvice:
    trump: str
    meld_now: int
    meld_after_pass: dict[str, float]
    trick_points: float
    trick_points_ci: float
    partner_meld: float | None
    pass_value: float | None
    bids: list[BidRow]
    best_bid: int | None
    max_bid_at_risk: int | None


@dataclass
class Advice:
    cards: str
    seat: int
    dealer: int | None
    rules: str
    hands: int
    seed: int
    risk: int
    by_trump: list[TrumpAdvice] = field(default_factory=list)
    recommendation: dict[str, Any] = field(default_factory=dict)
    default_bidder: dict[str, Any] = field(default_factory=dict)
    threats: dict[str, Any] = field(default_factory=dict)
    two_hand: dict[str, Any] | None = None
    verdict: str = ""
    definition: str = ""
    policies: str = "default policies"
    exchange: str = "pass"
    """What changes the bidding side's meld before play: ``pass`` (partners) or ``widow``."""

    def lines(self) -> list[str]:
        """The advice as ``pinochle-sim advise`` prints it."""
        lines = [
            f"{self.cards}  (seat {self.seat}, rules {self.rules}, {self.hands:,} deals, "
            f"seed {self.seed})"
        ]
        if self.two_hand is not None:
            t = self.two_hand
            score, laid = t["expected_score"], t["meld_laid"]
            lines.append(f"expected deal score {score['mean']:.1f} ± {score['ci95']:.1f}")
            lines.append(f"P(win the deal) {_ci_text(t['p_win'])}")
            lines.append(f"meld laid {laid['mean']:.1f} ± {laid['ci95']:.1f}")
            if t["meld_from_stock"] is not None:
                lines.append(
                    f"meld in hand now {t['meld_in_hand_now']}, expected from the stock "
                    f"{t['meld_from_stock']:.1f}"
                )
            lines.append(self.verdict)
            return lines
        for t in self.by_trump:
            m = t.meld_after_pass
            lines.append("")
            lines.append(
                f"{t.trump}: meld now {t.meld_now}, the side after the {self.exchange} "
                f"mean {m['mean']:.0f} "
                f"(10/50/90%: {m['p10']:.0f}/{m['p50']:.0f}/{m['p90']:.0f}), trick points "
                f"{t.trick_points:.0f} ± {t.trick_points_ci:.1f}"
            )
            lines.append("   bid  P(make)  95% CI        expected score")
            for b in t.bids:
                ci = f"{100 * b.ci_low:5.1f}-{100 * b.ci_high:5.1f}%"
                lines.append(
                    f"  {b.bid:4d}  {100 * b.p_make:5.1f}%  {ci}  "
                    f"{b.expected_score:8.1f} ± {b.expected_score_ci:.1f}"
                )
            top = t.max_bid_at_risk if t.max_bid_at_risk is not None else "none"
            lines.append(
                f"  best expected score at {t.best_bid}; highest bid made >= {self.risk}%: {top}"
            )
        d = self.default_bidder
        won = _ci_text({"p": d["p_wins_auction"], "ci_low": d["ci_low"], "ci_high": d["ci_high"]})
        if "median_bid_when_winning" in d:
            won += f", median bid {d['median_bid_when_winning']:.0f} in {d['usual_trump']}"
        lines += ["", f"default bidder with this hand: wins the auction {won}", self.verdict]
        return lines

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cards": self.cards,
            "hands": self.hands,
            "seat": self.seat,
            "dealer": self.dealer,
            "rules": self.rules,
            "seed": self.seed,
            "risk": self.risk,
            "verdict": self.verdict,
            "definition": self.definition,
            "policies": self.policies,
        }
        if self.two_hand is not None:
            out["two_hand"] = self.two_hand
            return out
        out["by_trump"] = [
            {
                "trump": t.trump,
                "meld_now": t.meld_now,
                "meld_after_pass": t.meld_after_pass,
                "trick_points": {"mean": t.trick_points, "ci95": t.trick_points_ci},
                "partner_meld": t.partner_meld,
                "pass_value": t.pass_value,
                "bids": [vars(b) for b in t.bids],
                "best_bid": t.best_bid,
                "max_bid_at_risk": t.max_bid_at_risk,
            }
            for t in self.by_trump
        ]
        out["recommendation"] = self.recommendation
        out["default_bidder"] = self.default_bidder
        out["threats"] = self.threats
        return out


def _ci_text(d: dict[str, float]) -> str:
    """``42.0% (95% CI 41.1-42.9)`` of a ``{p, ci_low, ci_high}`` dict."""
    return f"{100 * d['p']:.1f}% (95% CI {100 * d['ci_low']:.1f}-{100 * d['ci_high']:.1f})"


DEFINITION = (
    "P(make) at bid b: share of simulated deals, with this hand fixed and this seat forced to "
    "bid at that trump, in which the bidding side's meld after the pass (or widow) plus its "
    "trick points reach b (nothing counts under the save rule without trick points); the "
    "other seats play the chosen policies. Expected score: counted points if made, else -b."
)


def _mean_ci(x: np.ndarray) -> tuple[float, float]:
    n = len(x)
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    return float(x.mean()), float(Z95 * sd / np.sqrt(n)) if n else float("nan")


def _has_all(code: np.ndarray, faces: tuple[int, ...]) -> np.ndarray:
    """Whether each packed hand holds both copies of every face in ``faces``."""
    mask = sum(1 << (24 + f) for f in faces)
    return (code & mask) == mask


def check_hand(rules: Ruleset, cards: str) -> list[int]:
    faces = parse_cards(cards)
    if len(faces) != rules.hand_size:
        raise ValueError(
            f"a hand of rules {rules.name!r} has {rules.hand_size} cards, got {len(faces)}"
        )
    return faces


def advise(
    cards: str,
    seat: int = 0,
    dealer: int | None = None,
    rules: str | Ruleset | None = None,
    hands: int = 20_000,
    seed: int = 0,
    risk: int = DEFAULT_RISK,
    policies: PolicySet | None = None,
    upcard: str | None = None,
    *,
    threads: int | None = None,
    backend: Backend | None = None,
    observer: Observer = QUIET,
    keep: str | Path | None = None,
    resume: bool = False,
    restart: bool = False,
) -> Advice:
    """Advice for the hand ``cards`` held by ``seat`` (see the module docstring). The deals
    run on ``threads`` of this process, or as tasks on the workers of ``backend``
    (:mod:`pinochle_sim.runs.backends`): the advice is the same. ``observer`` hears of the
    compile and of the hands as they are played (:func:`hands_needed` in all).

    Where players search, ``keep`` names a folder the finished deals are kept in as they land;
    with ``resume``, an advice interrupted there plays only the deals it had not finished (a
    folder of other settings, or kept deals without ``resume``, is a one-line error); with
    ``restart``, what it holds is dropped when the first new deals are kept. The caller removes
    the folder once it has what it needs (:func:`~.kept.discard_kept`)."""
    r = engine_inputs(rules).rules
    if not 1 <= risk <= 99:
        raise ValueError(f"--risk is a percentage between 1 and 99, got {risk}")
    if hands < 100:
        raise ValueError(f"the advice needs at least 100 simulated hands, got {hands}")
    if not 0 <= seat < r.players:
        raise ValueError(f"seat must be 0..{r.players - 1} for rules {r.name!r}, got {seat}")
    faces = check_hand(r, cards)
    text = format_cards(faces)
    inputs = engine_inputs(r, policies or DEFAULT_POLICIES)
    advice = Advice(text, seat, dealer, r.name, hands, seed, risk, definition=DEFINITION)
    chosen = policies or DEFAULT_POLICIES
    advice.policies = ", ".join(f"{k}: {chosen.name(k)}" for k in inputs.policy_kinds)
    if upcard is not None and inputs.engine.has_auction:
        raise ValueError(f"rules {r.name!r} turn up no card: --upcard is for two-hand")
    sets = _sets(inputs)
    identity = advice_identity(inputs, advice, chosen, upcard)
    kept = _kept_sets(keep, inputs, identity, sets, resume, restart)
    already = sum(k.deals for k in kept if k)
    s = open_session(inputs, threads=threads, backend=backend, observer=observer, already=already)
    pacer = _pacer(s, inputs, sets, sets * hands - already)
    if not inputs.engine.has_auction:
        return _two_hand(advice, inputs, upcard, s, pacer, kept[0])
    _auction(advice, inputs, s, pacer, kept)
    return advice


def advice_identity(
    inputs: Any, advice: Advice, policies: PolicySet, upcard: str | None
) -> dict[str, Any]:
    """What names an advice's deals: every setting that changes a row."""
    return {
        "kind": "advice",
        "engine": inputs.engine.version,
        "rules": dumps_ruleset(inputs.rules),
        "seed": advice.seed,
        "deals": advice.hands,
        "cards": advice.cards,
        "seat": advice.seat,
        "dealer": advice.dealer,
        "upcard": upcard,
        "policies": policies.resolved(inputs.policy_kinds),
    }


def default_keep(
    cards: str,
    seat: int = 0,
    dealer: int | None = None,
    rules: str | Ruleset | None = None,
    hands: int = 20_000,
    seed: int = 0,
    policies: PolicySet | None = None,
    upcard: str | None = None,
) -> str | None:
    """Where the command line keeps a slow advice's finished deals:
    ``results/advise/<rules>-seat<S>-<digest>-seed<N>-<hands>.partial``, the digest naming the
    hand, the dealer, the up-card and the policies; None where no player searches (an advice of
    bots takes seconds and keeps nothing)."""
    inputs = engine_inputs(rules, policies or DEFAULT_POLICIES)
    if not searches(inputs):
        return None
    r = inputs.rules
    hand = format_cards(check_hand(r, cards))
    chosen = policies or DEFAULT_POLICIES
    named = [hand, dealer, upcard, chosen.resolved(inputs.policy_kinds)]
    digest = hashlib.sha1(json.dumps(named, sort_keys=True).encode()).hexdigest()[:10]
    return f"results/advise/{r.name}-seat{seat}-{digest}-seed{seed}-{hands}.partial"


def _kept_sets(
    keep: str | Path | None,
    inputs: Any,
    identity: dict[str, Any],
    sets: int,
    resume: bool,
    restart: bool,
) -> list[Kept | None]:
    """The kept deals of each set (a trump's, ``value=T``; two-hand's one set: the folder
    itself), where ``keep`` is given and a player searches."""
    if keep is None or not searches(inputs):
        return [None] * sets
    whole = Kept(keep, identity, resume, "advice", restart=restart)
    if sets == 1:
        return [whole]
    return [
        Kept(Path(keep) / f"value={t}", identity | {"value": t}, whole.resumed, "advice", whole,
             restart=restart)
        for t in range(sets)
    ]  # fmt: skip


def _sets(inputs: Any) -> int:
    """The sets of deals an advice plays out: one a trump with an auction, one in two-hand
    (the auction's own set stops before the play)."""
    return 4 if inputs.engine.has_auction else 1


def _pacer(s: Session, inputs: Any, sets: int, deals: int) -> Pacer | None:
    """Where search players make the advice slow, one pacer for its ``sets`` sets, ``deals``
    played deals still to play in all (one set a trump; the auction's set stops before the play
    and needs none)."""
    if not slow(s, inputs):
        return None
    return Pacer(s, deals, sets, "trumps" if sets > 1 else "matches")


def advised_deals(rules: str | Ruleset | None, hands: int) -> int:
    """The deals an advice plays out, what it keeps where players search: one set a trump with
    auction games, one set in two-hand (the auction's set stops before the play)."""
    return hands * _sets(engine_inputs(rules))


def hands_needed(rules: str | Ruleset | None, hands: int) -> int:
    """The hands :func:`advise` plays for ``hands`` deals a question: one set per trump and
    one for the auction with auction games, one set in two-hand."""
    inputs = engine_inputs(rules)
    auction = 1 if inputs.engine.has_auction else 0  # the auction's own set
    return hands * (_sets(inputs) + auction)


def _play(
    inputs: Any,
    advice: Advice,
    s: Session,
    pacer: Pacer | None = None,
    kept: Kept | None = None,
    **forced: Any,
) -> dict[str, np.ndarray]:
    """The records of the advice's ``hands`` deals with ``forced`` settings, by column: in
    tasks as the backend shares them out, paced (``pacer``) where players search, and with
    ``kept`` only the deals it does not hold, each new task's deals kept as they land."""
    fx = deal_constraints(inputs, {advice.seat: advice.cards}, **forced)
    names = inputs.layout.names
    if pacer is None and kept is None:
        out = hands_array(
            s.backend, inputs, advice.seed, 0, advice.hands, advice.dealer, fx,
            task_deals(s, inputs, advice.hands),
            done=lambda _, part: s.observer.update(part.shape[1]),
        )  # fmt: skip
        return {name: out[i] for i, name in enumerate(names)}
    spec = InputsSpec.of(inputs)

    def make(lo: int, n: int) -> HandsTask:
        return HandsTask(spec, advice.seed, lo, n, advice.dealer, fx)

    save = None
    if kept is not None:

        def save(part: np.ndarray) -> None:
            kept.save({"deal": part[names.index("hand")]} | dict(zip(names, part, strict=True)))

    parts = []
    for lo, n in kept.gaps(0, advice.hands) if kept else [(0, advice.hands)]:
        if pacer is not None:
            parts += pacer.play(play_task, make, lo, n, save)
        else:  # a cluster's workers: tasks of the usual size
            size = task_deals(s, inputs, advice.hands)
            tasks = [make(x, min(size, lo + n - x)) for x in range(lo, lo + n, size)]
            parts += s.map(play_task, tasks, save)
    if kept is not None:
        parts = [np.stack([p[name] for name in names]) for p in kept.ordered()]
    out = np.concatenate(parts, axis=1)
    return {name: out[i] for i, name in enumerate(names)}


def _auction(
    advice: Advice, inputs: Any, s: Session, pacer: Pacer | None, kept: list[Kept | None]
) -> None:
    r = inputs.rules
    seat = advice.seat
    partners = r.partnerships
    side = seat % 2 if partners else seat
    partner = (seat + 2) % 4 if partners else None
    advice.exchange = "widow" if r.widow else "pass"
    step = min(r.bid_steps) if r.bid_steps else 10
    n = advice.hands
    for t in range(4):
        cols = _play(inputs, advice, s, pacer, kept[t], bidder=seat, trump=t)
        if kept[t] is not None:
            kept[t].release()  # the trump's rows are read: the next trump's are not held too
        meld = cols[f"team_meld_{side}"]
        tricks = cols[f"team_tricks_{side}"]  # with three-hand discards
        conceded = cols["conceded"].astype(bool)
        counted = meld + tricks
        if r.save_rule:
            won_in_play = tricks - (cols["discard_points"] if r.widow else 0)
            counted = np.where(won_in_play > 0, counted, 0)
        counted = np.where(conceded, 0, counted)
        rows: list[BidRow] = []
        b = r.min_bid
        while True:
            made = counted >= b
            k = int(made.sum())
            lo, hi = wilson(k, n)
            score = np.where(made, counted, -b).astype(float)
            mean, ci = _mean_ci(score)
            rows.append(BidRow(b, k / n, float(lo), float(hi), mean, ci))
            if k / n < min(STOP_BELOW, advice.risk / 100) or b > r.min_bid + 100 * step:
                break
            b += step
        best = max(rows, key=lambda x: x.expected_score).bid
        at_risk = [x.bid for x in rows if x.p_make >= advice.risk / 100]
        mine = cols[f"meld_{seat}"]
        tp_mean, tp_ci = _mean_ci(tricks.astype(float))
        partner_meld = pass_value = None
        if partner is not None:
            before = cols[f"meld_{seat}_{'shdc'[t]}"] + cols[f"meld_{partner}_{'shdc'[t]}"]
            partner_meld = float(cols[f"meld_{partner}_{'shdc'[t]}"].mean())
            pass_value = float((meld - before).mean())
        elif r.widow:
            pass_value = float((mine - cols[f"meld_{seat}_{'shdc'[t]}"]).mean())
        advice.by_trump.append(
            TrumpAdvice(
                trump=SUIT_NAMES[t],
                meld_now=score_meld(advice.cards, SUITS[t], r).total,
                meld_after_pass={
                    "mean": float(meld.mean()),
                    "p10": float(np.percentile(meld, 10)),
                    "p50": float(np.percentile(meld, 50)),
                    "p90": float(np.percentile(meld, 90)),
                },
                trick_points=tp_mean,
                trick_points_ci=tp_ci,
                partner_meld=partner_meld,
                pass_value=pass_value,
                bids=rows,
                best_bid=best,
                max_bid_at_risk=max(at_risk) if at_risk else None,
            )
        )
        if t == 0:
            advice.threats = _threats(cols, r, seat)
    _default_bidder(advice, inputs, s)
    _recommend(advice)


def _threats(cols: dict[str, np.ndarray], r: Ruleset, seat: int) -> dict[str, Any]:
    """P(an opponent is dealt 1000 aces / a double run in each trump), with 95% intervals."""
    opponents = [
        p for p in range(r.players) if p != seat and (not r.partnerships or p % 2 != seat % 2)
    ]
    n = len(cols["hand"])

    def prob(faces: tuple[int, ...]) -> dict[str, float]:
        hit = np.zeros(n, dtype=bool)
        for p in opponents:
            hit |= _has_all(cols[f"dealt_{p}"], faces)
        k = int(hit.sum())
        lo, hi = wilson(k, n)
        return {"p": k / n, "ci_low": float(lo), "ci_high": float(hi)}

    return {
        "opponents": opponents,
        "double_aces": prob(ACES),
        "double_run": {SUIT_NAMES[s]: prob(tuple(6 * s + k for k in RUN_RANKS)) for s in range(4)},
    }


def _default_bidder(advice: Advice, inputs: Any, s: Session) -> None:
    """What the seat's bidding policy does with this hand in the auction the policies play
    (the hands stop after the auction: nothing after it is asked)."""
    cols = _play(inputs, advice, s, auction_only=True)
    wins = cols["bidder"] == advice.seat
    k = int(wins.sum())
    lo, hi = wilson(k, advice.hands)
    info: dict[str, Any] = {
        "p_wins_auction": k / advice.hands,
        "ci_low": float(lo),
        "ci_high": float(hi),
    }
    if k:
        bids = cols["bid"][wins]
        trumps = np.bincount(cols["trump"][wins], minlength=4)
        info["median_bid_when_winning"] = float(np.median(bids))
        info["usual_trump"] = SUIT_NAMES[int(trumps.argmax())]
    advice.default_bidder = info


def _recommend(advice: Advice) -> None:
    def key(t: TrumpAdvice) -> tuple[int, float]:
        return (t.max_bid_at_risk or -1, max(b.expected_score for b in t.bids))

    best = max(advice.by_trump, key=key)
    if best.max_bid_at_risk is None:
        row = best.bids[0]
        advice.recommendation = {"trump": best.trump, "bid": None}
        advice.verdict = (
            f"Pass: no bid is made {advice.risk}% of the time; the best is the minimum "
            f"{row.bid} in {best.trump}, made {100 * row.p_make:.0f}% "
            f"(±{_pm(row)}) of the time"
        )
        return
    row = next(b for b in best.bids if b.bid == best.max_bid_at_risk)
    advice.recommendation = {"trump": best.trump, "bid": best.max_bid_at_risk}
    advice.verdict = (
        f"Bid up to {row.bid} in {best.trump}: made {100 * row.p_make:.0f}% (±{_pm(row)}) "
        f"of the time"
    )


def _pm(row: BidRow) -> str:
    """The larger half of the 95% interval, in percentage points (one decimal below 1)."""
    half = 100 * max(row.p_make - row.ci_low, row.ci_high - row.p_make)
    return f"{half:.1f}" if half < 1 else f"{half:.0f}"


def _two_hand(
    advice: Advice,
    inputs: Any,
    upcard: str | None,
    s: Session,
    pacer: Pacer | None,
    kept: Kept | None,
) -> Advice:
    cols = _play(inputs, advice, s, pacer, kept, upcard=upcard)
    seat = advice.seat
    n = advice.hands
    score, score_ci = _mean_ci(cols[f"score_{seat}"].astype(float))
    k = int((cols["winner"] == seat).sum())
    lo, hi = wilson(k, n)
    laid, laid_ci = _mean_ci(cols[f"meld_{seat}"].astype(float))
    trump = parse_suit(SUITS[parse_cards(upcard)[0] // 6]) if upcard else None
    now = score_meld(advice.cards, SUITS[trump], inputs.rules).total if trump is not None else None
    advice.two_hand = {
        "upcard": upcard,
        "expected_score": {"mean": score, "ci95": score_ci},
        "p_win": {"p": k / n, "ci_low": float(lo), "ci_high": float(hi)},
        "meld_laid": {"mean": laid, "ci95": laid_ci},
        "meld_in_hand_now": now,
        "meld_from_stock": None if now is None else laid - now,
    }
    advice.definition = (
        "Two-hand: the deal is played out by the chosen policies with this hand fixed; meld laid "
        "is everything the seat melds in the deal, meld from the stock that minus the meld the "
        "dealt 12 hold in the up-card's trump (which may not all be laid)."
    )
    advice.verdict = (
        f"Expected deal score {score:.0f} (±{score_ci:.0f}); wins the deal "
        f"{100 * k / n:.0f}% of the time"
    )
    return advice


# ------------------------------------------------------------ conditional questions (library)


def _conditional(
    cards: str,
    seat: int,
    rules: str | Ruleset | None,
    hands: int,
    seed: int,
    policies: PolicySet | None,
    dealer: int | None,
    **forced: Any,
) -> tuple[Ruleset, dict[str, np.ndarray]]:
    inputs = engine_inputs(rules, policies)
    r = inputs.rules
    faces = check_hand(r, cards)
    fx = deal_constraints(inputs, {seat: format_cards(faces)}, **forced)
    out = play_hands_array(inputs, seed, 0, hands, dealer=dealer, fx=fx)
    return r, {name: out[i] for i, name in enumerate(inputs.layout.names)}


def _summary(x: np.ndarray) -> dict[str, float]:
    mean, ci = _mean_ci(x.astype(float))
    return {"mean": mean, "ci95": ci, "n": len(x)}


def partner_meld_given(
    cards: str, trump: str, seat: int = 0, rules: str | Ruleset | None = None,
    hands: int = 20_000, seed: int = 0, policies: PolicySet | None = None,
) -> dict[str, float]:  # fmt: skip
    """The partner's expected dealt meld in ``trump`` given my hand: ``{mean, ci95, n}``."""
    r, cols = _conditional(cards, seat, rules, hands, seed, policies, None)
    if not r.partnerships:
        raise ValueError(f"rules {r.name!r} have no partners")
    t = parse_suit(trump)
    return _summary(cols[f"meld_{(seat + 2) % 4}_{'shdc'[t]}"])


def pass_value_given(
    cards: str, trump: str, seat: int = 0, rules: str | Ruleset | None = None,
    hands: int = 20_000, seed: int = 0, policies: PolicySet | None = None,
) -> dict[str, float]:  # fmt: skip
    """The meld my side gains from the pass (three-hand: from the widow) when I am the bidder
    at ``trump``, given my hand: ``{mean, ci95, n}`` (after minus before, in that trump)."""
    t = parse_suit(trump)
    r, cols = _conditional(cards, seat, rules, hands, seed, policies, None, bidder=seat, trump=t)
    s = "shdc"[t]
    if r.partnerships:
        partner = (seat + 2) % 4
        before = cols[f"meld_{seat}_{s}"] + cols[f"meld_{partner}_{s}"]
        return _summary(cols[f"team_meld_{seat % 2}"] - before)
    if not r.widow:
        raise ValueError(f"rules {r.name!r} have neither a pass nor a widow")
    return _summary(cols[f"meld_{seat}"] - cols[f"meld_{seat}_{s}"])


def threats_given(
    cards: str, seat: int = 0, rules: str | Ruleset | None = None, hands: int = 20_000,
    seed: int = 0,
) -> dict[str, Any]:  # fmt: skip
    """P(an opponent is dealt 1000 aces, or a double run in each suit) given my hand, with
    95% Wilson intervals."""
    r, cols = _conditional(cards, seat, rules, hands, seed, None, None)
    return _threats(cols, r, seat)
