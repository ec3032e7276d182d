"""Where a run's or a study's tasks run, behind one interface (:class:`.tasks.Backend`): this
process's threads (:mod:`.local`, the default) or the workers of a Dask cluster (:mod:`.cluster`,
which imports Dask and is loaded only when a cluster is asked for). :mod:`.tasks` holds the
interface and the picklable task items that any process can run.
"""
