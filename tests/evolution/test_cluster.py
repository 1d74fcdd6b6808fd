"""Fitness on Dask through joblib: the same result as the local pool, a worker killed mid-run,
a scheduler lost mid-run, and one-line errors. A real cluster on loopback."""

import csv
import gc
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nim_evo.evolution import cluster, localpool
from nim_evo.commands.run import main as run

distributed = pytest.importorskip("distributed")

# the tests that start a Dask cluster (or a run on one, in a subprocess) are slow: CI runs
# them, and -m "not slow" leaves them out; the checks of options and errors are not
slow = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
STOPPING_RUN = Path(__file__).resolve().parents[1] / "stopping_run.py"
# two chunks of individuals per generation at least: a single task would run in this process
SMALL = ["--game", "3-4-5", "--genome", "rules", "--fitness", "sampled", "--games", "100", "--generations", "4",
         "--population", "24", "--offspring", "40", "--quiet"]
EXACT = ["--game", "1-3-5-7-9", "--genome", "table", "--generations", "3", "--population", "24", "--offspring", "40",
         "--quiet"]
BIG = ["--genome", "rules", "--piles", "5", "8", "11", "14", "17", "20", "23", "26", "29", "30",
       "--opponents", "random,nimsum", "--fitness", "sampled", "--games", "150", "--population", "16",
       "--offspring", "32", "--quiet", "--seed", "3"]


@pytest.fixture(scope="module")
def local_cluster():
    """Two single-threaded worker processes under nannies (a killed one is restarted). The
    nannies leak their workers' variables into this process; they are taken back after."""
    environ = dict(os.environ)
    yield from _cluster()
    os.environ.clear()
    os.environ.update(environ)


def _cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
                                  silence_logs=logging.ERROR) as running:
        with distributed.Client(running) as client:
            yield running, client


def outcome(out: Path, genomes: Path):
    """The logbook without wall time, and the exported champion's genome and fitness."""
    with open(out / "logbook.csv") as handle:
        rows = [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(handle)]
    export = json.loads(next(genomes.glob(f"{out.name}-*.json")).read_text())
    return rows, export["genome"], export["fitness"]


@slow
def test_dask_gives_the_local_result(tmp_path, local_cluster):
    running, _ = local_cluster
    genomes = tmp_path / "g"
    assert run([*SMALL, "--out", str(tmp_path / "local"), "--genomes-dir", str(genomes), "--jobs", "2"]) == 0
    assert run([*SMALL, "--out", str(tmp_path / "dask"), "--genomes-dir", str(genomes), "--backend", "dask",
                "--scheduler", running.scheduler_address]) == 0
    assert outcome(tmp_path / "dask", genomes) == outcome(tmp_path / "local", genomes)
    assert int(outcome(tmp_path / "dask", genomes)[0][-1]["games"]) > 0  # sampled: real games were played
    assert run([*EXACT, "--out", str(tmp_path / "exact-local"), "--genomes-dir", str(genomes)]) == 0
    assert run([*EXACT, "--out", str(tmp_path / "exact-dask"), "--genomes-dir", str(genomes), "--backend", "dask",
                "--scheduler", running.scheduler_address]) == 0
    assert outcome(tmp_path / "exact-dask", genomes) == outcome(tmp_path / "exact-local", genomes)


@slow
def test_tasks_run_on_the_workers(local_cluster):
    """Not in this process: a run's chunks go to the cluster's worker processes."""
    from joblib import Parallel, delayed

    running, client = local_cluster
    with cluster.evaluation_backend("dask", scheduler=running.scheduler_address) as jobs:
        pids = set(Parallel(n_jobs=jobs)(delayed(os.getpid)() for _ in range(8)))
    assert pids <= set(client.run(os.getpid).values()) and os.getpid() not in pids


