"""python -m nim_evo.run: run files, exports, resume, determinism, and one-line errors."""

import csv
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from nim_evo import Rules, load_strategy
from nim_evo.rules import PRESETS
from nim_evo.run import main

SMALL = ["--game", "2-3-4", "--population", "8", "--offspring", "12"]


def run(tmp_path, *argv):
    return main([*SMALL, "--genomes-dir", str(tmp_path / "genomes"), "--quiet", *argv])


def logbook(path):
    """The logbook rows without the wall-time column."""
    with open(path / "logbook.csv") as handle:
        return [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(handle)]


def champion(path):
    data = json.loads((path / "champion.json").read_text())
    return data["genome"], data["fitness"]


def test_list_games(capsys):
    assert main(["--list-games"]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == list(PRESETS)


@pytest.mark.parametrize("genome", ["table", "rules", "thresholds"])
def test_a_run_writes_its_files_and_a_playable_champion(tmp_path, capsys, genome):
    """Every run file is written; the exported champion loads and plays legal moves."""
    out = tmp_path / "runs" / "r1"
    assert run(tmp_path, "--genome", genome, "--generations", "4", "--out", str(out)) == 0
    export = tmp_path / "genomes" / f"r1-{genome}.json"
    assert capsys.readouterr().out.strip() == str(export)
    assert {p.name for p in out.iterdir()} == {"config.json", "logbook.csv", "checkpoint.pkl",
                                               "hall_of_fame.json", "champion.json"}
    rows = logbook(out)
    assert [int(r["gen"]) for r in rows] == [0, 1, 2, 3, 4]
    assert {"evals", "games", "min", "mean", "max", "random", "nimsum", "minimax", "accuracy"} <= set(rows[0])
    assert all(float(r["min"]) <= float(r["mean"]) <= float(r["max"]) for r in rows)
    agent = load_strategy(export)
    rules = Rules((2, 3, 4))
    rng = np.random.default_rng(0)
    for piles in [(2, 3, 4), (0, 1, 4), (1, 0, 0)]:
        assert rules.is_legal(piles, agent.move(piles, rng))
    assert json.loads(export.read_text())["command"].startswith("python -m nim_evo.run")


def test_table_run_on_7_5_3_finds_perfect_play(tmp_path):
    """Seed 003's board: a short default-shaped run plays a winning move in every winning position."""
    out = tmp_path / "r"
    assert main(["--game", "7-5-3", "--generations", "25", "--out", str(out), "--quiet",
                 "--genomes-dir", str(tmp_path / "g")]) == 0
    assert json.loads((out / "champion.json").read_text())["accuracy"] == 1.0


def test_same_seed_same_result_with_one_or_two_jobs(tmp_path):
    for fitness in ["exact", "sampled"]:
        a, b = tmp_path / f"{fitness}-1", tmp_path / f"{fitness}-2"
        common = ["--generations", "3", "--fitness", fitness, "--games", "200", "--seed", "5"]
        assert run(tmp_path, *common, "--out", str(a)) == 0
        assert run(tmp_path, *common, "--out", str(b), "--jobs", "2") == 0
        assert logbook(a) == logbook(b)
        assert champion(a) == champion(b)


def test_resume_continues_exactly(tmp_path):
    """3 generations then a resume to 6 equal a straight run of 6."""
    straight, split = tmp_path / "straight", tmp_path / "split"
    assert run(tmp_path, "--generations", "6", "--out", str(straight)) == 0
    assert run(tmp_path, "--generations", "3", "--out", str(split)) == 0
    assert main(["--resume", str(split), "--generations", "6", "--quiet",
                 "--genomes-dir", str(tmp_path / "genomes")]) == 0
    assert logbook(straight) == logbook(split)
    assert champion(straight) == champion(split)


def test_a_killed_run_resumes_to_the_same_result(tmp_path):
    """SIGKILL in the middle of a run; --resume ends with the uninterrupted run's champion and logbook."""
    straight, killed = tmp_path / "straight", tmp_path / "killed"
    argv = [*SMALL, "--game", "3-4-5", "--genomes-dir", str(tmp_path / "genomes"), "--quiet"]
    assert main([*argv, "--generations", "60", "--out", str(straight)]) == 0
    process = subprocess.Popen([sys.executable, "-m", "nim_evo.run", *argv, "--generations", "400",
                                "--out", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and len(logbook(killed) if (killed / "logbook.csv").exists() else []) < 4:
        time.sleep(0.005)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    reached = len(logbook(killed)) - 1
    assert 3 <= reached < 60
    assert main(["--resume", str(killed), "--generations", "60", "--quiet",
                 "--genomes-dir", str(tmp_path / "genomes")]) == 0
    assert logbook(straight) == logbook(killed)
    assert champion(straight) == champion(killed)
    assert not [p for p in killed.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_nothing_is_overwritten_unless_asked(tmp_path, capsys):
    out = tmp_path / "run"
    assert run(tmp_path, "--generations", "1", "--out", str(out)) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert run(tmp_path, "--generations", "2", "--out", str(out)) == 2
    assert "exists" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert run(tmp_path, "--generations", "2", "--out", str(out), "--force") == 0


def test_default_run_ids_never_collide(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert main([*SMALL, "--generations", "1", "--quiet"]) == 0
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["2-3-4-seed0", "2-3-4-seed0-2"]
    assert sorted(p.name for p in (tmp_path / "genomes").iterdir()) == ["2-3-4-seed0-2-table.json",
                                                                        "2-3-4-seed0-table.json"]


@pytest.mark.parametrize("argv, message", [
    (["--genome", "neural"], "invalid choice: 'neural'"),
    (["--game", "nope"], "cannot read game 'nope'"),
    (["--piles", "3", "-1"], "pile sizes must be >= 0"),
    (["--piles", "0", "0"], "at least one object"),
    (["--piles", "3", "--max-take", "0"], "max_take must be >= 1"),
    (["--game", "7-5-3", "--piles", "3"], "either --game or --piles"),
    (["--piles", "20", "20", "20", "20", "20"], "too many for a table genome"),
    (["--opponents", "genius"], "unknown agent 'genius'"),
    (["--generations", "0"], "--generations must be >= 1"),
    (["--population", "1"], "--population must be >= 2"),
    (["--jobs", "0"], "--jobs must be >= 1"),
    (["--resume", "no/such/run"], "no run directory"),
    (["--bogus"], "unrecognized arguments"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, monkeypatch, argv, message, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("nim_evo: error: ")
    assert message in captured.err
    assert not (tmp_path / "runs").exists() and not (tmp_path / "genomes").exists()


def test_corrupt_or_foreign_checkpoints_are_refused(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(tmp_path, "--generations", "1", "--out", str(a)) == 0
    assert run(tmp_path, "--generations", "1", "--out", str(b), "--seed", "9") == 0
    (b / "checkpoint.pkl").write_bytes((a / "checkpoint.pkl").read_bytes())
    assert main(["--resume", str(b)]) == 2
    assert "belongs to another run" in capsys.readouterr().err
    (a / "checkpoint.pkl").write_bytes(b"\x80\x04garbage")
    assert main(["--resume", str(a)]) == 2
    assert "is corrupt" in capsys.readouterr().err
    assert main(["--resume", str(a), "--seed", "3"]) == 2
    assert "drop --seed" in capsys.readouterr().err


def test_module_entry_point_has_no_traceback():
    done = subprocess.run([sys.executable, "-m", "nim_evo.run", "--game", "1-2-x"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.startswith("nim_evo: error:")
