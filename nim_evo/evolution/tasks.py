"""A generation's fitness tasks: its genomes cut into chunks as they come, a task a chunk.

:func:`~nim_evo.evolution.loop.evaluate` hands its genomes over one at a time (a generation's
offspring as variation makes them). The tasks run through the run's map (``toolbox.map``:
joblib, Dask) once every chunk is cut; or, with :class:`Tasks`' ``overlap``, each in a thread
of this process as soon as its chunk is cut, while variation makes the next offspring (where
both are numpy's work, which lets go of the interpreter: a table run's greedy mutation and
exact fitness, which on seven heaps take about as long as each other). The chunks, their
seeds and their results are the same either way: a chunk's evaluation reads its genomes and
its seed alone. (joblib maps a list of tasks known beforehand, and with one job runs them in
the caller: the thread is ``concurrent.futures``' own.)
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from nim_evo.engine.kept import Memo


class Tasks:
    """The fitness tasks of one evaluation: :meth:`add` genomes, then :meth:`results`.

    Args:
        toolbox: the run's, whose ``evaluate(chunk, seed)`` is a task and ``map`` runs them.
        size: genomes a chunk (the last may hold fewer).
        seeds: the evaluation's seed sequence; each chunk is seeded by its next child
            (``spawn(1)`` at a time gives the children ``spawn(chunks)`` would).
        overlap: run each task in a thread as soon as its chunk is cut, not through the map.
        together: evaluate the chunks in as few tasks as :data:`TOGETHER` allows, in this
            process (exact fitness of a kind without credit: a genome's results are its own,
            whatever chunk it is in, and a task's fixed cost, the induction over the board's
            levels, is most of a small board's; a last chunk of one genome is evaluated alone,
            as numpy adds a stack of one in another order).
        remembered: with ``together``, results kept by the genomes' keys (:meth:`add`'s), a
            :class:`~nim_evo.engine.kept.Memo`: a genome met in a generation before is not
            evaluated again (a quarter of a program run's), one alone in its task is (its
            bits are a stack of one's: never kept), and a single one left to evaluate is
            evaluated as two.
    Used as a context manager: leaving it on an error (Ctrl-C in variation) cancels the tasks
    not begun, and the one running ends in its thread without being waited for (the
    interpreter waits for it at exit: a chunk's time). A task that fails says so when
    :meth:`results` is asked, once variation is done.
    """

    def __init__(self, toolbox, size: int, seeds: np.random.SeedSequence, overlap: bool, together: bool = False,
                 remembered: Memo | None = None):
        self._toolbox, self._size, self._seeds, self._together = toolbox, size, seeds, together
        self._remembered = remembered if together else None
        self._keys: list = []  # each genome's key, with remembered
        self._cut: list[tuple[list, np.random.SeedSequence]] = []  # chunks for the map
        self._running: list[Future] = []  # or the tasks begun in the thread
        self._chunk: list = []
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="nim_evo-fitness") if overlap else None
        self.added = 0

    def __enter__(self) -> Tasks:
        return self

    def __exit__(self, *error) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def add(self, genes, key=None) -> None:
        """A genome to evaluate (its plain form; ``key``, what its results are remembered
        by); its results are :meth:`results`' ``added``-th."""
        self._keys.append(key)
        self._chunk.append(genes)
        self.added += 1
        if len(self._chunk) == self._size:
            self._close_chunk()

    def _close_chunk(self) -> None:
        chunk, self._chunk = self._chunk, []
        (seed,) = self._seeds.spawn(1)
        if self._pool is None:
            self._cut.append((chunk, seed))
        else:
            self._running.append(self._pool.submit(self._toolbox.evaluate, chunk, seed))

    def results(self) -> list:
        """Every genome's evaluation, in the order they were added."""
        if self._chunk:
            self._close_chunk()
        if self._pool is not None:
            done = [task.result() for task in self._running]
        elif self._together and self._cut:
            return self._evaluated_together()
        else:
            done = self._toolbox.map(self._toolbox.evaluate, [chunk for chunk, _ in self._cut],
                                     [seed for _, seed in self._cut])
        return [evaluation for chunk in done for evaluation in chunk]

    def _evaluated_together(self) -> list:
        """:meth:`results` together, genomes remembered taken as they were kept."""
        kept = self._remembered
        genomes = [genes for chunk, _ in self._cut for genes in chunk]
        alone = len(self._cut[-1][0]) == 1  # (the last genome, its task's only one)
        shared = len(genomes) - alone
        results: list = [None if kept is None or key is None else kept.get(key) for key in self._keys[:shared]]
        missing = [j for j, found in enumerate(results) if found is None]
        if missing:
            stack = [genomes[j] for j in missing]
            fresh = self._evaluated(stack * 2 if len(stack) == 1 else stack)
            for j, result in zip(missing, fresh):
                results[j] = result
                if kept is not None and self._keys[j] is not None:
                    cases = getattr(result, "cases", None)
                    if cases is not None:  # (shared from here by the genomes that play so)
                        cases.flags.writeable = False
                    kept.put(self._keys[j], result, _weight(result))
        if alone:
            results += self._toolbox.evaluate(genomes[-1:], self._cut[-1][1])
        return results

    def _evaluated(self, genomes: list) -> list:
        """The evaluations of ``genomes`` (two or more) evaluated together, in tasks of at most
        :data:`TOGETHER` (their arrays a size apart from the offspring's count; a task of one
        is never cut: it would be summed as a stack of one)."""
        cuts = list(range(0, len(genomes), TOGETHER))
        if len(cuts) > 1 and len(genomes) - cuts[-1] == 1:
            cuts.pop()  # (the last one joins the task before)
        bounds = cuts + [len(genomes)]
        return [evaluation for lo, hi in zip(bounds[:-1], bounds[1:])
                for evaluation in self._toolbox.evaluate(genomes[lo:hi], self._cut[0][1])]


TOGETHER = 400  # genomes evaluated in one task together, at most


def _weight(result) -> int:
    """The bytes an evaluation holds (its cases, most of it, and about as much again)."""
    cases = getattr(result, "cases", None)
    return 2 * (256 + (0 if cases is None else cases.nbytes))
