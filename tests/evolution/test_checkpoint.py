"""A checkpoint's state is checked field by field before use: each corruption below is one
line naming the checkpoint and the field, and leaves the run's files as they were."""

import copy

import numpy as np
import pytest

from nim_evo.evaluation import heldout
from nim_evo.evolution.rundir import RunDir
from nim_evo.archives import read_arrays_document, write_arrays_document
from nim_evo.commands.run import main
from nim_evo.validation import UserError


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A finished two-generation run of each genome kind on 2-3-4."""
    made = {}
    for genome in ("table", "rules", "thresholds", "program"):
        out = tmp_path_factory.mktemp(genome) / "r"
        assert main(["--game", "2-3-4", "--genome", genome, "--population", "6", "--offspring", "8",
                     "--generations", "2", "--quiet", "--out", str(out),
                     "--genomes-dir", str(out.parent / "genomes")]) == 0
        made[genome] = out
    out = tmp_path_factory.mktemp("kayles") / "r"  # (a heap game's: its stage 1 has decisions)
    with pytest.MonkeyPatch.context() as patch:  # its champion judged on heaps up to 1,000, not a million (40 s)
        patch.setattr(heldout, "GAME_MAX_HEAP", 1000)
        assert main(["--game", "10-kayles", "--genome", "program", "--population", "6", "--offspring", "8",
                     "--generations", "2", "--quiet", "--out", str(out), "--genomes-dir", str(out.parent / "genomes")]) == 0
    made["kayles"] = out
    return made


CASES = [
    ("table", lambda s: s["population"][0]["genes"].__setitem__(0, 3), "population[0].genes[0], of (0, 0, 0) where the game is over, must be 0"),
    ("table", lambda s: s["population"][0]["genes"].__setitem__(1, 40), "population[0].genes[1] (40) is not a legal move in position"),
    ("table", lambda s: s["population"][0]["genes"].__setitem__(2, -1), "population[0].genes[2] (-1) is not a legal move in position"),
    ("table", lambda s: s["population"][1].__setitem__("genes", np.zeros(5, np.int16)), "population[1].genes must be an array of shape (28,)"),
    ("table", lambda s: s["population"][1].__setitem__("genes", np.full(28, 0.5)), "population[1].genes must hold int16 values"),
    ("table", lambda s: s["halloffame"][0].__setitem__("credit", [np.zeros(28), np.zeros(27)]), "halloffame[0].credit[1] must be an array of shape (28,)"),
    ("table", lambda s: s["halloffame"][0].__setitem__("credit", [np.zeros(28), np.full(28, np.inf)]), "halloffame[0].credit[1] holds a number that is not finite"),
    ("rules", lambda s: s["population"][0]["genes"]["two_piles"].__setitem__(2, 10), "population[0].genes: the rule for two_piles is out of range: ["),
    ("rules", lambda s: s["population"][0].__setitem__("credit", [[0.0], [0.0]]), "population[0].credit must be null: a rules genome has no credit"),
    ("thresholds", lambda s: s["population"][0]["genes"].__setitem__(0, 1.5), "population[0].genes: thresholds must lie in [0, 1]"),
    ("thresholds", lambda s: s["population"][0].__setitem__("fitness", [0.5]), "population[0].fitness must be a list of 2"),
    ("table", lambda s: s["population"].pop(), "population must be a list of 6 individuals"),
    ("table", lambda s: s.__setitem__("halloffame", []), "halloffame must be a list of 1 to 5 individuals"),
    ("table", lambda s: s["population"][0].__setitem__("rates", {"random": [0.5, 0.5]}), "population[0].rates must give a pair of win rates for each opponent"),
    ("table", lambda s: s["population"][0]["rates"].__setitem__("random", [0.5, 2.0]), "population[0].rates must lie in [0, 1]"),
    ("table", lambda s: s["logbook"][1].__setitem__("gen", 7), "logbook[1] is the record of generation 7"),
    ("table", lambda s: s["logbook"][1].__setitem__("max", "high"), "logbook[1] holds a value that is not a finite number"),
    ("table", lambda s: s["logbook"][2].__setitem__("extra", 1.0), "logbook[2] has a column a run does not record: 'extra'"),
    ("table", lambda s: s["logbook"][0].__setitem__("extra", 1.0), "logbook[0] has a column a run does not record: 'extra'"),
    ("table", lambda s: s["logbook"][1].pop("seconds"), "logbook[1] has other columns than logbook[0]"),
    ("table", lambda s: s["logbook"].pop(), "logbook must hold a record for each generation 0 to 2"),
    ("table", lambda s: s.__setitem__("generation", -1), "generation must be a whole number from 0 to 2"),
    ("table", lambda s: s.__setitem__("seconds", float("nan")), "seconds must be a finite number, 0 or more"),
    ("table", lambda s: s.__setitem__("games", True), "games must be a whole number from 0 to"),
    ("program", lambda s: s["population"][0].__setitem__("cases", np.zeros(3)), "population[0].cases must be an array of 1 to"),
    ("program", lambda s: s["population"][0].__setitem__("cases", np.full(4, 2.0, np.float32)), "population[0].cases must hold win probabilities"),
    ("program", lambda s: [s["population"][k].__setitem__("cases", np.zeros(k + 4, np.float32)) for k in (0, 1)], "population: every individual's cases must be as many"),
    ("table", lambda s: s["population"][0].__setitem__("cases", np.zeros(3, np.float32)), "population[0].cases must be left out"),
    ("kayles", lambda s: s.__setitem__("decided", [1]), "decided must be an object"),
    ("table", lambda s: s.__setitem__("decided", {"0": np.zeros((1, 9), np.int64)}), "decided: '0' is not a stage of the run with decisions (it has none)"),
    ("kayles", lambda s: s.__setitem__("decided", {"0": np.zeros((1, 9), np.int64)}), "decided: '0' is not a stage of the run with decisions (1)"),
    ("kayles", lambda s: s.__setitem__("decided", {"1": np.ones((1, 4), np.int64)}), "decided.1 must be an int64 array of 1 to 512 rows of 9 heaps"),
    ("kayles", lambda s: s.__setitem__("decided", {"1": np.full((2, 9), 121, np.int64)}), "decided.1 must hold heaps of 0 to 120"),
    ("kayles", lambda s: s.__setitem__("decided", {"1": np.ones((2, 9), np.int64)}), "decided.1 must leave an empty slot in each row"),
]


@pytest.mark.parametrize("genome, corrupt, message", CASES, ids=[c[2][:48] for c in CASES])
def test_a_corrupt_checkpoint_is_one_line_naming_the_field(tmp_path, runs, genome, corrupt, message):
    import shutil

    out = tmp_path / "r"
    shutil.copytree(runs[genome], out)
    document = read_arrays_document(out / "checkpoint.npz")
    state = copy.deepcopy(document["state"])
    corrupt(state)
    write_arrays_document(out / "checkpoint.npz", {**document, "state": state})
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(UserError) as error:
        RunDir(out).load()
    assert str(error.value).startswith(f"{out / 'checkpoint.npz'}: {message}"), str(error.value)
    assert "\n" not in str(error.value)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_an_intact_checkpoint_loads_as_it_was_saved(runs):
    from nim_evo.evolution.checkpoint import freeze

    for genome, out in runs.items():
        config, state, _ = RunDir(out).load()
        saved = read_arrays_document(out / "checkpoint.npz")["state"]
        again = freeze(state, config)
        assert again["generation"] == saved["generation"] == 2
        assert [dict(r) for r in again["logbook"]] == saved["logbook"]
        for a, b in zip(again["population"] + again["halloffame"], saved["population"] + saved["halloffame"]):
            assert list(a["fitness"]) == list(b["fitness"])
            assert "cases" not in a and "cases" not in b and a["credit"] is b["credit"] is None  # (evaluated again)
            if isinstance(a["genes"], (dict, list)):
                assert a["genes"] == b["genes"]
            else:
                assert np.array_equal(a["genes"], b["genes"]) and a["genes"].dtype == b["genes"].dtype


def test_the_positions_a_stages_decisions_gained_load_as_they_were_saved(tmp_path, runs):
    import shutil

    from nim_evo.evolution.checkpoint import freeze

    out = tmp_path / "r"
    shutil.copytree(runs["kayles"], out)
    document = read_arrays_document(out / "checkpoint.npz")
    assert "decided" not in document["state"]  # (a run whose decisions never grew writes none)
    gained = np.array([[50, 3] + [0] * 7, [50, 10, 8, 2] + [0] * 5], dtype=np.int64)
    write_arrays_document(out / "checkpoint.npz", {**document, "state": {**document["state"], "decided": {"1": gained}}})
    config, state, _ = RunDir(out).load()
    assert list(state.decided) == [1] and np.array_equal(state.decided[1], gained)
    assert np.array_equal(freeze(state, config)["decided"]["1"], gained)


def test_a_run_begun_before_selection_and_restarts_resumes_as_it_ran(tmp_path):
    """config.json and the checkpoint of an older nim_evo lack ``selection`` and ``restart``:
    the run resumes with tournament selection and no restarts, and its export is its own."""
    import json

    out = tmp_path / "old"
    genomes = tmp_path / "genomes"
    assert main(["--game", "2-3-4", "--population", "6", "--offspring", "8", "--generations", "2", "--quiet",
                 "--out", str(out), "--genomes-dir", str(genomes)]) == 0
    config = json.loads((out / "config.json").read_text())
    for name in ("selection", "restart", "format", "version"):  # (its config.json had no envelope either)
        del config[name]
    (out / "config.json").write_text(json.dumps(config))
    document = read_arrays_document(out / "checkpoint.npz")
    document["config"] = config
    write_arrays_document(out / "checkpoint.npz", document)
    export = genomes / "old-table.json"
    exported = json.loads(export.read_text())
    for name in ("selection", "restart"):
        del exported["run_config"][name]
    export.write_text(json.dumps(exported))
    assert main(["--resume", str(out), "--generations", "3", "--quiet", "--genomes-dir", str(genomes)]) == 0
    resumed = json.loads((out / "config.json").read_text())
    assert resumed["selection"] == "tournament" and resumed["restart"] == 0 and resumed["generations"] == 3


def test_a_version_1_checkpoint_with_credit_and_cases_resumes_with_them(runs, tmp_path):
    """Checkpoints before version 2 kept each individual's credit (tables) and cases (lexicase):
    such a file reads with them; a version after this nim_evo's is one line."""
    import shutil

    for genome, field in (("table", "credit"), ("program", "cases")):
        out = tmp_path / genome
        shutil.copytree(runs[genome], out)
        config, state, _ = RunDir(out).load()
        path = out / "checkpoint.npz"
        data = read_arrays_document(path)
        assert data["version"] == 2 and all(item["credit"] is None and "cases" not in item
                                            for item in data["state"]["population"])
        older = np.linspace(0, 1, 4 if field == "cases" else len(state.population[0]), dtype=np.float32)
        for item in data["state"]["population"]:
            item[field] = older if field == "cases" else [older.astype(float), older.astype(float)]
        write_arrays_document(path, {**data, "version": 1})
        _, back, _ = RunDir(out).load()
        for ind in back.population:
            kept = ind.cases if field == "cases" else ind.credit[1]
            assert np.array_equal(kept, older)
        write_arrays_document(path, {**data, "version": 3})
        with pytest.raises(UserError, match=r"checkpoint version 3 \(written by a newer nim_evo\); this nim_evo reads "
                                            r"versions 1 to 2$"):
            RunDir(out).load()
