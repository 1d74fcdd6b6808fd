"""Every file nim_evo reads back, fuzzed (Hypothesis): shipped genomes and learners, a run's
config, checkpoint (its JSON and its arrays) and logbook, with random values put anywhere in
them, either load or raise the one user error type (a one-line ``UserError``); never another
exception. Derandomized, so CI sees the same examples every time. (A run's hall of fame is
written for people and other tools: nim_evo never reads it back.)"""

import copy
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from nim_evo.evaluation.strategy import load_strategy
from nim_evo.evolution.config import Config
from nim_evo.evolution.rundir import RunDir, config_from_document
from nim_evo.archives import read_arrays_document, write_arrays_document
from nim_evo.validation import UserError

SHIPPED = sorted((Path(__file__).parents[2] / "genomes").glob("*.json"))
SMALL = [p for p in SHIPPED if p.stat().st_size < 20_000]  # fast to load many times
FUZZ = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12)


def paths_of(document, prefix=()):
    """Every place in a JSON document: a key path."""
    yield prefix
    if isinstance(document, dict):
        for key, value in document.items():
            yield from paths_of(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document[:6]):
            yield from paths_of(value, (*prefix, index))


def replaced(document, path, value):
    document = copy.deepcopy(document)
    if not path:
        return value
    holder = document
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return document


@pytest.mark.parametrize("source", SMALL, ids=[p.stem for p in SMALL])
@FUZZ
@given(data=st.data())
def test_a_mutated_strategy_file_loads_or_is_one_user_error(tmp_path, source, data):
    document = json.loads(source.read_text())
    places = list(paths_of(document))
    path = data.draw(st.sampled_from(places))
    mutated = replaced(document, path, data.draw(json_values))
    target = tmp_path / "mutated.json"
    target.write_text(json.dumps(mutated))
    try:
        agent = load_strategy(target)
    except UserError as error:
        assert "\n" not in str(error) and str(target) in str(error), error  # one line, naming the file
        return
    piles = agent.rules.start
    if sum(piles):
        agent.move(piles, __import__("numpy").random.default_rng(0))  # what loads, plays


@FUZZ
@given(data=st.data())
def test_a_mutated_run_config_loads_or_is_one_user_error(data):
    from nim_evo import Rules

    document = Config(genome="table", rules=Rules((1, 3, 5))).to_json()
    path = data.draw(st.sampled_from(list(paths_of(document))))
    try:
        config_from_document(replaced(document, path, data.draw(json_values)), "config.json")
    except UserError as error:
        assert "\n" not in str(error)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A finished two-generation run's directory (its files are copied, never changed)."""
    from nim_evo.commands.run import main

    out = tmp_path_factory.mktemp("run") / "r"
    assert main(["--game", "2-3-4", "--population", "6", "--offspring", "8", "--generations", "2", "--quiet",
                 "--out", str(out), "--genomes-dir", str(out.parent / "genomes")]) == 0
    return out


def copy_of(run_dir: Path, where: Path) -> RunDir:
    target = where / "copy"
    shutil.copytree(run_dir, target, dirs_exist_ok=True)
    return RunDir(target)


numbers = st.sampled_from([np.int8, np.int64, np.uint8, np.float32, np.float64, np.bool_])
arrays = numbers.flatmap(lambda dtype: hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, max_side=5)))


@FUZZ
@given(data=st.data())
def test_a_mutated_checkpoint_resumes_or_is_one_user_error(tmp_path, small_run, data):
    """Any place of the checkpoint's JSON given a random value, or any of its arrays replaced
    by a random array: the run loads (and takes a generation) or it is one line."""
    from nim_evo.orchestration import make_toolbox
    from nim_evo.evolution import loop

    run_dir = copy_of(small_run, tmp_path)
    document = read_arrays_document(run_dir.checkpoint_path)
    places = list(paths_of(document))
    path = data.draw(st.sampled_from(places))
    at = document
    for key in path:
        at = at[key]
    value = data.draw(arrays) if isinstance(at, np.ndarray) or data.draw(st.booleans()) else data.draw(json_values)
    write_arrays_document(run_dir.checkpoint_path, replaced(document, path, value))
    try:
        config, state, _ = run_dir.load()
        loop.step(state, config, make_toolbox(config, 1, quiet=True))
    except UserError as error:
        assert "\n" not in str(error)


