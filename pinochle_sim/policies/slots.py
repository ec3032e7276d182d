"""Layout of the policy array (``PolicyArray``, int64) that kernels read.

[0..4]    policy ids: bidding, passing, play, concede, discard
[8..23]   bidding policy parameters, in the order its registry entry declares them
[24..31]  passing policy parameters
[32..39]  play policy parameters
[40..47]  concede policy parameters
[48..55]  discard (widow) policy parameters
[56..63]  meld (two-hand laying) policy parameters
[64..71]  stock (two-hand stock-phase play) policy parameters
"""

PP_BID = 0
PP_PASS = 1
PP_PLAY = 2
PP_CONCEDE = 3
PP_DISCARD = 4
PP_MELD = 5
PP_STOCK = 6
PP_BID_PARAMS = 8
PP_PASS_PARAMS = 24
PP_PLAY_PARAMS = 32
PP_CONCEDE_PARAMS = 40
PP_DISCARD_PARAMS = 48
PP_MELD_PARAMS = 56
PP_STOCK_PARAMS = 64
PP_SIZE = 72
# Policy ids (stable: they are recorded in provenance through their names).
BID_ESTIMATE = 0
BID_PASS = 1
BID_CALIBRATED = 2
BID_LEARNED = 3
PASS_STANDARD = 0
PASS_RANDOM = 1
PLAY_GREEDY = 0
PLAY_RANDOM = 1
PLAY_COUNTING = 2
PLAY_PIMC = 3
PLAY_SOLVER = 4
PLAY_LEARNED = 5
CONCEDE_CONCEDE = 0
CONCEDE_PLAY_ON = 1
DISCARD_STANDARD = 0
DISCARD_RANDOM = 1
MELD_GREEDY = 0
MELD_RANDOM = 1
STOCK_STANDARD = 0
STOCK_RANDOM = 1

# Parameter indexes inside each block.
EST_MARGIN = 0
EST_PARTNER = 1
EST_PASS_GAIN = 2
EST_TRICK_BASE = 3
EST_PER_TRUMP = 4
EST_PER_ACE = 5
EST_JUMP = 6
EST_WIDOW_GAIN = 7
EST_SOLO_TRICK_BASE = 8
STD_KEEP_TRUMP = 0
DISCARD_KEEP_TRUMP = 0
GREEDY_DRAW_TRUMP = 0
GREEDY_SMEAR = 1
PIMC_WORLDS = 0
PIMC_FROM_TRICK = 1
LEARNED_MODEL = 0
LEARNED_FROM_TRICK = 1
LEARNED_MARGIN = 2
LEARNED_LEADS = 3
LEARNED_BID_MODEL = 0
LEARNED_BID_MARGIN = 1
LEARNED_BID_JUMP = 2
MELD_BUILD_UP = 0
MELD_BUILD_UP_MIN = 1
MELD_EXCHANGE = 2
STOCK_WIN_MELD = 0
STOCK_MELD_WEIGHT = 1
STOCK_TRUMP_COST = 2
STOCK_MELD_COST = 3
STOCK_NEAR_COST = 4
