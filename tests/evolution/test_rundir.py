"""A run directory's JSON files carry an envelope (format and version) read by one reader
(:func:`nim_evo.io.check_envelope`): new files round-trip with theirs, the envelope-less
``config.json`` and ``hall_of_fame.json`` of an older nim_evo still read, and a file of
another format or of a newer version is one line naming it."""

import json
import shutil

import pytest

import nim_evo
from nim_evo.evolution.rundir import (CONFIG_FORMAT, CONFIG_VERSION, HALL_OF_FAME_FORMAT, HALL_OF_FAME_VERSION,
                                      RunDir, read_config, read_hall_of_fame)
from nim_evo.validation import UserError

ENVELOPE = ("format", "version")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A finished one-generation run on 2-3, written to a run directory."""
    out = tmp_path_factory.mktemp("rundir") / "r"
    return nim_evo.evolve("table", nim_evo.Rules((2, 3)), generations=1, population=4, offspring=4, progress=False,
                          out=out)


@pytest.fixture
def copy(run, tmp_path):
    """A copy of the run's directory, to change."""
    return RunDir(shutil.copytree(run.directory.path, tmp_path / "r"))


def _older(path) -> dict:
    """Rewrite the file at ``path`` as nim_evo wrote it before it had an envelope; its document."""
    data = {key: value for key, value in json.loads(path.read_text()).items() if key not in ENVELOPE}
    path.write_text(json.dumps(data))
    return data


def test_a_new_config_json_round_trips_with_its_envelope(run):
    data = json.loads(run.directory.config_path.read_text())
    assert (data["format"], data["version"]) == (CONFIG_FORMAT, CONFIG_VERSION)
    assert {k: v for k, v in data.items() if k not in ENVELOPE} == run.config.to_json()
    assert read_config(run.directory.config_path) == run.config


def test_a_new_hall_of_fame_round_trips_with_its_envelope(run):
    data = json.loads(run.directory.halloffame_path.read_text())
    assert (data["format"], data["version"]) == (HALL_OF_FAME_FORMAT, HALL_OF_FAME_VERSION)
    players = read_hall_of_fame(run.directory.halloffame_path)
    assert [list(p.genes) for p in players] == [list(ind) for ind in run.hall_of_fame]
    assert players[0].name == f"{run.directory.run_id}#1" and players[0].rules == run.config.rules


def test_an_older_config_json_without_an_envelope_still_reads_and_gains_one_on_resume(copy, run):
    older = _older(copy.config_path)
    assert "format" not in older and read_config(copy.config_path) == run.config
    resumed = nim_evo.resume(copy.path, 2, progress=False, genomes_dir=copy.path.parent / "genomes")
    data = json.loads(copy.config_path.read_text())
    assert data["format"] == CONFIG_FORMAT and data["generations"] == 2 == resumed.state.generation


def test_an_older_hall_of_fame_without_an_envelope_still_reads(copy, run):
    older = _older(copy.halloffame_path)
    assert set(older) == {"run", "individuals"}
    assert [list(p.genes) for p in read_hall_of_fame(copy.halloffame_path)] == [list(i) for i in run.hall_of_fame]


@pytest.mark.parametrize("name, reader, what", [("config.json", read_config, "run config"),
                                                ("hall_of_fame.json", read_hall_of_fame, "hall of fame")])
@pytest.mark.parametrize("change, message", [
    ({"format": "nim_evo/genome"}, "{path} is not a nim_evo {what}$"),
    ({"version": 2}, r"{path} has {what} version 2 \(written by a newer nim_evo\); this nim_evo reads version 1$"),
    ({"version": "1"}, "{path} has {what} version '1'; this nim_evo reads version 1$"),
    ({"version": None}, "{path} has {what} version None; this nim_evo reads version 1$"),
])
def test_a_file_of_another_format_or_a_newer_version_is_one_line(copy, name, reader, what, change, message):
    path = copy.path / name
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    with pytest.raises(UserError, match=message.format(path=path, what=what)):
        reader(path)


def test_a_resume_refuses_a_config_json_of_a_newer_version_in_one_line(copy):
    data = json.loads(copy.config_path.read_text())
    copy.config_path.write_text(json.dumps({**data, "version": CONFIG_VERSION + 1}))
    with pytest.raises(UserError, match="config.json has run config version 2 \\(written by a newer nim_evo\\)"):
        nim_evo.resume(copy.path, 2, progress=False, genomes_dir=copy.path.parent / "genomes")


def test_a_hall_of_fame_without_individuals_is_one_line(copy):
    copy.halloffame_path.write_text(json.dumps({"format": HALL_OF_FAME_FORMAT, "version": 1, "run": "r"}))
    with pytest.raises(UserError, match="holds no hall of fame"):
        read_hall_of_fame(copy.halloffame_path)


def test_a_slow_checkpoint_is_written_at_most_a_tenth_of_the_time_and_after_the_last_generation(tmp_path,
                                                                                                 monkeypatch):
    """Where a checkpoint takes a second or more, generations go by between checkpoints (at
    most a tenth of the run's time in them), and the last generation is always written: the
    run resumed from its directory goes on as the same run."""
    from nim_evo import orchestration

    saved = []
    real = RunDir.save

    def save(self, state, config, extra):
        saved.append(state.generation)
        real(self, state, config, extra)

    monkeypatch.setattr(RunDir, "save", save)
    monkeypatch.chdir(tmp_path)  # (the champions are exported to genomes/ here)
    options = dict(population=4, offspring=4, progress=False)
    nim_evo.evolve("table", nim_evo.Rules((2, 3, 4)), generations=5, out=tmp_path / "fast", **options)
    assert saved == [0, 1, 2, 3, 4, 5]  # (quick: every generation)
    saved.clear()
    monkeypatch.setattr(orchestration, "SLOW_CHECKPOINT", 0.0)  # every checkpoint slow, each worth ten million times its time
    monkeypatch.setattr(orchestration, "CHECKPOINT_SHARE", 1e-7)
    slow = nim_evo.evolve("table", nim_evo.Rules((2, 3, 4)), generations=5, out=tmp_path / "slow", **options)
    assert saved == [0, 1, 5]
    monkeypatch.setattr(orchestration, "SLOW_CHECKPOINT", 1.0)
    once = nim_evo.evolve("table", nim_evo.Rules((2, 3, 4)), generations=8, out=tmp_path / "once", **options)
    again = nim_evo.resume(tmp_path / "slow", generations=8, progress=False)
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in again.logbook] == \
        [{k: v for k, v in r.items() if k != "seconds"} for r in once.logbook]
    assert slow.state.generation == 5
