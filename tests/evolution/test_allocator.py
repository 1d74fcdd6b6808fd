"""What a run asks of the process's C allocator: a big board's evaluator keeps its arrays."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from nim_evo import Rules
from nim_evo.evolution import allocator, fitness, loop
from nim_evo.evolution.config import Config

# Whether a 256 MiB array is in the process's heap: under glibc's defaults (and any array
# over its 32 MiB ceiling for the heap) it is a map of its own, given back when freed.
IN_HEAP = """
import numpy as np
from nim_evo.evolution import allocator
{setup}
a = np.ones(2**25)
with open("/proc/self/maps") as f:
    heap = [[int(x, 16) for x in line.split()[0].split("-")] for line in f if line.rstrip().endswith("[heap]")]
print(any(lo <= a.ctypes.data < hi for lo, hi in heap))
"""


def _in_heap(setup: str) -> bool:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("MALLOC_", "GLIBC_TUNABLES"))}
    out = subprocess.run([sys.executable, "-c", IN_HEAP.format(setup=setup)], capture_output=True, text=True,
                         check=True, env=environ)
    return out.stdout.strip() == "True"


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mallopt")
def test_a_process_that_keeps_large_arrays_serves_them_from_its_heap():
    assert not _in_heap("")  # (the test can fail: under the defaults, a map of its own)
    assert _in_heap("assert allocator.keep_large_arrays()")


def test_a_run_on_a_big_board_keeps_large_arrays_before_its_panel_is_built(monkeypatch):
    # (tests/conftest.py keeps every other test's runs from setting this process's allocator)
    """Told by the board's size (counted without building it) before the panel's arrays, and
    only where the run's fitness goes in threads."""
    events = []
    build = fitness.Panel.build
    monkeypatch.setattr(allocator, "keep_large_arrays", lambda: events.append("keep"))
    monkeypatch.setattr(fitness.Panel, "build", lambda *a, **k: events.append("build") or build(*a, **k))
    loop.make_toolbox(Config(genome="table", rules=Rules((1, 2, 3)), generations=2))
    assert events == ["build"]  # a small board: the process as it was

    events.clear()
    monkeypatch.setattr(fitness, "THREADED_SPACE", 10)  # (1-2-3 has 20 multisets: "big")
    loop.make_toolbox(Config(genome="table", rules=Rules((1, 2, 3)), generations=2))
    assert events[:2] == ["keep", "build"]

    events.clear()
    loop.make_toolbox(Config(genome="table", rules=Rules((1, 2, 3)), generations=2, fitness="sampled"))
    assert "keep" not in events  # (sampled fitness plays games: no evaluator's arrays)
