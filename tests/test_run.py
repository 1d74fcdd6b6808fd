"""The command line: the demo job, --list-games, and one-line errors with exit status 2."""

import subprocess
import sys

import pytest

from nim_evo.rules import PRESETS
from nim_evo.run import main


def test_list_games(capsys):
    assert main(["--list-games"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()] == list(PRESETS)


def test_demo_solves_and_rates(capsys):
    """The demo says who wins with which move and prints one row per player and opponent."""
    assert main(["--game", "7-5-3", "--players", "nimsum,random", "--opponents", "random", "--games", "200"]) == 0
    out = capsys.readouterr().out
    assert "192 positions" in out
    assert "take 1 from pile 1, take 1 from pile 2, take 1 from pile 3" in out
    rows = [line.split() for line in out.splitlines() if line.startswith(("nimsum ", "random "))]
    assert [(r[0], r[1]) for r in rows] == [("nimsum", "random"), ("random", "random")]
    assert float(rows[0][2]) > 0.9


def test_demo_exact_on_a_lost_start(capsys):
    assert main(["--piles", "2", "3", "4", "5", "--misere", "--players", "nimsum", "--exact"]) == 0
    out = capsys.readouterr().out
    assert "the second player wins" in out and "exact" in out


@pytest.mark.parametrize("argv, message", [
    (["--game", "nope"], "cannot read game 'nope'"),
    (["--piles", "3", "-1"], "pile sizes must be >= 0"),
    (["--piles", "0", "0"], "at least one object"),
    (["--piles", "3", "--max-take", "0"], "max_take must be >= 1"),
    (["--game", "7-5-3", "--piles", "3"], "either --game or --piles"),
    (["--misere"], "go with --piles"),
    (["--piles", "40", "40", "40", "40", "40"], "115,856,201 positions"),
    (["--players", "genius"], "unknown agent 'genius'"),
    (["--games", "0"], "--games must be >= 1"),
    (["--bogus"], "unrecognized arguments"),
])
def test_bad_input_is_one_line_and_status_2(argv, message, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("nim_evo: error: ")
    assert message in captured.err


def test_module_entry_point():
    """python -m nim_evo.run exits 2 with one line and no traceback on bad input."""
    done = subprocess.run([sys.executable, "-m", "nim_evo.run", "--game", "1-2-x"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.startswith("nim_evo: error:")
