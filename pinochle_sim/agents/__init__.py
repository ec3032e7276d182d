"""Pinochle where game-AI research works: one hand of an auction preset as states and actions
(:mod:`.stepwise`), and the adapters that make it an OpenSpiel game and a PettingZoo environment
(public as :mod:`pinochle_sim.openspiel` and :mod:`pinochle_sim.pettingzoo`; their frameworks
are the ``[agents]`` extra, loaded only there)."""
