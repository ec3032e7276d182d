"""Playing hands into arrays: ranges of hand indices through an engine's kernels.

The library calls a notebook makes (:mod:`.hands`: ``play_hands``, one traced hand, the
checked deal constraints of fixed cards and forced contracts), the thread pool that runs chunks
of hands in parallel (:mod:`.threads`: results never depend on the chunking), whole games
(:mod:`.games`), deals kept by a filter (:mod:`.accept`) and the double-dummy columns of a block
of hands (:mod:`.dd`).
"""

from typing import Any

from pinochle_sim.runs.simulate import hands


def __getattr__(name: str) -> Any:
    """The names of the module this package replaced (``pinochle_sim.runs.simulate``, now
    :mod:`.hands`) still import from here."""
    if hasattr(hands, name) and not name.startswith("_"):
        return getattr(hands, name)
    raise AttributeError(f"module 'pinochle_sim.runs.simulate' has no attribute {name!r}")
