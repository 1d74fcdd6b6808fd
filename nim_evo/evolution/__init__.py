"""Evolution: a run's configuration (:mod:`~nim_evo.evolution.config`), the DEAP loop
(:mod:`~nim_evo.evolution.loop`), fitness against an opponent panel, the run directory, and
where fitness tasks run (the local pool or a Dask cluster)."""