@slow
def test_a_dask_task_carries_the_panel_s_key_and_each_worker_holds_it_once(monkeypatch):
    """Seven heaps, exact fitness in tasks of 8, on the local cluster of ``--backend dask
    --jobs 2``: the panel (25 MB of tables) is scattered to both workers when the run begins,
    and stays there; each task carries its genomes and the panel's key (what the client
    submits, measured pickled: it used to carry the panel, 33 MB); the result is the local one."""
    import cloudpickle
    import numpy as np

    from nim_evo import Rules
    from nim_evo.evolution.config import Config
    from nim_evo.evolution.loop import make_toolbox, start, step

    config = Config(genome="table", rules=Rules((1, 3, 5, 7, 9, 11, 13)), population=8, offspring=16, seed=5)
    sent = []
    submit = distributed.Client.submit

    def recording(self, function, *args, **kwargs):
        if "tasks" in kwargs:  # a batch of joblib's Dask backend: its (function, args, kwargs) calls
            sent.append(len(cloudpickle.dumps(kwargs["tasks"])))
        return submit(self, function, *args, **kwargs)

    monkeypatch.setattr(distributed.Client, "submit", recording)
    with cluster.evaluation_backend("dask", jobs=2) as jobs:
        client = distributed.get_client()
        toolbox = make_toolbox(config, jobs)
        state = start(config, toolbox)
        for _ in range(2):
            step(state, config, toolbox)
        held = client.run(lambda dask_worker: sum(type(value).__name__ == "Panel"  # the run's panels: a tuple
                                                  for panels in dask_worker.data.values() if isinstance(panels, tuple)
                                                  for value in panels))
        policies = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.extensions["amm"].policies))
    assert list(held.values()) == [1, 1] and policies == 0  # no copy dropped by the active memory manager
    genomes = 8 * state.population[0].nbytes  # a task's 8 genomes, which it does carry
    assert len(sent) == 4, sent  # two generations of 2 tasks (generation 0: 1 task, run in this process)
    assert all(size < genomes + 20_000 for size in sent), sent  # the panel: a key
    local = make_toolbox(config, 1)
    alone = start(config, local)
    for _ in range(2):
        step(alone, config, local)
    for a, b in zip(state.population, alone.population, strict=True):
        assert np.array_equal(a, b) and a.fitness.values == b.fitness.values and a.rates == b.rates
        assert all(np.array_equal(x, y) for x, y in zip(a.credit, b.credit))


@slow
def test_dask_without_a_scheduler_starts_a_local_cluster(tmp_path):
    genomes = tmp_path / "g"
    assert run([*SMALL, "--generations", "2", "--out", str(tmp_path / "a"), "--genomes-dir", str(genomes)]) == 0
    assert run([*SMALL, "--generations", "2", "--out", str(tmp_path / "b"), "--genomes-dir", str(genomes),
                "--backend", "dask", "--jobs", "2"]) == 0
    assert outcome(tmp_path / "b", genomes) == outcome(tmp_path / "a", genomes)


@slow
def test_local_cluster_workers_keep_freed_memory(monkeypatch):
    """Workers of a local cluster serve arrays up to 32 MiB from the heap and keep 64 MiB of
    freed memory (not Dask's MALLOC_TRIM_THRESHOLD_=65536 alone, which made batched games 1.7
    times slower, nor glibc's defaults, under which a seven-heap task faults its temporaries
    in afresh); numpy kept to one thread per worker as Dask sets it."""
    from joblib import Parallel, delayed

    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")  # as a nanny of Dask's defaults leaves it behind

    before = dict(os.environ)
    with cluster.evaluation_backend("dask", jobs=2) as jobs:
        assert jobs == -1
        environ = Parallel(n_jobs=jobs)(delayed(os.environ.get)(key, "unset")
                                        for key in ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "OMP_NUM_THREADS"))
    assert environ == [str(cluster.TRIM_THRESHOLD), str(cluster.MMAP_THRESHOLD), "1"]
    assert dict(os.environ) == before  # what the nannies set here is taken back


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_local_pool_workers_keep_freed_memory():
    """The same for joblib's local pool, whose workers start before any run: its tasks tell
    glibc once per process."""
    from joblib import delayed

    pool = localpool.LocalPool(2)
    try:
        assert pool.map([delayed(localpool.keep_freed_memory)() for _ in range(4)]) == [True] * 4
    finally:
        pool.close()


