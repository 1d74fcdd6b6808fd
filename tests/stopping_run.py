"""A ``python -m nim_evo.run`` that acts right after it checkpoints a chosen generation:
``python tests/stopping_run.py GENERATION ACTION [run arguments]``, ``ACTION`` being ``kill``
(the run SIGKILLs itself, as a machine dying would) or ``kill:PID`` (it SIGKILLs that
process, say a Dask scheduler, and carries on). The tests that interrupt runs use it, so
that where the interruption falls is fixed, not a race against the clock."""

import os
import signal
import sys

from nim_evo.evolution import rundir
from nim_evo.run import main

generation, action, *argv = sys.argv[1:]
save = rundir.RunDir.save


def save_then_act(self, state, config, extra):
    save(self, state, config, extra)
    if state.generation == int(generation):
        victim = os.getpid() if action == "kill" else int(action.split(":")[1])
        os.kill(victim, signal.SIGKILL)


rundir.RunDir.save = save_then_act
sys.exit(main(argv))
