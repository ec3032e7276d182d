"""Duplicate matches played: each deal once per side, A on that side's seats and B on the others
(three-hand: A in each seat in turn), as tasks of a session's backend, paced where the players
search (:class:`~pinochle_sim.analysis.session.Pacer`) and, given a folder, with their finished
deals kept so that an interrupted match resumes (:mod:`.kept`). What the matches mean, their
summaries, sweeps and the files they write are in :mod:`.compare`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pinochle_sim.analysis.kept import Kept
from pinochle_sim.analysis.session import Pacer, Session, open_session, slow, task_deals
from pinochle_sim.core.limits import MAX_RUN_HANDS
from pinochle_sim.engines import EngineInputs, engine_for
from pinochle_sim.policies import PolicySet, seat_policy_array
from pinochle_sim.rules import Ruleset, dumps_ruleset
from pinochle_sim.runs.backends.tasks import Backend, InputsSpec
from pinochle_sim.runs.observer import QUIET, Observer
from pinochle_sim.runs.simulate.hands import (
    check_memory,
    check_range,
    engine_inputs,
    play_hands_array,
    searches,
)

PAIR_BYTES = 24 * 8
"""Bytes a deal's row of ``pairs`` takes while a match is built (about 20 int64 columns per
deal before compaction, three plays in three-hand), for the memory check."""


def check_match_memory(hands: int, rules: str | Ruleset | None = None, values: int = 1) -> None:
    """Refuse at once a match (a sweep of ``values`` matches) whose per-deal rows would not fit
    in memory: every deal's row is kept until the match is summarised."""
    r = engine_inputs(rules).rules
    per_deal = PAIR_BYTES * (r.teams if r.teams > 2 else 2) // 2 + 24 * values
    check_memory(
        hands * per_deal,
        f"{hands:,} deals{f' x {values} values' if values > 1 else ''} with one row each",
        "play fewer deals (the 95% CI narrows with the square root of the deals)",
    )


def _seating(inputs: EngineInputs, a: PolicySet, b: PolicySet, side: int) -> EngineInputs:
    """A on side ``side``'s seats, B on every other seat."""
    r = inputs.rules
    seats = [a if (p % 2 if r.partnerships else p) == side else b for p in range(r.players)]
    return dataclasses.replace(inputs, pp=seat_policy_array(seats))


def match_inputs(rules: str | Ruleset | None, a: PolicySet, b: PolicySet) -> EngineInputs:
    """The kernel inputs of a duplicate match's first play (A on side 0, B elsewhere), checked
    for both policy sets. Every play of the match uses the same policy bundle (A's and B's
    policies), so warming this one up compiles the whole match."""
    base = engine_inputs(rules, a)
    base.engine.check_policies(base.rules, b)
    return _seating(base, a, b, 0)


def plays_per_deal(rules: str | Ruleset | None) -> int:
    """How many times a duplicate match plays each deal: once per side."""
    return engine_inputs(rules).rules.teams


def duplicate(
    rules: str | Ruleset | None,
    a: PolicySet,
    b: PolicySet,
    hands: int,
    seed: int = 0,
    start: int = 0,
    *,
    threads: int | None = None,
    backend: Backend | None = None,
    observer: Observer = QUIET,
) -> pd.DataFrame:
    """Play ``hands`` deals once per side, A holding that side's seats and B all the others
    (twice with two sides; three times in three-hand, A in each seat in turn); one row per deal.

    Columns: ``deal``, ``dealer``, ``diff`` (A minus B summed over the plays), then per play
    k = 1, 2 (, 3) ``score_a_k``, ``score_b_k`` (B's mean when B holds two seats) and, in
    auction games, ``bid_side_k`` (0 = A won the bid or was stuck, 1 = B), ``bid_k``,
    ``made_k``, ``stuck_k``, ``conceded_k`` (and after ``diff``, ``trumps_k``: the bidding
    side's dealt trumps); in two-hand ``meld_a_k``, ``meld_b_k``, ``win_k``
    (0 = A won the deal, 1 = B, -1 tie). With three sides a deal's ``diff`` sums A's score
    minus the mean of the two B seats over the three plays: 0 exactly when A and B are equal.

    The deals run on ``threads`` of this process, or as tasks on the workers of ``backend``
    (:mod:`pinochle_sim.runs.backends`): the frame is the same. ``observer`` hears of the
    compile and of every play of a deal as it finishes (:func:`plays_per_deal` per deal).
    """
    check_match(rules, a, b, hands, seed, start)
    inputs = match_inputs(rules, a, b)
    s = open_session(inputs, threads=threads, backend=backend, observer=observer)
    return assemble(play_match(s, inputs, match_tasks(rules, a, b, hands, seed, start, s)))


