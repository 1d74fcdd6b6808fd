"""python -m nim_evo.run: run files, exports, resume, determinism, and one-line errors."""

import csv
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from nim_evo import Rules, load_strategy
from nim_evo.engine.rules import PRESETS
from nim_evo.games.registry import PRESETS as GAME_PRESETS
from nim_evo.archives import read_arrays_document, write_arrays_document
from nim_evo.commands.run import main

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
    presets = capsys.readouterr().out.split("\n\n")[0]
    assert [line.split()[0] for line in presets.splitlines()] == [*PRESETS, *GAME_PRESETS]


def test_a_table_run_on_a_subtraction_board_reaches_perfect_play(tmp_path):
    """The issue's command: a table genome on a board of the second family, until it plays perfectly."""
    out = tmp_path / "runs" / "sub"
    done = subprocess.run([sys.executable, "-m", "nim_evo.run", "--genome", "table", "--game", "3-5-7-sub1.2.4-misere",
                           "--opponents", "random,perfect", "--until", "accuracy=1", "--out", str(out),
                           "--genomes-dir", str(tmp_path / "genomes")], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "until accuracy=1" in done.stdout + done.stderr  # said where the run's progress goes
    assert "plays a winning move in 100.00% of winning positions" in done.stdout
    assert json.loads((out / "config.json").read_text())["rules"] == {"game": "3-5-7-sub1.2.4-misere"}
    rows = logbook(out)
    assert float(rows[-1]["accuracy"]) == 1.0 and {"random", "perfect"} <= set(rows[0])
    # resumed, the run reads its game back; its champion is already perfect: nothing more to do
    assert main(["--resume", str(out), "--generations", str(int(rows[-1]["gen"]) + 2), "--quiet",
                 "--genomes-dir", str(tmp_path / "genomes"), "--force"]) == 0
    assert logbook(out) == rows


@pytest.mark.parametrize("argv, message", [
    (["--game", "20-sub"], "cannot read game '20-sub'"),
    (["--game", "20-sub0.3"], "cannot read game '20-sub0.3': a subtraction set must hold whole numbers from 1"),
    (["--game", "3-sub4"], "least member, 4, is above every heap"),
    (["--game", "20-sub1.3.4", "--genome", "rules"], "--genome 'rules' plays Nim only, not 20-sub1.3.4"),
    (["--game", "20-sub1.3.4", "--opponents", "nimsum"], "nimsum plays Nim only, not 20-sub1.3.4"),
    (["--game", "300-300-300-300-300-sub2.3", "--until", "accuracy=1"], "too big"),
])
def test_bad_subtraction_runs_are_one_line_exit_2_and_write_nothing(tmp_path, capsys, argv, message):
    assert main([*argv, "--out", str(tmp_path / "r"), "--genomes-dir", str(tmp_path / "g"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nim_evo: error: ") and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "r").exists() and not (tmp_path / "g").exists()


@pytest.mark.parametrize("genome", ["table", "rules", "thresholds"])
def test_a_run_writes_its_files_and_a_playable_champion(tmp_path, capsys, genome):
    """Every run file is written; the exported champion loads and plays legal moves."""
    out = tmp_path / "runs" / "r1"
    assert run(tmp_path, "--genome", genome, "--generations", "4", "--out", str(out)) == 0
    export = tmp_path / "genomes" / f"r1-{genome}.json"
    assert capsys.readouterr().out.strip() == str(export)
    assert {p.name for p in out.iterdir()} == {"config.json", "logbook.csv", "checkpoint.npz",
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


def test_same_seed_same_result_with_one_or_two_jobs(tmp_path, monkeypatch):
    monkeypatch.setattr("nim_evo.evolution.fitness.EXACT_CHUNK_SMALL", 5)  # exact fitness in several tasks here too
    for fitness in ["exact", "sampled"]:
        a, b = tmp_path / f"{fitness}-1", tmp_path / f"{fitness}-2"
        common = ["--generations", "3", "--fitness", fitness, "--games", "200", "--seed", "5"]
        assert run(tmp_path, *common, "--out", str(a)) == 0
        assert run(tmp_path, *common, "--out", str(b), "--jobs", "2") == 0
        assert logbook(a) == logbook(b)
        assert champion(a) == champion(b)


@pytest.mark.parametrize("space, genes", [(None, 28), ("multiset", 28), ("ordered", 60)])
def test_table_genes_live_on_the_chosen_space(tmp_path, space, genes):
    """Multisets by default (28 on 2-3-4 instead of 60 positions); the export says which,
    and plays every position of the board (over multisets, every arrangement of its piles)."""
    out = tmp_path / "r"
    assert run(tmp_path, "--generations", "2", "--out", str(out), *(["--space", space] if space else [])) == 0
    document = json.loads((out / "champion.json").read_text())
    assert document["genome"]["space"] == (space or "multiset") and len(document["genome"]["moves"]) == genes
    assert json.loads((out / "config.json").read_text())["space"] == (space or "multiset")
    agent = load_strategy(tmp_path / "genomes" / "r-table.json")
    rules = Rules((2, 3, 4))
    arrangements = [(4, 3, 2), (3, 0, 1)] if space != "ordered" else []
    for position in [(2, 3, 4), (0, 0, 1), (1, 1, 0), (2, 0, 2), *arrangements]:
        assert rules.is_legal(position, agent.move(position, np.random.default_rng(0)))
    if space == "ordered":
        with pytest.raises(ValueError, match="not reachable"):
            agent.move((4, 3, 2), np.random.default_rng(0))


def test_a_run_begun_before_multisets_resumes_as_it_was():
    """A config without ``space`` is an ordered run, with the table operators of its time."""
    from nim_evo.evolution.config import Config

    data = Config(genome="table", rules=Rules((2, 3, 4))).to_json()
    del data["space"]
    data["greedy"], data["indpb"] = 0.9, None
    old = Config.from_json(data)
    assert (old.space, old.indpb, old.greedy) == ("ordered", 0.05, 0.9)
    assert Config.from_json(Config(genome="table", rules=Rules((2, 3, 4))).to_json()).space == "multiset"
    with pytest.raises(ValueError, match="space must be one of"):
        Config(genome="table", rules=Rules((2, 3, 4)), space="tree")


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
    """SIGKILL in the middle of a run (the run kills itself right after checkpointing
    generation 5: where it falls is fixed, not a race); --resume ends with the uninterrupted
    run's champion and logbook."""
    straight, killed = tmp_path / "straight", tmp_path / "killed"
    argv = [*SMALL, "--game", "3-4-5", "--genomes-dir", str(tmp_path / "genomes"), "--quiet"]
    assert main([*argv, "--generations", "60", "--out", str(straight)]) == 0
    process = subprocess.run([sys.executable, str(Path(__file__).parents[1] / "stopping_run.py"), "5", "kill", *argv,
                              "--generations", "400", "--out", str(killed)], capture_output=True)
    assert process.returncode == -signal.SIGKILL
    assert len(logbook(killed)) - 1 == 5
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


def test_a_run_in_the_current_directory_is_named_by_it(tmp_path, monkeypatch, capsys):
    """``--out .`` exports ``<directory name>-<kind>.json``, not ``-table.json``."""
    here = tmp_path / "my-run"
    here.mkdir()
    monkeypatch.chdir(here)
    assert main([*SMALL, "--generations", "1", "--quiet", "--out", ".", "--genomes-dir", "."]) == 0
    assert capsys.readouterr().out.strip() == "my-run-table.json" and (here / "my-run-table.json").is_file()


def test_default_run_ids_never_collide(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert main([*SMALL, "--generations", "1", "--quiet"]) == 0
    assert main([*SMALL, "--generations", "1", "--quiet", "--genome", "rules"]) == 0  # another kind: its own name
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["2-3-4-seed0-rules", "2-3-4-seed0-run2-table",
                                                                     "2-3-4-seed0-table"]
    assert sorted(p.name for p in (tmp_path / "genomes").iterdir()) == ["2-3-4-seed0-rules.json",
                                                                        "2-3-4-seed0-run2-table.json",
                                                                        "2-3-4-seed0-table.json"]


@pytest.mark.parametrize("argv, message", [
    (["--genome", "neural"], "--genome must be one of table, rules, thresholds, program, got 'neural'"),
    (["--game", "nope"], "cannot read game 'nope'"),
    (["--piles", "3", "-1"], "pile sizes must be >= 0"),
    (["--piles", "0", "0"], "at least one object"),
    (["--piles", "3", "--max-take", "0"], "max_take must be >= 1"),
    (["--game", "7-5-3", "--piles", "3"], "either --game or --piles"),
    (["--piles", *["20"] * 12], "too many for a table genome"),
    (["--piles", "1", "3", "5", "7", "9", "11", "13", "2", "--space", "ordered"],
     "the board 1-3-5-7-9-11-13-2 has 1,935,360 positions, too many for a table genome (at most 1,000,000: a "
     "generation would take about 27 s); over multisets of piles (--space multiset, the default) it has 36,822"),
    (["--piles", "1", "3", "5", "7", "9", "11", "13", "15", "17", "19"],
     "has 4,032,015 multisets of piles, too many for a table genome (at most 1,000,000: a generation would take "
     "about 56 s); --genome rules, thresholds or program play any board"),
    (["--opponents", "genius"], "unknown agent 'genius'"),
    (["--generations", "0"], "--generations must be an integer between 1 and 1,000,000, got 0"),
    (["--population", "1"], "--population must be an integer between 2 and 10,000, got 1"),
    (["--jobs", "0"], "--jobs must be an integer >= 1, got 0"),
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
    (b / "checkpoint.npz").write_bytes((a / "checkpoint.npz").read_bytes())
    assert main(["--resume", str(b)]) == 2
    assert "belongs to another run" in capsys.readouterr().err
    (a / "checkpoint.npz").write_bytes(b"\x80\x04garbage")
    assert main(["--resume", str(a)]) == 2
    assert "is not a nim_evo array document" in capsys.readouterr().err
    assert main(["--resume", str(a), "--seed", "3"]) == 2
    assert "drop --seed" in capsys.readouterr().err


def test_module_entry_point_has_no_traceback():
    done = subprocess.run([sys.executable, "-m", "nim_evo.run", "--game", "1-2-x"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.startswith("nim_evo: error:")


def test_runs_survive_kills_at_every_write(tmp_path, capsys):
    """A kill before the first checkpoint, between checkpoint and config, or while a run is
    being extended never leaves a run that cannot be resumed or started again."""
    genomes = ["--genomes-dir", str(tmp_path / "genomes")]
    # killed in generation 0: only an empty directory, or a config without checkpoint
    early = tmp_path / "early"
    early.mkdir()
    assert run(tmp_path, "--generations", "2", "--out", str(early)) == 0  # an empty directory is free
    (early / "checkpoint.npz").unlink()
    assert main(["--resume", str(early), *genomes]) == 2
    assert f"start it again with --force --out {early}" in capsys.readouterr().err
    # killed after the checkpoint, before config.json: the checkpoint is the authority
    straight, lost = tmp_path / "straight", tmp_path / "lost"
    assert run(tmp_path, "--generations", "4", "--out", str(straight)) == 0
    assert run(tmp_path, "--generations", "2", "--out", str(lost)) == 0
    (lost / "config.json").unlink()
    assert main(["--resume", str(lost), "--generations", "4", "--quiet", *genomes]) == 0
    assert logbook(lost) == logbook(straight) and (lost / "config.json").exists()
    # killed while extending: the checkpoint says 6 generations, config.json still 4
    config = json.loads((straight / "config.json").read_text())
    assert main(["--resume", str(straight), "--generations", "6", "--quiet", *genomes]) == 0
    (straight / "config.json").write_text(json.dumps(config))
    assert main(["--resume", str(straight), "--quiet", *genomes]) == 0
    assert json.loads((straight / "config.json").read_text())["generations"] == 6


def test_a_resume_never_overwrites_another_runs_export(tmp_path, capsys):
    """Two runs with the same directory name but different seeds: resuming one leaves the
    other's export alone; a run's own export is updated when it is extended."""
    shared = tmp_path / "genomes"
    assert main([*SMALL, "--generations", "1", "--out", str(tmp_path / "x" / "r"), "--seed", "1",
                 "--genomes-dir", str(shared), "--quiet"]) == 0
    before = (shared / "r-table.json").read_bytes()
    assert main([*SMALL, "--generations", "1", "--out", str(tmp_path / "y" / "r"), "--seed", "2",
                 "--genomes-dir", str(tmp_path / "other"), "--quiet"]) == 0
    assert main(["--resume", str(tmp_path / "y" / "r"), "--generations", "2", "--quiet",
                 "--genomes-dir", str(shared)]) == 2
    assert "another run's genome" in capsys.readouterr().err
    assert (shared / "r-table.json").read_bytes() == before
    # without --genomes-dir a resume exports where the run did, with the original command
    assert main(["--resume", str(tmp_path / "y" / "r"), "--generations", "2", "--quiet"]) == 0
    document = json.loads((tmp_path / "other" / "r-table.json").read_text())
    assert "--seed 2" in document["command"] and document["resumed_with"].startswith("python -m nim_evo.run --resume")


@pytest.mark.parametrize("argv, message", [
    (["--seed", "-1"], "--seed must be an integer >= 0, got -1"),
    (["--games", "100000000000", "--fitness", "sampled"], "--games must be an integer between 1 and 1,000,000, got 100,000,000,000"),
    (["--opponents", "random,random"], "names an opponent twice"),
    (["--opponents", "random,,nimsum"], "empty name"),
    (["--genome", "rules", "--piles", "3000000000", "--fitness", "sampled", "--opponents", "random"],
     "3,000,000,000 moves"),
])
def test_more_bad_input(tmp_path, monkeypatch, argv, message, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("where", ["--out", "--genomes-dir"])
def test_unwritable_paths_are_one_line_errors(tmp_path, where, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    argv = ["--generations", "1", "--quiet", "--out", str(tmp_path / "run"), "--genomes-dir", str(tmp_path / "g")]
    argv[argv.index(where) + 1] = str(blocker / "inside")
    assert main([*SMALL, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nim_evo: error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert blocker.read_text() == "not a directory"


def test_checkpoint_version_and_leftovers(tmp_path, capsys):
    """A checkpoint of another format version is refused; temporary files of a killed write are swept."""
    out = tmp_path / "run"
    assert run(tmp_path, "--generations", "1", "--out", str(out)) == 0
    leftover = out / ".checkpoint.npz.abc123.tmp"
    leftover.write_bytes(b"half")
    foreign = out / ".notes.txt.tmp"
    foreign.write_text("not ours")
    assert main(["--resume", str(out), "--generations", "2", "--quiet"]) == 0
    assert not leftover.exists() and foreign.exists()
    data = read_arrays_document(out / "checkpoint.npz")
    data["version"] = 99
    write_arrays_document(out / "checkpoint.npz", data)
    assert main(["--resume", str(out)]) == 2
    assert "checkpoint version 99" in capsys.readouterr().err


class Payload:
    """What a crafted pickle holds: unpickling it runs ``touch`` on a marker file."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_a_checkpoint_is_never_unpickled(tmp_path, capsys):
    """A pickle planted as the checkpoint (the old name, or the new one) is refused in one
    line and never opened: the code it carries does not run."""
    out = tmp_path / "run"
    assert run(tmp_path, "--generations", "1", "--out", str(out)) == 0
    marker = tmp_path / "owned"
    planted = pickle.dumps(Payload(marker))
    (out / "checkpoint.npz").write_bytes(planted)
    assert main(["--resume", str(out)]) == 2
    assert "is not a nim_evo array document" in capsys.readouterr().err
    (out / "checkpoint.npz").unlink()
    (out / "checkpoint.pkl").write_bytes(planted)
    assert main(["--resume", str(out)]) == 2
    err = capsys.readouterr().err
    assert "is a pickle, the checkpoint of an older nim_evo; nim_evo no longer opens pickles" in err
    assert err.count("\n") == 1 and not marker.exists()
    # an archive whose member is an object array (which numpy could only unpickle) is refused too
    import io as bytes_io

    buffer = bytes_io.BytesIO()
    np.savez(buffer, document=np.frombuffer(b'{"format": "nim_evo/checkpoint"}', dtype=np.uint8),
             a0=np.array([Payload(marker)], dtype=object))
    (out / "checkpoint.npz").write_bytes(buffer.getvalue())
    assert main(["--resume", str(out)]) == 2
    assert "is not a nim_evo array document" in capsys.readouterr().err and not marker.exists()


def test_an_existing_export_is_refused_before_any_work(tmp_path, capsys):
    genomes = tmp_path / "genomes"
    genomes.mkdir()
    (genomes / "r-table.json").write_text("{}")
    assert run(tmp_path, "--generations", "1", "--out", str(tmp_path / "r")) == 2
    assert "r-table.json exists" in capsys.readouterr().err
    assert not (tmp_path / "r").exists() and (genomes / "r-table.json").read_text() == "{}"


def test_sigterm_ends_a_run_like_ctrl_c_and_it_resumes(tmp_path):
    """``kill`` (SIGTERM) mid-run: one line saying how to resume, status 130, no traceback,
    the checkpoint of the generation before it kept, and --resume ends with the uninterrupted
    run's result. The run SIGTERMs itself right after checkpointing generation 3
    (tests/stopping_run.py's term), so where the signal falls is fixed: the test used to
    poll for the first checkpoint for at most a minute, then signal the run wherever it was
    (before its handler was set, on a machine slow enough)."""
    straight, stopped = tmp_path / "straight", tmp_path / "stopped"
    argv = [*SMALL, "--game", "3-4-5", "--genomes-dir", str(tmp_path / "genomes"), "--quiet"]
    process = subprocess.run([sys.executable, str(Path(__file__).parents[1] / "stopping_run.py"), "3", "term", *argv,
                              "--generations", "400", "--out", str(stopped)], capture_output=True, text=True,
                             timeout=300)
    assert process.returncode == 130, process.stderr
    assert process.stderr.strip() == (f"nim_evo: interrupted; continue with --resume {stopped} "
                                      f"--genomes-dir {tmp_path / 'genomes'}")
    assert len(logbook(stopped)) - 1 == 3
    assert main([*argv, "--generations", "6", "--out", str(straight)]) == 0
    assert main(["--resume", str(stopped), "--generations", "6", "--quiet",
                 "--genomes-dir", str(tmp_path / "genomes")]) == 0
    assert logbook(straight) == logbook(stopped)



def test_a_run_directory_being_written_is_not_written_by_a_second_run(tmp_path, capsys):
    """While a run holds its directory (here: this test holds it, as a run does), --resume
    and --force --out on it are refused in one line and change nothing; once free, it resumes."""
    from nim_evo.evolution.rundir import RunDir

    out = tmp_path / "run"
    assert run(tmp_path, "--generations", "2", "--out", str(out)) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    holder = RunDir(out)
    holder.lock()
    try:
        assert main(["--resume", str(out), "--generations", "3", "--quiet"]) == 2
        assert run(tmp_path, "--generations", "2", "--out", str(out), "--force") == 2
        errors = capsys.readouterr().err.splitlines()
        assert len(errors) == 2 and all("is being written by another run" in line for line in errors)
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    finally:
        holder.unlock()
    assert main(["--resume", str(out), "--generations", "3", "--quiet", "--genomes-dir", str(tmp_path / "genomes")]) == 0


def _processes_with(marker: str) -> list[int]:
    """The processes whose environment holds ``marker`` (a run's children inherit it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc")
def test_worker_processes_end_with_a_killed_run(tmp_path):
    """SIGKILL of a --jobs 2 run (right after a checkpoint) leaves no worker behind: they used
    to wait minutes for work that would never come, holding their memory. (A thresholds run:
    a table run evaluates in its own process.)"""
    marker = f"NIM_EVO_TEST_RUN={tmp_path.name}"
    environment = {**os.environ, "NIM_EVO_TEST_RUN": tmp_path.name}
    process = subprocess.run([sys.executable, str(Path(__file__).parents[1] / "stopping_run.py"), "2", "kill", "--genome", "thresholds",
                              "--piles", "1", "3", "5", "7", "9", "11", "13", "--jobs", "2", "--generations", "50",
                              "--out", str(tmp_path / "r"), "--genomes-dir", str(tmp_path / "g"), "--quiet"],
                             env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert process.returncode == -signal.SIGKILL
    for _ in range(500):  # the kernel ends them at once; give it up to five seconds
        left = _processes_with(marker)
        if not left:
            break
        time.sleep(0.01)
    assert left == []


def test_a_run_resumed_from_another_directory_exports_where_it_did(tmp_path, monkeypatch):
    """The export's place is kept relative to the run directory: --resume from elsewhere
    updates the same file (it used to write a second one under the new working directory's
    genomes/ and leave the first at the old generation)."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    monkeypatch.chdir(first)
    assert main([*SMALL, "--generations", "2", "--out", "runs/r", "--quiet"]) == 0
    monkeypatch.chdir(second)
    assert main(["--resume", str(first / "runs" / "r"), "--generations", "4", "--quiet"]) == 0
    assert list(second.iterdir()) == []
    export = json.loads((first / "genomes" / "r-table.json").read_text())
    assert export["run_config"]["generations"] == 4
    assert export["genome"] == json.loads((first / "runs" / "r" / "champion.json").read_text())["genome"]


@pytest.mark.parametrize("field, value, message", [
    ("export", 7, "export must be text, not int"),
    ("command", ["rm"], "command must be text, not list"),
    ("opponent_files", {"a.json": 3}, "opponent_files must map file names to digests"),
])
def test_a_checkpoint_s_extras_are_checked(tmp_path, capsys, field, value, message):
    from nim_evo.archives import read_arrays_document, write_arrays_document

    out = tmp_path / "r"
    assert run(tmp_path, "--generations", "1", "--out", str(out)) == 0
    checkpoint = out / "checkpoint.npz"
    write_arrays_document(checkpoint, {**read_arrays_document(checkpoint), field: value})
    assert main(["--resume", str(out), "--generations", "2", "--quiet"]) == 2
    assert capsys.readouterr().err == f"nim_evo: error: {checkpoint}: {message}\n"


def test_a_big_table_run_says_what_to_expect_before_it_starts(tmp_path, capsys):
    from nim_evo.evolution.feasible import expected_time
    from nim_evo.engine.rules import Rules
    from nim_evo.evolution.config import Config

    assert run(tmp_path, "--generations", "1", "--out", str(tmp_path / "small")) == 0
    assert "expect" not in capsys.readouterr().err  # 2-3-4: nothing to expect
    config = Config(genome="table", rules=Rules((1, 3, 5, 7, 9, 11, 13)), generations=200)
    assert expected_time(config) == ("about 0.2 s a generation (47 s at most) for a table genome of 21,318 "
                                      "multisets of piles, on 2 cores")
    nine = Config(genome="table", rules=Rules((1, 3, 5, 7, 9, 11, 13, 15, 17)), generations=200)
    assert expected_time(nine) == ("about 10 s a generation (32 min at most) for a table genome of 690,690 "
                                   "multisets of piles, on 2 cores")
    assert expected_time(Config(genome="rules", rules=Rules((1, 3, 5, 7, 9, 11, 13)))) is None
    assert main(["--piles", "3", "5", "7", "9", "11", "13", "--generations", "1", "--population", "4", "--offspring",
                 "4", "--opponents", "random", "--out", str(tmp_path / "big"), "--genomes-dir", str(tmp_path)]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("    ")]
    assert lines[0].startswith("evolving a table genome on 3-5-7-9-11-13")
    assert lines[2] == ("  expect about 0.1 s a generation (0.1 s at most) for a table genome of 13,566 multisets of piles, "
                        "on 2 cores")


@pytest.mark.parametrize("where", ["../../escaped/created.json", "ABSOLUTE", "../notes.json"])
def test_a_checkpoint_never_chooses_where_a_resume_writes(tmp_path, monkeypatch, capsys, where):
    """A run directory received from someone else names an export outside the genomes folder
    (relative, absolute, or a user's existing file): --resume, even with --force, refuses in one
    line and writes nothing there; --genomes-dir puts the champion where the person says, under
    the run's own file name."""
    from nim_evo.archives import read_arrays_document, write_arrays_document

    monkeypatch.chdir(tmp_path)
    notes = tmp_path / "runs" / "notes.json"
    assert main([*SMALL, "--generations", "1", "--out", "runs/victim", "--quiet"]) == 0
    notes.write_text('{"mine": true}')
    target = str(tmp_path / "elsewhere" / "created.json") if where == "ABSOLUTE" else where
    checkpoint = tmp_path / "runs" / "victim" / "checkpoint.npz"
    write_arrays_document(checkpoint, {**read_arrays_document(checkpoint), "export": target,
                                       "export_from": "run directory"})
    for force in ([], ["--force"]):
        assert main(["--resume", "runs/victim", "--generations", "2", "--quiet", *force]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "a checkpoint does not choose where nim_evo writes" in err
        assert "--genomes-dir" in err
    assert not (tmp_path / "escaped").exists() and not (tmp_path / "elsewhere").exists()
    assert notes.read_text() == '{"mine": true}'
    assert main(["--resume", "runs/victim", "--generations", "2", "--quiet", "--genomes-dir", "mine"]) == 0
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["victim-table.json"]  # not a name it chose


def test_a_checkpoint_s_export_name_is_a_plain_file_name(tmp_path, monkeypatch, capsys):
    from nim_evo.archives import read_arrays_document, write_arrays_document

    monkeypatch.chdir(tmp_path)
    assert main([*SMALL, "--generations", "1", "--out", "runs/r", "--quiet"]) == 0
    checkpoint = tmp_path / "runs" / "r" / "checkpoint.npz"
    for bad in ["../../genomes/..", "../../genomes/x.sh", "../../genomes/\x1b[2J.json"]:
        write_arrays_document(checkpoint, {**read_arrays_document(checkpoint), "export": bad,
                                           "export_from": "run directory"})
        assert main(["--resume", "runs/r", "--generations", "2", "--quiet", "--genomes-dir", "g"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "\x1b" not in err
    assert not (tmp_path / "g").exists()


def test_a_resume_keeps_files_the_user_made_private_private(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main([*SMALL, "--generations", "1", "--out", "runs/r", "--quiet"]) == 0
    private = [*Path("runs/r").iterdir(), Path("genomes/r-table.json")]
    for path in private:
        path.chmod(0o600)
    assert main(["--resume", "runs/r", "--generations", "2", "--quiet"]) == 0
    assert {str(p): p.stat().st_mode & 0o777 for p in private} == {str(p): 0o600 for p in private}


def test_a_full_disk_names_the_file_and_says_how_to_resume(tmp_path, monkeypatch, capsys):
    """The disk fills while generation 2 is checkpointed: one line naming the file, saying the
    run is saved at generation 1 and how to continue; the resumed run ends as an uninterrupted one."""
    import errno

    import nim_evo.archives as archives  # where a checkpoint is written

    out, straight = tmp_path / "r", tmp_path / "straight"
    genomes = ["--genomes-dir", str(tmp_path / "g")]
    real, writes = archives.atomic_write, []

    def filling(path, write, replace=True):
        writes.append(path)
        if Path(path).name == "checkpoint.npz" and sum(Path(p).name == "checkpoint.npz" for p in writes) == 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, write, replace)

    monkeypatch.setattr(archives, "atomic_write", filling)
    assert main([*SMALL, "--generations", "4", "--out", str(out), "--quiet", *genomes]) == 2
    assert capsys.readouterr().err == (f"nim_evo: error: No space left on device ({out / 'checkpoint.npz'}); the run is "
                                       f"saved at its last generation: continue with --resume {out} --genomes-dir "
                                       f"{tmp_path / 'g'}\n")
    monkeypatch.setattr(archives, "atomic_write", real)
    assert main(["--resume", str(out), "--quiet", *genomes]) == 0
    assert main([*SMALL, "--generations", "4", "--out", str(straight), "--quiet", *genomes]) == 0
    assert logbook(out) == logbook(straight)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="an address-space limit")
def test_a_checkpoint_too_big_for_the_memory_left_is_one_line(tmp_path, monkeypatch, capsys):
    """A checkpoint whose document holds 150 million numbers took 2.8 GB and 107 s to refuse,
    and under a 2 GB limit ended in a MemoryError traceback: its values are counted before they
    are parsed now; and what is within the count but beyond the memory a process is allowed
    (7.9 million numbers under 400 MiB) is one line too."""
    import resource

    out = tmp_path / "r"
    assert main([*SMALL, "--generations", "2", "--out", str(out), "--quiet", "--genomes-dir", str(tmp_path / "g")]) == 0
    document = read_arrays_document(out / "checkpoint.npz")
    document["state"]["population"][0]["genes"] = [0.5] * 7_900_000
    write_arrays_document(out / "checkpoint.npz", document)
    argv = [sys.executable, "-m", "nim_evo.run", "--resume", str(out), "--generations", "3", "--quiet"]
    limit = 400 * 2**20
    limited = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path,
                             preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    assert limited.returncode == 2 and limited.stderr.count("\n") == 1
    assert limited.stderr.startswith(f"nim_evo: error: not enough memory to read {out / 'checkpoint.npz'} (39,")
    assert limited.stderr.endswith(" bytes)\n")  # the file's size, as read (it said characters)
    import nim_evo.io

    monkeypatch.setattr(nim_evo.io, "MAX_JSON_VALUES", 1_000_000)
    assert main(argv[3:]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nim_evo: error: {out / 'checkpoint.npz'}'s document holds some 7,900,")
    assert err.endswith(" JSON values; nim_evo's files hold at most 1,000,000\n") and err.count("\n") == 1


def test_running_out_of_memory_mid_run_is_one_line_saying_the_run_is_saved(tmp_path, monkeypatch, capsys):
    """numpy's MemoryError (a process limit) while generation 3 is made: one line with numpy's
    words, and how to continue from the checkpoint of generation 2."""
    import nim_evo.evolution.loop as loop

    out, genomes = tmp_path / "r", ["--genomes-dir", str(tmp_path / "g")]
    real, steps = loop.step, []

    def failing(*args, **kwargs):
        steps.append(1)
        if len(steps) == 3:
            raise MemoryError("Unable to allocate 454. MiB for an array with shape (29728243, 2) and data type int64")
        return real(*args, **kwargs)

    monkeypatch.setattr(loop, "step", failing)
    assert main([*SMALL, "--generations", "4", "--out", str(out), "--quiet", *genomes]) == 2
    assert capsys.readouterr().err == (
        "nim_evo: error: not enough memory (Unable to allocate 454. MiB for an array with shape (29728243, 2) and "
        "data type int64): this machine, or this process's limit, has too little for it; the run is saved at its "
        f"last generation: continue with --resume {out} --genomes-dir {tmp_path / 'g'}\n")


def test_a_long_board_s_run_id_is_shortened_around_a_digest(tmp_path, monkeypatch, capsys):
    from nim_evo.engine.rules import Rules

    monkeypatch.chdir(tmp_path)
    board = "-".join(["2"] * 40)
    assert main(["--game", board, "--genome", "rules", "--population", "4", "--offspring", "4", "--generations", "1",
                 "--opponents", "random", "--quiet"]) == 0
    stem = Rules.parse(board).file_stem
    assert [p.name for p in (tmp_path / "runs").iterdir()] == [f"{stem}-seed0-rules"]
    assert capsys.readouterr().out == f"genomes/{stem}-seed0-rules.json\n" and len(stem) <= 64


def test_a_checkpoint_never_chooses_which_file_of_the_genomes_folder_a_forced_resume_replaces(
        tmp_path, monkeypatch, capsys):
    from nim_evo.archives import read_arrays_document, write_arrays_document

    monkeypatch.chdir(tmp_path)
    assert main([*SMALL, "--generations", "1", "--out", "runs/r", "--quiet"]) == 0
    precious = tmp_path / "genomes" / "precious.json"
    precious.write_text('{"mine": true}')
    checkpoint = tmp_path / "runs" / "r" / "checkpoint.npz"
    write_arrays_document(checkpoint, {**read_arrays_document(checkpoint), "export": "genomes/precious.json",
                                       "export_from": None})
    assert main(["--resume", "runs/r", "--generations", "2", "--quiet", "--force"]) == 0
    assert precious.read_text() == '{"mine": true}'
    assert capsys.readouterr().out.splitlines()[-1] == "genomes/r-table.json"
