"""Fit ``play=learned``'s model to ``pimc``'s decisions, compare the candidates, ship the best.

    python experiments/learned_train.py --data DIR [--data DIR2 ...] [--write]

Reads the Parquet parts of ``experiments/learned_data.py`` and holds out every deal whose
number ends in 9 (10% of the deals, never fitted). Two candidate models score each legal card
by a weighted sum of its features (:data:`pinochle_sim.policies.learned.FEATURES`), the only
form cheap enough for the bots' kernels:

Leads and the other plays of a trick get a weights row each (fitted on their own decisions).

* ``regression``: least squares (a small ridge) on each card's value minus the mean value of
  its decision's cards, features centred the same way: the card that ``pimc`` values most gets
  the highest score when the fit is good;
* ``choice``: a softmax over each decision's cards fitted by maximum likelihood to the card
  ``pimc`` played (a conditional logit, Newton steps with a small ridge);
* ``pairs``: the regression with products of two features as well (those of
  :data:`PAIR_FEATURES`, context with card), all fitted, then the ``--pairs`` products that
  weigh most (weight times spread) fitted again with the features: still a few multiply-adds
  a card in the kernel.

For each, on the held-out deals: top-1 agreement with ``pimc``'s card, the share of decisions
whose card is within 5 points of ``pimc``'s best value, and the mean points lost against it
(``counting`` alongside, as the bar to beat). ``--write`` appends the better model (by points
lost) and the other to ``pinochle_sim/policies/data/learned_play.json`` as the next versions,
each with both candidates' figures and the data's provenance, the better one as the default
(``--replace``: instead of the shipped models; ``--fit``: only the named fits; ``--margin``
and ``--from-trick``: their default margin and first trick). Duplicate matches then decide
which to play by default (``pinochle-sim compare play=learned,play.model=V play=counting``).
Data recorded before a feature existed get it worked out again from the seat's recorded view.

``--rollouts DIR`` (repeatable; folders of ``learned_data.py --values rollout``) fits the lead
rows to played-out hands instead: each legal lead played, then the rest of the hand by the real
players, the target the hand's score margin divided by ``--lead-scale`` (15: the shared
``margin`` of 1 then asks a lead for 15 points of score over counting's). ``pimc``'s values
misjudge leads: it assumes that every seat then plays seeing every card, and a lead model
fitted to them lost 33 points a deal to counting's leads, where the rollout fit gains. The
written models lead for the bidding side (``--leads 2``; 1: every seat, 0: none).
``--follow-rollouts DIR`` does the same for the follows (``learned_data.py --values rollout
--roles follow``), the target the side's trick points from the trick on, pimc's units::

    python experiments/learned_train.py --data D1 --data D2 --rollouts R1 \
        --follow-rollouts F1 --fit pairs --pairs 40 --margin 1 --from-trick 1 --write
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from pinochle_sim.agents.distill import STATE, features_from_states
from pinochle_sim.policies.learned import DATA_FILE, FEATURES, MAX_PAIRS

HELD_OUT = 9
"""Deals whose number ends in this digit are held out."""
PAIR_FEATURES = (
    "counting", "points", "trump", "rank", "takes", "may_take", "partner_takes",
    "points_to_partner", "points_given", "boss", "ruffs", "suit_length", "suit_unseen",
    "lowest_of_suit", "highest_of_suit", "both_copies",
)  # fmt: skip
"""The card's features whose products a pairs model may hold (with each other and with the
context features: :data:`CONTEXT`)."""
CONTEXT = ("tricks_left", "bidding_side", "plays_second", "plays_third", "plays_fourth")
"""Features that are the same for every card of a decision: alone they rank nothing."""
FITS = ("regression", "choice", "pairs")
WITHIN = 5.0
"""'Within 5 points': in the rules' points (partnership: a counter is 10)."""


def load(dirs: list[str]) -> tuple[pd.DataFrame, list[dict]]:
    frames, provs = [], []
    for d in dirs:
        if not (Path(d) / "_provenance.json").is_file():
            sys.exit(f"error: {d} is not a folder of experiments/learned_data.py")
        frames.append(pd.read_parquet(d))
        provs.append(json.loads((Path(d) / "_provenance.json").read_text()))
    return pd.concat(frames, ignore_index=True), provs


