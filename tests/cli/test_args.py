"""What the commands share (nim_evo.cli.args): parser errors, the command wrapper's exit
statuses, the game options, and never replacing a person's files."""

import argparse
import os
import subprocess
import sys

import pytest

from nim_evo import Rules
from nim_evo.cli.args import (Parser, UsageError, add_game_arguments, cap_jobs, check_flags, check_writable, command,
                              list_games, picture_path, refuse_overwrite, report_error, rules_from_args)
from nim_evo.engine.rules import PRESETS
from nim_evo.games.registry import PRESETS as GAME_PRESETS, game
from nim_evo.validation import JOBS, SEED, UserError


def game_args(*argv):
    parser = Parser(prog="test")
    add_game_arguments(parser)
    return parser.parse_args(list(argv))


def test_parser_errors_are_usage_errors():
    with pytest.raises(UsageError, match="unrecognized arguments: --nope"):
        game_args("--nope")
    with pytest.raises(UsageError, match="invalid int value"):
        game_args("--piles", "x")
    assert issubclass(UsageError, UserError) and issubclass(UsageError, ValueError)


@command()
def game_command(argv):
    """A command whose body parses the game options, as run, learn, play and arena do."""
    game_args(*argv)
    return 0


@pytest.mark.parametrize("argv, line", [
    (["--nope"], "unrecognized arguments: --nope"),
    (["--piles"], "argument --piles: expected at least one argument"),
    (["--piles", "x"], "argument --piles: invalid int value: 'x'"),
    (["--game"], "argument --game: expected one argument"),
])
def test_a_parser_error_in_a_command_is_one_line_with_status_2(capsys, argv, line):
    """Not argparse's usage message and status 2 through ``SystemExit``: the command returns
    2 and stderr holds the one line."""
    assert game_command(argv) == 2
    assert capsys.readouterr() == ("", f"nim_evo: error: {line}\n")
    assert game_command(["--game", "7-5-3"]) == 0


@pytest.mark.parametrize("argv, rules", [
    ((), Rules((1, 3, 5, 7, 9))),
    (("--game", "7-5-3"), Rules((7, 5, 3))),
    (("--game", "21-cap3"), Rules((21,), 3)),
    (("--game", "4-4-cap2-misere"), Rules((4, 4), 2, True)),
    (("--piles", "3", "4", "--max-take", "2", "--misere"), Rules((3, 4), 2, True)),
    (("--piles", "6"), Rules((6,))),
    (("--piles", "2", "2", "--misere"), Rules((2, 2), None, True)),
    (("--game", "1-3-5-7-9-misere"), Rules((1, 3, 5, 7, 9), None, True)),
])
def test_the_game_options_name_a_board(argv, rules):
    assert rules_from_args(game_args(*argv)) == rules


PRESET_RULES = {
    "1-3-5-7-9": Rules((1, 3, 5, 7, 9)),
    "15-cap3-misere": Rules((15,), 3, True),
    "16-cap3-misere": Rules((16,), 3, True),
    "17-cap3-misere": Rules((17,), 3, True),
    "20-cap4-misere": Rules((20,), 4, True),
    "21-cap3": Rules((21,), 3),
    "2-3-4-5-misere": Rules((2, 3, 4, 5), None, True),
    "7-5-3": Rules((7, 5, 3)),
}


@pytest.mark.parametrize("name", list(PRESET_RULES))
def test_every_preset_names_its_board(name):
    assert name in PRESETS
    assert rules_from_args(game_args("--game", name)) == PRESET_RULES[name]


def test_list_games_prints_each_preset_once_then_every_family(capsys):
    assert list_games() == 0
    presets, families = capsys.readouterr().out.split("\n\n")
    lines = presets.splitlines()
    every = {**PRESETS, **GAME_PRESETS}
    assert [line.split()[0] for line in lines] == list(every)
    assert all(line.endswith(every[line.split()[0]]) for line in lines)
    assert {"3-4-5-misere", "21-sub1.2.3", "11-grundy", "8-kayles", "13-squares", "5-6-wythoff"} <= set(every)
    for name in every:  # each a board's name, in its family's grammar
        assert game(name).name == name
    heading, *rows = families.splitlines()
    assert "--game takes a board's name" in heading
    assert [row.split()[0] for row in rows] == ["nim", "subtraction", "squares", "wythoff", "moore", "octal", "lasker",
                                                "grundy"]
    assert rows[1].endswith("e.g. 20-sub1.3.4") and "-misere" in rows[1]


