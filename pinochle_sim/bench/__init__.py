"""The benchmarks of ``make bench``: one layer above the runs and studies they time, below the
command line.

Each engine's first call (compile or cache load) and hands per second per stage on one and two
threads (:mod:`.stages`), the double-dummy solver's time per position (:mod:`.solver_times`),
end-to-end runs in fresh processes, and the minimal engine each million-hand run is measured
against (:mod:`.yardstick`: it imports nothing from the package and keeps a compile cache of
its own). Speed targets live here and in the README, never in timed unit tests.
"""
