"""Where fitness tasks run: the backend chosen (:func:`evaluation_backend`), joblib's local
process pool (:mod:`~nim_evo.evolution.localpool`), or a Dask cluster, with TLS, through
joblib's Dask backend (``pip install 'nim-evo[distributed]'``).

The tasks are the same either way (cut by the problem, one seed stream each, results in
submission order), so a run gives the same champion and logbook on any backend. Dask
reschedules the tasks of a worker that is lost; a scheduler lost stops the run with
:class:`ClusterError`, and the last checkpoint resumes it. Connecting checks that the
cluster has a worker and that its workers run the same nim_evo.

What every task takes, the opponent panel, goes to the workers once (:func:`workers`): to a
Dask cluster's workers when the run begins (scattered, a task carrying its key), to the
local pool's as memory-mapped tables once per run (one ``Parallel`` for the run), each
worker process rebuilding the rest once (see :class:`nim_evo.evolution.fitness.Panel`).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import signal
import sys
import threading
import warnings
from collections.abc import Iterator


from nim_evo.evolution.allocator import MMAP_SETTING, MMAP_THRESHOLD, TRIM_SETTING, TRIM_THRESHOLD
from nim_evo.evolution.localpool import LocalPool
from nim_evo.validation import KeywordError, UserError, printable

BACKENDS = ("local", "dask")  # (joblib is imported where it is used: a command's --help does without it)
EXTRA = "nim-evo[distributed]"
CONNECT_TIMEOUT = "10s"
WORKER_TIMEOUT = 30  # seconds for a scheduler's first worker
# The scheduler's active memory manager drops all copies of a key but one (its ReduceReplicas
# policy, its only default one), so that the panel scattered to every worker would travel
# again each generation to the workers that lost theirs. Local clusters run without it.
AMM_POLICIES = "distributed.scheduler.active-memory-manager.policies"


class ClusterError(RuntimeError):
    """The Dask cluster failed in the middle of a run."""


def check_backend(backend: str, scheduler: str | None, jobs: int | None) -> None:
    """One-line ``ValueError`` for options that do not go together, or Dask not installed."""
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}; known backends: {', '.join(BACKENDS)}")
    if backend == "local" and scheduler is not None:
        raise KeywordError("[[scheduler|--scheduler]] goes with [[backend=\"dask\"|--backend dask]]")
    if scheduler is not None and jobs is not None:
        raise KeywordError("[[jobs|--jobs]] sets the workers of a local Dask cluster; a [[scheduler|--scheduler]]'s "
                           "cluster has its own")
    if backend == "dask":
        _distributed()
        if scheduler is None:
            _cryptography()


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
    import dask  # optional: the distributed extra
    from distributed.client import FutureCancelledError  # optional: the distributed extra

    with contextlib.ExitStack() as stack:
        stack.enter_context(_quiet_dask_logs())  # our errors say what went wrong, in one line
        stack.enter_context(_environment_kept())  # nannies leak their workers' variables into us
        if scheduler is None:
            # see TRIM_SETTING, MMAP_THRESHOLD and AMM_POLICIES
            stack.enter_context(dask.config.set({TRIM_SETTING: str(TRIM_THRESHOLD), MMAP_SETTING: str(MMAP_THRESHOLD),
                                                 AMM_POLICIES: []}))
            for name in ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_"):
                os.environ.pop(name, None)  # inherited, they would win (restored after)
            _cryptography()
            # TLS with a certificate made for this cluster (Dask's Security.temporary): a task
            # is a pickle, and without it any process of the machine could connect and run
            # code in the workers (and, through results, here). (Its HTTP server, for health and
            # metrics, always starts: on a free port of loopback, read-only.)
            with _deaf_to_ctrl_c():
                cluster = stack.enter_context(distributed.LocalCluster(
                    n_workers=jobs or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                    host="127.0.0.1", dashboard_address="127.0.0.1:0", security=True, silence_logs=logging.ERROR))
            address, security = cluster.scheduler_address, cluster.security
        else:
            address, security = scheduler, None  # (None: Dask's configuration, distributed.comm.tls)
        client = stack.enter_context(_connect(distributed, address, security))
        from joblib import parallel_config  # (import time: nim-evo --help loads no joblib)

        stack.enter_context(parallel_config(backend="dask"))
        try:
            yield -1
        except (FutureCancelledError, distributed.comm.CommClosedError) as error:
            raise ClusterError(f"lost the Dask scheduler at {address} ({type(error).__name__})") from None
        except (OSError, TimeoutError) as error:
            if client.status == "running":
                raise  # not the cluster's: a disk or file-system problem of the run
            raise ClusterError(f"lost the Dask scheduler at {address} ({type(error).__name__}: {error})") from None


@contextlib.contextmanager
def _deaf_to_ctrl_c() -> Iterator[None]:
    """SIGINT ignored for the body, which starts a local cluster: the worker processes it
    starts keep ignoring it (an ignored signal stays ignored across ``exec``, and Python
    then installs no handler of its own), so Ctrl-C in a terminal, sent to every process of
    the foreground group, reaches this process alone, which closes the cluster and says one
    line, where each worker printed a page of traceback. The price: a Ctrl-C while the
    cluster starts (about a second) is lost. (Blocking the signal instead would hold it, but
    Dask's threads that start the processes do not keep a blocked mask.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def local_threads(jobs: int) -> int:
    """The threads this process may draw in for a run of ``jobs`` workers: as many, up to its
    cores (one for one job; -1, every worker of a Dask cluster, is every core here)."""
    cores = os.cpu_count() or 1
    return cores if jobs == -1 else max(1, min(jobs, cores))


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not on Linux)
        return os.cpu_count() or 1