@pytest.mark.parametrize("argv, message", [
    (("--game", "7-5-3", "--piles", "3"), "give either --game or --piles, not both"),
    (("--max-take", "2"), "--max-take and --misere go with --piles"),
    (("--game", "bogus"), "; see --list-games"),
    (("--piles", "3", "-1"), "pile"),
    (("--misere",), "--max-take and --misere go with --piles"),
    (("--piles", "3", "4", "--max-take", "0"), "max_take must be >= 1, got 0"),
    (("--piles", "0"), "piles must hold at least one object"),
])
def test_bad_boards_are_one_line(argv, message):
    with pytest.raises(UsageError) as caught:
        rules_from_args(game_args(*argv))
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_bad_board_through_a_command_is_one_line_with_status_2(capsys):
    @command()
    def main(argv):
        rules_from_args(game_args(*argv))
        return 0

    assert main(["--piles", "3", "4", "--max-take", "0"]) == 2
    assert capsys.readouterr().err == "nim_evo: error: max_take must be >= 1, got 0\n"


def test_check_flags_names_the_flag_and_skips_what_was_not_given():
    args = argparse.Namespace(seed=None, jobs=0)
    with pytest.raises(UserError, match=r"^--jobs must be an integer >= 1, got 0$"):
        check_flags(args, {"seed": [SEED], "jobs": [JOBS]})
    check_flags(argparse.Namespace(seed=None, jobs=2), {"seed": [SEED], "jobs": [JOBS]})


@pytest.mark.parametrize("error, status, line", [
    (UsageError("--x must be 1"), 2, "nim_evo: error: --x must be 1\n"),
    (UserError("no such file: f"), 2, "nim_evo: error: no such file: f\n"),
    (OSError(13, "Permission denied", "/root/x"), 2, "nim_evo: error: Permission denied (/root/x)\n"),
    (FileNotFoundError(2, "No such file or directory", "x.json"), 2, "nim_evo: error: No such file or directory (x.json)\n"),
    (OSError("disk gone"), 2, "nim_evo: error: disk gone\n"),
    (KeyboardInterrupt(), 130, "\nnim_evo: stopped\n"),
])
def test_the_command_wrapper_turns_a_person_s_errors_into_one_line(capsys, error, status, line):
    @command(interrupted="stopped")
    def main(argv):
        raise error

    assert main([]) == status
    assert capsys.readouterr().err == line


def test_ctrl_c_says_interrupted_unless_the_command_says_otherwise(capsys):
    @command()
    def main(argv):
        raise KeyboardInterrupt

    assert main([]) == 130
    assert capsys.readouterr().err == "\nnim_evo: interrupted\n"


@pytest.mark.parametrize("error", [ZeroDivisionError("division by zero"), RuntimeError("a bug"),
                                   ValueError("not a UserError"), KeyError("k"), TypeError("t")])
