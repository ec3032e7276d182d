"""Pinochle as an OpenSpiel game: ``python_pinochle``, registered when this module is imported.

>>> import pyspiel                                                          # doctest: +SKIP
>>> import pinochle_sim.openspiel                                           # doctest: +SKIP
>>> game = pyspiel.load_game("python_pinochle", {"rules": "three-hand"})    # doctest: +SKIP

One hand of an auction preset (``partnership``, ``partnership-classic``, ``joedog``,
``three-hand``, or a TOML ruleset with an auction), from the deal (chance nodes, one card
each, exact for a deck of two copies of each face) to the score; the rules, legality, meld and
scoring are the engine's (:mod:`pinochle_sim.agents.stepwise`). Game parameters: ``rules`` (a
preset name or a TOML file; default ``partnership``) and ``dealer`` (the dealing seat; default
0). Returns are each seat's side's score for the hand, in the points the engine's records
use. Information states and observations are a seat's whole knowledge of the hand, perfect
recall (:mod:`pinochle_sim.agents.views`). Needs the ``[agents]`` extra (``open-spiel``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from pinochle_sim.agents.determinize import sample_world
from pinochle_sim.agents.duplicate import duplicate_match, summary
from pinochle_sim.agents.players import PolicyPlayer
from pinochle_sim.agents.stepwise import (
    CHANCE,
    MAX_BID_STEPS,
    MAX_CALLS,
    NUM_ACTIONS,
    TERMINAL,
    Table,
    action_name,
    table_rules,
)
from pinochle_sim.agents.views import info_string, info_tensor, tensor_size
from pinochle_sim.core.cards import hand_faces
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules.arrays import RA_DISCARD, RA_PASS

GAME_NAME = "python_pinochle"
DEFAULT_PARAMS: dict[str, Any] = {"rules": "partnership", "dealer": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Pinochle (pinochle-sim, auction presets)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def _info(rules: str) -> pyspiel.GameInfo:
    tr = table_rules(rules)
    # the longest hand: every card dealt, the longest auction, trump, the exchange, the
    # throw-in decision and every card played
    exchange = 2 * int(tr.ra[RA_PASS]) + int(tr.ra[RA_DISCARD])
    length = tr.players * tr.hand_size + tr.widow + MAX_CALLS + 1 + exchange + 1
    length += tr.players * tr.hand_size
    bound = float(tr.max_bid * 10)  # far above any meld plus trick points
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=24,
        num_players=tr.players,
        min_utility=-float(tr.min_bid + MAX_BID_STEPS * tr.unit),
        max_utility=bound,
        utility_sum=None,
        max_game_length=length,
    )


class PinochleGame(pyspiel.Game):
    """One hand of an auction preset (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULT_PARAMS, **(params or {})}
        self.rules_name = str(params["rules"])
        self.dealer = int(params["dealer"])
        self.table_rules = table_rules(self.rules_name)
        if not 0 <= self.dealer < self.table_rules.players:
            raise ValueError(f"dealer must be a seat 0..{self.table_rules.players - 1}")
        super().__init__(_GAME_TYPE, _info(self.rules_name), params)

    def new_initial_state(self) -> PinochleState:
        return PinochleState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PinochleObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return PinochleObserver(self.table_rules)


class PinochleState(pyspiel.State):
    """A state of the hand: a :class:`~pinochle_sim.agents.stepwise.Table` underneath."""

    def __init__(self, game: PinochleGame) -> None:
        super().__init__(game)
        self.table = Table(game.table_rules, dealer=game.dealer)

    def current_player(self) -> int:
        p = self.table.current_player()
        if p == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_actions() if player == self.table.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action_name(self.table.tr, action)}"
        return action_name(self.table.tr, action)

    def is_terminal(self) -> bool:
        return self.table.current_player() == TERMINAL

    def returns(self) -> list[float]:
        return self.table.returns()

    def __str__(self) -> str:
        t = self.table
        hands = " | ".join(
            " ".join(action_name(t.tr, f) for f in hand_faces(h)) for h in t.hands
        )  # fmt: skip
        return f"phase {t.phase} · hands {hands} · calls {t.calls} · tricks {t.tricks}"

    def __deepcopy__(self, memo: dict) -> PinochleState:
        new = PinochleState(self.get_game())
        new.table = self.table.copy()
        return new


class PinochleObserver:
    """A seat's view of a state, as OpenSpiel's Python observers give it (perfect recall)."""

    def __init__(self, tr: Any) -> None:
        self.tensor = np.zeros(tensor_size(tr), np.float32)
        self.dict = {"info_state": self.tensor}

    def set_from(self, state: PinochleState, player: int) -> None:
        self.tensor[:] = info_tensor(state.table, player)

    def string_from(self, state: PinochleState, player: int) -> str:
        return info_string(state.table, player)


