"""Local worker processes end with the process that started them (nim_evo.processes)."""

import ctypes
import os
import signal
import subprocess
import sys

import pytest
from joblib import delayed, parallel_config

from nim_evo import processes

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl")


def _death_signal() -> tuple[int, int]:
    """This process's parent and the signal the kernel sends it when that parent ends."""
    value = ctypes.c_int(-1)
    pr_get_pdeathsig = 2  # linux/prctl.h
    assert processes.libc("prctl")(pr_get_pdeathsig, ctypes.byref(value), 0, 0, 0) == 0
    return os.getppid(), value.value


@linux
def test_local_workers_ask_to_end_with_this_process_before_their_first_task():
    """A worker of the pool asks as it starts, whichever task it then runs."""
    answers = processes.parallel(2, batch_size=1)(delayed(_death_signal)() for _ in range(2))
    assert answers == [(os.getpid(), signal.SIGKILL)] * 2


def test_other_backends_are_joblib_s_own():
    """Threads, one job and a backend set by the caller are left as they are."""
    assert type(processes.parallel(2, prefer="threads")._backend).__name__ == "ThreadingBackend"
    assert processes.parallel(1)(delayed(os.getpid)() for _ in range(2)) == [os.getpid()] * 2
    with parallel_config(backend="threading"):
        assert type(processes.parallel(2)._backend).__name__ == "ThreadingBackend"


@linux
def test_a_worker_whose_parent_has_ended_already_ends_at_once():
    """The request takes hold only while the parent lives: a worker started by a process that
    ended before it asked ends at once, with status 1; one whose parent lives goes on."""
    code = "import sys; from nim_evo import processes; print(processes.die_with_parent(int(sys.argv[1])))"
    gone = subprocess.run([sys.executable, "-c", code, "1"], capture_output=True, text=True)
    assert (gone.returncode, gone.stdout) == (1, "")
    alive = subprocess.run([sys.executable, "-c", code, str(os.getpid())], capture_output=True, text=True)
    assert (alive.returncode, alive.stdout) == (0, "True\n")
