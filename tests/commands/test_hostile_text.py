"""Everything a file or input says is untrusted, and every command shows it printable.

A strategy file's ``name``, file and folder names, a run's id, opponents' names and piped
input reach stdout and stderr with control characters, escape sequences and bidirectional
overrides escaped (``\\x1b``), never raw. What a file says about itself is checked where it is
read (a wrong field is one line naming the file and the field), and a file standing where a
folder is needed is said in those words, not as ``File exists``.
"""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nim_evo.commands.arena import main as arena
from nim_evo.commands.export import main as export
from nim_evo.commands.learn import main as learn
from nim_evo.commands.play import main as play_main
from nim_evo.commands.plot import main as plot
from nim_evo.commands.run import main as run

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--game", "2-3-4", "--population", "6", "--offspring", "8", "--generations", "2"]
HOSTILE = "\x1b]0;pwned\x07\x1b[2Jevil\u202eright\x9b"  # a title, a clear screen, an override, a C1 CSI
SHOWN = "\\x1b]0;pwned\\x07\\x1b[2Jevil\\u202eright\\x9b"
RAW = ("\x1b", "\x07", "\u202e", "\x9b")


def clean(text: str) -> bool:
    return not any(char in text for char in RAW)


def play(argv, stdin=""):
    out = io.StringIO()
    status = play_main(argv, stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue()


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A run on 2-3-4; its champion as ``evil.json`` (with a hostile ``name``), as a file whose
    own name is hostile, and copies whose metadata is wrong in one field each."""
    root = tmp_path_factory.mktemp("hostile")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        assert run([*SMALL, "--out", "run", "--genomes-dir", "genomes", "--quiet"]) == 0
    document = json.loads((root / "genomes" / "run-table.json").read_text())
    (root / "evil.json").write_text(json.dumps({**document, "name": HOSTILE, "run": HOSTILE}))
    (root / f"{HOSTILE}.json").write_text(json.dumps(document))
    for name, field, value in BAD_METADATA:
        bad = dict(document)
        if field.startswith("run_config."):
            bad["run_config"] = {**document["run_config"], field.split(".", 1)[1]: value}
        else:
            bad[field] = value
        (root / f"{name}.json").write_text(json.dumps(bad))
    (root / "f.txt").write_text("not a folder")
    return root


@pytest.fixture
def here(work, monkeypatch):
    monkeypatch.chdir(work)
    return work


def test_export_shows_a_hostile_name_escaped_on_stdout_and_on_the_page(here, capsys):
    assert export(["--html", "page.html", "evil.json"]) == 0
    captured = capsys.readouterr()
    assert clean(captured.out) and clean(captured.err)
    assert f"against {SHOWN} (" in captured.out
    page = (here / "page.html").read_text()
    assert clean(page) and f"<title>Play Nim against {SHOWN}</title>" in page
    (here / "page.html").unlink()


def test_export_and_play_send_no_escape_byte_through_a_pipe(here):
    """The commands as a person runs them, their output read as bytes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "nim_evo.export", "--html", "pipe.html", "evil.json"],
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"\x1b" not in done.stdout + done.stderr and b"\\x1b]0;pwned" in done.stdout
    (here / "pipe.html").unlink()
    done = subprocess.run([sys.executable, "-m", "nim_evo.play", f"{HOSTILE}.json", "--first", "you"],
                          input=b"\x1b[2J1 1\nquit\n", capture_output=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"\x1b" not in done.stdout + done.stderr
    assert b"You play against \\x1b]0;pwned" in done.stdout and b"\\x1b[2J1 1" in done.stdout


def test_play_shows_file_names_and_piped_input_escaped(here):
    status, out = play([f"{HOSTILE}.json", "--opponents", "random", "--games", "2", "--watch"])
    assert status == 0 and clean(out)
    assert f"{SHOWN} against random: 2 games" in out and f"{SHOWN} moves first" in out
    status, out = play(["evil.json", "--first", "you"], stdin=f"{HOSTILE}\n1 1\nquit\n")
    assert status == 0 and clean(out)
    assert f"Your move (pile count): {SHOWN}\n" in out  # the echo of piped input


def test_arena_plot_and_learn_show_names_and_paths_escaped(here, capsys):
    assert arena(["random", f"{HOSTILE}.json", "--games", "10", "--out", f"arena{HOSTILE}"]) == 0
    captured = capsys.readouterr()
    assert clean(captured.out) and clean(captured.err)
    assert f" 2 {SHOWN[:11]}~" in captured.out and f"arena{SHOWN}/arena.csv" in captured.out  # cut in the middle
    assert plot([f"{HOSTILE}.json", "--out", f"policy{HOSTILE}.png"]) == 0
    captured = capsys.readouterr()
    assert clean(captured.out) and captured.out == f"policy{SHOWN}.png\n"
    assert learn(["--learner", "wincount", "--game", "2-3-4", "--games", "20", "--opponents", f"{HOSTILE}.json",
                  "--out", f"learner{HOSTILE}.json"]) == 0
    captured = capsys.readouterr()
    assert clean(captured.out) and clean(captured.err)
    assert f"against {SHOWN}.json" in captured.out and f"saved to learner{SHOWN}.json" in captured.out


def test_run_shows_its_folder_and_opponent_files_escaped(here, capsys):
    assert run([*SMALL, "--out", f"run{HOSTILE}", "--genomes-dir", "hostile-genomes", "--opponents",
                f"random,{HOSTILE}.json"]) == 0
    out = capsys.readouterr().out
    assert clean(out)
    assert f"run files: run{SHOWN}/" in out and f"\n  {SHOWN[:10]}" in out  # the summary's opponent, cut
    assert run([*SMALL, "--out", f"quiet{HOSTILE}", "--genomes-dir", "hostile-genomes", "--quiet"]) == 0
    assert capsys.readouterr().out == f"hostile-genomes/quiet{SHOWN}-table.json\n"


BAD_METADATA = [  # (file, field, value)
    ("accuracy-word", "accuracy", "high"),
    ("accuracy-list", "accuracy", [1]),
    ("accuracy-huge", "accuracy", 10 ** 30),
    ("accuracy-above", "accuracy", 1.5),
    ("name-list", "name", [1]),
    ("run-object", "run", {"id": 1}),
    ("config-list", "run_config", [1]),
    ("opponents-number", "run_config.opponents", 5),
    ("opponents-string", "run_config.opponents", "abc"),
    ("opponents-mixed", "run_config.opponents", ["random", 5]),
    ("seed-word", "run_config.seed", "zero"),
    ("generations-negative", "run_config.generations", -3),
    ("population-float", "run_config.population", 6.5),
]


@pytest.mark.parametrize("name,field,value", BAD_METADATA, ids=[case[0] for case in BAD_METADATA])
def test_export_checks_the_metadata_it_shows_where_it_reads_it(here, capsys, name, field, value):
    assert export(["--html", "page.html", f"{name}.json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"nim_evo: error: {name}.json: {field} must be "), err
    assert not (here / "page.html").exists()


@pytest.mark.parametrize("command", ["play", "arena"])
def test_play_and_arena_refuse_a_file_whose_metadata_is_wrong(here, capsys, command):
    status = play(["opponents-string.json"])[0] if command == "play" else arena(["random", "opponents-string.json"])
    assert status == 2
    err = capsys.readouterr().err
    assert err == ("nim_evo: error: opponents-string.json: run_config.opponents must be a list of distinct "
                   "non-empty names, got 'abc'\n")


def test_a_file_where_a_folder_is_needed_is_said_so(here, capsys):
    table = "genomes/run-table.json"
    cases = [
        (export, ["--html", "f.txt/page.html", table], "--html must name a page in a folder"),
        (export, ["--html", "f.txt/more/page.html", table], "--html must name a page in a folder"),
        (plot, [table, "--out", "f.txt/picture.png"], "--out must name a picture in a folder"),
        (plot, ["run", "--out", "f.txt/fitness.png"], "--out must name a picture in a folder"),
        (arena, ["random", "nimsum", "--game", "2-3-4", "--out", "f.txt"], "--out names the folder for arena.csv"),
        (arena, ["random", "nimsum", "--game", "2-3-4", "--out", "f.txt/arena"], "--out names the folder for arena"),
        (learn, ["--learner", "wincount", "--game", "2-3-4", "--games", "5", "--out", "f.txt/l.json"],
         "--out must name a file in a folder"),
        (run, [*SMALL, "--out", "f.txt/run", "--genomes-dir", "elsewhere"], "--out names the run's folder"),
        (run, [*SMALL, "--out", "f.txt", "--genomes-dir", "elsewhere"], "--out names the run's folder"),
        (run, [*SMALL, "--out", "new-run", "--genomes-dir", "f.txt/g"], "--genomes-dir names the folder"),
    ]
    for command, argv, need in cases:
        assert command(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"nim_evo: error: f.txt is not a folder: {need}") and err.count("\n") == 1, (argv, err)
    assert not any((here / name).exists() for name in ("new-run", "elsewhere", "page.html"))
    assert (here / "f.txt").read_text() == "not a folder"


def test_a_file_where_a_default_folder_goes_is_said_so(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").write_text("")
    (tmp_path / "genomes").write_text("")
    assert run(SMALL) == 2
    assert capsys.readouterr().err.startswith("nim_evo: error: genomes is not a folder: run exports the champion")
    assert run([*SMALL, "--genomes-dir", "g"]) == 2
    assert capsys.readouterr().err.startswith("nim_evo: error: runs is not a folder: run writes its run folder")
    assert arena(["random", "nimsum", "--game", "2-3-4"]) == 2
    assert capsys.readouterr().err.startswith("nim_evo: error: runs is not a folder: the arena writes")
    assert learn(["--learner", "wincount", "--game", "2-3-4", "--games", "5"]) == 2
    assert capsys.readouterr().err.startswith("nim_evo: error: genomes is not a folder: learn saves")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["genomes", "runs"]
