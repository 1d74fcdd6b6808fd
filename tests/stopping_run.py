"""A ``python -m nim_evo.run`` that acts right after it checkpoints a chosen generation:
``python tests/stopping_run.py GENERATION ACTION [run arguments]``, ``ACTION`` being ``kill``
(the run SIGKILLs itself, as a machine dying would), ``term`` (it SIGTERMs itself, as
``kill`` or a batch system's time limit would), ``int-group`` (it sends SIGINT to its
whole process group, as Ctrl-C in a terminal does, its Dask workers included), ``kill:PID`` (it SIGKILLs that
process, say a Dask scheduler, and carries on) or ``kill-worker:MARKER`` (the first task of
the next generation that runs on a Dask worker SIGKILLs its own worker process in the
middle of the task, once: it first creates the file ``MARKER``, which it must not find,
holding the worker's pid; the tasks after it, that one's rerun included, find it and only
evaluate). The tests that interrupt runs use it, so that where the interruption falls is
fixed, not a race against the clock."""

import functools
import os
import signal
import sys

from nim_evo.evolution import loop, rundir
from nim_evo.commands.run import main

save = rundir.RunDir.save
evaluate = loop.evaluate
armed = []  # the marker of kill-worker, once its generation is checkpointed


def save_then_act(self, state, config, extra):
    save(self, state, config, extra)
    generation, action = sys.argv[1:3]
    if state.generation == int(generation):
        if action.startswith("kill-worker:"):
            armed.append(action.split(":", 1)[1])
            return
        if action == "term":  # the run's handler acts at once, before another generation begins
            os.kill(os.getpid(), signal.SIGTERM)
            return
        if action == "int-group":
            os.killpg(os.getpgid(0), signal.SIGINT)
            return
        victim = os.getpid() if action == "kill" else int(action.split(":")[1])
        os.kill(victim, signal.SIGKILL)


def evaluate_then_act(toolbox, config, individuals, generation):
    """``loop.evaluate``; armed, with each task wrapped in :func:`kill_its_worker_once`."""
    if not armed:
        return evaluate(toolbox, config, individuals, generation)
    chunk = toolbox.evaluate  # partial(fitness.evaluate_chunk, kind, panel, mode, games)
    # still a partial of positional arguments, which joblib_map sends as a task's function
    # and arguments (the panel among them, as it is scattered to the workers)
    toolbox.evaluate = functools.partial(kill_its_worker_once, armed.pop(), chunk.func, *chunk.args)
    try:
        return evaluate(toolbox, config, individuals, generation)
    finally:
        toolbox.evaluate = chunk


def kill_its_worker_once(marker, function, *args):
    """``function(*args)``; but the first call on a Dask worker (this function is pickled by
    value, being ``__main__``'s) records the worker's pid in ``marker`` and SIGKILLs it."""
    import os
    import signal

    from distributed import get_worker

    try:
        get_worker()
    except ValueError:  # a task joblib runs in the evolving process itself
        return function(*args)
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return function(*args)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":  # (a local Dask cluster's workers import this file again, as their __main__)
    rundir.RunDir.save = save_then_act
    loop.evaluate = evaluate_then_act
    sys.exit(main(sys.argv[3:]))
