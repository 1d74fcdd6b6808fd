"""joblib's local pool of a run's fitness tasks: one ``Parallel`` for the run, whose worker
processes keep freed memory for the next task and end with the run (:mod:`nim_evo.processes`)."""

from __future__ import annotations

import weakref

from nim_evo import processes
from nim_evo.evolution.allocator import keep_freed_memory


class LocalPool:
    """joblib's local process pool with one ``Parallel`` for the whole run (``with
    Parallel(...)``, kept open until this object is released): its worker processes, and
    the memory-mapped files joblib writes for the large numpy arrays of the tasks (a
    panel's tables), last from one map to the next. (A ``Parallel`` of its own for each map
    writes the tables again each time, and after it waits for the workers to let go of
    them before it deletes them: a tenth of a second, a generation's work on two workers.)
    With ``threads``, joblib's pool of threads in this process instead, which share its objects."""

    def __init__(self, jobs: int, threads: bool = False):
        self.jobs, self.threads = jobs, threads
        self._open()

    def _open(self) -> None:
        self.parallel = processes.parallel(self.jobs, batch_size=1, pre_dispatch="all",
                                           prefer="threads" if self.threads else None)
        self.parallel.__enter__()
        self._close = weakref.finalize(self, self.parallel.__exit__, None, None, None)

    def map(self, calls: list) -> list:
        """The results of joblib's delayed ``calls``, one task each, in order."""
        if not self.threads:
            calls = [(pool_task, (function, *args), kwargs) for function, args, kwargs in calls]
        try:
            return self.parallel(calls)
        except RuntimeError as error:  # joblib's shared executor shut down under it (a Parallel of
            if "shut" not in str(error):  # other options in between): a new one, the calls again
                raise
        self.close()
        self._open()
        return self.parallel(calls)

    def close(self) -> None:
        """Release the pool's ``Parallel`` (its workers stay for joblib's next pool)."""
        self._close()


def pool_task(function, *args, **kwargs):
    """A task of :class:`LocalPool`: ``function(*args, **kwargs)`` in a worker process that
    keeps freed memory for the next task (see :func:`keep_freed_memory`)."""
    keep_freed_memory()
    return function(*args, **kwargs)
