"""The Python API: the first tutorial's Python session runs as written, gives what the command
line gives, and a run directory written by ``evolve`` resumes like the command's."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure

import nim_evo
from nim_evo.commands.run import main as run_command

TUTORIAL = Path(__file__).parent.parent / "docs" / "tutorials" / "first-champion.md"


def notebook_session() -> str:
    """The python block of the tutorial's "The same from Python" section."""
    section = TUTORIAL.read_text(encoding="utf-8").split("## 4. The same from Python", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """The tutorial's session run as written, in a fresh directory."""
    where = tmp_path_factory.mktemp("notebook")
    names = {}
    cwd = Path.cwd()
    try:
        import os

        os.chdir(where)
        exec(compile(notebook_session(), str(TUTORIAL), "exec"), names)
    finally:
        os.chdir(cwd)
    return names, where


def test_the_tutorial_session_runs_and_says_true(session):
    names, where = session
    run = names["run"]
    assert run.accuracy == 1.0  # as its comment says
    assert isinstance(names["figure"], Figure) and len(names["figure"].axes) >= 2
    assert run.champion.move((7, 5, 3), np.random.default_rng(0)) in nim_evo.solve(run.config.rules).winning_moves(
        (7, 5, 3))
    assert len(run.logbook) == 31 and run.logbook.select("gen") == list(range(31))
    exported = where / "champion.json"
    agent = nim_evo.load_strategy(exported)
    assert all(agent.distribution(p) == run.champion.distribution(p) for p in [(7, 5, 3), (1, 2, 3), (0, 5, 2)])
    assert names["champion"].distribution((7, 5, 3)) == run.champion.distribution((7, 5, 3))


def test_evolve_gives_the_command_line_s_champion(session, tmp_path):
    run = session[0]["run"]
    assert run_command(["--game", "7-5-3", "--generations", "30", "--seed", "1", "--out", str(tmp_path / "r"),
                        "--genomes-dir", str(tmp_path), "--quiet"]) == 0
    command = json.loads((tmp_path / "r-table.json").read_text())
    assert command["genome"] == run.document()["genome"]
    assert command["fitness"] == list(run.genes.fitness.values)


def test_a_run_written_by_evolve_resumes_as_if_never_stopped(tmp_path):
    rules = nim_evo.Rules((2, 3, 4))
    whole = nim_evo.evolve("rules", rules, generations=6, seed=4, population=6, offspring=6, progress=False)
    part = nim_evo.evolve("rules", rules, generations=3, seed=4, population=6, offspring=6, progress=False,
                          out=tmp_path / "run")
    assert part.state.generation == 3 and (tmp_path / "run" / "checkpoint.npz").exists()
    resumed = nim_evo.resume(tmp_path / "run", generations=6, progress=False, genomes_dir=tmp_path / "genomes")
    assert dict(resumed.genes) == dict(whole.genes)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in whole.logbook]
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in resumed.logbook] == strip
    assert resumed.exported == tmp_path / "genomes" / "run-rules.json" and resumed.exported.exists()


def test_evolve_in_memory_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    nim_evo.evolve("thresholds", nim_evo.Rules((3, 4)), generations=1, population=4, offspring=4, progress=False)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("call, message", [
    (lambda: nim_evo.evolve("table", nim_evo.Rules((3, 4)), generations=0), "generations must be an integer between 1 and 1,000,000"),
    (lambda: nim_evo.evolve("tabel", nim_evo.Rules((3, 4))), "genome must be one of table, rules, thresholds"),
    (lambda: nim_evo.evolve("table", nim_evo.Rules((3, 4)), jobs=0), "jobs must be an integer >= 1, got 0"),
    (lambda: nim_evo.evolve("table", nim_evo.Rules((3, 4)), popsize=3), "evolve() has no setting 'popsize'; its settings are credit, cxpb"),
    (lambda: nim_evo.train("sarsa", nim_evo.Rules((3, 4))), "learner must be one of"),
    (lambda: nim_evo.train("qlearning", nim_evo.Rules((3, 4)), seed=-1), "seed must be an integer >= 0"),
])
def test_mistakes_are_one_line_user_errors(call, message):
    with pytest.raises(nim_evo.UserError) as caught:
        call()
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_run_stopped_before_its_first_checkpoint_leaves_no_empty_folders(tmp_path, monkeypatch):
    from nim_evo.evolution import loop

    def refused(*args, **kwargs):
        raise nim_evo.UserError("refused")

    (tmp_path / "kept").mkdir()  # a folder that was there before stays
    monkeypatch.setattr(loop, "start", refused)
    with pytest.raises(nim_evo.UserError, match="refused"):
        nim_evo.evolve("rules", nim_evo.Rules((3, 4)), generations=1, progress=False,
                       out=tmp_path / "kept" / "runs" / "r", export=tmp_path / "g" / "r.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept"] and not any((tmp_path / "kept").iterdir())


def test_the_export_folder_may_be_inside_the_run_directory(tmp_path):
    run = nim_evo.evolve("rules", nim_evo.Rules((3, 4)), generations=1, population=4, offspring=4, progress=False,
                         out=tmp_path / "r", export=tmp_path / "r" / "genomes" / "champion.json")
    assert run.exported == tmp_path / "r" / "genomes" / "champion.json" and run.exported.exists()


def test_the_library_names_its_keyword_arguments_and_the_command_its_flags(tmp_path, capsys):
    """The same mistake in Python and on the command line: evolve() says force=True, the
    command --force (KeywordError carries both)."""
    from nim_evo.commands.run import main

    (tmp_path / "mine.json").write_text("precious")
    with pytest.raises(nim_evo.UserError) as caught:
        nim_evo.evolve("table", nim_evo.Rules((3, 4)), generations=1, out=tmp_path / "r", export=tmp_path / "mine.json",
                       progress=False)
    assert str(caught.value) == f"{tmp_path / 'mine.json'} exists; pass force=True to overwrite it, or another export"
    assert "--" not in str(caught.value)
    with pytest.raises(nim_evo.UserError, match=r'use fitness="sampled" from the start position$'):
        nim_evo.evolve("rules", nim_evo.Rules((30,) * 10), generations=1, progress=False)
    assert main(["--genome", "rules", "--piles", *["30"] * 10, "--quiet", "--out", str(tmp_path / "big")]) == 2
    assert capsys.readouterr().err.rstrip().endswith("use --fitness sampled from the start position")
    assert (tmp_path / "mine.json").read_text() == "precious"


def test_a_run_prints_in_one_short_line_and_shows_a_table_and_its_picture_in_a_notebook(tmp_path):
    """repr(run) was the whole population (26,000 characters and more); now one line."""
    import base64
    import io
    import re

    from PIL import Image

    run = nim_evo.evolve("table", nim_evo.Rules((3, 4, 5)), generations=3, seed=1, progress=False,
                         out=tmp_path / "r")
    text = repr(run)
    assert len(text) <= 500 and "\n" not in text
    assert re.fullmatch(r"<Run: table genome on 3-4-5, generation 3 of 3, fitness 0\.\d{4}, accuracy [01]\.\d{4}, "
                        r"in .*r>", text), text
    html = run._repr_html_()
    assert "<th style='text-align:left'>board</th><td>3-4-5</td>" in html
    picture = re.search(r"base64,([A-Za-z0-9+/=]+)'", html)[1]
    with Image.open(io.BytesIO(base64.b64decode(picture))) as image:
        assert image.size[0] > 300
