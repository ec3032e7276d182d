"""The bottom layer: what is true of the deck whatever the rules.

Cards and notation (:mod:`.cards`: faces, copies, the packed 48-bit hand), bit intrinsics
(:mod:`.bits`), counter-based per-hand random streams (:mod:`.rng`), the seeded deal of one hand
index, free or with fixed cards (:mod:`.deal`), legal plays and what beats what in a trick
(:mod:`.tricks`), and the one place numba options are set (:mod:`.jit`). Nothing here knows a
ruleset.
"""
