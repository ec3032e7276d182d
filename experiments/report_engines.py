"""Which library should a report aggregate runs with? One report question (P(set) and the
concede rate by winning bid: a grouped count and two grouped sums, what most questions are) over
a run folder, in a fresh process each, by four engines:

* ``numpy``: each part read with pyarrow's Parquet reader, its columns aggregated with numpy;
* ``pyarrow``: the run as one ``pyarrow.dataset``, its batches through ``pyarrow.compute``'s
  grouped aggregation;
* ``duckdb``: one SQL ``GROUP BY`` over the parts' glob;
* ``polars``: a lazy scan with ``group_by``, collected by the streaming engine.

Prints wall seconds and peak memory (the process's maximum resident set) of each, several runs,
and whether the four tables agree. ``python experiments/report_engines.py RUN_DIR [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

ENGINES = ("numpy", "pyarrow", "duckdb", "polars")

ONE = r"""
import json, sys, time, resource
engine, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
if engine == "numpy":
    import glob
    import numpy as np
    import pyarrow.parquet as pq
    n, k, c = (np.zeros(1 << 15, np.int64) for _ in range(3))
    for f in sorted(glob.glob(path + "/part-*.parquet")):
        t = pq.ParquetFile(f).read(columns=["bid", "made", "conceded"])
        bid = t.column("bid").to_numpy().astype(np.int64)
        made = t.column("made").to_numpy(zero_copy_only=False)
        conceded = t.column("conceded").to_numpy(zero_copy_only=False)
        n += np.bincount(bid, minlength=len(n))
        k += np.bincount(bid, weights=~made, minlength=len(n)).astype(np.int64)
        c += np.bincount(bid, weights=conceded, minlength=len(n)).astype(np.int64)
    rows = {int(b): [int(n[b]), int(k[b]), int(c[b])] for b in np.flatnonzero(n)}
elif engine == "pyarrow":
    import glob
    import pyarrow as pa, pyarrow.dataset as ds
    d = ds.dataset(sorted(glob.glob(path + "/part-*.parquet")), format="parquet")
    t = d.to_table(columns={"bid": ds.field("bid"),
                            "set": (~ds.field("made")).cast(pa.int64()),
                            "conceded": ds.field("conceded").cast(pa.int64())})
    g = t.group_by("bid").aggregate([("bid", "count"), ("set", "sum"), ("conceded", "sum")])
    names = ("bid", "bid_count", "set_sum", "conceded_sum")
    cols = [g.column(x).to_pylist() for x in names]
    rows = {int(b): [int(n), int(k), int(c)] for b, n, k, c in zip(*cols)}
elif engine == "duckdb":
    import duckdb
    q = duckdb.sql(
        "select bid, count(*), sum(case when made then 0 else 1 end), sum(conceded::int) "
        f"from '{path}/part-*.parquet' group by bid"
    )
    rows = {int(b): [int(n), int(k), int(c)] for b, n, k, c in q.fetchall()}
elif engine == "polars":
    import polars as pl
    q = (pl.scan_parquet(f"{path}/part-*.parquet").group_by("bid")
         .agg(pl.len().alias("n"), (~pl.col("made")).cast(pl.Int64).sum().alias("k"),
              pl.col("conceded").cast(pl.Int64).sum().alias("c")))
    t = q.collect(engine="streaming")
    rows = {int(b): [int(n), int(k), int(c)] for b, n, k, c in t.iter_rows()}
seconds = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak_mb": peak, "rows": sorted(rows.items())}))
"""


def measure(engine: str, path: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", ONE, engine, path], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    results: dict[str, list[dict]] = {e: [] for e in ENGINES}
    for _ in range(a.repeat):  # engines in turn, so each sees the machine in the same mood
        for e in ENGINES:
            results[e].append(measure(e, a.run_dir))
    tables = {e: r[0]["rows"] for e, r in results.items()}
    agree = all(t == tables["numpy"] for t in tables.values())
    t0 = time.strftime("%Y-%m-%d %H:%M")
    print(f"{a.run_dir}, {a.repeat} runs each, {t0}; the four tables agree: {agree}")
    for e, r in results.items():
        s = [x["seconds"] for x in r]
        m = [x["peak_mb"] for x in r]
        print(
            f"{e:<8} wall {statistics.median(s):6.2f} s (min {min(s):.2f}, max {max(s):.2f}), "
            f"peak {statistics.median(m):7.0f} MB"
        )


if __name__ == "__main__":
    main()
