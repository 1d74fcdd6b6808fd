"""A new genome kind is one file and its registration: the toy kind of ``toy_genome.py``
evolves through ``nim_evo.evolve`` and, registered as an installed package's entry point,
through ``python -m nim_evo.run --genome toy``; its champion is a strategy file that plays."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import nim_evo
from nim_evo import Rules
from nim_evo.genomes import get_kind, kind_names, register
from nim_evo.genomes.protocol import GenomeKind
from nim_evo.validation import UserError

HERE = Path(__file__).parent
BOARD = Rules((7, 5, 3))


@pytest.fixture(scope="module")
def toy():
    from toy_genome import ToyKind

    return register(ToyKind)


def test_registration_makes_the_kind_known(toy):
    assert "toy" in kind_names() and get_kind("toy") is toy
    assert kind_names()[:3] == ("table", "rules", "thresholds")
    with pytest.raises(ValueError, match="is taken by"):
        register(type("Other", (type(toy),), {"name": "toy"}))
    with pytest.raises(UserError, match="^genome kind 'half' does not define create, crossover, from_json, "
                                        "move_probabilities, mutate, to_json "):
        register(type("Half", (GenomeKind,), {"name": "half"}))
    assert "half" not in kind_names()
    with pytest.raises(TypeError, match="GenomeKind"):
        register(object())
    with pytest.raises(UserError, match="unknown genome 'nope'; known genomes: table, rules, thresholds, program, toy"):
        get_kind("nope")


def test_the_toy_kind_evolves_through_the_api_and_its_champion_plays(toy, tmp_path):
    run = nim_evo.evolve(genome="toy", rules=BOARD, generations=4, population=6, offspring=6,
                         opponents=("random",), seed=3, progress=False)
    assert run.state.generation == 4 and len(run.logbook) == 5
    take = int(run.genes[0])
    assert 1 <= take <= 9
    move = run.champion.move((7, 5, 3), np.random.default_rng(0))
    assert move == (0, min(take, 7))  # the longest pile, k objects
    path = run.export(tmp_path / "toy.json")
    document = json.loads(path.read_text())
    assert document["kind"] == "toy" and document["genome"] == {"take": take}
    assert nim_evo.load_strategy(path).move((1, 6, 2), np.random.default_rng(0)) == (1, min(take, 6))
    # the best k against random play from 7-5-3 is what exact fitness finds: check it by brute force
    best = max(range(1, 10), key=lambda k: nim_evo.tournament(BOARD, _taker(k), ["random"], exact=True)[0].win_rate)
    assert nim_evo.tournament(BOARD, run.champion, ["random"], exact=True)[0].win_rate == pytest.approx(
        nim_evo.tournament(BOARD, _taker(best), ["random"], exact=True)[0].win_rate)


def _taker(k):
    """The toy genome that takes ``k`` (the kind registered by the ``toy`` fixture)."""
    return nim_evo.genomes.GenomeAgent("toy", np.array([k]), BOARD)


def test_the_toy_kind_runs_from_the_command_line_as_a_package_s_entry_point(tmp_path):
    """A package that declares ``[project.entry-points."nim_evo.genomes"] toy = ...``:
    its installed metadata (a dist-info directory on the path) and its one module."""
    site = tmp_path / "site"
    info = site / "toy_nim_genome-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-nim-genome\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[nim_evo.genomes]\ntoy = toy_genome:ToyKind\n")
    shutil.copy(HERE / "toy_genome.py", site / "toy_genome.py")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    out, genomes = tmp_path / "run", tmp_path / "genomes"
    done = subprocess.run([sys.executable, "-m", "nim_evo.run", "--genome", "toy", "--game", "7-5-3",
                           "--generations", "3", "--population", "4", "--offspring", "4", "--opponents", "random",
                           "--jobs", "2", "--out", str(out), "--genomes-dir", str(genomes), "--quiet"],
                          capture_output=True, text=True, env=environment, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    exported = Path(done.stdout.strip())
    document = json.loads(exported.read_text())
    assert document["kind"] == "toy" and exported.parent == genomes
    assert (out / "logbook.csv").read_text().splitlines()[-1].startswith("3,")  # generations 0-3
    wrong = subprocess.run([sys.executable, "-m", "nim_evo.run", "--genome", "tyo"], capture_output=True, text=True,
                           env=environment, cwd=tmp_path)
    assert wrong.returncode == 2
    assert wrong.stderr == "nim_evo: error: --genome must be one of table, rules, thresholds, program, toy, got 'tyo'\n"
