"""What the commands share (nim_evo.cli.args): parser errors, the command wrapper's exit
statuses, the game options, and never replacing a person's files."""

import argparse

import pytest

from nim_evo import Rules
from nim_evo.cli.args import (Parser, UsageError, add_game_arguments, check_flags, check_writable, command,
                              refuse_overwrite, report_error, rules_from_args)
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


@pytest.mark.parametrize("argv, rules", [
    ((), Rules((1, 3, 5, 7, 9))),
    (("--game", "7-5-3"), Rules((7, 5, 3))),
    (("--game", "21-cap3"), Rules((21,), 3)),
    (("--game", "4-4-cap2-misere"), Rules((4, 4), 2, True)),
    (("--piles", "3", "4", "--max-take", "2", "--misere"), Rules((3, 4), 2, True)),
])
def test_the_game_options_name_a_board(argv, rules):
    assert rules_from_args(game_args(*argv)) == rules


@pytest.mark.parametrize("argv, message", [
    (("--game", "7-5-3", "--piles", "3"), "give either --game or --piles, not both"),
    (("--max-take", "2"), "--max-take and --misere go with --piles"),
    (("--game", "bogus"), "; see --list-games"),
    (("--piles", "3", "-1"), "pile"),
])
def test_bad_boards_are_one_line(argv, message):
    with pytest.raises(UsageError) as caught:
        rules_from_args(game_args(*argv))
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_check_flags_names_the_flag_and_skips_what_was_not_given():
    args = argparse.Namespace(seed=None, jobs=0)
    with pytest.raises(UserError, match=r"^--jobs must be an integer >= 1, got 0$"):
        check_flags(args, {"seed": [SEED], "jobs": [JOBS]})
    check_flags(argparse.Namespace(seed=None, jobs=2), {"seed": [SEED], "jobs": [JOBS]})


@pytest.mark.parametrize("error, status, line", [
    (UsageError("--x must be 1"), 2, "nim_evo: error: --x must be 1\n"),
    (UserError("no such file: f"), 2, "nim_evo: error: no such file: f\n"),
    (OSError(13, "Permission denied", "/root/x"), 2, "nim_evo: error: Permission denied (/root/x)\n"),
    (KeyboardInterrupt(), 130, "\nnim_evo: stopped\n"),
])
def test_the_command_wrapper_turns_a_person_s_errors_into_one_line(capsys, error, status, line):
    @command(interrupted="stopped")
    def main(argv):
        raise error

    assert main([]) == status
    assert capsys.readouterr().err == line


def test_the_command_wrapper_lets_a_bug_through_with_its_traceback():
    @command()
    def main(argv):
        return 1 / 0

    with pytest.raises(ZeroDivisionError):
        main([])


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
    path.write_text("precious")
    with pytest.raises(UsageError, match="mine.json exists; use --force"):
        refuse_overwrite(path, force=False)
    refuse_overwrite(path, force=True)
    assert path.read_text() == "precious"


def test_check_writable_makes_the_directory_or_says_why_not(tmp_path):
    check_writable(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir()
    (tmp_path / "file").write_text("")
    with pytest.raises(UsageError, match="cannot (create|write to)"):
        check_writable(tmp_path / "file" / "sub")
