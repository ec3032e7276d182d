"""The decision points (hooks) of the policy kinds the auction and trick kernels ask for, and what
the table learns from each card.

Each stub below is a hook (:func:`.bundle.policy_hook`): a kernel calls it with the run's
:class:`~.bundle.PolicyBundle`, the seat's policy id of that kind (``pp[seat, slot]``) and the
arguments documented on the stub, and it runs that policy's kernel, named here beside the stub
(policy name -> kernel). Only the policies in the bundle are compiled. Seats may play different
policies (``pp[seat]``, as in a ``compare`` tournament).

Adding a policy of one of these kinds: write its kernel with the hook's signature, add its
registry entry (:mod:`.registry`: name, id, parameters with ranges, flags) and name its kernel
in the hook's declaration below; a hook that lacks a registered policy's kernel is an error at
import.

The trick loop (:mod:`pinochle_sim.engines.trickplay`) also keeps what every seat has shown about
its hand (``caps``: voids, and no card above a given rank) for the policies that read it
(:func:`reads_caps`, true when a policy of the bundle has the registry flag ``reads_caps``).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import nonneg
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import HEAD_ALWAYS, HEAD_TRUMP_LED, rank_of, suit_of
from pinochle_sim.policies import (
    bid,
    calibrated,
    concede,
    counting,
    learned,
    learned_bid,
    pass_,
    pimc,
    play,
    solver_play,
)
from pinochle_sim.policies.bundle import PolicyBundle, policy_flag, policy_gate, policy_hook
from pinochle_sim.policies.known import SCRATCH, new_work, note_play, setup
from pinochle_sim.policies.slots import PP_PLAY_PARAMS
from pinochle_sim.policies.view import PlayView

PLAY_PARAMS = 8
"""Integer parameters a play policy may declare (read per card from the policy array)."""

CAPS_NONE = sum(6 << (4 * i) for i in range(16))
"""Nothing learnt yet: every seat may hold any rank (cap 6) of every suit."""


@policy_hook(
    "bid",
    "limit",
    {
        "estimate": bid.estimate_limit,
        "pass": bid.pass_limit,
        "calibrated": calibrated.calibrated_limit,
        "learned": learned_bid.learned_limit,
    },
)
def bid_limit(
    bundle: PolicyBundle, policy: int, hand: int, melds: np.ndarray, position: int,
    ra: np.ndarray, pp: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """(highest bid the seat will make, trump it would name) for its dealt ``hand``:
    ``melds[s]`` is the hand's meld with trump ``s``, ``position`` the seat's place after the
    dealer (0 = the dealer), ``pp`` the seat's policy row. A limit of 0 means pass."""
    raise TypeError("a policy hook is called from jitted code only")


@policy_hook(
    "bid",
    "jump",
    {
        "estimate": bid.estimate_jump,
        "pass": bid.no_jump,
        "calibrated": calibrated.calibrated_jump,
        "learned": learned_bid.learned_jump,
    },
)
def bid_jump(bundle: PolicyBundle, policy: int, pp: np.ndarray) -> int:
    """The seat's ``jump``: it raises by the largest step when its limit exceeds the next bid
    by at least the largest step plus this (0 for policies without one)."""
    raise TypeError("a policy hook is called from jitted code only")


@policy_hook("pass", "give", {"standard": pass_.standard_gives, "random": pass_.random_gives})
def partner_gives(
    bundle: PolicyBundle, policy: int, hand: int, k: int, trump: int, pp: np.ndarray,
    rs: np.ndarray,
) -> int:  # fmt: skip
    """Packed set of the ``k`` cards the bidder's partner passes from ``hand``."""
    raise TypeError("a policy hook is called from jitted code only")


@policy_hook(
    "pass", "give_back", {"standard": pass_.standard_returns, "random": pass_.random_returns}
)
def bidder_returns(
    bundle: PolicyBundle, policy: int, hand: int, k: int, trump: int, ma: np.ndarray,
    pp: np.ndarray, rs: np.ndarray,
) -> int:  # fmt: skip
    """Packed set of the ``k`` cards the bidder passes back from ``hand`` (after receiving)."""
    raise TypeError("a policy hook is called from jitted code only")


@policy_hook(
    "discard",
    "discard",
    {"standard": pass_.standard_discards, "random": pass_.random_discards},
)
def discards(
    bundle: PolicyBundle, policy: int, hand: int, k: int, trump: int, ma: np.ndarray,
    pp: np.ndarray, rs: np.ndarray,
) -> int:  # fmt: skip
    """Packed set of the ``k`` cards the bidder discards after taking the widow."""
    raise TypeError("a policy hook is called from jitted code only")


@policy_hook("concede", "concede", {"concede": concede.concede, "play-on": concede.play_on})
def concedes(bundle: PolicyBundle, policy: int, pp: np.ndarray) -> bool:
    """Whether a bidder whose bid is out of reach throws the hand in."""
    raise TypeError("a policy hook is called from jitted code only")


