"""Where fitness tasks run: joblib's local process pool, or a Dask cluster through joblib's
Dask backend (``pip install 'nim-evo[distributed]'``).

The tasks are the same either way (cut by the problem, one seed stream each, results in
submission order), so a run gives the same champion and logbook on any backend. Dask
reschedules the tasks of a worker that is lost; a cluster that cannot go on (a task that
keeps killing workers, a scheduler gone) stops the run with :class:`ClusterError`, and the
last checkpoint resumes it.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator

from joblib import parallel_config

BACKENDS = ("local", "dask")
EXTRA = "nim-evo[distributed]"
CONNECT_TIMEOUT = "10s"
# Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536, which also fixes glibc's
# mmap threshold: every numpy array over 128 KiB is then mapped and unmapped afresh, and our
# batched games ran 1.7 times slower on two workers. Local clusters unset it; the README says
# how to start remote workers without it.
TRIM_SETTING = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
WORKER_ENVIRONMENT = "DASK_DISTRIBUTED__NANNY__PRE_SPAWN_ENVIRON__MALLOC_TRIM_THRESHOLD_=None"


class ClusterError(RuntimeError):
    """The Dask cluster failed in the middle of a run."""


def check_backend(backend: str, scheduler: str | None, jobs: int | None) -> None:
    """One-line ``ValueError`` for options that do not go together, or Dask not installed."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known backends: {', '.join(BACKENDS)}")
    if backend == "local" and scheduler is not None:
        raise ValueError("--scheduler goes with --backend dask")
    if scheduler is not None and jobs is not None:
        raise ValueError("--jobs sets the workers of a local Dask cluster; a --scheduler's cluster has its own")
    if backend == "dask":
        _distributed()


@contextlib.contextmanager
def evaluation_backend(backend: str = "local", jobs: int | None = None, scheduler: str | None = None) -> Iterator[int]:
    """Run the body with joblib's backend set; yields the ``n_jobs`` to give ``Parallel``.

    ``local``: joblib's default process pool with ``jobs`` workers (1: no pool at all).
    ``dask``: a client of the scheduler at ``scheduler`` (``tcp://host:port``), or of a
    ``dask.distributed.LocalCluster`` of ``jobs`` single-threaded worker processes (default:
    one per core) started for the body and closed after it.

    Raises:
        ValueError: the scheduler cannot be reached, or Dask is not installed.
        ClusterError: from the body, when the cluster fails under it.
    """
    if backend == "local":
        yield jobs or 1
        return
    distributed = _distributed()
    import dask
    from distributed.client import FutureCancelledError

    with contextlib.ExitStack() as stack:
        stack.enter_context(_quiet_dask_logs())  # our errors say what went wrong, in one line
        if scheduler is None:
            stack.enter_context(dask.config.set({TRIM_SETTING: None}))  # see WORKER_ENVIRONMENT
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=jobs or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                dashboard_address=":0", silence_logs=logging.ERROR))
            address = cluster.scheduler_address
        else:
            address = scheduler
        try:
            client = stack.enter_context(distributed.Client(address, timeout=CONNECT_TIMEOUT))
        except (OSError, TimeoutError, ValueError) as error:
            raise ValueError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        stack.enter_context(parallel_config(backend="dask"))
        try:
            yield -1
        except distributed.KilledWorker as error:
            raise ClusterError(f"Dask workers kept dying while running a fitness task ({error})") from None
        except (FutureCancelledError, distributed.comm.CommClosedError) as error:
            raise ClusterError(f"lost the Dask scheduler at {address} ({type(error).__name__})") from None
        except (OSError, TimeoutError) as error:
            if client.status == "running":
                raise  # not the cluster's: a disk or file-system problem of the run
            raise ClusterError(f"lost the Dask scheduler at {address} ({type(error).__name__}: {error})") from None


@contextlib.contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """Dask's loggers in this process raised to CRITICAL for the body, then restored."""
    loggers = [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)
               if name == "distributed" or name.startswith("distributed.")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ValueError(f"--backend dask needs Dask: pip install '{EXTRA}'") from None
    return distributed
