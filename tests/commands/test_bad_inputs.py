"""A sweep of bad inputs across the five commands.

Each case must end with exit status 2 and exactly one line on stderr (no traceback), and must leave
every file in the working directory byte-identical, with no file added or removed. The working
directory holds real run directories, exported genomes and a learner file, plus broken copies of them.
"""

import io
import json
import os
import shutil

import pytest

from nim_evo.commands.arena import main as arena
from nim_evo.commands.export import main as export
from nim_evo.commands.learn import main as learn
from nim_evo.commands.play import main as play_main
from nim_evo.commands.plot import main as plot
from nim_evo.commands.run import main as run

SMALL = ["--game", "2-3-4", "--population", "6", "--offspring", "8", "--generations", "2"]


def play(argv):
    return play_main(argv, stdin=io.StringIO(""), stdout=io.StringIO())


COMMANDS = {"run": run, "learn": learn, "plot": plot, "play": play, "arena": arena, "export": export}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """Good run directories and files, and broken ones made from them."""
    root = tmp_path_factory.mktemp("bad-inputs")
    cache = root / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        patch.setenv("NIM_EVO_CACHE", str(cache))
        for genome, out in [("table", "run"), ("rules", "rules-run")]:
            assert run([*SMALL, "--genome", genome, "--out", out, "--genomes-dir", "genomes", "--quiet"]) == 0
        assert learn(["--learner", "wincount", "--game", "2-3-4", "--games", "200", "--out", "learner.json",
                      "--quiet"]) == 0
    for name in ["truncated", "bad-config", "bad-logbook", "no-checkpoint", "future-checkpoint"]:
        shutil.copytree(root / "run", root / name)
    checkpoint = (root / "run" / "checkpoint.npz").read_bytes()
    (root / "truncated" / "checkpoint.npz").write_bytes(checkpoint[: len(checkpoint) // 2])
    (root / "bad-config" / "config.json").write_text('{"game": ')
    (root / "bad-logbook" / "logbook.csv").write_text("gen,evals\n0,zero\n1,\x00\x01\n")
    (root / "no-checkpoint" / "checkpoint.npz").unlink()
    (root / "future-checkpoint" / "checkpoint.npz").write_bytes(b"PK\x03\x04" + bytes(200))
    (root / "malformed.json").write_text('{"kind": "table", "genome": [1, 2')
    (root / "empty.json").write_text("")
    (root / "list.json").write_text("[1, 2, 3]")
    (root / "nan.json").write_text('{"kind": "table", "genome": [NaN]}')
    (root / "unknown-kind.json").write_text('{"kind": "sorcery", "genome": []}')
    (root / "deep.json").write_text("[" * 5000 + "]" * 5000)
    table = json.loads((root / "genomes" / "run-table.json").read_text())
    table["genome"]["moves"] = table["genome"]["moves"][:-1]
    (root / "short-table.json").write_text(json.dumps(table))
    (root / "binary.json").write_bytes(bytes(range(256)))
    (root / "a-directory.json").mkdir()
    (root / "picture.png").write_bytes(b"\x89PNG not really")
    (root / "loop.json").symlink_to("loop.json")
    (root / "dangling.json").symlink_to("nowhere.json")
    genome = json.loads((root / "genomes" / "run-table.json").read_text())
    (root / "word-accuracy.json").write_text(json.dumps({**genome, "accuracy": "high"}))
    (root / "string-opponents.json").write_text(json.dumps({**genome, "run_config": {**genome["run_config"],
                                                                                      "opponents": "abc"}}))
    (root / "f.txt").write_text("a file where a folder is needed")
    return root


def snapshot(root):
    return {path.relative_to(root): path.read_bytes() if path.is_file() else os.readlink(path) if path.is_symlink()
            else None for path in sorted(root.rglob("*"))}


TABLE, RULES, LEARNER = "genomes/run-table.json", "genomes/rules-run-rules.json", "learner.json"

CASES = [
    # run: numbers
    ("run", [*SMALL, "--generations", "-1"]),
    ("run", [*SMALL, "--population", "0"]),
    ("run", [*SMALL, "--population", "1"]),
    ("run", [*SMALL, "--offspring", "99999999999999999999"]),
    ("run", ["--piles", "9" * 3000]),  # a pile of 3,000 digits, quoted in the error
    ("play", ["--piles", "1", "x" * 3000]),
    ("run", ["--piles", "9999", "--generations", "1"]),  # few positions, 10^8 position-move pairs
    ("run", ["--piles", "9999", "--genome", "rules", "--generations", "1"]),
    ("run", [*SMALL, "--generations", "ten"]),
    ("run", [*SMALL, "--seed", "1.5"]),
    ("run", [*SMALL, "--seed", "-1"]),
    ("run", [*SMALL, "--jobs", "0"]),
    ("run", [*SMALL, "--fitness", "sampled", "--games", "0"]),
    # run: targets
    ("run", [*SMALL, "--until", "accuracy=1.5"]),
    ("run", [*SMALL, "--until", "best"]),
    ("run", [*SMALL, "--until", "never"]),  # (a resume's word for no target)
    ("run", [*SMALL, "--until", "ceiling", "--fitness", "sampled"]),
    ("run", ["--genome", "program", "--piles", *["40"] * 12, "--until", "accuracy=1"]),  # too big to solve
    ("run", ["--resume", "run", "--until", "accuracy=0"]),
    # run: families
    ("run", [*SMALL, "--genome", "program", "--families", "normal,sorcery"]),
    ("run", [*SMALL, "--genome", "program", "--families", "normal,normal"]),
    ("run", [*SMALL, "--genome", "program", "--families", "misere,cap3"]),  # not the board's own
    ("run", [*SMALL, "--genome", "rules", "--families", "normal,misere"]),  # a kind that cannot read them
    ("export", ["--html", "page.html", "genomes/run-table.json", "--game", "2-3-4-misere"]),
    ("run", [*SMALL, "--genome", "program", "--train-boards", "2-3,1-4-6-cap3-misere"]),  # not the run's family
    ("run", [*SMALL, "--genome", "program", "--train-boards", "2-3,x"]),
    # run: names and boards
    ("run", [*SMALL, "--genome", "sorcery"]),
    ("run", [*SMALL, "--genome", ""]),
    ("run", ["--game", "no-such-board"]),
    ("run", ["--game", ""]),
    ("run", ["--piles", "3", "-1"]),
    ("run", ["--piles", "1000000000", "1000000000"]),
    ("run", ["--piles", "3", "4", "--max-take", "0"]),
    ("run", ["--game", "2-3-4", "--piles", "3", "4"]),
    ("run", ["--game", "2-3-4", "--max-take", "2"]),
    ("run", [*SMALL, "--space", "hyperbolic"]),
    ("run", [*SMALL, "--starts", "middle"]),
    ("run", [*SMALL, "--plot", "bmp"]),
    ("run", [*SMALL, "--train-boards", "2-3"]),
    ("run", [*SMALL, "--genome", "program", "--train-boards", "99-99"]),
    ("run", [*SMALL, "--genome", "program", "--train-boards", ","]),
    # run: opponents
    ("run", [*SMALL, "--opponents", "sorcerer"]),
    ("run", [*SMALL, "--opponents", ""]),
    ("run", [*SMALL, "--opponents", "random,,nimsum"]),
    ("run", [*SMALL, "--opponents", "malformed.json"]),
    ("run", [*SMALL, "--opponents", "a-directory.json"]),
    ("run", [*SMALL, "--opponents", "no-such-file.json"]),
    ("run", ["--game", "1-3-5", "--opponents", TABLE]),
    ("run", [*SMALL, "--opponents", "short-table.json"]),
    # run: files and directories
    ("run", [*SMALL, "--out", "run"]),
    ("run", [*SMALL, "--out", TABLE]),
    ("run", [*SMALL, "--out", "run", "--genomes-dir", "learner.json", "--force"]),
    ("run", ["--resume", "no-such-run"]),
    ("run", ["--resume", "learner.json"]),
    ("run", ["--resume", "run", "--genome", "rules"]),
    ("run", ["--resume", "run", "--train-boards", "2-3"]),
    ("run", ["--resume", "truncated"]),
    ("run", ["--resume", "bad-config"]),
    ("run", ["--resume", "no-checkpoint"]),
    ("run", ["--resume", "future-checkpoint"]),
    ("run", ["--resume", "bad\x00name"]),
    ("run", ["--resume", "x" * 5000]),
    ("run", ["--resume", "two\nlines"]),
    ("run", [*SMALL, "--opponents", "\x1b[31mred.json"]),
    # learn
    ("learn", ["--learner", "sorcery"]),
    ("learn", ["--learner", "wincount", "--game", "2-3-4", "--games", "-5"]),
    ("learn", ["--game", "2-3-4", "--games", "lots"]),
    ("learn", ["--learner", "qlearning", "--game", "2-3-4", "--param", "schedule=not-json"]),
    ("learn", ["--learner", "qlearning", "--game", "2-3-4", "--param", "schedule"]),
    ("learn", ["--game", "2-3-4", "--learner", "qlearning", "--param", "no_such_parameter=1"]),
    ("learn", ["--game", "2-3-4", "--learner", "qlearning", "--param", "exploration=-1"]),
    ("learn", ["--learner", "wincount", "--game", "2-3-4", "--games", "10", "--out", LEARNER]),
    ("learn", ["--learner", "wincount", "--game", "2-3-4", "--games", "10", "--out", "a-directory.json",
               "--force"]),
    ("learn", ["--learner", "wincount", "--game", "2-3-4", "--games", "10", "--opponents", "malformed.json"]),
    ("learn", ["--learner", "wincount", "--game", "2-3-4", "--seat", "sideways"]),
    ("learn", ["--learner", "wincount", "--game", "2-3-4", "--seat", "first"]),
    # plot
    ("plot", []),
    ("plot", ["no-such-run"]),
    ("plot", ["malformed.json"]),
    ("plot", ["empty.json"]),
    ("plot", ["binary.json"]),
    ("plot", ["bad-logbook"]),
    ("plot", ["bad-config"]),
    ("plot", ["loop.json"]),
    ("plot", ["run", "--format", "bmp"]),
    ("plot", ["run", "--out", "picture.png"]),
    ("plot", ["run", "--x", "time"]),
    ("plot", ["run", "--out", "a-directory.json", "--force"]),
    # play
    ("play", ["dumb", "--piles", "1000000000000000", "--opponents", "dumb"]),  # a game of 10^15 moves
    ("play", ["malformed.json"]),
    ("play", ["nan.json"]),
    ("play", ["deep.json"]),
    ("play", ["unknown-kind.json"]),
    ("play", ["a-directory.json"]),
    ("play", ["sorcerer"]),
    ("play", ["evil\nname.json"]),
    ("play", ["loop.json"]),
    ("play", ["dangling.json"]),
    ("play", [f"{LEARNER}/inside.json"]),
    ("play", ["nimsum", "--opponents", "sorcerer"]),
    ("play", ["nimsum", "--opponents", "random", "--games", "0"]),
    ("play", ["nimsum", "--opponents", "random", "--games", "-1"]),
    ("play", [TABLE, "--game", "1-3-5"]),
    ("play", [RULES, "--game", "4-4-cap2"]),
    ("play", [LEARNER, "--opponents", TABLE, "--first", "sideways"]),
    ("play", ["nimsum", "--first", "nobody"]),
    ("play", ["--piles", "100000000000000000000"]),
    ("play", [RULES, "--piles", "1000000000000", "3"]),
    ("play", ["minimax", "--piles", "1000000000", "--opponents", "random"]),
    # arena
    ("arena", ["random"]),
    ("arena", ["random", "sorcerer"]),
    ("arena", ["random", "nimsum", "--games", "0"]),
    ("arena", ["random", "nimsum", "--piles", "9999"]),
    ("arena", ["random", "nimsum", "--jobs", "-2"]),
    ("arena", ["random", "nimsum", "--out", TABLE]),
    ("arena", ["random", TABLE, "--game", "1-3-5-7"]),
    ("arena", ["random", "list.json", "--game", "2-3-4"]),
    ("arena", ["random", "empty.json", "--game", "2-3-4"]),
    # export
    ("export", [TABLE]),
    ("export", ["--html", "page.html"]),
    ("export", ["--html", "page.txt", TABLE]),
    ("export", ["--html", "page.html", "malformed.json"]),
    ("export", ["--html", "page.html", "list.json"]),
    ("export", ["--html", "page.html", "deep.json"]),
    ("export", ["--html", "page.html", "short-table.json"]),
    ("export", ["--html", "page.html", "nowhere.json"]),
    ("export", ["--html", "a-directory.json", TABLE]),
    ("export", ["--html", "genomes/README.html", "a-directory.json"]),
    ("export", ["--html", "page.html", TABLE, "--run", "bad-config"]),
    ("export", ["--html", "page.html", TABLE, "--run", "bad-logbook"]),
    ("export", ["--html", "page.html", TABLE, "--run", "genomes"]),
    ("export", ["--html", "page.html", TABLE, "--run", ""]),
    ("export", ["--html", "page.html", RULES, "--run", "run"]),
    # what a file says of itself, checked where it is read; names shown printable; a file for a folder
    ("export", ["--html", "page.html", "word-accuracy.json"]),
    ("export", ["--html", "page.html", "string-opponents.json"]),
    ("play", ["string-opponents.json"]),
    ("arena", ["random", "word-accuracy.json"]),
    ("play", ["\x1b]0;pwned\x07\x1b[2J.json"]),
    ("arena", ["random", "\u202eevil\x9b.json"]),
    ("export", ["--html", "f.txt/page.html", TABLE]),
    ("plot", [TABLE, "--out", "f.txt/picture.png"]),
    ("arena", ["random", "nimsum", "--out", "f.txt/arena"]),
    ("learn", ["--learner", "wincount", "--game", "2-3-4", "--games", "5", "--out", "f.txt/learner.json"]),
    ("run", [*SMALL, "--out", "f.txt/run", "--genomes-dir", "elsewhere"]),
]


@pytest.mark.parametrize("command,argv", CASES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(CASES)])
def test_bad_input_is_one_line_status_2_and_touches_no_file(workdir, monkeypatch, capsys, command, argv):
    monkeypatch.chdir(workdir)
    monkeypatch.setenv("NIM_EVO_CACHE", str(workdir / "cache"))
    before = snapshot(workdir)
    try:
        status = COMMANDS[command](argv)
    except SystemExit as exit_:  # argparse's own errors
        status = exit_.code
    err = capsys.readouterr().err
    assert status == 2, err
    assert len(err.splitlines()) == 1 and err.startswith("nim_evo: error: "), err
    assert err[:-1].isprintable(), err
    assert len(err) <= 500, err  # a long offending value is cut in the middle
    assert snapshot(workdir) == before


def test_the_sweep_is_wide():
    assert len(CASES) >= 40 and set(c for c, _ in CASES) == set(COMMANDS)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
@pytest.mark.parametrize("command,argv", [("play", ["locked.json"]), ("plot", ["locked.json"]),
                                          ("arena", ["random", "locked.json", "--game", "2-3-4"])])
def test_an_unreadable_file_is_one_line(tmp_path, monkeypatch, capsys, command, argv):
    monkeypatch.chdir(tmp_path)
    locked = tmp_path / "locked.json"
    locked.write_text("{}")
    locked.chmod(0)
    try:
        assert COMMANDS[command](argv) == 2
    finally:
        locked.chmod(0o600)
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Permission denied" in err and locked.read_text() == "{}"
