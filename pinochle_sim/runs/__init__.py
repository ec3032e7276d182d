"""The run layer: drives engines and stores what they write.

Ranges of hands into arrays (:mod:`.simulate`), chunks on a thread pool (:mod:`.parallel`),
the Parquet schema (:mod:`.records`), atomic part files, manifest, provenance and checks
(:mod:`.dataset`; it imports no engine), the run driver with resume and warm-up
(:mod:`.runner`, :mod:`.warmup`), whole games (:mod:`.games`), one hand shown (:mod:`.show`),
decoded export (:mod:`.export`), the accept filter (:mod:`.accept`), solving a simulated hand
(:mod:`.solve`) and the benchmarks (:mod:`.bench`).
"""