@policy_hook(
    "play",
    "play",
    {
        "greedy": play.greedy,
        "random": play.random_play,
        "counting": counting.counting,
        "pimc": pimc.pimc,
        "learned": learned.learned,
        "solver": solver_play.solver_play,
    },
)
def play_card(
    bundle: PolicyBundle, policy: int, v: PlayView, q: tuple, rs: np.ndarray, work: np.ndarray
) -> int:
    """The face the seat of ``v`` plays (one of ``v.legal``): ``q`` holds the policy's
    :data:`PLAY_PARAMS` integer parameters in registry order (:func:`play_params`), ``rs`` is
    the hand's play stream, ``work`` the thread's work array with what the table knows
    (:mod:`.known`; only its scratch words unless a policy of the bundle
    :func:`reads_table`)."""
    raise TypeError("a policy hook is called from jitted code only")


@policy_flag("play", "reads_caps")
def reads_caps(bundle: PolicyBundle) -> bool:
    """Whether a play policy of the bundle reads what seats have shown (so the trick loop keeps
    ``caps``); a constant when the kernel is compiled."""
    raise TypeError("a policy flag is read from jitted code only")


@policy_flag("play", "reads_table")
def reads_table(bundle: PolicyBundle) -> bool:
    """Whether a play policy of the bundle reads what the table knows beyond the cards played
    (shown meld, the pass, the widow, the trick on the table: :mod:`.known`), so the engine and
    the trick loop keep it; a constant when the kernel is compiled."""
    raise TypeError("a policy flag is read from jitted code only")


@jit
def _no_table() -> np.ndarray:
    return np.zeros(SCRATCH, dtype=np.int64)  # new_work(False), without its other branch


@jit
def _table() -> np.ndarray:
    return new_work(True)


@policy_gate("play", "reads_table", _table, otherwise=_no_table)
def work_array(bundle: PolicyBundle) -> np.ndarray:
    """A thread's work array (:func:`.known.new_work`): the table's when a policy of the
    bundle :func:`reads_table`, else its scratch words only (the table code is not compiled)."""
    raise TypeError("a policy gate is called from jitted code only")


@policy_gate("play", "reads_table", setup)
def keep_table(
    bundle: PolicyBundle, work: np.ndarray, hands: np.ndarray, bidder: int, trump: int,
    ra: np.ndarray, ma: np.ndarray, gave: int, returned: int, widow: int, discard: int,
) -> None:  # fmt: skip
    """:func:`.known.setup` for the hand about to be played, when a policy of the bundle
    :func:`reads_table` (else nothing, not even compiled)."""
    raise TypeError("a policy gate is called from jitted code only")


@policy_gate("play", "reads_table", note_play)
def table_notes(bundle: PolicyBundle, work: np.ndarray, seat: int, f: int, players: int) -> None:
    """:func:`.known.note_play`, when a policy of the bundle :func:`reads_table`."""
    raise TypeError("a policy gate is called from jitted code only")


@jit(inline="always")
def play_params(pp: np.ndarray, seat: int) -> tuple:
    """The play parameters of ``seat`` (``q`` of :func:`play_card`)."""
    b = PP_PLAY_PARAMS
    s = nonneg(seat)
    return (
        pp[s, b], pp[s, b + 1], pp[s, b + 2], pp[s, b + 3],
        pp[s, b + 4], pp[s, b + 5], pp[s, b + 6], pp[s, b + 7],
    )  # fmt: skip


@jit
def learn(caps: int, seat: int, f: int, led: int, winner: int, trump: int, head: int) -> int:
    """What ``seat`` playing face ``f`` to a trick led in ``led`` (``winner``: the card winning
    before it) shows about its hand, folded into ``caps``.

    ``caps`` holds 4 bits per (seat, suit) at ``16 * seat + 4 * suit``: the seat holds no card
    of that suit of rank >= the cap (6 = nothing known, 0 = void). Trick rules (docs/rules.md,
    "Trick play"): a seat that does not follow is void in the led suit, and if it does not trump
    either, void in trump; where it must head the trick (``head``: tricks.HEAD_*), a card that
    does not beat a winner of its own suit shows it holds nothing higher in that suit.
    """
    shift = 16 * seat
    suit = suit_of(f)
    heads = head == HEAD_ALWAYS or (head == HEAD_TRUMP_LED and led == trump)
    if suit != led:
        caps &= ~(15 << (shift + 4 * led))
        if suit != trump:
            return caps & ~(15 << (shift + 4 * trump))
        heads = head == HEAD_ALWAYS  # trumping a plain lead: must overtrump when it can
    if heads and suit_of(winner) == suit and rank_of(f) <= rank_of(winner):
        at = shift + 4 * suit
        cap = min((caps >> at) & 15, rank_of(winner) + 1)
        caps = (caps & ~(15 << at)) | (cap << at)
    return caps


@jit
def _learn_nothing(
    caps: int, seat: int, f: int, led: int, winner: int, trump: int, head: int
) -> int:  # fmt: skip
    return caps


@policy_gate("play", "reads_caps", learn, otherwise=_learn_nothing)
def learn_if(
    bundle: PolicyBundle, caps: int, seat: int, f: int, led: int, winner: int, trump: int,
    head: int,
) -> int:  # fmt: skip
    """:func:`learn` when a policy of the bundle :func:`reads_caps`; else ``caps`` unchanged
    (and :func:`learn` not compiled)."""
    raise TypeError("a policy gate is called from jitted code only")