@FUZZ
@given(data=st.data())
def test_a_mutated_logbook_plots_or_is_one_user_error(tmp_path, small_run, data):
    """A cell of the logbook replaced by random text, a row cut short, or the file cut
    anywhere: its history loads (and draws) or it is one line."""
    from nim_evo.plots.history import draw_history, load_history

    run_dir = copy_of(small_run, tmp_path)
    text = run_dir.logbook_path.read_text()
    rows = text.splitlines()
    how = data.draw(st.sampled_from(["cell", "short row", "cut"]))
    if how == "cut":
        text = text[:data.draw(st.integers(0, len(text)))]
    else:
        k = data.draw(st.integers(0, len(rows) - 1))
        cells = rows[k].split(",")
        if how == "cell":
            cells[data.draw(st.integers(0, len(cells) - 1))] = data.draw(
                st.sampled_from(["", "nan", "inf", "-1e400", "x", '"', "1" * 400]) | st.text(max_size=6))
        else:
            cells = cells[:data.draw(st.integers(0, len(cells) - 1))]
        rows[k] = ",".join(cells)
        text = "\n".join(rows) + "\n"
    run_dir.logbook_path.write_text(text)
    try:
        import matplotlib.pyplot as plt

        plt.close(draw_history([load_history(run_dir.path)]))
    except UserError as error:
        assert "\n" not in str(error)


# -- files made here: a program genome, each learner's file, a learner cache entry -----------------

MADE = ["program", "qlearning", "td", "montecarlo", "wincount", "subgame", "quality"]


@pytest.fixture(scope="module")
def made_files(tmp_path_factory):
    """A program champion (a one-generation run) and a file of each learner, on small boards."""
    from nim_evo.commands.learn import main as learn
    from nim_evo.commands.run import main as run

    root = tmp_path_factory.mktemp("made")
    assert run(["--genome", "program", "--game", "2-3", "--train-boards", "2-3", "--population", "10", "--offspring",
                "10", "--generations", "1", "--out", str(root / "program-run"), "--genomes-dir", str(root),
                "--quiet"]) == 0
    files = {"program": root / "program-run-program.json"}
    for name in MADE[1:]:
        files[name] = root / f"{name}.json"
        assert learn(["--learner", name, "--game", "2-3", "--games", "50", "--out", str(files[name]), "--quiet"]) == 0
    return files


# strings a program's step or score may become: near-expressions, and nesting deep enough to
# overflow a recursive parser
expressions = st.text(alphabet="akpm012TFrue(),. notandsubmaxlqib", max_size=40) | st.sampled_from(
    ["not(" * 3000 + "a" + ")" * 3000, "add(a, p" * 200, "a" * 100_000, "lt(m, 99999999999999999999)", "sub(p)"])


@pytest.mark.parametrize("name", MADE)
@FUZZ
@given(data=st.data())
def test_a_mutated_program_or_learner_file_loads_or_is_one_user_error(tmp_path, made_files, name, data):
    """A program genome or a learner file of each kind with a random value anywhere (and a
    program's expressions replaced by near-expressions): it loads and plays, or it is one line."""
    document = json.loads(made_files[name].read_text())
    path = data.draw(st.sampled_from(list(paths_of(document))))
    value = data.draw(expressions if name == "program" and path[-1:] in (("step",), ("score",)) else json_values)
    target = tmp_path / "mutated.json"
    target.write_text(json.dumps(replaced(document, path, value)))
    try:
        agent = load_strategy(target)
    except UserError as error:
        assert "\n" not in str(error) and str(target) in str(error), error  # one line, naming the file
        return
    agent.move(agent.rules.start, np.random.default_rng(0))  # what loads, plays