def local_backend() -> bool:
    """Whether joblib's backend in force is its local process pool (not Dask's, nor another
    a caller set)."""
    from joblib.parallel import get_active_backend  # (import time: nim-evo --help loads no joblib)

    return type(get_active_backend()[0]).__name__ == "LokyBackend"


def workers(jobs: int, *shared, threads: bool = False) -> Scattered | LocalPool | None:
    """The workers of a run's fitness tasks, for tasks that all take the ``shared`` objects:
    under the Dask backend of :func:`evaluation_backend`, a :class:`Scattered` (the objects
    on every worker, once for the run); with joblib's local pool and ``jobs`` > 1, a
    :class:`LocalPool` (one ``Parallel`` for the run), of threads with ``threads`` (tasks
    whose work is numpy's, which lets go of the interpreter, on objects too big to copy to
    each process); otherwise (one job, another joblib backend) ``None``: a ``Parallel`` for
    each map."""
    from joblib.parallel import get_active_backend  # (import time: nim-evo --help loads no joblib)

    backend, _ = get_active_backend()
    kind = type(backend).__name__
    client = getattr(backend, "client", None)
    if kind == "DaskDistributedBackend" and client is not None:
        return Scattered(client, shared)
    if kind == "LokyBackend" and jobs != 1:
        return LocalPool(jobs, threads)
    return None


class Scattered:
    """Objects that every task of a run takes as arguments, sent once to every worker of a
    Dask cluster: joblib's Dask backend with its ``scatter`` option (Dask's
    ``Client.scatter(..., broadcast=True)``), which gives a task their keys in their place,
    and Dask each worker's copy to the tasks it runs (a task that joblib runs in this
    process, on a cluster of one thread, takes the objects themselves). A worker that joins
    later (one replacing a lost one) fetches them from another, and so does a worker whose
    copy the scheduler dropped (its active memory manager keeps one copy of a key, unless
    its ``ReduceReplicas`` policy is off, as on the local clusters of
    :func:`evaluation_backend`). If the cluster loses them (every worker that held them gone
    at once), :meth:`map` sends them again once a worker is there and runs again: a task
    gives the same result whenever it runs. They are released with this object."""

    def __init__(self, client, objects):
        self.client = client
        self.objects = list(objects)
        self.backend = self._send()

    def _send(self):
        from joblib import parallel_config  # (import time: nim-evo --help loads no joblib)

        with parallel_config(backend="dask", client=self.client, scatter=self.objects) as config:
            return config["backend"]

    def map(self, calls: list) -> list:
        """The results of joblib's delayed ``calls``, one task each, in order."""
        from concurrent.futures import CancelledError  # (import time: --help loads no concurrent.futures)

        from joblib import Parallel  # (import time: nim-evo --help loads no joblib)

        while True:
            try:
                return Parallel(n_jobs=-1, backend=self.backend, batch_size=1)(calls)
            except CancelledError:
                futures = getattr(self.backend, "data_futures", {}).values()  # joblib's futures of the objects
                if self.client.status != "running" or all(future.status == "finished" for future in futures):
                    raise  # not the objects' loss: the scheduler's, or another cancellation
            self.client.wait_for_workers(1)  # as joblib waits on a cluster without workers
            self.backend = self._send()


def _connect(distributed, address: str, security=None):
    """A client of the scheduler at ``address`` (with ``security``, Dask's TLS credentials)
    whose workers can run nim_evo's tasks; a one-line ``UserError`` otherwise (Dask's own warnings, e.g. of mismatched versions,
    come as one line each)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT, security=security)
        except Exception as error:  # refused, timed out, not a Dask scheduler, a bad address: all one line
            # the half-made client's __del__ must run now: run by the garbage collector while
            # another client starts, it deadlocks on their shared loop runner's lock
            gc.collect()
            text = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise UserError(f"cannot reach the Dask scheduler at {address}: {text}") from None
    for warning in caught:
        print(f"nim_evo: warning: {printable(str(warning.message).splitlines()[0])}", file=sys.stderr)
    try:
        client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        versions = client.run(_nim_evo_version)
    except KeyboardInterrupt:  # closed now: left open, it tries to reconnect to a closed cluster, aloud
        client.close()
        raise
    except Exception as error:
        client.close()
        reason = "no worker joined it" if isinstance(error, TimeoutError) else \
            f"its workers cannot run nim_evo ({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''})"
        raise UserError(f"the Dask cluster at {address}: {reason}; install nim-evo on every worker") from None
    mine = _nim_evo_version()
    others = sorted({v for v in versions.values() if v != mine})
    if others:
        client.close()
        raise UserError(f"the Dask cluster at {address} runs nim_evo {', '.join(others)}; this is {mine}")
    return client


def _nim_evo_version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # (import time: 30 ms that --help does without)

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


def _cryptography() -> None:
    """The local Dask cluster's TLS needs the ``cryptography`` package (in the extra)."""
    try:
        import cryptography  # noqa: F401  (optional: the distributed extra)
    except ImportError:
        raise UserError(f"the local Dask cluster runs over TLS, which needs the cryptography package: "
                        f"pip install '{EXTRA}'") from None


def _distributed():
    try:
        import distributed  # optional: the distributed extra
    except ImportError:
        raise UserError(f"--backend dask needs Dask: pip install '{EXTRA}'") from None
    return distributed