class PolicyBot(pyspiel.Bot):
    """One of our policy sets as an OpenSpiel bot for ``python_pinochle`` (any seat): each
    step asks the policy kernels the engine runs, from what the seat knows
    (:mod:`pinochle_sim.agents.players`). With every seat such a bot, a hand plays exactly
    as the engine plays it for the deterministic policies (``greedy``, ``counting``, the
    standard pass). ``seed`` and ``hand`` key the draws of randomised policies."""

    def __init__(self, policies: PolicySet | None = None, seed: int = 0, hand: int = 0) -> None:
        super().__init__()
        self.player = PolicyPlayer(policies, seed)
        self.hand = hand

    def step(self, state: PinochleState) -> int:
        return self.player.decide(state.table, state.current_player(), self.hand)

    def restart_at(self, state: PinochleState) -> None:
        pass


ISMCTS_SIMULATIONS = 100
"""IS-MCTS's default budget: simulations a decision (each one world sampled, the tree walked
and the hand played out once at random)."""
ISMCTS_UCT_C = 2.0


def ismcts_bot(
    game: PinochleGame, simulations: int = ISMCTS_SIMULATIONS, seed: int = 0,
    uct_c: float = ISMCTS_UCT_C,
) -> Any:  # fmt: skip
    """OpenSpiel's IS-MCTS (its Python implementation) for ``python_pinochle``: a random-
    rollout evaluator, ``simulations`` a decision, worlds from
    :func:`pinochle_sim.agents.determinize.sample_world` (the seat's hidden cards dealt again)."""
    if simulations < 1:
        raise ValueError(f"IS-MCTS needs at least one simulation a decision, got {simulations}")
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c, simulations, random_state=rs)
    rng = np.random.default_rng(seed)

    def resample(state: PinochleState, player: int) -> PinochleState:
        world = PinochleState(state.get_game())
        world.table = sample_world(state.table, player, rng)
        return world

    bot.set_resampler(resample)
    return bot


def ismcts_player(rules: str, simulations: int = ISMCTS_SIMULATIONS, seed: int = 0) -> Any:
    """IS-MCTS as a player of :mod:`pinochle_sim.agents.duplicate` (``(table, seat, deal) ->
    action``): a forced move is played without a search."""
    games: dict[int, PinochleGame] = {}
    bots: dict[int, Any] = {}

    def play(table: Any, seat: int, deal: int) -> int:
        legal = table.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if table.dealer not in games:
            params = {"rules": rules, "dealer": table.dealer}
            games[table.dealer] = pyspiel.load_game(GAME_NAME, params)
            bots[table.dealer] = ismcts_bot(games[table.dealer], simulations, seed)
        state = PinochleState(games[table.dealer])
        state.table = table.copy()
        return int(bots[table.dealer].step(state))

    return play


def policy_player(policies: PolicySet | None = None, seed: int = 0) -> Any:
    """One of our policy sets as a player of :mod:`pinochle_sim.agents.duplicate`."""
    player = PolicyPlayer(policies, seed)
    return lambda table, seat, deal: player.decide(table, seat, deal)


def parse_agent(spec: str, rules: str, seed: int = 0) -> tuple[str, Any]:
    """``openspiel:ismcts`` or ``openspiel:ismcts:200`` (simulations a decision) as a labelled
    player; a ValueError names what is wrong."""
    parts = spec.split(":")
    if len(parts) < 2 or parts[0] != "openspiel" or parts[1] != "ismcts" or len(parts) > 3:
        raise ValueError(
            f"unknown agent {spec!r}: the OpenSpiel agents are openspiel:ismcts and "
            "openspiel:ismcts:SIMULATIONS (e.g. openspiel:ismcts:200)"
        )
    sims = ISMCTS_SIMULATIONS
    if len(parts) == 3:
        if not parts[2].isdigit() or int(parts[2]) < 1:
            raise ValueError(
                f"IS-MCTS simulations must be a positive whole number, got {parts[2]!r}"
            )
        sims = int(parts[2])
    return f"ismcts-{sims}", ismcts_player(rules, sims, seed)


def agent_match(
    rules: str, a: tuple[str, PolicySet | None], b: tuple[str, PolicySet | None], deals: int,
    seed: int = 0, progress: Any = None,
) -> tuple[Any, dict[str, Any]]:  # fmt: skip
    """A duplicate match between players of any kind: each side a labelled policy set, or an
    OpenSpiel agent spec with None (``("openspiel:ismcts:200", None)``). Returns the per-deal
    rows and the summary (:mod:`pinochle_sim.agents.duplicate`)."""
    table_rules(rules)  # a one-line error for rules without an auction, before any work
    players = []
    labels = []
    for spec, policies in (a, b):
        if policies is None:
            label, player = parse_agent(spec, rules, seed)
        else:
            label, player = spec, policy_player(policies, seed)
        labels.append(label)
        players.append(player)
    pairs, clocks = duplicate_match(rules, players[0], players[1], deals, seed, progress)
    out = summary(pairs, clocks, (labels[0], labels[1]))
    out |= {"rules": str(rules), "seed": seed, "engine": "pinochle-sim stepwise table"}
    return pairs, out


pyspiel.register_game(_GAME_TYPE, PinochleGame)

__all__ = [
    "DEFAULT_PARAMS",
    "GAME_NAME",
    "PinochleGame",
    "PinochleObserver",
    "PinochleState",
    "PolicyBot",
    "agent_match",
    "ismcts_bot",
    "ismcts_player",
    "parse_agent",
    "policy_player",
]
