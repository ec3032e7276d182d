"""Filtered deals, in the spirit of redeal's ``accept``: any constraint on the dealt hands that
fixed cards cannot express ("partner holds at least five spades").

Hands are played in batches from hand index 0 on; ``accept(cols)`` gets a batch's columns
(``{column: int64 array}``, the ``dealt_p`` packed hands among them) and returns a boolean mask
of the deals to keep. The kept rows keep their ``hand`` index, so a filtered sample is as
reproducible as any run. A first batch measures the acceptance rate; a filter that keeps less
than ``min_rate`` of the deals is refused (fix cards instead, or loosen the filter), since it
would need unboundedly many deals and usually means a filter that can never hold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pinochle_sim.core.cards import decode_hand
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset
from pinochle_sim.runs.simulate.hands import (
    Fixed,
    deal_constraints,
    engine_inputs,
    play_hands_array,
)

Accept = Callable[[dict[str, np.ndarray]], np.ndarray]
MIN_RATE = 0.001
PILOT = 4096


@dataclass(frozen=True)
class Accepted:
    """The kept deals and how many were dealt to get them."""

    columns: dict[str, np.ndarray]
    dealt: int

    @property
    def kept(self) -> int:
        return len(self.columns["hand"])

    @property
    def rate(self) -> float:
        """The share of deals the filter kept (``kept / dealt``)."""
        return self.kept / self.dealt if self.dealt else float("nan")


def per_deal(accept: Callable[[list[list[str]]], bool]) -> Accept:
    """Wrap a per-deal test on the seats' cards (``[["AS", "AS", ...], ...]``, seat order)
    as a batch filter (slower: one Python call per deal)."""

    def batch(cols: dict[str, np.ndarray]) -> np.ndarray:
        seats = sorted(k for k in cols if k.startswith("dealt_"))
        n = len(cols["hand"])
        return np.array(
            [bool(accept([decode_hand(int(cols[s][i])) for s in seats])) for i in range(n)],
            dtype=bool,
        )

    return batch


def play_accepted(
    count: int,
    accept: Accept,
    seed: int = 0,
    rules: str | Ruleset | None = None,
    policies: PolicySet | None = None,
    fixed: Fixed | None = None,
    dealer: int | None = None,
    min_rate: float = MIN_RATE,
    batch: int = PILOT,
) -> Accepted:
    """Deal and play until ``count`` deals pass ``accept``; returns them (the first ``count``
    accepted in hand order) and the deals it took. ValueError if the first batch's acceptance
    rate is below ``min_rate``."""
    if count < 1:
        raise ValueError(f"count must be positive, got {count}")
    inputs = engine_inputs(rules, policies)
    fx = deal_constraints(inputs, fixed)
    names = inputs.layout.names
    kept: list[np.ndarray] = []
    n_kept = 0
    start = 0
    while n_kept < count:
        out = play_hands_array(inputs, seed, start, batch, dealer=dealer, fx=fx)
        cols = {name: out[i] for i, name in enumerate(names)}
        mask = np.asarray(accept(cols), dtype=bool)
        if mask.shape != (batch,):
            raise ValueError(
                f"accept must return one boolean per deal ({batch}), got shape {mask.shape}"
            )
        start += batch
        if start == batch and mask.mean() < min_rate:
            raise ValueError(
                f"the filter accepted {int(mask.sum())} of {batch:,} deals "
                f"({100 * mask.mean():.2f}%), below the {100 * min_rate:g}% it needs: fix "
                "cards instead, or loosen the filter"
            )
        kept.append(out[:, mask])
        n_kept += int(mask.sum())
    joined = np.concatenate(kept, axis=1)[:, :count]
    last_hand = int(joined[names.index("hand"), -1])
    return Accepted({name: joined[i] for i, name in enumerate(names)}, last_hand + 1)
