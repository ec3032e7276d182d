"""The run layer: drives engines and stores what they write, one folder a role.

* :mod:`.spec` (what a run is: :class:`~.spec.RunSpec`), :mod:`.runner` (``run``: a spec in, a
  complete run folder out), :mod:`.estimate` (its cost before it starts), :mod:`.summary` (its
  closing figures) and :mod:`.observer` (who is told of progress, notices and the plan);
* :mod:`.simulate`: ranges of hands into arrays, threads, games, the accept filter, the
  double-dummy columns;
* :mod:`.store`: locations (local or a store's URL), the schema, the run folder's files,
  provenance, checks, reading back, export;
* :mod:`.backends`: this process's threads and Dask, one interface;
* :mod:`.compile`: the warm-up before the clock and the compile helper, in one place;
* :mod:`.inspect`: one simulated hand shown or solved.
"""
