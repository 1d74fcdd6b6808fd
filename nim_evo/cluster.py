"""Where fitness tasks run: joblib's local process pool, or a Dask cluster through joblib's
Dask backend (``pip install 'nim-evo[distributed]'``).

The tasks are the same either way (cut by the problem, one seed stream each, results in
submission order), so a run gives the same champion and logbook on any backend. Dask
reschedules the tasks of a worker that is lost; a scheduler lost stops the run with
:class:`ClusterError`, and the last checkpoint resumes it. Connecting checks that the
cluster has a worker and that its workers run the same nim_evo.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import sys
import warnings
from collections.abc import Iterator

from joblib import parallel_config

BACKENDS = ("local", "dask")
EXTRA = "nim-evo[distributed]"
CONNECT_TIMEOUT = "10s"
WORKER_TIMEOUT = 30  # seconds for a scheduler's first worker
# Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536, which also fixes glibc's
# mmap threshold: every numpy array over 128 KiB is then mapped and unmapped afresh, and our
# batched games ran 1.7 times slower on two workers. Local clusters unset it (Dask's None);
# the README says how to start remote workers without it.
TRIM_SETTING = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"


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
        stack.enter_context(_environment_kept())  # nannies leak their workers' variables into us
        if scheduler is None:
            stack.enter_context(dask.config.set({TRIM_SETTING: None}))  # see TRIM_SETTING
            os.environ.pop("MALLOC_TRIM_THRESHOLD_", None)  # nor inherited (restored after)
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=jobs or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR))
            address = cluster.scheduler_address
        else:
            address = scheduler
        client = stack.enter_context(_connect(distributed, address))
        stack.enter_context(parallel_config(backend="dask"))
        try:
            yield -1
        except (FutureCancelledError, distributed.comm.CommClosedError) as error:
            raise ClusterError(f"lost the Dask scheduler at {address} ({type(error).__name__})") from None
        except (OSError, TimeoutError) as error:
            if client.status == "running":
                raise  # not the cluster's: a disk or file-system problem of the run
            raise ClusterError(f"lost the Dask scheduler at {address} ({type(error).__name__}: {error})") from None


def _connect(distributed, address: str):
    """A client of the scheduler at ``address`` whose workers can run nim_evo's tasks; a
    one-line ``ValueError`` otherwise (Dask's own warnings, e.g. of mismatched versions,
    come as one line each)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
        except Exception as error:  # refused, timed out, not a Dask scheduler, a bad address: all one line
            # the half-made client's __del__ must run now: run by the garbage collector while
            # another client starts, it deadlocks on their shared loop runner's lock
            gc.collect()
            text = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ValueError(f"cannot reach the Dask scheduler at {address}: {text}") from None
    for warning in caught:
        print(f"nim_evo: warning: {str(warning.message).splitlines()[0]}", file=sys.stderr)
    try:
        client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        versions = client.run(_nim_evo_version)
    except Exception as error:
        client.close()
        reason = "no worker joined it" if isinstance(error, TimeoutError) else \
            f"its workers cannot run nim_evo ({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''})"
        raise ValueError(f"the Dask cluster at {address}: {reason}; install nim-evo on every worker") from None
    mine = _nim_evo_version()
    others = sorted({v for v in versions.values() if v != mine})
    if others:
        client.close()
        raise ValueError(f"the Dask cluster at {address} runs nim_evo {', '.join(others)}; this is {mine}")
    return client


def _nim_evo_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nim-evo")
    except PackageNotFoundError:
        return "unknown"


@contextlib.contextmanager
def _environment_kept() -> Iterator[None]:
    """This process's environment as it was before the body."""
    saved = dict(os.environ)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


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
