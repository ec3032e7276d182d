"""Fair policy comparisons: duplicate tournaments and parameter sweeps.

**Duplicate.** Every deal is played twice with the same cards, dealer and random streams: first
policy set A holds the seats of side 0 (seats 0 and 2 in a partnership, seat 0 in two-hand) and
B side 1; then the policies swap seats. Card luck cancels in the per-deal difference

    diff = (A's score - B's score in play 1) + (A's score - B's score in play 2)

whose mean over deals, with a normal 95% interval (deals are independent), says how many points
per deal A gains over B. Identical policies give diff = 0 on every deal.

**Sweep.** One policy parameter takes a range of values; each value plays a duplicate match
against a fixed opponent on the same deals.

Three-hand has three sides: each deal is played three times, A in each seat in turn and B in
the other two; A's score is compared with the mean of the two B seats.

The matches are played by :mod:`.matches`; this module sums them up, sweeps a parameter and
writes the files.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from pinochle_sim.analysis.kept import Kept
from pinochle_sim.analysis.matches import (
    DuplicateTask,
    assemble,
    check_match,
    compact_pairs,
    duplicate_part,
    kept_for,
    match_identity,
    match_inputs,
    match_tasks,
    play_match,
)
from pinochle_sim.analysis.reports.charts_compare import breakdown_chart, match_chart, sweep_chart
from pinochle_sim.analysis.reports.style import save
from pinochle_sim.analysis.session import Pacer, Session, open_session
from pinochle_sim.analysis.stats import Z95, wilson
from pinochle_sim.core.version import __version__
from pinochle_sim.engines import EngineInputs, engine_for
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset
from pinochle_sim.runs.backends.tasks import Backend
from pinochle_sim.runs.observer import QUIET, Observer
from pinochle_sim.runs.simulate.hands import engine_inputs, searches

MAX_SWEEP_VALUES = 200


def _mean_ci(n: int, s: int, q: int, scale: int = 1) -> tuple[float, float, float]:
    """Mean and 95% normal interval of ``n`` observations ``x`` from the exact sums ``s`` and
    ``q`` of ``scale * x`` and ``(scale * x) ** 2`` (integers)."""
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    m = s / (scale * n)
    if n < 2:
        return m, float("nan"), float("nan")
    var = Fraction(n * q - s * s, scale * scale * n * (n - 1))  # the sample variance, exact
    se = float(np.sqrt(float(var) / n))
    return m, m - Z95 * se, m + Z95 * se


def _rate(k: int, n: int) -> tuple[float, float, float]:
    lo, hi = wilson(k, n)
    return (k / n if n else float("nan")), float(lo), float(hi)


def _sums(x: np.ndarray, scale: int = 1) -> tuple[int, int, int]:
    """(count, sum, sum of squares) of ``scale * x``, exact integers (``x`` times ``scale``
    must be whole: a three-hand B score is the mean of two seats, so halves are doubled)."""
    y = np.rint(np.asarray(x, dtype=np.float64) * scale).astype(np.int64)
    return len(y), int(y.sum()), int((y * y).sum())


class Tally:
    """The summary of a duplicate match, gathered task by task (exact integer sums): one
    match's :func:`summarise` without keeping its deals."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {}
        self.deals = 0
        self.plays: list[int] = []
        self.two = False

    def _add(self, name: str, values: tuple[int, ...]) -> None:
        got = self.counts.setdefault(name, [0] * len(values))
        for i, v in enumerate(values):
            got[i] += v

    def add(self, part: dict[str, np.ndarray] | pd.DataFrame) -> None:
        """The per-deal columns of one task (:func:`~.matches.duplicate_part`) or of a whole
        match."""
        self.deals += len(part["diff"])
        self.plays = [k for k in (1, 2, 3) if f"score_a_{k}" in part]
        self.two = "win_1" in part
        self._add("diff", _sums(part["diff"], 2))
        for j, key in enumerate(("a", "b")):
            scores = np.concatenate([np.asarray(part[f"score_{key}_{k}"]) for k in self.plays])
            self._add(f"score_{key}", _sums(scores, 2))
            if self.two:
                wins = sum(int((np.asarray(part[f"win_{k}"]) == j).sum()) for k in self.plays)
                self._add(f"wins_{key}", (wins,))
                continue
            mine = {k: np.asarray(part[f"bid_side_{k}"]) == j for k in self.plays}
            won = int(sum(m.sum() for m in mine.values()))
            made = sum(int(np.asarray(part[f"made_{k}"])[m].sum()) for k, m in mine.items())
            stuck = sum(int(np.asarray(part[f"stuck_{k}"])[m].sum()) for k, m in mine.items())
            bids = np.concatenate([np.asarray(part[f"bid_{k}"])[m] for k, m in mine.items()])
            self._add(f"auction_{key}", (won, made, stuck))
            self._add(f"bid_{key}", _sums(bids))

    def summary(self, labels: tuple[str, str] = ("A", "B")) -> pd.DataFrame:
        """The table :func:`summarise` gives (see there)."""
        rows = []
        plays = len(self.plays)
        dm, dlo, dhi = _mean_ci(*self.counts["diff"], scale=2)
        for j, (label, key) in enumerate(zip(labels, ("a", "b"), strict=True)):
            n, s, q = self.counts[f"score_{key}"]
            m, lo, hi = _mean_ci(n, s, q, scale=2)
            row: dict[str, Any] = {
                "policy": label,
                "hands": n,
                "mean_score": m,
                "mean_score_lo": lo,
                "mean_score_hi": hi,
            }
            if self.two:
                (wins,) = self.counts[f"wins_{key}"]
                row["win_rate"], row["win_lo"], row["win_hi"] = _rate(wins, n)
            else:
                won, made, stuck = self.counts[f"auction_{key}"]
                row["bids_won"] = won
                row["make_rate"], row["make_lo"], row["make_hi"] = _rate(made, won)
                row["set_rate"], row["set_lo"], row["set_hi"] = _rate(won - made, won)
                row["stuck_rate"], row["stuck_lo"], row["stuck_hi"] = _rate(stuck, won)
                if won > 1:
                    bid = _mean_ci(*self.counts[f"bid_{key}"])
                    row["mean_bid"], row["mean_bid_lo"], row["mean_bid_hi"] = bid
                else:
                    row["mean_bid"] = row["mean_bid_lo"] = row["mean_bid_hi"] = float("nan")
            sign = 1 if j == 0 else -1
            lo_, hi_ = (dlo, dhi) if j == 0 else (dhi, dlo)
            row |= {"diff_per_deal": sign * dm, "diff_lo": sign * lo_, "diff_hi": sign * hi_,
                    "deals": self.deals, "plays": plays, "diff_per_hand": sign * dm / plays,
                    "diff_hand_lo": sign * lo_ / plays,
                    "diff_hand_hi": sign * hi_ / plays}  # fmt: skip
            rows.append(row)
        return pd.DataFrame(rows)


