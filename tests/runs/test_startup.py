"""The pandas-free column reader a run's start-up uses, against Arrow's own ``to_numpy``.

That the start-up of ``run``, ``show``, ``advise`` and ``solve`` loads neither pandas nor
matplotlib is checked in a fresh interpreter in tests/cli/test_startup.py."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from pinochle_sim.runs.store.read import column_array


def test_column_array_equals_arrow_to_numpy() -> None:
    """The pandas-free column reader against Arrow's own ``to_numpy``, on sliced (offset) and
    multi-chunk columns of every record dtype."""
    rng = np.random.default_rng(3)
    for typ, values in [
        (pa.bool_(), rng.integers(0, 2, 1000).astype(bool)),
        (pa.int8(), rng.integers(-100, 100, 1000).astype(np.int8)),
        (pa.int16(), rng.integers(-3000, 3000, 1000).astype(np.int16)),
        (pa.int64(), rng.integers(-(2**60), 2**60, 1000)),
    ]:
        whole = pa.array(values, type=typ)
        col = pa.chunked_array([whole.slice(3, 400), whole.slice(411, 589), whole.slice(0, 0)])
        table = pa.table({"x": col})
        got = column_array(table, "x")
        assert got.dtype == col.to_numpy().dtype
        assert np.array_equal(got, col.to_numpy())
