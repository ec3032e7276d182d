"""Pinochle as a PettingZoo AEC environment: one hand of an auction preset, each seat an agent.

>>> from pinochle_sim import pettingzoo as pz                               # doctest: +SKIP
>>> env = pz.env(rules="partnership")
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else env.action_space(agent).sample(
...         obs["action_mask"])
...     env.step(action)

The deal is the environment's own chance, drawn from its seeded generator (``reset(seed=)``)
with the exact probabilities of a deck of two copies of each face; the rules, legality, meld
and scoring are the engine's (:mod:`pinochle_sim.agents.stepwise`). Agents ``player_0`` ...
(seat numbers); each observation is a dict of ``observation`` (the seat's information state,
:mod:`pinochle_sim.agents.views`) and ``action_mask`` (1 for each legal action). The reward,
at the end of the hand, is each seat's side's score in the records' points. Needs the
``[agents]`` extra (``pettingzoo``, ``gymnasium``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pinochle_sim.agents.stepwise import CHANCE, NUM_ACTIONS, TERMINAL, Table, table_rules
from pinochle_sim.agents.views import info_string, info_tensor, tensor_size


class PinochleEnv(AECEnv):
    """The raw environment (:func:`env` wraps it in PettingZoo's usual checks)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "pinochle_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: str = "partnership", dealer: int = 0,
                 render_mode: str | None = None) -> None:  # fmt: skip
        super().__init__()
        self.table_rules = table_rules(rules)
        players = self.table_rules.players
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0..{players - 1}, got {dealer}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.dealer = dealer
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        size = tensor_size(self.table_rules)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        })  # fmt: skip
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self.rng = np.random.default_rng()
        self.table = Table(self.table_rules, dealer=dealer)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.table.current_player() == seat:
            mask[self.table.legal_actions()] = 1
        return {"observation": info_tensor(self.table, seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.table = Table(self.table_rules, dealer=self.dealer)
        while self.table.current_player() == CHANCE:  # the deal: the environment's chance
            faces, probs = zip(*self.table.chance_outcomes(), strict=True)
            self.table.apply(int(self.rng.choice(faces, p=np.array(probs))))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.current_player()]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.apply(int(action))  # an illegal action is a ValueError naming it
        seat = self.table.current_player()
        if seat == TERMINAL:
            for a, r in zip(self.agents, self.table.returns(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.table.current_player()
        return info_string(self.table, seat if seat >= 0 else 0)

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (illegal moves end nothing
    silently: they raise; out-of-bounds actions are refused)."""
    e = PinochleEnv(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


raw_env = PinochleEnv

__all__ = ["PinochleEnv", "env", "raw_env"]
