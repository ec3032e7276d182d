"""The double-dummy search: exact trick points under perfect play with every card seen.

Positions are those of trick play (RULES.md section 7, and section 9's play-out): the cards
each seat still holds, the seat that led the current trick and the cards already played to it.
The *side* is a set of seats (``side_mask``, bit ``s`` = seat ``s``) that maximises the trick
points it takes from the current trick to the end, the last-trick bonus included; every other
seat minimises them, together. Four-hand partnerships: a seat and its partner; three-hand: the
bidder alone against the other two; two-hand: one seat against the other.

Jit-callable API (allocation-free; for policies and engines calling from their kernels)::

    tt = new_table()                       # Python: the caller-owned work array, reusable
    tts = new_tables(n_threads, bits)      # Python: one work array a row, for prange loops
    v = dd_solve(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt)
    f, v = dd_best(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt)
    lo, hi = dd_bounds(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt, lo, hi, nodes)
    dd_move_values(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt, out)
    v = dd_card_test(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt, f, need)
    v = dd_card_value(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt, f, lo, hi, g)

* ``h0..h3``: packed hands (``core.cards``: ``one | two << 24``) of seats 0..3, the cards each
  still holds (0 for seats the rules do not have); ``ra``: the flat rule array
  (``rules.arrays``: players, points, last-trick bonus, follow / trump / head rules).
* ``leader``: the seat that led (or is to lead) the current trick; ``trick``: the cards already
  played to it, packed by :func:`pack_trick` (``face + 1`` in bits ``8i..8i+7`` for the i-th card,
  0 = no card); the seat to move is ``leader`` plus the number of cards played.
* ``dd_solve``: the points the side takes from the current trick on (its cards on the table
  included). ``dd_best``: a best card of the seat to move and that value; of several best cards,
  the one with the fewest points, then the lowest rank, then the first suit (S, H, D, C).
  ``dd_bounds``: refines a known ``lo <= value <= hi`` within a budget of search nodes and
  returns the proven bounds (equal when solved). ``dd_move_values``: ``out[face]`` = the value
  after the seat to move plays ``face``, -1 for faces it may not play. ``dd_card_test``: a
  fail-soft test of one legal card ``f`` ("after ``f``, does the side take at least ``need``?",
  answered with a bound as ``_search`` does); ``dd_card_value``: the value after ``f``, known to
  lie in ``[lo, hi]``, its tests starting at ``g`` (-1: a playout's guess).

The work array ``tt`` (int64, from :func:`new_table`) holds a header, the search stack and a
transposition table. Table entries are bounds on a trick-boundary position's value, valid for
one rule set, trump and side: a call with another context starts a new *generation* (older
entries stop matching, nothing is cleared), so one array serves any sequence of calls and an
engine may allocate it once per chunk of hands. ``tt[H_NODES]`` counts search nodes.

The search is a fail-soft null-window test ("does the side take at least ``need`` points?",
answered with a bound beyond the target) run with an explicit stack (no recursion, so the
compiled code caches safely), repeated by a binary search over the possible values. It is
exact: every cut-off is a proof. Its techniques, each measured on a fixed set of deals
(``experiments/solver_speed.py``; nodes for 10 partnership deals of 10 cards a seat, in the
order they were added):

* move ordering (:func:`_order`): 177M -> 39M nodes;
* a transposition table at trick boundaries with proven bounds and the deciding move (it was
  there from the start), keyed on the canonical hands (:data:`CANON`: ranks already played
  ignored): 37M -> 20M; 32-byte entries, two to a cache line;
* a better guess at the trick's winner for the ordering: 20M -> 12.5M;
* bounds (:func:`.settle._settle`): the points left; trumps no opponent can beat
  (:func:`_sure_trumps`); a trick nobody still to play can take from its winner's side
  (:func:`_trick_owner`): 12.2M -> 10.9M, three-hand 16% fewer; the leader's sure side-suit
  winners (:func:`_sure_lead`): a further 2%, three-hand 16%; with the fewest points the
  other seats must add to a sure winner's trick (:func:`.context._forced`): 20 deals of 10
  cards 78.8M -> 77.4M nodes (-1.8%; joedog -1.7%, three-hand -1%), 10 full deals 114.3M ->
  113.3M;
* equivalent cards (:func:`_reps`); the last trick played out directly; no table look-ups
  with one trick left (from three: 26% more nodes);
* the table looked up before the sure-point bounds are worked out: of the trick-boundary
  nodes past the cheap checks, the table settles about 70% and the bounds under 10%, so the
  bounds now run only where the table did not settle the node. The same nodes to 0.3% (a
  settled node's fail-soft bound may come from the other source), 13-19% less time in
  partnership (three-hand and joedog 7-8%): 20 deals of 10 cards 12.7 s -> 10.3 s; the
  bench's 200 full partnership deals of seed 0, 602 s -> 525 s in all, median 1.00 s ->
  0.87 s (CPU seconds, one thread). Trumps' sure points first, then the table, then the
  leader's sure winners: 11.7 s.

The search borrows the work array (``jit(borrows=True)``): compiled without numba's reference
counting, its dozen calls a node that take the array no longer add and drop a reference, each
an atomic instruction. The same nodes; full partnership deals, hands 0..39 of seed 0: 73.5 s ->
63.4 s (8.9M -> 10.3M nodes a second); ``pimc``, 32 hands of seed 7: 32.9 s -> 27.5 s, the same
records. Then, by a profile of the search's functions (hand 6 of seed 0: the table look-up 32%,
the search loop 17%, ordering 22%, generation 12%, the key 8%, settling 5%): the look-up, the
key, settling and generation are inlined into their callers (numba's ``inline="always"``), and a
node with one move, or an ordering group of one card, skips the ordering. The same nodes; hands
1..39 of seed 0: 60.4 s -> 51.9 s. Inlining every function under the search bought 2.5% more
for twice the compile time (20 s against 10 s), and is not done. What is left on top of the
profile is the table look-up's first access to its bucket: memory the search waits on.

The remembered move (the reply memory's, else the table's) is searched before the other moves
are even ordered (:func:`.moves._alone`, the frame's :data:`.workspace.F_LATER`): where it
decides the node, as it mostly does, the ordering is never worked out, and where it does not,
the others are ordered then, in the order they had before. The same nodes, 15% fewer
instructions (callgrind, full partnership deals 1..5 of seed 0: 10.58G -> 8.96G); the bench's
200 full deals of seed 0, two benches at a time, one a core: partnership 58.3 s -> 50.1 s
(median 0.129 s -> 0.117 s), joedog 95.8 s -> 83.8 s, three-hand 191.5 s -> 174.0 s (median
0.473 s -> 0.419 s). The bucket's first access is then a quarter of the search's time (a
profile of the machine code), and what was tried against it did not pay:

* the bucket prefetched at the trick's last card, its key kept for the look-up: that access
  fell from 23% to 16% of the search's samples, no faster (too few instructions between);
* the whole trick foreseen at its lead, from the reply memory's cards for the later seats: 7%
  of the leads foreseen (the memory holds only moves that decided a node), slower;
* the bucket prefetched as soon as its key is made and the sure-point bounds worked out while
  it loads, then the table first as before (the same nodes): 10% slower, the bounds' cost at
  the nodes the table settles is more than the wait they hide;
* with this, no look-ups with 2 tricks left (+12% nodes) or a reply memory of 2**14 slots
  (+3.6% nodes): slower.

Instructions, not nodes (the same nodes and values; callgrind, full partnership deals 1..3 of
seed 0, the solver's own positions, 8.52G in all before): loops that only gather cards or
compare hands run over the four hand slots (:data:`.workspace.SEATS`: a seat the rules lack
holds none), a constant trip count the compiler unrolls, 7.65G; each face's points in the
header and an entry's work as a bit length by count-leading-zeros, 7.44G; every index into the
work array that cannot be negative passed through ``nonneg`` (numba otherwise tests each signed
index for a negative value to wrap around: 14% of the instructions), and suits and suit masks
by arithmetic (:mod:`pinochle_sim.core.tricks`), 6.46G (-24%); 100 full deals side by side,
24.4 s -> 20.8 s for the first, 21.5 s -> 19.2 s for the third. Dropped: the search compiled
once for each number of seats, a constant to it (2.4% fewer instructions, but a cold compile of
``dd_solve`` 13.9 s -> 32.7 s); the trick's rotation loops with a constant trip count and an
early exit (6.79G). The first comparison with a bucket's key is then 28% of the search's time.

Windows, tried and dropped: a fail-soft alpha-beta search over a window ``low <= v < need``
(:func:`_search` with a lower edge a frame), 100 full partnership deals of seed 0 (MTD(f):
361.9M nodes): the first search over the guess plus or minus 1, 2, 3, 5 units then MTD(f),
367.5M, 366.0M, 361.2M, 362.8M; over every value at once, 364.1M; after the first test, a
window of 2 units beyond its bound, 351.2M (-3%), but on the next 200 deals 602.4M against
602.1M. The tree is the tree: tests and windows prove the same bounds.

Full deals (12 cards a seat, 20 partnership deals of seed 0, 274M nodes with the above):

* the first test at a guess (:func:`_guess`: every seat plays the first card of the ordering,
  mean error 30 points), then steps of 1, 2, 4, ... units from the bound until a test fails
  the other way, then the binary search (:func:`_narrow`): 274M -> 255M nodes (8 cards:
  -11%). Stepping by one unit from the guess (MTD(f)) gave 306M; with the exact value as
  the guess two tests would take 65% of the binary search's nodes, so a better guess is
  worth at most that much.
* table replacement by work (the bit length of the nodes an entry's search took) instead of
  tricks left: the same nodes with 2**21 buckets (partnership: the table is not full), 431M
  -> 360M nodes for the three-hand deal of seed 0 hand 0 (15 cards a seat).
* a lead tries the side suits first (the takers, then the others), then the trumps (the
  others, then the takers), where it tried every taker first: 251M -> 117M nodes, 15.2 s ->
  6.8 s; 8 cards a seat (60 deals) 5.3M -> 2.6M; joedog (12 deals) 187M -> 133M; three-hand,
  15 cards a seat, hands 0..9 of seed 0, 719M -> 146M (the slowest 27.0 s -> 2.3 s). Where
  the first lead had not decided a node, it had mostly been a trump that takes, and the
  deciding lead a side-suit card. The four groups in other orders: side takers, trump
  takers, the rest 169M; trump takers before trump others 125M; side takers, trump others,
  side others, trump takers 182M; side others first 441M; trump others first 748M; for the
  defenders only, side others first 338M.
* killers: the card that last decided a node where the card tried first had not, kept for
  each seat, tricks left and cards on the table (leads and follows), cleared with each
  generation, tried second (:data:`.workspace.H_KILL`). Five sets (8 cards a seat; full
  partnership deals of seeds 0 and 200; joedog; three-hand, 12 cards): 5.38M, 160.6M,
  238.3M, 171.3M, 12.6M -> 4.74M, 132.6M, 182.4M, 116.5M, 12.1M nodes; the bench's 200 full
  deals, nodes in all: partnership 1,925M -> 1,471M (median 3.25M -> 2.73M), joedog 2,885M ->
  2,231M, three-hand 3,052M -> 2,755M. Tried first instead of second, leads only, 160.3M on
  the second set; third, 145.3M; kept for each side rather than each seat, 143.2M; also set
  where the first card decided, 147.1M; a follow's killer tried first, 157.7M.

* the reply memory (:func:`.moves._recall`): the card that last decided a node whose seat to
  move held the same cards with as many tricks left (inside a trick: the same card winning it
  for the same seat in the same led suit), 65,536 slots cleared with each generation, tried
  first, before the table's move; killers also keyed by the led suit and tried right after the
  first card. Five sets: 4.74M, 132.6M, 182.4M, 116.5M, 12.1M -> 3.24M, 84.9M, 97.2M, 43.0M,
  10.2M nodes; the bench's 200 partnership deals 1,471M -> 736M (median 0.165 s -> 0.114 s).
  Keyed inside a trick on the exact cards on the table: 95.4M on the second set (against
  86.5M); on the led suit and the winner's seat without its card: 182.5M; with the number of
  cards played for the led suit: 89.1M; with the points on the table: 89.5M; on the hand's
  cards of the led suit and trumps only: 87.2M. A lead keyed also on the partner's hand: 107.1M
  against 110.0M in partnership, 20% more in three-hand; on which suits each seat still holds:
  107.9M. The table's move tried second after the memory's: no change; a second card a slot:
  no change; without killers: the same in all (275.0M on the five sets either way); 2**11 to
  2**17 slots: 88.7M to 85.0M on the second set.
* MTD(f) (:func:`.driver._narrow`): the first test at the playout's estimate raised by one
  unit (three in three-hand, :data:`.driver.LIFT_THREE`), then each test at the bound the last
  returned. Against the 1, 2, 4 steps and bisection: full partnership deals of seed 7 (100)
  338.2M -> 297.2M nodes (median 2.21M -> 2.08M), seed 0 (30) 84.9M -> 71.1M, seed 200 (20)
  97.2M -> 103.3M (median 3.00M -> 2.53M), joedog (30 of seed 7) 145.7M -> 138.9M, three-hand
  (20 of seed 7) 133.0M -> 116.3M with one unit, 102.2M with three. Raised by 0: 76.7M on
  seed 0's 30; by 2: 70.5M; by 3: 313.7M on seed 7's 100; by 5: 349.6M. Dropped beside it
  (the bench's 200 partnership deals, 655.7M nodes): the bots' own trick points as a ``--dd``
  deal's first test, 663.7M (one unit up 688.7M; the mean of theirs and the playout's 646.3M,
  the greater 661.0M; the medians 6-12% lower, the sums not); after a failed test, the next
  one or two units further down (100 deals of seed 0, 361.9M -> 364.7M, 369.3M; three-hand,
  30 deals, 288.2M -> 362.8M).
* the part of the table a call uses (:func:`.context._fit_table`): positions of fewer than 12
  cards a hand use the first 2**(cards + 6) buckets, which stay in the cache: 8 cards a seat
  15.2M -> 18.4M nodes a second; full deals are no faster with fewer than 2**20 buckets.

Every card's value (``dd_move_values``, what sampled-world play asks of each world): each
card's search starts its tests at the value of the card before it (sibling cards often have
equal values) instead of at a playout guess: 8 cards a seat, 30 deals of seed 0, nodes -9%
(partnership) to -19% (two-hand); full partnership deals (6): 196M -> 169M nodes.

Table size, same 20 full partnership deals: 2**21 buckets (128 MB) 254M nodes, 2**20 (64 MB)
261M (+3%), 2**18 (16 MB) 345M (+36%); with a smaller table a solve stays exact, it only
searches more. For many deals in parallel, 2**20 a thread (:func:`new_tables`).

Tried and dropped (no fewer nodes, or more): table entries inside the trick (after 1-3 cards:
under 1% fewer nodes, slower), the history heuristic and killer moves tried first (16-480% more
nodes), sure trumps' bounds inside a trick with no trump on the table (20 deals of 10 cards:
77.36M -> 77.34M nodes, 4% slower), a one-trick minimax to order leads (+2% nodes in
partnership, -5% in three-hand, at twice the cost per lead), 4-way buckets replacing the
shallowest entry (+2%), prefetching the bucket before the bounds are worked out (no faster), a
driver that tests at the edge of the interval once it is narrow (no fewer nodes than the binary
search), no entries for searches of under 6 nodes (9-15% more nodes), a cache-sized part of the
table (2**15 buckets) for positions with 3 tricks or fewer left (12-16% more nodes), the table
key of the first move of a trick's last card worked out as soon as the moves are ordered, to
start loading its bucket early (the key is then worked out twice: 10-12% slower). With the lead
order above (five sets of deals: 8 cards a seat, full partnership deals of seeds 0 and 200,
joedog, three-hand): a killer lead set at every cut (the last lead that decided a node with as
many tricks left, for the same side) and never cleared, tried second, 20% fewer nodes on seed
200's full deals but a median 50% higher there, and more nodes on three-hand; following with
the cheapest taking trump first (every seat, the side's only, or not with the trick's last
card), -17% to +33%; the playout guess's first step 2 units instead of 1, -5% to +10%. With the
reply memory and MTD(f): no table look-ups with 2 tricks left (three-hand no faster, full
partnership deals 4% slower, 8 cards 30% slower); the next trick's bucket prefetched where the
last card of a trick has a remembered move, before the moves are ordered (no faster); a reply
memory of 2**18 slots in three-hand (2% fewer nodes, no faster). An exact
first guess would save 24% (40 full partnership deals: 284M -> 215M nodes). With the order
before it: the bots' own trick points as the first guess of a ``--dd`` deal (mean error 1.8
units against the playout's 3), 3% fewer nodes; first locating the value by tests with small
node budgets (30,000 to 300,000 nodes), 6-10% more. Counted on the 30 full partnership deals of
seed 0 (160.6M nodes): the subtrees of leads that did not decide their node hold 51% of the
nodes where the side leads and 30% where the other side does (nested, at 5 or more tricks
left), the biggest part a side suit's taker tried before a trump that does not take (17%).
Reordering for the side alone did not take it back: trumps that do not take before the side
suits' others 280.2M; only where the side holds more trumps than the others 293.1M (for
whichever side leads: 344.0M); those trumps first of all 337.6M. Probing a lead's cards with a
node budget before searching any in full (a probe that runs out is unwound and its card
searched after the others), from a number of tricks left where the table has no move: 1,000
nodes from 8 tricks left 180.6M, from 6 184.4M; 10,000 from 8 185.5M; 30,000 from 10 190.9M;
100 from 4 212.1M; 3,000 from 6 also where the table has a move, 196.5M. A partner's lead taken
with its highest card that beats, not its lowest: 160.0M. Nodes by tricks left (of 12): 3 to 6
hold 83%, 2 or fewer 4.4%. The tests of a solve: the test at the value and the one just above
it take most of the nodes, and tests above the value cost far more than tests below it; the
playout's guess is low by 2.5 units on average. Other drivers, against the one above (30 full
deals of seed 0, 20 of seed 200, joedog, three-hand 12 cards, 8 cards): steps of one unit from
the guess both ways (MTD(f)) -1.3%, -0.3%, +1.0%, +0.6%, +5.2% nodes; climbing by one unit from
the guess and bisecting after the first failure -2.2%, +0.7%, +3.5%, +7.0%, +6.4%; starting one
or two units below the guess +5% and +10% on the first set.

Where the nodes go (full partnership deal of seed 0 hand 6, value 80; with the takers-first
lead order its two tests at the value, 30.0M and 21.4M nodes, were the whole solve although the
first guess was exact): the first move cuts off at 88% of the cut nodes at trick boundaries and
at 96% inside tricks; the nodes peak at 3 to 5 tricks left of 12; 75% of the table look-ups
find an entry (counted again; an earlier count here read 11%). The subtrees of the first leads
that did not decide their node, counted at every level, held as many nodes as the whole search
(hands 2, 3, 5-8, 11, 17 of seed 0): what the lead order above took back. With it, 12.5% of the
cut nodes at trick boundaries are still decided by a later lead than the first (16% where the
other side leads, 10% where the side does).

Partition search, tried and dropped: entries that hold for every position differing only in
which seat holds which cards of the lowest run of equal points (9, J, Q where they score
nothing), as long as each seat holds as many of them a suit. The search returned with each
bound the low ranks its proof compared (a winning low card that a seat holding low cards of
its suit had to head, the last trick's comparisons, the table's own entries, the lower card
of an equivalent pair), and an entry kept them. Heading compares low cards in almost every
trick, so few proofs were general: 10 full partnership deals of seed 0 took 104.9M nodes
against 114.8M, and 24.1 s against 18.9 s (two probes a look-up and a wider key). With one
bucket for both kinds of entry, the nodes rose to 406M.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import nonneg
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import (
    add_card,
    beaters,
    remove_card,
    suit_of,
)
from pinochle_sim.solver.context import (
    _pts,
    _side,
)
from pinochle_sim.solver.moves import (
    _alone,
    _gen,
    _remember,
    _trick_code,
)
from pinochle_sim.solver.settle import OPEN, _settle
from pinochle_sim.solver.transposition import (
    TABLE_MIN_LEFT,
    _canon_face,
    _tt_store,
)
from pinochle_sim.solver.workspace import (
    CX_LAST,
    CX_PLAYERS,
    CX_TRUMP,
    F_BEST,
    F_FACE,
    F_GAIN,
    F_I,
    F_K,
    F_KEY,
    F_LATER,
    F_LED,
    F_LEFT,
    F_N,
    F_NEED,
    F_REM,
    F_SEAT,
    F_START,
    F_TBL,
    F_TP,
    F_WF,
    F_WIDTH,
    F_WS,
    H_CTX,
    H_HANDS,
    H_NODES,
    H_STOP,
    NO_BOUND,
    STACK,
    kill_slot,
)

ENTER = 0
NEXT = 1
RETURN = 2
ABORTED = -(1 << 40)
"""What a search returns when it ran out of nodes, or was asked to stop."""
STOP_EVERY = (1 << 16) - 1
"""The search looks at the work array's stop slot (:data:`H_STOP`) once every 65,536 nodes
(about 10 ms): another thread sets it to stop a solve that is no longer wanted."""


@jit(borrows=True)
def _search(
    tt: np.ndarray,
    seat: int,
    k: int,
    led: int,
    wf: int,
    ws: int,
    tp: int,
    tbl: int,
    left: int,
    rem: int,
    need: int,
    limit: int,
) -> int:
    """Fail-soft null-window test from the state given (hands in the header).

    Returns ``v``: when ``v >= need`` the side takes at least ``v`` points from the current
    trick on, when ``v < need`` at most ``v``; :data:`ABORTED` when ``tt[H_NODES]`` reached
    ``limit`` first, or ``tt[H_STOP]`` was set (the hands are then left as they were at that
    moment)."""
    trump = tt[H_CTX + CX_TRUMP]
    players = tt[H_CTX + CX_PLAYERS]
    last = tt[H_CTX + CX_LAST]
    nodes = tt[H_NODES]
    d = 0
    v = 0
    phase = ENTER
    while True:
        if phase == ENTER:
            nodes += 1
            if nodes > limit or ((nodes & STOP_EVERY) == 0 and tt[H_STOP] != 0):
                tt[H_NODES] = nodes
                return ABORTED
            v, hint = _settle(tt, d, seat, k, led, wf, ws, tp, left, rem, need)
            if v != OPEN:
                phase = RETURN
                continue
            fb = STACK + d * F_WIDTH
            tt[nonneg(fb + F_SEAT)] = seat
            tt[nonneg(fb + F_K)] = k
            tt[nonneg(fb + F_LED)] = led
            tt[nonneg(fb + F_WF)] = wf
            tt[nonneg(fb + F_WS)] = ws
            tt[nonneg(fb + F_TP)] = tp
            tt[nonneg(fb + F_TBL)] = tbl
            tt[nonneg(fb + F_LEFT)] = left
            tt[nonneg(fb + F_REM)] = rem
            tt[nonneg(fb + F_NEED)] = need
            tt[nonneg(fb + F_START)] = nodes
            tt[nonneg(fb + F_BEST)] = -1 if _side(tt, seat) else NO_BOUND
            if _alone(tt, seat, led, wf, tbl, hint):
                # the others are ordered only where it does not decide the node
                tt[nonneg(fb)] = hint
                tt[nonneg(fb + F_N)] = 1
                tt[nonneg(fb + F_LATER)] = 1
            else:
                tt[nonneg(fb + F_N)] = _gen(tt, fb, seat, k, led, wf, ws, tbl, hint, left)
                tt[nonneg(fb + F_LATER)] = 0
            tt[nonneg(fb + F_I)] = 0
            phase = NEXT
        elif phase == NEXT:
            fb = STACK + d * F_WIDTH
            i = tt[nonneg(fb + F_I)]
            seat = tt[nonneg(fb + F_SEAT)]
            k = tt[nonneg(fb + F_K)]
            # the remembered move did not decide: the others are ordered now
            if i == tt[nonneg(fb + F_N)] and tt[nonneg(fb + F_LATER)]:
                tt[nonneg(fb + F_N)] = _gen(
                    tt, fb, seat, k, tt[nonneg(fb + F_LED)], tt[nonneg(fb + F_WF)],
                    tt[nonneg(fb + F_WS)], tt[nonneg(fb + F_TBL)], tt[nonneg(fb)],
                    tt[nonneg(fb + F_LEFT)],
                )  # fmt: skip
                tt[nonneg(fb + F_LATER)] = 0
            if i == tt[nonneg(fb + F_N)]:  # every move tried, none decided: the best bound found
                v = tt[nonneg(fb + F_BEST)]
                if k == 0 and tt[nonneg(fb + F_LEFT)] >= TABLE_MIN_LEFT:
                    spent = nodes - tt[nonneg(fb + F_START)]
                    _tt_store(tt, fb + F_KEY, spent, tt[nonneg(fb + F_NEED)], v, -1)
                phase = RETURN
                continue
            tt[nonneg(fb + F_I)] = i + 1
            f = tt[nonneg(fb + i)]
            tt[nonneg(fb + F_FACE)] = f
            tt[nonneg(H_HANDS + seat)] = remove_card(tt[nonneg(H_HANDS + seat)], f)
            led = tt[nonneg(fb + F_LED)]
            wf = tt[nonneg(fb + F_WF)]
            ws = tt[nonneg(fb + F_WS)]
            tp = tt[nonneg(fb + F_TP)]
            tbl = tt[nonneg(fb + F_TBL)]
            left = tt[nonneg(fb + F_LEFT)]
            rem = tt[nonneg(fb + F_REM)]
            need = tt[nonneg(fb + F_NEED)]
            p = _pts(tt, f)
            tp += p
            rem -= p
            tbl |= 1 << f
            if k == 0:
                led = suit_of(f)
                wf = f
                ws = seat
            elif (beaters(wf, trump) >> f) & 1:
                wf = f
                ws = seat
            k += 1
            gained = 0
            if k == players:  # the trick is complete
                left -= 1
                if left == 0:
                    tp += last
                    rem -= last
                if _side(tt, ws):
                    gained = tp
                    need -= tp
                seat = ws
                k = 0
                led = -1
                wf = -1
                tp = 0
                tbl = 0
            else:
                seat = seat + 1 if seat + 1 < players else 0
            tt[nonneg(fb + F_GAIN)] = gained
            d += 1
            phase = ENTER
        else:  # RETURN: the node at depth d has the value (bound) v
            if d == 0:
                tt[H_NODES] = nodes
                return v
            d -= 1
            fb = STACK + d * F_WIDTH
            seat = tt[nonneg(fb + F_SEAT)]
            f = tt[nonneg(fb + F_FACE)]
            tt[nonneg(H_HANDS + seat)] = add_card(tt[nonneg(H_HANDS + seat)], f)
            v += tt[nonneg(fb + F_GAIN)]
            need = tt[nonneg(fb + F_NEED)]
            maxing = _side(tt, seat)
            if (v >= need) == maxing:  # a cut-off: this move decides the node
                k = tt[nonneg(fb + F_K)]
                left = tt[nonneg(fb + F_LEFT)]
                led = tt[nonneg(fb + F_LED)]
                if tt[nonneg(fb + F_I)] > 1:  # not the first card tried: the killer of its kind
                    tt[nonneg(kill_slot(seat, left, k, led))] = f + 1
                trick = _trick_code(k, led, tt[nonneg(fb + F_WF)], tt[nonneg(fb + F_WS)])
                _remember(tt, seat, left, trick, f)
                if k == 0 and left >= TABLE_MIN_LEFT:
                    best = _canon_face(tt, f)
                    _tt_store(tt, fb + F_KEY, nodes - tt[nonneg(fb + F_START)], need, v, best)
                continue
            if maxing:
                tt[nonneg(fb + F_BEST)] = max(tt[nonneg(fb + F_BEST)], v)
            else:
                tt[nonneg(fb + F_BEST)] = min(tt[nonneg(fb + F_BEST)], v)
            phase = NEXT