def summarise(pairs: pd.DataFrame, labels: tuple[str, str] = ("A", "B")) -> pd.DataFrame:
    """One row per policy set: hands played, mean score per hand, and (auction games) bids won
    (hands in which the side won the auction or was stuck), make, set and stuck rates with
    Wilson intervals and the mean bid; (two-hand) deals won. The A-minus-B difference per deal
    (``diff_per_deal``: summed over the ``plays`` plays of a deal) and per hand
    (``diff_per_hand``: one play, the per-deal figure over ``plays``; the difference of the
    two mean scores), each with its 95% CI, are on both rows, signed for that row's side. The
    same table a :class:`Tally` gathers task by task."""
    tally = Tally()
    tally.add(pairs)
    return tally.summary(labels)


@dataclass(frozen=True)
class Match:
    """A finished duplicate match."""

    rules: Ruleset
    a: tuple[str, PolicySet]
    b: tuple[str, PolicySet]
    seed: int
    pairs: pd.DataFrame
    summary: pd.DataFrame

    def lines(self) -> list[str]:
        """The match as the command line prints it: A's gain per deal with its CI, then each
        side's scores and rates."""
        return summary_lines(self.summary)

    def meta(self) -> dict[str, Any]:
        kinds = engine_for(self.rules).policy_kinds(self.rules)

        return {
            "package": "pinochle-sim",
            "package_version": __version__,
            "rules": self.rules.name,
            "seed": self.seed,
            "deals": len(self.pairs),
            "a": {"label": self.a[0], "policies": self.a[1].resolved(kinds)},
            "b": {"label": self.b[0], "policies": self.b[1].resolved(kinds)},
        }


