"""``play`` on a splitting game's board too big for the engine: twelve heaps of up to 100,000,
you against an evolved program file, perfect play or random, moves typed ``heap take part``."""

import io
import json
import re

import numpy as np
import pytest

from nim_evo.games import bigheaps, game
from nim_evo.genomes import genome_document
from nim_evo.genomes.program import KIND
from nim_evo.commands.play import main

XOR = "sub(or(a, p), and(a, p))"
HEAPS = "-".join(str(n) for n in np.random.default_rng(1).integers(10**4, 10**5, size=12))


def program_file(tmp_path, family: str, heap: str | None = None):
    """A program file of ``family`` whose heap part is ``heap`` (default: the family's Grundy values)."""
    rules = game({"kayles": "10-kayles", "lasker": "3-5-7-lasker"}[family])
    heap = heap or rules.grundy_words()
    genes = KIND.from_json({"step": XOR, "score": "v", "second": "0", "heap": heap}, rules)
    path = tmp_path / f"{family}.json"
    path.write_text(json.dumps(genome_document("program", genes, rules)))
    return path


def played(argv, typed):
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO("".join(line + "\n" for line in typed)), stdout=out)
    return status, out.getvalue()


def their_moves(text, name):
    return [tuple(int(v) for v in m) for m in re.findall(rf"{name} plays (\d+) (\d+) (\d+),", text)]


@pytest.mark.parametrize("family", ["kayles", "lasker"])
def test_a_program_plays_twelve_heaps_of_up_to_100000_and_leaves_lost_positions(tmp_path, family):
    board = bigheaps.open_board(f"{HEAPS}-{family}")
    values = board.values_for(max(board.heaps))
    assert np.bitwise_xor.reduce(values(np.array(board.heaps))) != 0  # (the first player wins)
    status, text = played([str(program_file(tmp_path, family)), "--game", board.name, "--first", "computer"],
                          ["hint", "1 1 0", "q"])
    assert status == 0 and "plays the program p = " in text and "Goodbye." in text
    assert "Hint: every move loses against perfect play" in text
    replies = their_moves(text, family)
    assert len(replies) == 2
    heaps = board.heaps
    for reply, mine in zip(replies, [None, (0, 1, 0)]):
        if mine is not None:
            heaps = bigheaps.apply(heaps, mine)
        heaps = bigheaps.apply(heaps, (reply[0] - 1, reply[1], reply[2]))
        assert np.bitwise_xor.reduce(values(np.array(heaps))) == 0  # its reply leaves a lost position


def test_a_wrong_program_is_caught_by_its_own_moves(tmp_path):
    """A Kayles program whose heap values are Nim's (the heap itself) plays, and loses its way."""
    board = bigheaps.open_board(f"{HEAPS}-kayles")
    values = board.values_for(max(board.heaps))
    status, text = played([str(program_file(tmp_path, "kayles", "(0) +1")), "--game", board.name, "--first",
                           "computer"], ["q"])
    (reply,) = their_moves(text, "kayles")
    assert status == 0
    assert np.bitwise_xor.reduce(values(np.array(bigheaps.apply(board.heaps, (reply[0] - 1, *reply[1:]))))) != 0


def test_you_move_by_heap_take_part_and_bad_moves_are_explained():
    status, text = played(["perfect", "--game", f"{HEAPS}-kayles", "--first", "you"],
                          ["1 3 0", "13 1 0", "1 1", "moves", "help", "1 1 5", "q"])
    assert status == 0
    for message in ["'1 1' is not a move: type three whole numbers", "There is no heap 13",
                    "1 3 0 cannot be played: a move knocks down one pin or two side by side",
                    "Moves from each heap size", "Type the heap, how many to take"]:
        assert message in text
    assert "You play 1 1 5, leaving 13 heaps" in text and len(their_moves(text, "perfect")) == 1


@pytest.mark.parametrize("argv, message", [
    (["minimax"], "perfect, random or a program file with a heap part plays it, not minimax"),
    (["--opponents", "random"], "too big for a match between computers"),
    (["--stochastic"], "--stochastic is for learners"),
    (["--game", f"{HEAPS}-kayles-misere"], "no theory of misère play past the engine's boards"),
    (["random", "--game", "100000000000-kayles"], "heaps past them hold at most 1,000,000 objects"),
    (["random", "--game", "1-dawson"], "no move from the start 1 of 1-dawson"),
])
def test_what_cannot_play_a_big_board_is_one_line(capsys, argv, message):
    status, text = played([*argv, *([] if "--game" in argv else ["--game", f"{HEAPS}-kayles"])], [])
    assert status == 2 and text == ""
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_program_of_another_family_or_beyond_theory_is_one_line(tmp_path, capsys):
    status, _ = played([str(program_file(tmp_path, "lasker")), "--game", f"{HEAPS}-kayles"], [])
    assert status == 2 and "evolved for 3-5-7-lasker" in capsys.readouterr().err
    status, _ = played(["--game", "100000-99-grundy"], [])  # (Grundy's game: values computed to 32,767)
    assert status == 2 and "Grundy values are computed for heaps up to 32,767" in capsys.readouterr().err
    status, text = played(["random", "--game", "100000-99-grundy", "--first", "computer"], ["q"])
    assert status == 0 and len(their_moves(text, "random")) == 1