@slow
def test_a_worker_killed_mid_run_is_replaced_and_the_result_is_unchanged(tmp_path, local_cluster):
    """A worker SIGKILLed in the middle of one of its tasks: Dask runs the task again on
    another, the run ends as the local one does, and the nanny starts a new worker. Where the
    kill falls is fixed, not a race: the first task of generation 2 that runs on a worker
    kills its own process, once (tests/stopping_run.py's kill-worker, which records the pid).
    (The test used to wait for the logbook's generation 1 and kill whichever worker then
    looked busy: on a slow machine the run could end first, or the task could finish
    before the kill.)"""
    running, client = local_cluster
    genomes, marker = tmp_path / "g", tmp_path / "killed-worker"
    assert run([*BIG, "--generations", "4", "--out", str(tmp_path / "local"), "--genomes-dir", str(genomes)]) == 0
    client.wait_for_workers(2, timeout=60)
    before = set(client.run(os.getpid).values())
    process = subprocess.run([sys.executable, str(STOPPING_RUN), "1", f"kill-worker:{marker}", *BIG,
                              "--generations", "4", "--backend", "dask", "--scheduler", running.scheduler_address,
                              "--out", str(tmp_path / "dask"), "--genomes-dir", str(genomes)],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert process.returncode == 0, process.stderr
    killed = int(marker.read_text())  # the kill happened, in a task on a worker of the cluster
    assert killed in before
    assert outcome(tmp_path / "dask", genomes) == outcome(tmp_path / "local", genomes)
    client.wait_for_workers(2, timeout=60)
    after = set(client.run(os.getpid).values())
    assert len(after) == 2 and killed not in after and after - before  # the nanny started a new worker


@slow
def test_a_lost_scheduler_stops_the_run_and_it_resumes_from_its_checkpoint(tmp_path):
    """The whole cluster gone mid-run: a clear error, exit 1, the checkpoint intact; resumed on
    the local pool the run ends as an uninterrupted one."""
    genomes = tmp_path / "g"
    log = tmp_path / "scheduler.log"
    with open(log, "w") as handle:
        scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                      "--port", "0", "--no-dashboard"], stderr=handle)
    workers = None
    try:
        address = _scheduler_address(log, scheduler)
        workers = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "2",
                                    "--nthreads", "1", "--no-dashboard"], stderr=subprocess.DEVNULL)
        # the run kills the scheduler right after checkpointing generation 1 (not a race)
        process = subprocess.Popen([sys.executable, str(STOPPING_RUN), "1",
                                    f"kill:{scheduler.pid}", *BIG, "--generations", "6", "--backend", "dask",
                                    "--scheduler", address, "--out", str(tmp_path / "dask"), "--genomes-dir",
                                    str(genomes)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        for started in (scheduler, workers):
            if started is not None:
                started.kill()
                started.wait(timeout=60)
    assert process.returncode == 1
    assert stderr.count("\n") == 1 and "lost the Dask scheduler" in stderr
    # the run exports to its own --genomes-dir, which the hint repeats (a checkpoint does not choose)
    assert f"continue with --resume {tmp_path / 'dask'} --genomes-dir {genomes}" in stderr
    assert run(["--resume", str(tmp_path / "dask"), "--genomes-dir", str(genomes), "--quiet"]) == 0
    assert run([*BIG, "--generations", "6", "--out", str(tmp_path / "local"), "--genomes-dir", str(genomes)]) == 0
    assert outcome(tmp_path / "dask", genomes) == outcome(tmp_path / "local", genomes)


def _scheduler_address(log: Path, scheduler, timeout: float = 60) -> str:
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        for line in log.read_text().splitlines():
            if "Scheduler at:" in line:
                return line.split("at:")[-1].strip()
        assert scheduler.poll() is None, log.read_text()
        time.sleep(0.05)
    raise AssertionError("the scheduler did not start")


@pytest.mark.parametrize("argv, message", [
    (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler goes with --backend dask"),
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"], "a --scheduler's cluster has its own"),
    (["--backend", "dask", "--jobs", "0"], "--jobs must be an integer >= 1, got 0"),
    (["--backend", "spark"], "invalid choice: 'spark'"),
])
def test_backend_options_are_checked_in_one_line(tmp_path, capsys, argv, message):
    assert run([*SMALL, "--out", str(tmp_path / "r"), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:9", "tls://127.0.0.1:9", "nonsense"])
def test_an_unreachable_scheduler_is_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch, address):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    assert run([*SMALL, "--out", str(tmp_path / "r"), "--backend", "dask", "--scheduler", address]) == 2
    err = capsys.readouterr().err
    assert f"cannot reach the Dask scheduler at {address}" in err and err.count("\n") == 1
    assert not (tmp_path / "r").exists()


@slow
def test_a_cluster_without_workers_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cluster, "WORKER_TIMEOUT", 1)
    with distributed.LocalCluster(n_workers=0, dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR) as empty:
        assert run([*SMALL, "--out", str(tmp_path / "r"), "--backend", "dask", "--scheduler",
                    empty.scheduler_address]) == 2
    err = capsys.readouterr().err
    assert "no worker joined it" in err and err.count("\n") == 1
    assert not (tmp_path / "r").exists()


def test_without_dask_the_error_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    assert run([*SMALL, "--out", str(tmp_path / "r"), "--backend", "dask"]) == 2
    assert capsys.readouterr().err == "nim_evo: error: --backend dask needs Dask: pip install 'nim-evo[distributed]'\n"


def test_without_cryptography_the_local_cluster_error_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "cryptography", None)
    assert run([*SMALL, "--out", str(tmp_path / "r"), "--backend", "dask"]) == 2
    assert capsys.readouterr().err == ("nim_evo: error: the local Dask cluster runs over TLS, which needs the "
                                       "cryptography package: pip install 'nim-evo[distributed]'\n")
    assert not (tmp_path / "r").exists()


def test_the_local_cluster_lets_no_other_client_in():
    """The local cluster of --backend dask speaks TLS with a certificate of its own: a
    process of the same machine that finds its port can neither connect in the clear nor
    with a certificate of its own (before, a second process connected and ran code in both
    workers)."""
    import distributed
    from distributed.security import Security
    from joblib import Parallel, delayed
    from joblib.parallel import get_active_backend

    with cluster.evaluation_backend("dask", jobs=1) as jobs:
        address = get_active_backend()[0].client.scheduler.address
        assert address.startswith("tls://127.0.0.1:")
        assert Parallel(n_jobs=jobs)(delayed(abs)(-n) for n in range(3)) == [0, 1, 2]  # its own client works
        for security in (None, Security.temporary()):
            try:
                distributed.Client(address, timeout="3s", security=security)
                refused = None
            except Exception as error:
                refused = str(error)
            gc.collect()  # the half-made client's __del__, now: later it would deadlock the next client
            assert refused is not None and "TLS" in refused, refused


@slow
def test_ctrl_c_on_a_local_cluster_run_is_one_line_from_the_run_alone(tmp_path):
    """Ctrl-C in a terminal signals every process of the foreground group: the workers of the
    local cluster ignore it (they used to print a page of traceback each), and the run says
    one line and resumes. Where it falls is fixed: the run signals its own group right after
    checkpointing generation 2 (tests/stopping_run.py's int-group)."""
    out = tmp_path / "r"
    process = subprocess.run([sys.executable, str(STOPPING_RUN), "2", "int-group", *SMALL, "--generations", "50",
                              "--backend", "dask", "--jobs", "2", "--out", str(out),
                              "--genomes-dir", str(tmp_path / "g")],
                             cwd=ROOT, capture_output=True, text=True, timeout=300, start_new_session=True)
    assert process.returncode in (130, -signal.SIGINT), process.stderr
    assert process.stderr.strip() == f"nim_evo: interrupted; continue with --resume {out} --genomes-dir {tmp_path / 'g'}"


@slow
def test_the_local_cluster_workers_ignore_ctrl_c():
    from joblib import Parallel, delayed

    with cluster.evaluation_backend("dask", jobs=2) as jobs:
        handlers = Parallel(n_jobs=jobs)(delayed(signal.getsignal)(signal.SIGINT) for _ in range(4))
    assert handlers == [signal.SIG_IGN] * 4
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # this process's, given back