def compare(
    rules: str | Ruleset | None,
    a: tuple[str, PolicySet],
    b: tuple[str, PolicySet],
    hands: int,
    seed: int = 0,
    *,
    threads: int | None = None,
    backend: Backend | None = None,
    observer: Observer = QUIET,
    keep: str | Path | None = None,
    resume: bool = False,
    restart: bool = False,
) -> Match:
    """Duplicate match of labelled policy sets ``a`` and ``b`` on ``hands`` deals (where and
    told to whom as in :func:`~.matches.duplicate`: the same match). Where players search, ``keep``
    names a folder the finished deals are kept in as they land (:mod:`.kept`); with
    ``resume``, a match interrupted there plays only the deals it had not finished; with
    ``restart``, what it holds is dropped when the first new deals are kept."""
    check_match(rules, a[1], b[1], hands, seed)
    inputs = match_inputs(rules, a[1], b[1])
    identity = match_identity(inputs.rules, a[1], b[1], hands, seed)
    kept = kept_for(keep, inputs, identity, resume, restart)
    already = kept.deals * inputs.rules.teams if kept else 0
    s = open_session(inputs, threads=threads, backend=backend, observer=observer, already=already)
    parts = play_match(s, inputs, match_tasks(rules, a[1], b[1], hands, seed, 0, s), kept=kept)
    tally = Tally()
    for part in parts:  # the summary, gathered task by task
        tally.add(part)
    return Match(inputs.rules, a, b, seed, assemble(parts), tally.summary((a[0], b[0])))


def summary_lines(summary: pd.DataFrame) -> list[str]:
    """The text of a match's :func:`summarise` table (A's row first)."""
    a = summary.iloc[0]
    lines = [
        f"{a['policy']} minus {summary.iloc[1]['policy']}: {a['diff_per_deal']:+.2f} points per "
        f"deal (95% CI {a['diff_lo']:+.2f} to {a['diff_hi']:+.2f}), {a['diff_per_hand']:+.2f} "
        f"per hand; {int(a['deals']):,} deals, each played {int(a['plays'])} times (per deal: "
        "the plays' differences summed; per hand: one play)"
    ]
    for _, r in summary.iterrows():
        if "make_rate" in r:
            lines.append(
                f"  {r['policy']}: mean score {r['mean_score']:.2f}/hand; won the auction in "
                f"{int(r['bids_won']):,} of {int(r['hands']):,} hands: made {r['make_rate']:.1%} "
                f"({r['make_lo']:.1%}-{r['make_hi']:.1%}), set {r['set_rate']:.1%}, "
                f"stuck {r['stuck_rate']:.1%}, mean bid {r['mean_bid']:.1f}"
            )
        else:
            lines.append(
                f"  {r['policy']}: mean score {r['mean_score']:.2f}/hand; won {r['win_rate']:.1%}"
                f" ({r['win_lo']:.1%}-{r['win_hi']:.1%}) of hands"
            )
    return lines


def sweep_lines(
    table: pd.DataFrame, param: str, labels: tuple[str, str] | None = None
) -> list[str]:
    """The text of a sweep's table: each value's gain per deal with its CI, after a line
    naming the policies swept and their opponent where ``labels`` (base, against) are given."""
    lines = []
    if labels is not None:
        lines.append(
            f"{param} on {labels[0]}, each value against {labels[1]} (gain per deal, 95% CI):"
        )
    for _, r in table.iterrows():
        extra = (
            f"; made {r['make_rate']:.1%}, mean bid {r['mean_bid']:.1f}"
            if "make_rate" in r
            else f"; won {r['win_rate']:.1%}"
        )
        lines.append(
            f"{param}={int(r['value'])}: {r['diff_per_deal']:+.2f} per deal "
            f"({r['diff_lo']:+.2f} to {r['diff_hi']:+.2f}){extra}"
        )
    return lines


def default_study_out(kind: str, label: str, rules: Ruleset, seed: int, hands: int) -> str:
    """The folder a study goes to when none is given: ``results/<kind>/<rules>-<label>-seed<S>-
    <N>`` (``kind``: compare or sweep; the label made safe for a folder name)."""
    slug = re.sub(r"[^A-Za-z0-9.=-]+", "_", label).strip("_")[:60] or "policies"
    return f"results/{kind}/{rules.name}-{slug}-seed{seed}-{hands}"


def check_output(out: str | Path, overwrite: bool, marker: str) -> None:
    """Refuse an existing non-empty folder unless ``overwrite``, and then only one holding
    ``marker`` (a folder this module wrote): called before the work and again when writing."""
    path = Path(out)
    if path.exists() and any(path.iterdir()):
        if not overwrite:
            raise ValueError(f"{str(path)!r} already exists: pass --overwrite to replace it")
        if not (path / marker).exists():
            raise ValueError(f"refusing to overwrite {str(path)!r}: it holds no {marker}")


def _prepare(out: str | Path, overwrite: bool, marker: str) -> Path:
    check_output(out, overwrite, marker)
    path = Path(out)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    return tmp


def _publish(tmp: Path, out: str | Path) -> Path:
    path = Path(out)
    if path.exists():
        shutil.rmtree(path)
    os.replace(tmp, path)
    return path


