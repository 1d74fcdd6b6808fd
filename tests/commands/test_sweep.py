"""nim-evo sweep: the runs of a grid times seeds, their tables, a resume after a kill, bad input."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import nim_evo
from nim_evo.evolution.statistics import wilson
from nim_evo.commands.sweep import main as sweep_main

TIME_COLUMNS = {"seconds", "seconds_median", "seconds_q1", "seconds_q3"}
DONE_WHEN = ["--genome", "table", "--game", "7-5-3", "--seeds", "0-5", "--grid", "population=20,40",
             "--until", "accuracy=1", "--generations", "80"]


def _table(path: Path) -> list[dict]:
    with open(path, newline="") as handle:
        return [{k: v for k, v in row.items() if k not in TIME_COLUMNS} for row in csv.DictReader(handle)]


@pytest.fixture(scope="module")
def done_when(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "s"
    assert sweep_main([*DONE_WHEN, "--jobs", "2", "--out", str(out), "--quiet"]) == 0
    return out


def test_the_issue_sweep_writes_twelve_rows_and_a_summary_with_wilson_intervals(done_when):
    runs = _table(done_when / "runs.csv")
    assert len(runs) == 12 and [r["run_id"] for r in runs[:2]] == ["s0-population20-seed0", "s0-population20-seed1"]
    assert {r["population"] for r in runs} == {"20", "40"} and sorted({r["seed"] for r in runs}) == list("012345")
    summary = _table(done_when / "summary.csv")
    assert [r["population"] for r in summary] == ["20", "40"]
    for row in summary:
        mine = [r for r in runs if r["population"] == row["population"]]
        successes = sum(int(r["success"]) for r in mine)
        assert int(row["runs"]) == 6 and int(row["successes"]) == successes
        assert (float(row["ci_low"]), float(row["ci_high"])) == pytest.approx(wilson(successes, 6), abs=1e-6)
    curves = _table(done_when / "curves.csv")
    assert len(curves) == sum(int(r["generation"]) + 1 for r in runs)
    assert (done_when / "sweep.png").stat().st_size > 10_000 and (done_when / "runs" / runs[0]["run_id"]).is_dir()


def test_a_row_is_the_run_evolve_makes_alone(done_when):
    """Seed 3 at population 40: the same champion, generation and accuracy as one evolve call."""
    row = next(r for r in _table(done_when / "runs.csv") if r["run_id"] == "s1-population40-seed3")
    alone = nim_evo.evolve("table", nim_evo.Rules((7, 5, 3)), generations=80, seed=3, population=40,
                           until="accuracy=1", progress=False)
    assert int(row["generation"]) == alone.state.generation and float(row["accuracy"]) == round(alone.accuracy, 6)
    assert float(row["fitness"]) == round(alone.genes.fitness.values[0], 6) and row["success"] == "1"


def test_the_rows_do_not_depend_on_the_workers(done_when, tmp_path):
    assert sweep_main([*DONE_WHEN, "--jobs", "1", "--out", str(tmp_path / "one"), "--quiet"]) == 0
    for name in ("runs.csv", "curves.csv", "summary.csv"):
        assert _table(tmp_path / "one" / name) == _table(done_when / name)


def test_a_sweep_killed_mid_run_resumes_to_the_same_rows(tmp_path, monkeypatch):
    """SIGKILL while a run is under way (after its checkpoints began): --resume keeps the
    finished runs, resumes the unfinished one from its checkpoint, and writes the rows of a
    sweep never stopped."""
    argv = ["--genome", "table", "--game", "1-3-5-7-9", "--seeds", "0-1", "--grid", "population=20,30",
            "--generations", "25", "--quiet"]
    assert sweep_main([*argv, "--out", str(tmp_path / "whole")]) == 0
    killed = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, "-m", "nim_evo.sweeps", *argv, "--out", str(killed)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    deadline = time.time() + 120
    while time.time() < deadline:  # one run finished, the next one checkpointed but not done
        rows = list((killed / "runs").glob("*/sweep-row.json")) if (killed / "runs").exists() else []
        started = [p for p in (killed / "runs").glob("*/checkpoint.npz")] if rows else []
        if rows and len(started) > len(rows):
            break
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    runs = list((killed / "runs").iterdir())
    unfinished = [run for run in runs if (run / "checkpoint.npz").exists() and not (run / "sweep-row.json").exists()]
    assert 1 <= sum((run / "sweep-row.json").exists() for run in runs) < 4 and unfinished  # one to resume
    monkeypatch.chdir(tmp_path)
    assert sweep_main(["--resume", str(killed), "--quiet"]) == 0
    assert not (tmp_path / "genomes").exists()  # a sweep's champions stay in their runs' folders
    for name in ("runs.csv", "curves.csv", "summary.csv"):
        assert _table(killed / name) == _table(tmp_path / "whole" / name)


def test_sigterm_ends_a_sweep_as_ctrl_c_does(tmp_path):
    """SIGTERM (a batch system's time limit) mid-sweep on two workers: status 130 and one line
    saying how to go on, as Ctrl-C (it was 143 with no word, its workers writing runs for
    minutes); nothing of the sweep's is written once it has ended."""
    process = subprocess.Popen([sys.executable, "-m", "nim_evo.sweeps", "--genome", "table", "--game",
                                "1-3-5-7-9-11", "--seeds", "0-3", "--generations", "150", "--jobs", "2", "--out", "s"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    deadline = time.time() + 120
    while time.time() < deadline and not list((tmp_path / "s").glob("runs/*/checkpoint.npz")):
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert f"nim_evo: interrupted; continue with nim-evo sweep --resume {tmp_path / 's'}" in err.splitlines()
    written = {path: path.stat().st_mtime_ns for path in (tmp_path / "s").rglob("*") if path.is_file()}
    time.sleep(3)
    assert {path: path.stat().st_mtime_ns for path in (tmp_path / "s").rglob("*") if path.is_file()} == written


def _workers_of(pid: int) -> list[int]:
    """The loky worker processes ``pid`` started (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid and b"popen_loky" in command:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc")
def test_a_sweep_s_workers_end_with_it_even_on_sigkill(tmp_path):
    """SIGKILL of the sweeping process mid-sweep on two workers, one running a run and one with
    no task yet: both end with it (they wrote runs for minutes, and a --resume was refused
    meanwhile; the idle one used to live on for loky's five minutes, as workers that had not
    yet begun their first task did)."""
    process = subprocess.Popen([sys.executable, "-m", "nim_evo.sweeps", "--genome", "table", "--game",
                                "1-3-5-7-9-11", "--seeds", "0", "--generations", "150", "--jobs", "2", "--out", "s"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    deadline = time.time() + 120
    while time.time() < deadline and not list((tmp_path / "s").glob("runs/*/checkpoint.npz")):
        time.sleep(0.05)
    workers = _workers_of(process.pid)
    assert len(workers) == 2
    process.kill()
    process.wait()
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie no longer does: whoever adopted it may reap it late)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_the_library_sweep_is_the_command_s_and_resumes(tmp_path):
    result = nim_evo.sweep("0-1", {"population": [20, 30]}, genome="table", rules=nim_evo.Rules((3, 4, 5)),
                           generations=6, out=tmp_path / "api", progress=False)
    assert len(result.runs) == 4 and len(result.summary) == 2 and len(repr(result)) < 200
    assert result.summary[0]["successes"] == ""  # no target: nothing counts as success
    (tmp_path / "api" / "runs" / result.runs[-1]["run_id"] / "sweep-row.json").unlink()
    again = nim_evo.sweep(None, out=tmp_path / "api", resume=True, progress=False)
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in again.runs] == \
        [{k: v for k, v in r.items() if k != "seconds"} for r in result.runs]


@pytest.mark.parametrize("linked", ["a run's folder", "runs"])
def test_a_link_in_a_sweep_folder_never_chooses_where_a_resume_writes(tmp_path, capsys, linked):
    """A sweep folder received from someone else, one run's folder (or ``runs/`` itself) a link
    to a folder outside it that holds files of a run's names: ``--resume`` refuses in one line,
    exit 2, and nothing there or in the sweep changes (it used to begin that run there with
    force: the files deleted, the run written in their place)."""
    sweep = tmp_path / "sweep"
    result = nim_evo.sweep("0-1", {"population": [20, 30]}, genome="table", rules=nim_evo.Rules((3, 4, 5)),
                           generations=3, out=sweep, progress=False)
    victim = tmp_path / "victim"
    victim.mkdir()
    precious = {"config.json": '{"mine": true}', "logbook.csv": "my,data\n", "policy.png": "my picture"}
    for name, text in precious.items():
        (victim / name).write_text(text)
    run_folder = sweep / "runs" / result.runs[-1]["run_id"]
    if linked == "runs":
        (sweep / "runs").rename(tmp_path / "moved")
        (victim / run_folder.name).mkdir()
        (sweep / "runs").symlink_to(victim)
    else:
        for path in run_folder.iterdir():
            path.unlink()
        run_folder.rmdir()
        run_folder.symlink_to(victim)
    before = {path: path.read_bytes() for path in sweep.rglob("*") if path.is_file()}
    assert sweep_main(["--resume", str(sweep), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"leads to {victim}" in err and "nothing was written" in err
    assert {p.name: p.read_text() for p in victim.iterdir() if p.is_file()} == precious
    assert not any(p.is_dir() and any(p.iterdir()) for p in victim.iterdir())
    assert {path: path.read_bytes() for path in sweep.rglob("*") if path.is_file()} == before


@pytest.mark.parametrize("argv, message", [
    (["--seeds", "0-2", "--grid", "colour=1,2"], "--grid colour=1,2: KEY=V1,V2,... with KEY one of"),
    (["--seeds", "0-2", "--grid", "population=20,1"], r"--grid population=1: .*--population"),
    (["--seeds", "3-1"], "the seeds 3-1 are an empty range"),
    (["--grid", "population=20"], "name the sweep's seeds"),
    (["--seeds", "0", "--out", "x", "--seed", "2"], "--seed is not a run flag in a sweep: a sweep's seeds are --seeds"),
    (["--seeds", "0", "--grid", "population=20,20"], "empty or repeated value"),
    (["--resume", "nosuch"], "nosuch is not a sweep folder"),
    (["--resume", "folder", "--population", "3"], "--resume continues a sweep as it was begun; drop --population"),
    (["--seeds", "0", "--seed", "0"], "--seed is not a run flag in a sweep"),
    (["--seeds", "0-99999", "--grid", "population=10,20"], "the sweep has 200,000 runs; at most 100,000"),
    (["--seeds", "0", "--name", "a/b"], "--name a/b: letters, digits"),
    (["--seeds", "0", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"], "scheduler|127.0.0.1:9"),
    (["--seeds", "0", "--minutes", "0"], "--minutes must be a number between"),
    (["--seeds", "0", "--minutes", "nan"], "--minutes must be a number between"),
    (["--resume", "folder", "--minutes", "3"], "--resume continues a sweep as it was begun; drop --minutes"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(argv, message, tmp_path, monkeypatch, capsys):
    from nim_evo.evolution import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")  # (an unreachable scheduler: refused after 1 s, not 10)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    assert sweep_main([*argv, "--generations", "2"] if "--resume" not in argv else argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nim_evo: error: ")
    assert pytest.importorskip("re").search(message, err[0]), err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"] and not any((tmp_path / "folder").iterdir())


def test_a_grid_of_too_many_runs_is_refused_before_its_settings_are_made(tmp_path, monkeypatch, capsys):
    """A grid of a million settings was refused only once every one was made (50-186 s): its
    size is counted first, by the command and by the library alike."""
    from nim_evo.cli import runflags

    made = []
    real = runflags.config_from_args
    monkeypatch.setattr(runflags, "config_from_args", lambda args: made.append(args) or real(args))
    big = [f"population={','.join(map(str, range(2, 1002)))}", f"offspring={','.join(map(str, range(2, 102)))}"]
    assert sweep_main(["--seeds", "0-1", "--grid", big[0], "--grid", big[1], "--out", str(tmp_path / "s")]) == 2
    assert capsys.readouterr().err == "nim_evo: error: the sweep has 200,000 runs; at most 100,000\n"
    assert made == [] and not (tmp_path / "s").exists()
    with pytest.raises(nim_evo.UserError, match="the sweep has 200,000 runs; at most 100,000"):
        nim_evo.sweep("0-1", {"population": range(2, 1002), "offspring": range(2, 102)}, out=tmp_path / "t")
    assert not (tmp_path / "t").exists()


def test_a_grid_of_a_setting_named_as_a_result_column_keeps_both(tmp_path):
    """--grid fitness=exact,sampled: the setting's column is 'fitness setting', the run's final
    fitness stays 'fitness'."""
    assert sweep_main(["--genome", "table", "--game", "3-4", "--seeds", "0", "--grid", "fitness=exact,sampled",
                       "--games", "20", "--generations", "2", "--out", str(tmp_path / "f"), "--quiet"]) == 0
    runs = _table(tmp_path / "f" / "runs.csv")
    assert [r["fitness setting"] for r in runs] == ["exact", "sampled"] and all(float(r["fitness"]) > 0 for r in runs)
    assert [r["fitness setting"] for r in _table(tmp_path / "f" / "summary.csv")] == ["exact", "sampled"]


def test_the_library_refuses_what_a_sweep_cannot_run(tmp_path):
    rules = nim_evo.Rules((3, 4))
    for seeds, settings, message in (([1, 1], {}, "names a seed twice"), (5, {}, "seeds must be whole numbers"),
                                     ([0], {"populaton": 20}, "no setting 'populaton'"),
                                     ([-1], {}, "seeds are whole numbers >= 0")):
        with pytest.raises(nim_evo.UserError, match=message):
            nim_evo.sweep(seeds, rules=rules, generations=2, out=tmp_path / "x", progress=False, **settings)
        assert not (tmp_path / "x").exists()
    nim_evo.sweep([0], rules=rules, generations=2, out=tmp_path / "y", progress=False)
    with pytest.raises(nim_evo.UserError, match="give seeds=None"):
        nim_evo.sweep([0], out=tmp_path / "y", resume=True, progress=False)


def test_code_opponents_are_trusted_as_begun_and_named_again_on_resume(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text("class FirstPile:\n    def move(self, piles, rng):\n"
                                      "        return next(i for i, n in enumerate(piles) if n), 1\n")
    spec = f"{tmp_path / 'mine.py'}:FirstPile"
    result = nim_evo.sweep([0, 1], rules=nim_evo.Rules((3, 4)), generations=3, opponents=[spec, "nimsum"],
                           out=tmp_path / "c", progress=False)
    row = tmp_path / "c" / "runs" / result.runs[0]["run_id"] / "sweep-row.json"
    row.unlink()  # as if killed after its last checkpoint: it is resumed
    with pytest.raises(nim_evo.UserError, match="the run plays code"):
        nim_evo.sweep(None, out=tmp_path / "c", resume=True, progress=False)
    again = nim_evo.sweep(None, out=tmp_path / "c", resume=True, progress=False, code=[spec])
    assert [r["fitness"] for r in again.runs] == [r["fitness"] for r in result.runs] and row.exists()
    row.unlink()
    assert sweep_main(["--resume", str(tmp_path / "c"), "--opponents", f"{spec},nimsum", "--quiet"]) == 0


def test_a_folder_that_holds_a_sweep_is_not_begun_again(done_when, capsys):
    assert sweep_main([*DONE_WHEN, "--out", str(done_when)]) == 2
    assert "holds a sweep: continue it with --resume" in capsys.readouterr().err


@pytest.mark.slow
def test_a_sweep_on_a_local_dask_cluster_gives_the_same_rows(done_when, tmp_path):
    assert sweep_main([*DONE_WHEN, "--backend", "dask", "--jobs", "2", "--out", str(tmp_path / "dask"),
                       "--quiet"]) == 0
    assert _table(tmp_path / "dask" / "runs.csv") == _table(done_when / "runs.csv")


KILLER = '''
import os
import signal
from pathlib import Path

MAIN, MARKER = {main}, {marker!r}  # the test's process, and the file that says the kill happened


class FirstPile:
    """Takes one from the first pile that has any; made in a Dask worker the first time, it
    kills that worker (SIGKILL) instead, once: a worker lost in the middle of a sweep."""

    def __init__(self):
        if os.getpid() == MAIN:
            return  # not on a worker (the sweep's own checks): nothing to kill
        marker = Path(MARKER)
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)

    def move(self, piles, rng):
        pile = next(i for i, n in enumerate(piles) if n)
        return pile, 1
'''


@pytest.mark.slow
def test_a_worker_lost_mid_sweep_costs_only_time(tmp_path, monkeypatch):
    """A Dask worker SIGKILLed as a run begins on it (where, fixed: the first time the sweep's
    person's agent is made on a worker): Dask runs the task again on another worker, and the
    sweep's rows are those of the sweep on the local pool."""
    import logging

    import distributed

    (tmp_path / "killer.py").write_text(KILLER.format(main=os.getpid(), marker=str(tmp_path / "killed")))
    argv = ["--genome", "table", "--game", "3-4-5", "--opponents", f"{tmp_path / 'killer.py'}:FirstPile,nimsum",
            "--seeds", "0-3", "--generations", "4", "--population", "10", "--offspring", "20", "--quiet"]
    environ = dict(os.environ)
    try:
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                      silence_logs=logging.ERROR) as running:
            assert sweep_main([*argv, "--backend", "dask", "--scheduler", running.scheduler_address,
                               "--out", str(tmp_path / "dask")]) == 0
    finally:
        os.environ.clear()
        os.environ.update(environ)
    assert (tmp_path / "killed").exists()  # the kill happened on a worker
    assert sweep_main([*argv, "--out", str(tmp_path / "local")]) == 0
    assert _table(tmp_path / "dask" / "runs.csv") == _table(tmp_path / "local" / "runs.csv")


def test_a_worker_of_the_local_pool_lost_mid_sweep_costs_only_time(tmp_path, monkeypatch, capsys):
    """The same kill on joblib's local pool (--jobs 2): the sweep starts the unfinished runs
    again, says so, and writes the rows of the sweep run in this process (--jobs 1)."""
    (tmp_path / "killer.py").write_text(KILLER.format(main=os.getpid(), marker=str(tmp_path / "killed")))
    argv = ["--genome", "table", "--game", "3-4-5", "--opponents", f"{tmp_path / 'killer.py'}:FirstPile,nimsum",
            "--seeds", "0-3", "--generations", "4", "--population", "10", "--offspring", "20"]
    assert sweep_main([*argv, "--jobs", "2", "--out", str(tmp_path / "pool")]) == 0
    assert (tmp_path / "killed").exists() and "a worker was lost" in capsys.readouterr().err
    assert sweep_main([*argv, "--jobs", "1", "--out", str(tmp_path / "here"), "--quiet"]) == 0
    assert _table(tmp_path / "pool" / "runs.csv") == _table(tmp_path / "here" / "runs.csv")


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(seeds=["x"]), "does not read as a sweep"),
    (lambda d: d["settings"][0]["config"].update(population=-3), "sweep.json: population must be"),
    (lambda d: d.update(format="other"), "is not a nim_evo sweep record"),
    (lambda d: d.update(version=99), "has sweep record version 99"),
    (lambda d: d.pop("settings"), "does not read as a sweep"),
    (lambda d: d["settings"][0].update(config="table"), "does not read as a sweep (TypeError)"),  # (a traceback)
    (lambda d: d["settings"][0].update(label=[1]), "does not read as a sweep"),
    (lambda d: d.update(grid=[1]), "does not read as a sweep"),
])
def test_a_sweep_record_that_does_not_read_is_one_line(change, message, done_when, tmp_path, capsys):
    import json

    data = json.loads((done_when / "sweep.json").read_text())
    change(data)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "sweep.json").write_text(json.dumps(data))
    assert sweep_main(["--resume", str(tmp_path / "bad")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert sorted(p.name for p in (tmp_path / "bad").iterdir()) == ["sweep.json"]


@pytest.mark.parametrize("change, message", [
    (lambda d: d["row"].update(success="1"), "its success is '1', not 0, 1 or none"),
    (lambda d: d["row"].update(success=True), "its success is True, not 0, 1 or none"),
    (lambda d: d["row"].update(generation=2.5), "its generation is 2.5, not a whole number"),
    (lambda d: d["row"].update(seconds="fast"), "its seconds are 'fast', not a number"),
    (lambda d: d.update(curve=[1, 2]), "its curve is not a list of points with whole numbers of evaluations"),
    (lambda d: d.update(row=[]), "it holds no row and curve"),
])
def test_a_run_s_row_file_of_wrong_types_is_one_line_on_resume(change, message, done_when, tmp_path, capsys):
    """A field of a run's ``sweep-row.json`` of the wrong type (a success that is a string,
    curve points that are numbers) was a traceback on ``--resume``: one line naming the file."""
    import json
    import shutil

    shutil.copytree(done_when, tmp_path / "s")
    path = sorted((tmp_path / "s" / "runs").glob("*/sweep-row.json"))[0]
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    assert sweep_main(["--resume", str(tmp_path / "s"), "--quiet"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"nim_evo: error: {path} does not read as a sweep's row: {message}"]


def test_a_time_bound_stops_each_run_and_is_kept_on_resume(tmp_path, capsys):
    """--minutes M: each run stops once it has evolved M minutes, its target not reached (a
    failure in the success rate); sweep.json keeps the bound, so a resumed run stops alike.
    (Seven heaps: a population of 4 needs some 25 generations of a second each to be perfect
    there, ten times the bound: on six, a faster engine reached the target within it.)"""
    argv = ["--genome", "table", "--game", "1-3-5-7-9-11-13", "--seeds", "0-1", "--generations", "100000",
            "--until", "accuracy=1", "--population", "4", "--minutes", "0.05", "--out", str(tmp_path / "s")]
    assert sweep_main(argv) == 0
    assert capsys.readouterr().err.count("stopped at its bound of 0.05 minutes, at generation") == 2
    runs = _table(tmp_path / "s" / "runs.csv")
    assert [r["success"] for r in runs] == ["0", "0"] and all(1 <= int(r["generation"]) < 100_000 for r in runs)
    record = json.loads((tmp_path / "s" / "sweep.json").read_text())
    assert record["minutes"] == 0.05
    (tmp_path / "s" / "runs" / runs[1]["run_id"] / "sweep-row.json").unlink()
    again = nim_evo.sweep(None, out=tmp_path / "s", resume=True, progress=False)
    assert again.runs[1]["success"] == 0 and 3 <= again.runs[1]["seconds"] < 60
    with pytest.raises(nim_evo.UserError, match="give seeds=None, and no grid, settings or minutes"):
        nim_evo.sweep(None, out=tmp_path / "s", resume=True, minutes=1)
    record["minutes"] = "soon"
    (tmp_path / "s" / "sweep.json").write_text(json.dumps(record))
    with pytest.raises(nim_evo.UserError, match="does not read as a sweep"):
        nim_evo.sweep(None, out=tmp_path / "s", resume=True, progress=False)


def test_a_sweep_s_files_carry_their_envelope_and_older_ones_still_read(tmp_path):
    """sweep.json and each sweep-row.json say their format and version; a record under its
    former format name and rows written before they had an envelope resume as they were."""
    result = nim_evo.sweep([0, 1], rules=nim_evo.Rules((3, 4)), generations=2, out=tmp_path / "s", progress=False)
    record = tmp_path / "s" / "sweep.json"
    rows = sorted((tmp_path / "s" / "runs").glob("*/sweep-row.json"))
    assert json.loads(record.read_text())["format"] == "nim_evo/sweep" and len(rows) == 2
    assert all(json.loads(row.read_text())["format"] == "nim_evo/sweep-row" for row in rows)
    record.write_text(json.dumps({**json.loads(record.read_text()), "format": "nim_evo-sweep"}))
    for row in rows:
        data = json.loads(row.read_text())
        row.write_text(json.dumps({"row": data["row"], "curve": data["curve"]}))
    again = nim_evo.sweep(None, out=tmp_path / "s", resume=True, progress=False)
    assert again.runs == result.runs
    rows[0].write_text(json.dumps({**json.loads(rows[1].read_text()), "format": "nim_evo/sweep-row", "version": 2}))
    with pytest.raises(nim_evo.UserError, match="sweep row version 2 \\(written by a newer nim_evo\\)"):
        nim_evo.sweep(None, out=tmp_path / "s", resume=True, progress=False)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_sweep_s_table_runs_evaluate_beside_variation_only_one_at_a_time(tmp_path, monkeypatch, jobs):
    """A table run evaluates its offspring beside its variation where it has the cores to
    itself: in a sweep of one worker, not where two run at once (the workers' runs here run in
    this process, one after the other, to be seen)."""
    from nim_evo import experiments, processes
    from nim_evo.evolution import loop

    seen = []
    real_overlaps = loop.overlaps

    def overlaps(toolbox, config):
        seen.append(real_overlaps(toolbox, config))
        return seen[-1]

    monkeypatch.setattr(loop, "overlaps", overlaps)
    monkeypatch.setattr(loop.cluster, "usable_cores", lambda: 2)
    real_parallel = processes.parallel
    monkeypatch.setattr(processes, "parallel", lambda n, **kwargs: real_parallel(1, **kwargs))
    nim_evo.sweep("0-1", genome="table", rules=nim_evo.Rules((3, 4, 5)), generations=2, jobs=jobs,
                  out=tmp_path / "s", progress=False)
    assert seen and set(seen) == {jobs == 1}