def group_sums(x: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """Per decision, the sums of the columns of ``x`` (a row per decision)."""
    return np.stack(
        [np.bincount(group, weights=x[:, j], minlength=n_groups) for j in range(x.shape[1])], 1
    )


def centred(x: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """``x`` minus the mean of its decision's rows (rows of 2-D ``x``)."""
    counts = np.bincount(group, minlength=n_groups).astype(float)
    if x.ndim == 1:
        return x - (np.bincount(group, weights=x, minlength=n_groups) / counts)[group]
    return x - (group_sums(x, group, n_groups) / counts[:, None])[group]


def fit_regression(x: np.ndarray, y: np.ndarray, group: np.ndarray, ridge: float) -> np.ndarray:
    n_groups = int(group.max()) + 1
    xc = centred(x, group, n_groups)
    yc = centred(y, group, n_groups)
    a = xc.T @ xc + ridge * len(xc) * np.eye(x.shape[1])
    return np.linalg.solve(a, xc.T @ yc)


def fit_choice(
    x: np.ndarray, chosen: np.ndarray, group: np.ndarray, ridge: float, steps: int = 25
) -> np.ndarray:
    """Conditional logit by Newton's method: P(card) = exp(w.x) / sum over its decision."""
    n_groups = int(group.max()) + 1
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    xs = x / scale
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        s = xs @ w
        s -= np.repeat(
            np.maximum.reduceat(s, np.r_[0, np.flatnonzero(np.diff(group)) + 1]),
            np.bincount(group, minlength=n_groups),
        )
        e = np.exp(s)
        p = e / np.bincount(group, weights=e, minlength=n_groups)[group]
        d = xs - group_sums(p[:, None] * xs, group, n_groups)[group]
        grad = d.T @ (chosen - p) - ridge * len(xs) * w
        hess = (d * p[:, None]).T @ d + ridge * len(xs) * np.eye(xs.shape[1])
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-8:
            break
    return w / scale


def pair_candidates(feats: list[str]) -> list[tuple[int, int]]:
    """Index pairs of the products a pairs model may choose from."""
    names = [f for f in (*PAIR_FEATURES, *CONTEXT) if f in feats]
    return [
        (feats.index(a), feats.index(b))
        for n, a in enumerate(names)
        for b in names[n + 1 :]
        if not (a in CONTEXT and b in CONTEXT)
    ]


def products(x: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    if not pairs:
        return np.zeros((len(x), 0))
    i, j = np.array(pairs).T
    return x[:, i] * x[:, j]


def fit_pairs(
    x: np.ndarray, y: np.ndarray, group: np.ndarray, ridge: float, keep: int
) -> tuple[np.ndarray, list[tuple[int, int, float]]]:
    """The regression on the features and every candidate product; then the ``keep``
    products of the largest weight times spread, fitted again with the features."""
    pairs = pair_candidates(list(FEATURES))
    z = products(x, pairs)
    spread = z.std(axis=0)
    live = spread > 0  # a product that never varies ranks nothing
    pairs = [p for p, ok in zip(pairs, live, strict=True) if ok]
    z, spread = z[:, live], spread[live]
    w = fit_regression(np.hstack([x, z]), y, group, ridge)
    weigh = np.abs(w[x.shape[1] :]) * spread
    chosen = sorted(np.argsort(-weigh)[: min(keep, MAX_PAIRS)].tolist())
    kept = [pairs[c] for c in chosen]
    w = fit_regression(np.hstack([x, z[:, chosen]]), y, group, ridge)
    n = x.shape[1]
    return w[:n], [(a, b, float(wp)) for (a, b), wp in zip(kept, w[n:], strict=True)]


def scores(x: np.ndarray, model: tuple[np.ndarray, list]) -> np.ndarray:
    """Each row's score under ``(weights, products)``."""
    w, pairs = model
    out = x @ w
    for a, b, wp in pairs:
        out += wp * x[:, a] * x[:, b]
    return out


def evaluate(scores: np.ndarray, data: pd.DataFrame) -> dict[str, float]:
    """Top-1 agreement with pimc, share within WITHIN points of pimc's best value, mean points
    lost against it, for the card of highest score in each decision."""
    d = data.assign(score=scores)
    idx = d.groupby("group", sort=False)["score"].idxmax()
    pick = d.loc[idx]
    best = d.groupby("group", sort=False)["value"].max().loc[pick["group"]].to_numpy()
    lost = best - pick["value"].to_numpy()
    return {
        "decisions": len(pick),
        "top1": float(pick["pimc_pick"].mean()),
        "within_5": float((lost <= WITHIN).mean()),
        "points_lost": float(lost.mean()),
    }


def fit_rollouts(
    a: argparse.Namespace, candidates: dict, rules: str, role: str
) -> tuple[dict[str, dict[str, float]], list[dict]]:  # fmt: skip
    """Refit every candidate's ``role`` row to the decisions of that role in its rollout
    folders (``--rollouts`` for leads, ``--follow-rollouts`` for follows), each card played and
    the hand played out: a lead's target is the hand's score margin divided by
    ``--lead-scale``, a follow's the side's trick points from the trick on (pimc's units, so
    the follows' margin keeps its meaning); pairs for the pairs fit, a regression for the
    others. Prints and returns the held-out deals' points lost against the best card of each
    decision, in score and in trick points, next to the card the recorded side played and
    counting's."""
    data, provs = load(a.rollouts if role == "lead" else a.follow_rollouts)
    other = sorted({p["settings"]["rules"] for p in provs} - {rules})
    if other:
        sys.exit(f"error: the rollout folders hold {', '.join(other)} hands, the data {rules}")
    data = data[(data["n_played"] == 0) == (role == "lead")].reset_index(drop=True)
    if data.empty:
        sys.exit(f"error: the rollout folders hold no {role}s")
    data["group"] = data.groupby(["hand", data["seat"] % 2, "decision"], sort=False).ngroup()
    held = (data["hand"] % 10 == HELD_OUT).to_numpy()
    feats = list(FEATURES)
    x = data[feats].to_numpy(dtype=float)
    if role == "lead":
        target = data["score"].to_numpy(float) / a.lead_scale
    else:
        target = data["value"].to_numpy(float)
    tr = ~held
    g = data.loc[tr, "group"].factorize()[0]
    regression_fit = (fit_regression(x[tr], target[tr], g, a.ridge), [])
    pairs_fit = fit_pairs(x[tr], target[tr], g, a.ridge, a.pairs) if a.pairs else regression_fit
    old = {name: m[role] for name, m in candidates.items()}
    for name, m in candidates.items():
        m[role] = pairs_fit if name == "pairs" else regression_fit
    test = data[held].copy()
    test["group"] = test["group"].factorize()[0]
    best = {c: test.groupby("group")[c].transform("max") for c in ("score", "value")}

    def lost(pick: pd.Series) -> dict[str, float]:
        return {c: float((best[c] - test[c])[pick].mean()) for c in ("score", "value")}

    results = {
        "chosen": lost(test["chosen"] == 1),
        "counting": lost(test["counting"] == 1),
    }
    fits = [("regression", regression_fit), ("pairs", pairs_fit)]
    if role == "follow":  # the pimc fit of the same form, on the same held-out deals
        fits.append(("pairs, pimc's values", old["pairs"]))
    for name, fitted in fits:
        s = pd.Series(scores(x[held], fitted), index=test.index)
        results[name] = lost(test.index.isin(s.groupby(test["group"]).idxmax()))
    print(
        f"{role}s fitted to {len(data[tr]):,} rollout rows ({g.max() + 1:,} decisions); "
        f"held out {test['group'].max() + 1:,} decisions, points lost against the best card:"
    )
    for name, r in results.items():
        print(f"  {name:22s} score {r['score']:6.2f}   trick points {r['value']:5.2f}")
    return results, provs  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True, help="a learned_data.py folder")
    ap.add_argument("--ridge", type=float, default=1e-4)
    ap.add_argument("--drop", action="append", default=[], help="a feature to leave out")
    ap.add_argument("--write", action="store_true", help="ship both fits as new versions")
    ap.add_argument("--replace", action="store_true", help="with --write: drop the shipped ones")
    ap.add_argument("--fit", action="append", choices=FITS, help="write only these fits")
    ap.add_argument("--pairs", type=int, default=60, help="products a pairs model keeps")
    ap.add_argument("--margin", type=float, default=2.0, help="the written models' margin")
    ap.add_argument(
        "--from-trick", type=int, default=7, help="the written models' first trick (1..16)"
    )
    ap.add_argument(
        "--rollouts", action="append", default=[],
        help="a learned_data.py --values rollout folder: the lead rows are fitted to it",
    )  # fmt: skip
    ap.add_argument(
        "--follow-rollouts", action="append", default=[],
        help="a learned_data.py --values rollout --roles follow folder: the follow rows are "
        "fitted to it",
    )  # fmt: skip
    ap.add_argument(
        "--lead-scale", type=float, default=15.0,
        help="with --rollouts: a lead's target is its score margin divided by this",
    )  # fmt: skip
    ap.add_argument(
        "--leads", type=int, choices=(0, 1, 2), default=None,
        help="the written models' leads (0 counting, 1 every seat, 2 the bidding side; "
        "default: 2 with --rollouts, else 0)",
    )  # fmt: skip
    a = ap.parse_args()
    if a.leads is None:
        a.leads = 2 if a.rollouts else 0
    for d in [*a.rollouts, *a.follow_rollouts]:  # refused before the long fits, not after
        path = Path(d) / "_provenance.json"
        settings = json.loads(path.read_text())["settings"] if path.is_file() else {}
        if settings.get("values") != "rollout":
            sys.exit(f"error: {d} is not a folder of experiments/learned_data.py --values rollout")
    if not (0 <= a.pairs <= MAX_PAIRS and 1 <= a.from_trick <= 16 and a.margin >= 0):
        sys.exit(f"error: --pairs 0..{MAX_PAIRS}, --from-trick 1..16, --margin 0 or more")
    t0 = time.perf_counter()
    data, provs = load(a.data)
    rules = {p["settings"]["rules"] for p in provs}
    if len(rules) != 1:
        sys.exit(f"error: data of several rule sets: {sorted(rules)}")
    feats = list(FEATURES)
    unknown = sorted(set(a.drop) - set(feats))
    if unknown:
        sys.exit(f"error: no such features: {unknown}")
    missing = [f for f in feats if f not in data.columns or data[f].isna().any()]
    if missing:
        if not set(STATE) <= set(data.columns):
            sys.exit(f"error: the data lack features {missing} and the view to work them out")
        print(f"working out {len(missing)} features the data lack from the recorded views")
        again = features_from_states(data, sorted(rules)[0])
        for f in missing:
            data[f] = again[:, feats.index(f)]
    data[feats] = data[feats].astype(np.int64)
    held = (data["hand"] % 10 == HELD_OUT).to_numpy()
    train, test = data[~held].copy(), data[held].copy()
    for part in (train, test):
        part["group"] = part.groupby(["hand", "decision"], sort=False).ngroup()
    x_tr = train[feats].to_numpy(dtype=float).copy()
    x_te = test[feats].to_numpy(dtype=float).copy()
    for name in a.drop:  # a feature left out: always 0 to the fit, weight 0 in the model
        x_tr[:, feats.index(name)] = 0.0
        x_te[:, feats.index(name)] = 0.0
    g_tr = train["group"].to_numpy()
    print(f"{len(train):,} training rows ({g_tr.max() + 1:,} decisions), "
          f"{len(test):,} held-out rows ({test['group'].max() + 1:,} decisions)")  # fmt: skip
    lead_tr = (train["n_played"] if "n_played" in train else train["decision"] % 4).to_numpy() == 0
    lead_te = (test["n_played"] if "n_played" in test else test["decision"] % 4).to_numpy() == 0

    def fit(how: str, rows: np.ndarray) -> tuple[np.ndarray, list]:
        part = train[rows]
        x = x_tr[rows]
        g = part.groupby(["hand", "decision"], sort=False).ngroup().to_numpy()
        if how == "regression":
            return fit_regression(x, part["value"].to_numpy(float), g, a.ridge), []
        if how == "pairs":
            return fit_pairs(x, part["value"].to_numpy(float), g, a.ridge, a.pairs)
        return fit_choice(x, part["pimc_pick"].to_numpy(float), g, a.ridge), []

    candidates = {how: {"lead": fit(how, lead_tr), "follow": fit(how, ~lead_tr)} for how in FITS}
    lead_results, lead_provs = {}, []
    follow_results, follow_provs = {}, []
    if a.rollouts:
        lead_results, lead_provs = fit_rollouts(a, candidates, sorted(rules)[0], "lead")
    if a.follow_rollouts:
        follow_results, follow_provs = fit_rollouts(a, candidates, sorted(rules)[0], "follow")
    results = {"counting": evaluate(test["counting_pick"].to_numpy(float), test)}
    for name, m in candidates.items():
        results[name] = evaluate(
            np.where(lead_te, scores(x_te, m["lead"]), scores(x_te, m["follow"])), test
        )
        results[name + " (training deals)"] = evaluate(
            np.where(lead_tr, scores(x_tr, m["lead"]), scores(x_tr, m["follow"])), train
        )
        for role, rows in (("lead", lead_te), ("follow", ~lead_te)):
            part = test[rows].copy()
            part["group"] = part.groupby(["hand", "decision"], sort=False).ngroup()
            results[f"{name}, {role}s"] = evaluate(scores(x_te[rows], m[role]), part)
            results[f"counting, {role}s"] = evaluate(part["counting_pick"].to_numpy(float), part)
    for name, r in results.items():
        print(f"{name:30s} top-1 {r['top1']:.3f}  within 5 points {r['within_5']:.3f}  "
              f"points lost {r['points_lost']:.2f}  ({r['decisions']:,} decisions)")  # fmt: skip
    best = min(candidates, key=lambda n: results[n]["points_lost"])
    print(f"better on the held-out decisions: {best}  ({time.perf_counter() - t0:.0f} s)")
    if not a.write:
        return
    shipped = json.loads(DATA_FILE.read_text())
    models = [] if a.replace else shipped["models"]
    written = a.fit or list(FITS)
    for name in written:
        m = candidates[name]
        models.append({
            "version": len(models) + 1,
            "rules": sorted(rules)[0],
            "fit": name,
            "features": feats,
            "weights": {role: [float(x) for x in m[role][0]] for role in ("lead", "follow")},
            **({"pairs": {role: [list(p) for p in m[role][1]] for role in ("lead", "follow")}}
               if name == "pairs" else {}),
            "margin": a.margin,
            "from_trick": a.from_trick,
            "leads": a.leads,
            "provenance": {
                "data": [{k: p[k] for k in ("settings", "commit", "engine_version")}
                         for p in provs],
                "held_out": f"deals whose number ends in {HELD_OUT}",
                "training_rows": len(train),
                "held_out_results": {k: v for k, v in results.items() if "training" not in k},
                **({"lead_data": [{k: p[k] for k in ("settings", "commit", "engine_version")}
                                  for p in lead_provs],
                    "lead_target": f"the hand's score margin played out / {a.lead_scale:g}",
                    "lead_held_out_results": lead_results} if a.rollouts else {}),
                **({"follow_data": [{k: p[k] for k in ("settings", "commit", "engine_version")}
                                    for p in follow_provs],
                    "follow_target": "the side's trick points from the trick on, played out",
                    "follow_held_out_results": follow_results} if a.follow_rollouts else {}),
                "ridge": a.ridge,
                **({"pairs_kept": a.pairs} if name == "pairs" else {}),
                "script": "experiments/learned_train.py",
            },
        })  # fmt: skip
        if name == best or (name == written[-1] and best not in written):
            default = len(models)
    DATA_FILE.write_text(json.dumps({"default": default, "models": models}, indent=1) + "\n")
    print(f"wrote models {len(models) - len(written) + 1}..{len(models)} to {DATA_FILE} "
          f"(default: {default}, the {best} fit)")  # fmt: skip


if __name__ == "__main__":
    main()
