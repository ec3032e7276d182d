"""Compiling the kernels before a run's clock starts, in one place.

:func:`~.warmup.warm` is the entry point: it tells whether a kernel call will compile (in this
process already, cached on disk, or cold), announces a cold compile with an estimate from this
machine's last one, and plays one hand through the library's own call. A cold compile runs beside
a helper process that compiles, into the same numba cache, the kernels the run's compile reaches
last (:mod:`.helper`, from the plans in ``plans.json``, recorded by ``make compile-plans``).
"""
