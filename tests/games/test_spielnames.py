"""OpenSpiel's names of nim_evo's boards (games.spielnames), read back to the same board."""

import pytest

from nim_evo import game
from nim_evo.games.spielnames import DEFAULTS, from_spiel, short_names, spiel_parameters
from nim_evo.validation import UserError

BOARDS = ["1-3-5-7", "1-3-5-7-misere", "3-4-5-cap2", "2-3-4-cap2-misere", "20-sub1.3.4-misere", "13-squares",
          "5-6-wythoff-misere", "1-3-5-moore2", "10-octal.137-misere", "8-kayles", "12-dawson-misere",
          "3-5-7-lasker", "11-grundy-misere"]


@pytest.mark.parametrize("name", BOARDS)
def test_a_board_s_parameters_read_back_to_it(name):
    board = game(name)
    short_name, params = spiel_parameters(board)
    assert from_spiel(short_name, params) == board
    assert params["misere"] is board.misere and ";" not in params.get("rule", "")
    assert from_spiel(short_name, {k: str(v) for k, v in params.items()}) == board  # as a game string says them


def test_misere_nim_without_a_cap_has_an_empty_rule():
    assert spiel_parameters(game("1-3-5-7-misere")) == ("nim_evo_nim", {"heaps": "1;3;5;7", "misere": True, "rule": ""})
    assert spiel_parameters(game("8-kayles-misere")) == ("nim_evo_kayles", {"heaps": "8", "misere": True})


def test_one_heap_may_end_in_a_semicolon_as_a_game_string_writes_it():
    assert from_spiel("nim_evo_kayles", {"heaps": "10;"}) == game("10-kayles")
    assert from_spiel("nim_evo_subtraction", {"heaps": "9;7;", "rule": "sub1.3.4"}) == game("9-7-sub1.3.4")
    for heaps in ["10;;", ";10", "3;;4", ""]:
        with pytest.raises(UserError, match="is not heap sizes joined by ;"):
            from_spiel("nim_evo_kayles", {"heaps": heaps})


def test_every_short_name_has_its_default_board():
    for short_name in short_names():
        assert from_spiel(short_name, {}).name == DEFAULTS[short_name[len("nim_evo_"):]]
