"""How a process's C allocator (glibc's) serves numpy's arrays: the settings the worker
processes of a run ask of it (:func:`keep_freed_memory`), Dask's names for them, and those
of a process that evaluates a big board's run in its own threads (:func:`keep_large_arrays`)."""

from __future__ import annotations

import ctypes
import functools

from nim_evo.processes import libc

# Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536, which also fixes glibc's
# mmap threshold: every numpy array over 128 KiB is then mapped and unmapped afresh
# (docs/how-to/dask.md: what that costs, and how to start remote workers without it). And under
# glibc's defaults a worker process gives back the memory of a task's large temporaries when
# the task ends (nothing else holds the top of its heap, as the evolving process's objects hold
# its own), and the next task faults it in again page by page, which the evolving process
# (--jobs 1) never pays. So the worker processes that runs start themselves (a local
# Dask cluster's, through its nannies' environment; the local pool's, see keep_freed_memory)
# serve arrays up to MMAP_THRESHOLD from the heap and keep up to TRIM_THRESHOLD of freed
# memory for the next task (setting either fixes the other: both are set).
TRIM_SETTING = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
MMAP_SETTING = "distributed.nanny.pre-spawn-environ.MALLOC_MMAP_THRESHOLD_"
MMAP_THRESHOLD = 32 * 2**20  # glibc's own ceiling for its sliding threshold
TRIM_THRESHOLD = 64 * 2**20


@functools.cache
def keep_freed_memory() -> bool:
    """Once per process, on Linux's glibc: arrays up to :data:`MMAP_THRESHOLD` from the heap,
    up to :data:`TRIM_THRESHOLD` of freed memory kept (``mallopt``, as the environment
    variables of Dask's nannies set it for the workers of
    :func:`~nim_evo.evolution.cluster.evaluation_backend`'s local clusters). ``False`` where there is no glibc to tell."""
    mallopt = libc("mallopt")
    if mallopt is None:
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's malloc.h
    return bool(mallopt(m_mmap_threshold, MMAP_THRESHOLD)) and bool(mallopt(m_trim_threshold, TRIM_THRESHOLD))


LARGE_TRIM_THRESHOLD = 2**31 - 1  # (mallopt takes an int: 2 GiB)


@functools.cache
def keep_large_arrays() -> bool:
    """Once per process, on Linux's glibc: every array from the one heap of the process (one
    arena, no maps), and up to :data:`LARGE_TRIM_THRESHOLD` of freed memory kept for the next.

    For a run of exact fitness on a board of more than
    :data:`~nim_evo.evolution.fitness.THREADED_SPACE` positions (nine heaps' 690,690
    multisets), whose fitness the process evaluates itself, in threads with ``jobs`` 2
    (:func:`~nim_evo.evolution.fitness.in_threads`), or alone. Its evaluator's
    arrays are tens of megabytes, over glibc's largest mmap threshold (32 MiB), so under the
    defaults each is mapped afresh and faulted in page by page, and each thread's arena gives
    its freed pages back, for the next generation to fault in again; these settings keep
    them, at the same peak memory. They hold for the rest of the process: its memory is not
    given back until it ends. Must come before the threads' first arrays (each thread keeps
    the arena it first had).
    ``False`` where there is no glibc to tell."""
    mallopt = libc("mallopt")
    if mallopt is None:
        return False
    m_trim_threshold, m_mmap_max, m_arena_max = -1, -4, -8  # glibc's malloc.h
    return all([bool(mallopt(m_arena_max, 1)), bool(mallopt(m_mmap_max, 0)),
                bool(mallopt(m_trim_threshold, ctypes.c_int(LARGE_TRIM_THRESHOLD)))])
