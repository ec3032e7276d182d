"""The PettingZoo environment, checked by PettingZoo's own API and seed tests on every auction
preset."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the [agents] extra (pettingzoo) is not installed")
from pettingzoo.test import api_test, seed_test

from pinochle_sim import pettingzoo as pz
from tests.agents.test_stepwise import PRESETS


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("rules", PRESETS)
def test_pettingzoo_api_and_seed_tests(rules):
    api_test(pz.env(rules=rules), num_cycles=300, verbose_progress=False)
    seed_test(lambda: pz.env(rules=rules), num_cycles=100)


def test_a_whole_hand_with_masked_random_actions():
    env = pz.env(rules="three-hand", render_mode="ansi")
    env.reset(seed=3)
    total = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] = total.get(agent, 0.0) + reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["action_mask"].sum() >= 1
        env.step(env.action_space(agent).sample(obs["action_mask"]))
    raw = env.unwrapped
    assert raw.table.phase == 8 and len(total) == 3
    assert [total[a] for a in raw.possible_agents] == raw.table.returns()


def test_bad_arguments():
    with pytest.raises(ValueError, match="have no auction"):
        pz.env(rules="two-hand")
    with pytest.raises(ValueError, match="render_mode"):
        pz.env(render_mode="human")
