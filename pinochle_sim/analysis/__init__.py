"""The analysis layer: exact meld distributions (:mod:`.exact`), duplicate matches and sweeps
(:mod:`.compare`), and reports of runs (:mod:`.reports`)."""

from pinochle_sim.analysis import exact

__all__ = ["exact"]