@dataclass(frozen=True)
class DuplicateTask:
    """Deals ``start .. start+count-1`` of one duplicate match (picklable: a worker rebuilds
    the kernel inputs of each play from its spec)."""

    plays: tuple[InputsSpec, ...]
    """Play k: A on side k, B on every other seat."""
    seed: int
    start: int
    count: int

    @property
    def units(self) -> int:
        return self.count * len(self.plays)


def check_match(
    rules: str | Ruleset | None,
    a: PolicySet,
    b: PolicySet,
    hands: int,
    seed: int = 0,
    start: int = 0,
    values: int = 1,
) -> None:
    """Refuse, before any work, a match (a sweep of ``values`` matches) that cannot be played:
    a policy the rules never ask for, a bad count or seed, more rows than memory holds."""
    base = match_inputs(rules, a, b)
    if isinstance(hands, bool) or not 1 <= hands <= MAX_RUN_HANDS:
        raise ValueError(f"hands must be a whole number from 1 to {MAX_RUN_HANDS:.0e}, got {hands}")
    check_range(seed, start, hands)
    check_match_memory(hands, base.rules, values)


def match_tasks(
    rules: str | Ruleset | None,
    a: PolicySet,
    b: PolicySet,
    hands: int,
    seed: int,
    start: int,
    session: Session,
) -> list[DuplicateTask]:
    """A duplicate match of ``hands`` deals (:func:`check_match` first), cut into the tasks
    of ``session``'s backend (:meth:`~pinochle_sim.runs.backends.tasks.Backend.task_size`
    deals each; :func:`~pinochle_sim.analysis.session.task_deals` where players search)."""
    inputs = match_inputs(rules, a, b)
    plays = tuple(InputsSpec.of(_seating(inputs, a, b, side)) for side in range(inputs.rules.teams))
    size = task_deals(session, inputs, hands)
    return [
        DuplicateTask(plays, seed, lo, min(size, start + hands - lo))
        for lo in range(start, start + hands, size)
    ]


def play_match(
    s: Session,
    inputs: EngineInputs,
    tasks: list[DuplicateTask],
    pacer: Pacer | None = None,
    kept: Kept | None = None,
) -> list[dict[str, np.ndarray]]:
    """The per-deal parts of one match's ``tasks`` on session ``s``, in order: as they are, or
    paced where search players make them slow (``pacer``: a sweep's, shared by its matches).
    With ``kept``, the deals it holds are not played again and each new part is kept as it
    lands."""
    if kept is None and not slow(s, inputs):
        return s.map(duplicate_part, tasks)
    first = tasks[0]
    count = sum(t.count for t in tasks)
    gaps = kept.gaps(first.start, count) if kept else [(first.start, count)]
    pacer = pacer or Pacer(s, sum(n for _, n in gaps))
    save = kept.save if kept else None

    def make(lo: int, n: int) -> DuplicateTask:
        return DuplicateTask(first.plays, first.seed, lo, n)

    played = []
    for lo, n in gaps:
        if slow(s, inputs):
            played += pacer.play(duplicate_part, make, lo, n, save)
        else:  # a cluster's workers: tasks of the size match_tasks chose
            size = first.count
            played += s.map(
                duplicate_part, [make(x, min(size, lo + n - x)) for x in range(lo, lo + n, size)],
                save,
            )  # fmt: skip
    return kept.ordered() if kept else played


def kept_for(
    keep: str | Path | None,
    inputs: EngineInputs,
    identity: dict[str, Any],
    resume: bool,
    restart: bool,
) -> Kept | None:
    """The match's kept deals where ``keep`` is given and its players search (a match of bots
    takes seconds: nothing is kept)."""
    if keep is None or not searches(inputs):
        return None
    return Kept(keep, identity, resume, restart=restart)