def write_match(
    match: Match,
    out: str | Path,
    overwrite: bool = False,
    breakdowns: dict[str, pd.DataFrame] | None = None,
) -> Path:
    """Write ``pairs.parquet`` (one row per deal, provenance in its metadata), ``summary.csv``,
    ``summary.json`` and the chart into ``out``, atomically (a temporary folder renamed); with
    ``breakdowns`` (:func:`~pinochle_sim.analysis.breakdown.gain_by` tables by name) also
    ``by_<name>.csv`` and its chart for each."""
    tmp = _prepare(out, overwrite, "pairs.parquet")
    for name, table in (breakdowns or {}).items():
        stem = f"by_{name.replace('-', '_')}"
        table.to_csv(tmp / f"{stem}.csv", index=False, float_format="%.4f")
        save(breakdown_chart(table, match.meta()), str(tmp / stem))
    meta = match.meta()
    table = pa.Table.from_pandas(match.pairs, preserve_index=False)
    table = table.replace_schema_metadata({b"pinochle_sim": json.dumps(meta).encode()})
    pq.write_table(table, tmp / "pairs.parquet", compression="zstd")
    match.summary.to_csv(tmp / "summary.csv", index=False, float_format="%.4f")
    doc = meta | {"summary": match.summary.to_dict(orient="records")}
    (tmp / "summary.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    save(match_chart(match.summary, meta), str(tmp / "compare"))
    return _publish(tmp, out)


def parse_range(text: str) -> tuple[str, list[int]]:
    """``bid.margin=-40:40:10`` -> ("bid.margin", [-40, -30, ..., 40]); ``k=1,2,5`` lists."""
    key, eq, values = text.partition("=")
    key = key.strip()
    if not eq or "." not in key:
        raise ValueError(f"bad sweep {text!r}: write KIND.NAME=START:STOP:STEP or =V1,V2,...")
    try:
        if ":" in values:
            parts = [int(v) for v in values.split(":")]
            if len(parts) != 3 or parts[2] <= 0 or parts[1] < parts[0]:
                raise ValueError
            lo, hi, step = parts
            n = (hi - lo) // step + 1  # counted before any value is listed
            if n > MAX_SWEEP_VALUES:
                raise OverflowError(n)
            out = list(range(lo, hi + 1, step))
        else:
            items = values.split(",")
            if len(items) > MAX_SWEEP_VALUES:
                raise OverflowError(len(items))
            out = [int(v) for v in items]
    except OverflowError as e:
        raise ValueError(
            f"sweep {text!r}: 1 to {MAX_SWEEP_VALUES} values, got {e.args[0]:,}"
        ) from None
    except ValueError:
        raise ValueError(
            f"bad sweep values in {text!r}: START:STOP:STEP with STOP >= START and STEP > 0, "
            "or a comma-separated list of integers"
        ) from None
    if not 1 <= len(out) <= MAX_SWEEP_VALUES:
        raise ValueError(f"sweep {text!r}: 1 to {MAX_SWEEP_VALUES} values, got {len(out)}")
    return key, out


def sweep(
    rules: str | Ruleset | None,
    base: PolicySet,
    param: str,
    values: list[int],
    against: PolicySet,
    hands: int,
    seed: int = 0,
    *,
    threads: int | None = None,
    backend: Backend | None = None,
    observer: Observer = QUIET,
    keep: str | Path | None = None,
    resume: bool = False,
    restart: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each value of ``param`` (on top of ``base``) plays a duplicate match against
    ``against`` on the same deals. Returns (one row per value: the A rows of :func:`summarise`
    plus ``value`` and the opponent's mean score per hand ``opp_mean_score`` with its CI; per
    deal and value: ``value``, ``deal``, ``diff``). Where and told to whom as in
    :func:`~.matches.duplicate`; on a cluster every value's tasks go to its workers at once.
    ``keep``, ``resume`` and ``restart`` as in :func:`compare`, a subfolder a value
    (``value=V``)."""
    twice = next((v for i, v in enumerate(values) if v in values[:i]), None)
    if twice is not None:
        raise ValueError(f"{param} takes each value once: {twice} is given twice")
    if param in dict(base.params):
        raise ValueError(f"{param} is swept: leave it out of the policies it is swept on")
    sets = []
    for v in values:
        params = dict(base.params) | {param: v}
        sets.append(dataclasses.replace(base, params=tuple(sorted(params.items()))))
    for a in sets:
        check_match(rules, a, against, hands, seed, 0, len(values))
    inputs = match_inputs(rules, base, against)
    kept: list[Kept | None] = [None] * len(sets)
    if keep is not None and searches(inputs):
        r = inputs.rules
        one = match_identity(r, base, against, hands, seed)  # the fields every match shares
        swept = {"kind": "sweep", "param": param, "values": values}
        sides = {"base": one.pop("a"), "against": one.pop("b")}
        whole = Kept(keep, one | swept | sides, resume, "sweep", restart=restart)
        kept = [
            Kept(Path(keep) / f"value={v}",
                 match_identity(r, a, against, hands, seed) | {"value": v},
                 whole.resumed, parent=whole, restart=restart)
            for v, a in zip(values, sets, strict=True)
        ]  # fmt: skip
    already = sum(k.deals for k in kept if k) * inputs.rules.teams
    s = open_session(inputs, threads=threads, backend=backend, observer=observer, already=already)
    per_value = [match_tasks(rules, a, against, hands, seed, 0, s) for a in sets]
    matches: Iterable[list[dict[str, np.ndarray]]]
    if s.backend.in_process or any(kept):  # one match at a time
        matches = _each_match(s, inputs, per_value, kept)
    else:
        flat = [t for tasks in per_value for t in tasks]
        results = iter(s.map(duplicate_part, flat))
        matches = [[next(results) for _ in tasks] for tasks in per_value]
    rows = []
    diffs = []
    for v, parts in zip(values, matches, strict=True):
        tally = Tally()
        for part in parts:
            tally.add(part)
        both = tally.summary()
        pairs = compact_pairs(
            pd.DataFrame({"deal": np.concatenate([p["deal"] for p in parts]),
                          "diff": np.concatenate([p["diff"] for p in parts])})
        )  # fmt: skip
        opp = both.iloc[1]
        row = both.iloc[0].to_dict() | {
            "opp_mean_score": opp["mean_score"],
            "opp_mean_score_lo": opp["mean_score_lo"],
            "opp_mean_score_hi": opp["mean_score_hi"],
        }
        rows.append({"value": v} | row)
        diffs.append(
            pd.DataFrame({"value": np.int32(v), "deal": pairs["deal"], "diff": pairs["diff"]})
        )
    return pd.DataFrame(rows), pd.concat(diffs, ignore_index=True)


def _each_match(
    s: Session,
    inputs: EngineInputs,
    per_value: list[list[DuplicateTask]],
    kept: list[Kept | None],
) -> Iterable[list[dict[str, np.ndarray]]]:
    """A sweep's matches one at a time (only the finished ones' diffs stay in memory, a kept
    value's rows are let go once it is summarised); slow ones paced by one
    :class:`~pinochle_sim.analysis.session.Pacer` (its estimate counts every value's deals
    left) and kept (``kept``: one a value, or None)."""
    left = [
        sum(t.count for t in tasks) - (k.deals if k else 0)
        for tasks, k in zip(per_value, kept, strict=True)
    ]
    pacer = Pacer(s, sum(left), sum(1 for n in left if n > 0))
    for tasks, k in zip(per_value, kept, strict=True):
        yield play_match(s, inputs, tasks, pacer, k)
        if k is not None:
            k.release()


def sweep_meta(
    rules: str | Ruleset | None,
    param: str,
    values: list[int],
    base: tuple[str, PolicySet],
    against: tuple[str, PolicySet],
    hands: int,
    seed: int = 0,
) -> dict[str, Any]:
    """The provenance a sweep's files carry (labels and resolved policies of both sides)."""
    r = engine_inputs(rules).rules
    kinds = engine_for(r).policy_kinds(r)
    return {
        "package": "pinochle-sim",
        "package_version": __version__,
        "rules": r.name,
        "seed": seed,
        "deals": hands,
        "param": param,
        "values": values,
        "base": {"label": base[0], "policies": base[1].resolved(kinds)},
        "against_label": against[0],
        "against": {"label": against[0], "policies": against[1].resolved(kinds)},
    }


def write_sweep(
    table: pd.DataFrame,
    diffs: pd.DataFrame,
    meta: dict[str, Any],
    out: str | Path,
    overwrite: bool = False,
) -> Path:
    """Write ``sweep.csv``, ``diffs.parquet`` (per deal and value) and the chart, atomically."""
    tmp = _prepare(out, overwrite, "sweep.csv")
    table.to_csv(tmp / "sweep.csv", index=False, float_format="%.4f")
    t = pa.Table.from_pandas(diffs, preserve_index=False)
    t = t.replace_schema_metadata({b"pinochle_sim": json.dumps(meta).encode()})
    pq.write_table(t, tmp / "diffs.parquet", compression="zstd")
    (tmp / "sweep.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    save(sweep_chart(table, meta), str(tmp / "sweep"))
    return _publish(tmp, out)
