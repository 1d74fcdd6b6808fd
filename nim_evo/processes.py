"""Local worker processes that end with the process that started them.

joblib's process pool (loky) keeps its idle workers for five minutes, and they outlive the
process that started them however it ends: left so, after a SIGKILL of a sweep they would
write runs on for minutes, holding the sweep's lock, and a killed run's workers would hold
their memory.
:func:`parallel` is joblib's ``Parallel`` whose local workers ask the kernel, as they start
(loky's worker initializer), to end them when their parent ends (Linux's
``PR_SET_PDEATHSIG``), a worker that has no task yet included.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import sys


def parallel(jobs: int, **options):
    """joblib's ``Parallel(n_jobs=jobs, **options)``; where it would start local worker
    processes (joblib's default backend, loky, and more than one job), theirs end with this
    process (see :func:`die_with_parent`; loky's other settings are its defaults). Under
    another backend (Dask's, threads), that backend's ``Parallel``, unchanged."""
    from joblib import Parallel, parallel_config  # (import time: nim-evo --help loads no joblib)
    from joblib.parallel import get_active_backend  # (import time: nim-evo --help loads no joblib)

    backend, _ = get_active_backend(prefer=options.get("prefer"))
    if type(backend).__name__ != "LokyBackend" or jobs == 1:
        return Parallel(n_jobs=jobs, **options)
    with parallel_config(backend="loky", initializer=die_with_parent, initargs=(os.getpid(),)):
        return Parallel(n_jobs=jobs, **options)  # (the backend is chosen here, kept by the object)


def die_with_parent(parent: int) -> bool:
    """On Linux: the kernel kills this process when the one that started it ends, however it
    ends (SIGKILL included); at once if that process, ``parent``, ended already. (The kernel's
    parent is the thread that started this process: loky starts its workers from the thread
    that submits to the pool, or from its own manager thread. The commands submit from the main
    thread; a program submitting from a thread of its own that ends before the pool does loses
    the pool's workers with it, and loky starts others.) ``False`` where there is no ``prctl``."""
    prctl = libc("prctl")
    if prctl is None:
        return False
    pr_set_pdeathsig = 1  # linux/prctl.h
    if prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:  # it ended before the request took hold
        os._exit(1)
    return True


@functools.cache
def libc(name: str):
    """The C library's function ``name`` on Linux, else ``None``."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None