def test_the_command_wrapper_lets_a_bug_through_with_its_traceback(capsys, error):
    """What is not a person's error (a :class:`UserError`, ``UsageError`` among them) nor the
    file system's (``OSError``) is a bug of ours: the wrapper neither catches nor prints it.
    A plain ``ValueError`` is such a bug too (the library says a person's mistakes with
    ``UserError``, a ``ValueError`` itself)."""
    @command()
    def main(argv):
        raise error

    with pytest.raises(type(error)) as caught:
        main([])
    assert caught.value is error
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("raised, status, ending", [
    ("ZeroDivisionError('division by zero')", 1, "ZeroDivisionError: division by zero\n"),
    ("RuntimeError('a bug')", 1, "RuntimeError: a bug\n"),
    ("UsageError('--x must be 1')", 2, "nim_evo: error: --x must be 1\n"),
])
def test_the_exit_status_of_a_bug_is_1_with_a_traceback_and_of_a_usage_error_2(raised, status, ending):
    """As a command's process ends (``sys.exit(main())``): a bug keeps Python's traceback
    and status 1, a usage error is its one line and status 2."""
    script = ("import sys\n"
              "from nim_evo.cli.args import UsageError, command\n"
              "@command()\n"
              "def main(argv):\n"
              f"    raise {raised}\n"
              "sys.exit(main())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == status and done.stdout == ""
    if status == 1:
        assert done.stderr.startswith("Traceback (most recent call last)") and done.stderr.endswith(ending)
    else:
        assert done.stderr == ending


def test_the_command_wrapper_passes_the_arguments_and_the_status():
    @command()
    def main(argv):
        return len(argv)

    assert main(["a", "b"]) == 2


def test_report_error_is_silent_for_a_closed_pipe(capsys):
    assert report_error(BrokenPipeError()) == 141
    assert capsys.readouterr().err == ""


def test_refuse_overwrite_protects_existing_files(tmp_path):
    path = tmp_path / "mine.json"
    refuse_overwrite(path, force=False)  # nothing there: fine
    assert not path.exists()
    path.write_text("precious")
    with pytest.raises(UsageError) as caught:
        refuse_overwrite(path, force=False)
    assert str(caught.value) == f"{path} exists; use --force to overwrite it, or another --out"
    picture = path.with_suffix(".png")
    picture.write_text("mine")
    with pytest.raises(UsageError) as caught:  # said with the flag that named it
        picture_path(str(picture), force=False)
    assert str(caught.value) == f"{picture} exists; use --force to overwrite it, or another --picture"
    with pytest.raises(UsageError, match="mine.json exists"):
        refuse_overwrite(str(path), force=False)
    refuse_overwrite(path, force=True)
    assert path.read_text() == "precious"  # it only says whether: it never touches the file
    with pytest.raises(UsageError, match="exists; use --force"):
        refuse_overwrite(tmp_path, force=False)  # a directory in the way too


def test_check_writable_makes_the_directory_or_says_why_not(tmp_path):
    check_writable(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir()
    check_writable(tmp_path / "a" / "b")  # there already: fine
    (tmp_path / "file").write_text("")
    for blocked, message in [(tmp_path / "file" / "sub", f"cannot create {tmp_path / 'file' / 'sub'}: "),
                             (tmp_path / "file", f"{tmp_path / 'file'} is not a directory")]:
        with pytest.raises(UserError) as caught:
            check_writable(blocked)
        assert str(caught.value).startswith(message) and "\n" not in str(caught.value)
    assert (tmp_path / "file").read_text() == ""


def test_check_writable_refuses_a_directory_it_may_not_write_to(tmp_path, monkeypatch):
    """``os.access`` saying no (a read-only directory; monkeypatched, as root may write anywhere)."""
    asked = []

    def no_access(path, mode):
        asked.append((os.fspath(path), mode))
        return False

    monkeypatch.setattr(os, "access", no_access)
    with pytest.raises(UserError) as caught:
        check_writable(tmp_path)
    assert str(caught.value) == f"cannot write to {tmp_path}"
    assert asked == [(str(tmp_path), os.W_OK)]


def test_cap_jobs_lowers_local_jobs_to_the_cores_with_a_note(capsys, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    args = argparse.Namespace(jobs=8, scheduler=None)
    cap_jobs(args)
    assert args.jobs == 2
    assert capsys.readouterr().err == "nim_evo: note: 8 workers asked for, this machine has 2 cores: using 2\n"
    for args in (argparse.Namespace(jobs=2, scheduler=None), argparse.Namespace(jobs=None, scheduler=None),
                 argparse.Namespace(jobs=8, scheduler="tcp://127.0.0.1:8786"), argparse.Namespace()):
        before = vars(args).copy()
        cap_jobs(args)  # enough cores, no --jobs, a --scheduler's workers: left as they are
        assert vars(args) == before
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command, argv, flag", [
    ("run", ["--resume", ""], "--resume"),
    ("run", ["--out", ""], "--out"),
    ("run", ["--game", ""], "--game"),
    ("learn", ["--learner", "td", "--out", ""], "--out"),
    ("plot", [""], "RUN_DIR_OR_STRATEGY"),
    ("arena", ["nimsum", "random", "--out", ""], "--out"),
])
def test_an_empty_value_is_refused_not_taken_as_missing(command, argv, flag, tmp_path, monkeypatch, capsys):
    """``--resume "$UNSET"`` used to start a fresh 200-generation run."""
    import importlib

    monkeypatch.chdir(tmp_path)
    assert importlib.import_module(f"nim_evo.commands.{command}").main(argv) == 2
    assert capsys.readouterr().err == f"nim_evo: error: argument {flag}: must not be empty\n"
    assert list(tmp_path.iterdir()) == []