@FUZZ
@given(data=st.data())
def test_a_mutated_learner_cache_entry_is_used_or_trained_again(learner_cache, monkeypatch, data):
    """Whatever a cache entry becomes, asking for the learner it holds gives that learner,
    trained as asked (the entry, if it no longer records that training, trained again)."""
    import nim_evo.evaluation.opponents as opponents
    from nim_evo import Rules

    rules = Rules((2, 3))
    path = opponents.cached_path("td", rules, seed=1, episodes=60)
    path.unlink(missing_ok=True)  # the last example's entry may be a mutant the learner was read from
    monkeypatch.setattr(opponents, "_TRAINED", {})
    honest = opponents.trained("td", rules, seed=1, episodes=60)
    document = json.loads(path.read_text())
    where = data.draw(st.sampled_from(list(paths_of(document))))
    path.write_text(json.dumps(replaced(document, where, data.draw(json_values))))
    monkeypatch.setattr(opponents, "_TRAINED", {})  # a new process: only the file is left
    learner = opponents.trained("td", rules, seed=1, episodes=60)
    assert learner.name == "td" and learner.games_played == 60
    if where[:1] != ("state",):  # a changed state that keeps the record is the file's to answer for
        np.testing.assert_array_equal(learner.q, honest.q)


# where a received checkpoint may say its champion goes: escapes, absolute paths, odd names
export_paths = st.sampled_from(["../../escaped/created.json", "/tmp/nim-evo-fuzz-escaped.json", "../notes.json",
                                "../../genomes/ok.json", "../../genomes/../x.json", "../../genomes/.json",
                                "../../genomes/\x1b[2J.json", "", ".", "..", "../../genomes/a/b.json", "c.json"]) | \
    st.text(alphabet="./ab\x00~$", max_size=12)


@FUZZ
@given(data=st.data())
def test_a_tampered_checkpoint_never_writes_outside_the_genomes_folder(tmp_path, small_run, monkeypatch, data):
    """A checkpoint's extras (its export path and where it is kept from, its command, its
    opponent files) replaced by anything: --resume, even with --force, refuses in one line or
    exports into the default genomes/ folder, never anywhere else."""
    import tempfile

    from nim_evo.commands.run import main

    tmp_path = Path(tempfile.mkdtemp(dir=tmp_path))  # one folder per example
    monkeypatch.chdir(tmp_path)
    run_dir = RunDir(shutil.copytree(small_run, tmp_path / "runs" / "r"))
    document = read_arrays_document(run_dir.checkpoint_path)
    document["export"] = data.draw(export_paths | json_values)
    document["export_from"] = data.draw(st.sampled_from(["run directory", None, 3]))
    if data.draw(st.booleans()):
        document[data.draw(st.sampled_from(["command", "opponent_files", "given_opponents"]))] = data.draw(json_values)
    write_arrays_document(run_dir.checkpoint_path, document)
    (tmp_path / "genomes").mkdir()
    precious, user = tmp_path / "genomes" / data.draw(st.sampled_from(["ok.json", "precious.json"])), tmp_path / "u.txt"
    precious.write_text("mine")
    user.write_text("user")
    user.chmod(0o4777)
    if data.draw(st.booleans()):  # a link in the run directory to a file of the person's
        name = data.draw(st.sampled_from(["logbook.csv", "hall_of_fame.json", "champion.json", "config.json"]))
        (run_dir.path / name).unlink()
        (run_dir.path / name).symlink_to(user)
    before = {p for p in Path("/tmp").iterdir() if p.name.startswith("nim-evo-fuzz")}
    status = main(["--resume", "runs/r", "--generations", "3", "--quiet", *data.draw(st.sampled_from([[], ["--force"]]))])
    assert status in (0, 2)
    written = {p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file()}
    outside = {p for p in written if p.parts[0] not in ("runs", "genomes") and p.name != "u.txt"}
    assert not outside and {p for p in Path("/tmp").iterdir() if p.name.startswith("nim-evo-fuzz")} == before
    assert all(len(p.parts) == 2 for p in written if p.parts[0] == "genomes")
    assert precious.read_text() == "mine" and user.read_text() == "user"
    assert not any(p.lstat().st_mode & 0o7000 for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink()
                   and p != user)


def test_a_run_config_s_opponents_given_as_a_string_are_refused_not_spelled_out():
    from nim_evo import Rules

    document = {**Config(genome="table", rules=Rules((1, 3, 5))).to_json(), "opponents": "abc"}
    with pytest.raises(UserError, match="opponents must be a list of names, got 'abc'"):
        config_from_document(document, "config.json")