def keeps_deals(rules: str | Ruleset | None, a: PolicySet, b: PolicySet) -> bool:
    """Whether a match (or sweep) of ``a`` against ``b`` keeps its finished deals when given a
    folder for them: where a player searches."""
    return searches(match_inputs(rules, a, b))


def match_identity(
    rules: Ruleset, a: PolicySet, b: PolicySet, hands: int, seed: int
) -> dict[str, Any]:
    """What names a match's deals: every setting that changes a row."""
    engine = engine_for(rules)
    kinds = engine.policy_kinds(rules)
    return {
        "kind": "match",
        "engine": engine.version,
        "rules": dumps_ruleset(rules),
        "seed": seed,
        "deals": hands,
        "a": a.resolved(kinds),
        "b": b.resolved(kinds),
    }


def duplicate_part(task: DuplicateTask) -> dict[str, np.ndarray]:
    """The per-deal columns of :func:`duplicate` for one task's deals (a task function: it
    runs wherever its backend puts it)."""
    plays = [spec.build() for spec in task.plays]
    base = plays[0]
    auction = base.engine.has_auction
    sides = base.rules.teams
    idx = base.layout.index
    n, seed = task.count, task.seed
    outs = [play_hands_array(inputs, seed, task.start, n) for inputs in plays]
    part = {"deal": outs[0][idx["hand"]], "dealer": outs[0][idx["dealer"]]}
    diff = np.zeros(n, dtype=np.float64)
    later: dict[str, np.ndarray] = {}  # columns after diff (added later than the others)
    for k, out in enumerate(outs, start=1):
        a_side = k - 1  # play k: A on side k - 1
        scores = np.stack([out[idx[f"score_{j}"]] for j in range(sides)])
        sa = scores[a_side]
        sb = (scores.sum(axis=0) - sa) / (sides - 1)
        part[f"score_a_{k}"], part[f"score_b_{k}"] = sa, sb
        diff += sa - sb
        if not auction:
            part[f"meld_a_{k}"] = out[idx[f"meld_{a_side}"]]
            part[f"meld_b_{k}"] = out[idx[f"meld_{1 - a_side}"]]
            w = out[idx["winner"]]
            part[f"win_{k}"] = np.where(w < 0, -1, (w != a_side).astype(np.int64))
        else:
            bidder = out[idx["bidder"]]
            side = bidder % 2 if base.rules.partnerships else bidder
            part[f"bid_side_{k}"] = (side != a_side).astype(np.int64)
            for c in ("bid", "made", "stuck", "conceded"):
                part[f"{c}_{k}"] = out[idx[c]]
            later[f"trumps_{k}"] = side_trumps(out, idx, base.rules.players,
                                               base.rules.partnerships)  # fmt: skip
    part["diff"] = diff
    return part | later


def side_trumps(out: np.ndarray, idx: dict[str, int], players: int, partners: bool) -> np.ndarray:
    """The bidding side's dealt cards of the trump it named (bidder and partner together)."""
    lens = np.stack([out[idx[f"len_{p}_{s}"]] for p in range(players) for s in "shdc"])
    bidder, trump = out[idx["bidder"]], out[idx["trump"]]
    hand = np.arange(out.shape[1])
    got = lens[bidder * 4 + trump, hand]
    return got + lens[((bidder + 2) % 4) * 4 + trump, hand] if partners else got


def assemble(parts: list[dict[str, np.ndarray]]) -> pd.DataFrame:
    """The frame of :func:`duplicate` from its tasks' columns, in deal order."""
    frame = pd.DataFrame({k: np.concatenate([p[k] for p in parts]) for k in parts[0]})
    return compact_pairs(frame)


def compact_pairs(frame: pd.DataFrame) -> pd.DataFrame:
    for c in frame.columns:
        if c == "deal":
            continue
        if c.startswith(("made", "stuck", "conceded")):
            frame[c] = frame[c].astype(bool)
        elif c.startswith(("bid_side", "win", "dealer")):
            frame[c] = frame[c].astype(np.int8)
        elif (frame[c] == frame[c].round()).all():
            frame[c] = frame[c].astype(np.int32)
        else:  # B's mean over two seats (three-hand): halves
            frame[c] = frame[c].astype(np.float32)
    return frame
