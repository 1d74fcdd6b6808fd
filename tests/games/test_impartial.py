"""The impartial families around Nim: their names, their moves, and their theory against known
values (Winning Ways' sequences, Wythoff's pairs, Moore's theorem) and the solver."""

from decimal import Decimal, getcontext

import numpy as np
import pytest

import nim_evo
from nim_evo.games.registry import game_from_json
from nim_evo.games import Rules, game
from nim_evo.games.lasker import lasker_grundy
from nim_evo.games.splitting import grundy_values
from nim_evo.games.squares import square_grundy
from nim_evo.games.wythoff import cold_pairs
from nim_evo.validation import UserError
from nim_evo.engine.oracle import Oracle

NAMES = ["8-kayles", "12-dawson", "10-octal.137", "5-6-wythoff", "1-3-5-7-9-moore2", "3-5-7-lasker", "11-grundy",
         "13-squares"]


@pytest.mark.parametrize("name", NAMES + [f"{name}-misere" for name in NAMES])
def test_the_issue_s_names_parse_and_read_back(name):
    board = game(name)
    assert board.name == name and game(board.name) == board
    assert game_from_json(board.to_json()) == board
    assert board.misere == name.endswith("-misere")


def test_kayles_and_dawson_s_codes_are_named_so():
    assert game("8-octal.77") == game("8-kayles") and game("8-octal.770").name == "8-kayles"
    assert game("12-octal.07").name == "12-dawson"
    assert game("8-kayles").describe().startswith("Kayles 8-kayles: one heap of 8; a move knocks down one pin or two")


def test_a_kayles_move_knocks_pins_down_and_splits_the_row():
    board = game("8-kayles")
    assert board.start == (8, 0, 0, 0)  # a row of 8 pins splits into 4 rows at most
    assert board.apply(board.start, (0, 1, 3)) == (3, 4, 0, 0)  # the 4th pin down: rows of 3 and 4
    assert board.apply((3, 4, 0, 0), (1, 2, 0)) == (3, 2, 0, 0)  # two pins off the end of a row
    assert not board.is_legal((3, 4, 0, 0), (0, 3, 0))  # three pins at once: no
    assert board.action_label(board.action_of((0, 1, 3))) == "1 1 3"
    assert board.check_position((3, 4)) == (3, 4, 0, 0)  # a shorter position is padded


def test_grundy_s_game_ends_on_heaps_of_one_and_two():
    board = game("7-grundy")
    assert board.legal_moves(board.start) == [(0, 0, 1), (0, 0, 2), (0, 0, 3)]
    assert board.is_over((1, 2, 2, 1, 1, 0, 0)) and not board.is_over((3, 0, 0, 0, 0, 0, 0))


def test_wythoff_takes_from_one_heap_or_the_same_from_both():
    board = game("5-6-wythoff")
    moves = board.legal_moves((2, 3))
    assert moves == [(1, 0), (2, 0), (0, 1), (0, 2), (0, 3), (1, 1), (2, 2)]
    assert board.apply((2, 3), (2, 2)) == (0, 1)
    assert board.action_label(board.action_of((2, 2))) == "1 2 2 2"
    assert board.parse_action("1 2 2 2") == board.action_of((2, 2))


def test_moore_takes_from_up_to_k_heaps():
    board = game("1-2-3-moore2")
    assert board.is_legal((1, 2, 3), (1, 0, 3)) and not board.is_legal((1, 2, 3), (1, 1, 1))
    assert board.n_actions == 1 + 2 + 3 + 1 * 2 + 1 * 3 + 2 * 3
    assert game("1-2-3-moore1").n_actions == 6  # k = 1 is Nim


# -- theory against known values --------------------------------------------------------------

def test_kayles_period_is_12_from_heap_71():
    values = game("8-kayles").grundy()
    assert values.periodic.period == 12 and values.periodic.preperiod == 71
    assert values(np.arange(12)).tolist() == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    assert values(10**15) == values(71 + (10**15 - 71) % 12)


def test_dawson_s_kayles_period_is_34():
    values = game("12-dawson").grundy()
    assert values.periodic.period == 34
    # Dawson's chess (.137) is Dawson's Kayles one heap along: g.137(n) = g.07(n + 1)
    chess = game("10-octal.137").grundy()
    n = np.arange(500)
    assert (chess(n) == values(n + 1)).all()


def test_lasker_s_formula_is_the_mex_rule():
    computed = grundy_values(game("3-5-7-lasker"), 200).values
    assert (computed == lasker_grundy(np.arange(200))).all()
    assert lasker_grundy(np.arange(9)).tolist() == [0, 1, 2, 4, 3, 5, 6, 8, 7]


def test_grundy_s_game_first_values():
    assert game("11-grundy").grundy().values[:20].tolist() == [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3,
                                                               2, 4, 3]


def test_subtract_a_square_s_lost_heaps():
    lost = np.flatnonzero(square_grundy(1024)[:100] == 0).tolist()
    assert lost == [0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95]


def test_wythoff_s_cold_pairs_are_exact_on_heaps_of_any_size():
    getcontext().prec = 80
    phi = (1 + Decimal(5).sqrt()) / 2
    ks = [0, 1, 2, 3, 10, 12345, 10**9 + 7, 3 * 10**12, 10**14]
    low = np.array([int(k * phi) for k in ks], dtype=np.int64)
    high = low + np.array(ks, dtype=np.int64)
    assert cold_pairs(low, high).all()
    assert not cold_pairs(low + 1, high + 1).any() and not cold_pairs(low, high + 1).any()
    assert cold_pairs(np.array([0, 1, 3, 4, 6, 8]), np.array([0, 2, 5, 7, 10, 13])).all()


@pytest.mark.parametrize("name", ["20-30-wythoff", "21-20-wythoff-misere", "1-3-5-7-9-moore2", "2-3-5-6-moore3-misere",
                                  "20-kayles", "21-dawson", "4-5-7-lasker", "13-grundy", "30-squares"])
def test_theory_agrees_with_the_solver_on_bigger_boards(name):
    solution = nim_evo.solve(nim_evo.space_for(name, multiset=True))
    theory = game(name).theory_wins(solution.space.positions)
    assert theory is not None and (theory == solution.win).all()


def test_perfect_play_on_a_kayles_row_too_long_to_solve_reads_the_period():
    board = game("40-30-kayles")
    position = (40, 30) + (0,) * (board.width - 2)
    agent = nim_evo.make_agent("perfect", board)
    moves = agent.winning_moves(position)
    values = board.grundy()
    for move in moves:
        child = np.array([board.apply(position, move)])
        assert np.bitwise_xor.reduce(values(child), axis=-1)[0] == 0
    assert bool(moves) == bool(values(40) ^ values(30))


# -- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, message", [
    ("8-octal.8", "an octal code is '.' and digits 0 to 7"),
    ("8-octal.000", "allows no move"),
    ("8-octal.123456701", "at most 8 digits"),
    ("1-2-moore0", "1 to the 2 heaps, got 0"),
    ("1-2-moore3", "1 to the 2 heaps, got 3"),
    ("1-2-3-wythoff", "two heaps, got 3"),
    ("5000-kayles", "may come to hold 2,500 heaps; a board here holds at most 1,000"),
    ("2-grundy", "no move from the start 2"),
    ("0-0-lasker", "at least one object"),
])
def test_a_bad_board_is_one_line(name, message):
    with pytest.raises(UserError, match=message) as caught:
        game(name)
    assert str(caught.value).startswith(f"cannot read game '{name}'") and "\n" not in str(caught.value)


# -- grading against a brute force written here ---------------------------------------------

def _brute_force_random_accuracy(board):
    """Random play's share of winning moves over the winning positions reachable from the start,
    by a search and a recursion written here on the game's scalar views: positions as the board
    holds them where heaps keep their place, as multisets (sorted rows) where they do not."""
    def key(position):
        return position if board.heaps_in_place else tuple(sorted(position, reverse=True))

    children, seen, frontier = {}, {key(board.start)}, [key(board.start)]
    while frontier:
        position = frontier.pop()
        children[position] = [key(board.apply(position, move)) for move in board.legal_moves(position)]
        for child in children[position]:
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    wins = {}

    def win(position):  # the player to move wins
        if position not in wins:
            moves = children[position]
            wins[position] = board.misere if not moves else any(not win(child) for child in moves)
        return wins[position]

    shares = [sum(not win(c) for c in moves) / len(moves) for p, moves in children.items() if moves and win(p)]
    return sum(shares) / len(shares)


@pytest.mark.parametrize("name", ["3-4-5-misere", "21-sub1.2.3", "11-grundy", "8-kayles", "13-squares", "5-6-wythoff",
                                  "12-dawson-misere", "1-3-5-moore2", "2-3-lasker", "4-7-wythoff-misere"])
def test_grade_reports_random_play_as_a_brute_force_does_and_perfect_play_at_100(name):
    board = game(name)
    random = nim_evo.grade_player("random", board)
    assert random.exact and random.accuracy == pytest.approx(_brute_force_random_accuracy(board), abs=1e-12)
    assert nim_evo.grade_player("perfect", board).accuracy == 1.0


def test_misere_beyond_an_enumerable_board_without_a_closed_form_is_one_line():
    with pytest.raises(UserError, match="40-40-40-kayles-misere needs its theory or its solved board: it has no "
                                        r"theory here \(Grundy values hold for heaps of any size, in normal play\)") \
            as caught:
        nim_evo.make_agent("perfect", game("40-40-40-kayles-misere"))
    assert "\n" not in str(caught.value)
    assert nim_evo.make_agent("perfect", game("900-1000-wythoff-misere")).winning_moves((900, 1000))  # a closed form


def test_a_heap_past_a_family_s_grundy_table_is_one_line_naming_the_limit():
    with pytest.raises(UserError, match=r"^grading on 2000000-squares needs its theory or its solved board: it has no "
                                        r"theory here \(Grundy values are computed for heaps up to 131,071, in normal "
                                        r"play\), and the board 2000000-squares has 2,000,001 multisets"):
        nim_evo.grade_player("random", game("2000000-squares"))


def test_a_board_with_no_theory_too_big_to_ask_everywhere_is_judged_on_its_solved_board():
    """80000-squares-misere (no theory of misère play) has 22.6 million position-move pairs, too
    many to ask a player at every position: its sample is judged on the solved board, as
    perfect play is (it was refused as "too big to solve", and a move's verdict counted as right)."""
    board = game("80000-squares-misere")
    perfect = nim_evo.grade_player("perfect", board, positions=300, games=10)
    assert not perfect.exact and perfect.accuracy == 1.0 and perfect.positions == 300
    chance = nim_evo.grade_player("random", board, positions=300, games=10)
    assert chance.positions == 300 and 0.0 < chance.accuracy < 0.2 and chance.wrong_positions == 300 - round(
        300 * chance.accuracy)
    oracle = Oracle(board)
    for wrong in chance.wrong:
        (move, _), = wrong.played
        assert oracle.wins(np.array([board.apply(wrong.position, move)]))[0]  # (it left a won position)
        assert not oracle.wins(np.array([board.apply(wrong.position, wrong.winning)]))[0]


def test_a_board_whose_children_would_not_fit_in_memory_is_one_line():
    with pytest.raises(UserError, match="1000-kayles has some 500,000 actions in rows of 500 heaps; a board here has "
                                        "at most 1,000,000 actions and 4,000,000 heap sizes"):
        game("1000-kayles")


def test_a_short_position_is_padded_for_every_view_of_a_split_game():
    board = game("8-kayles")
    assert board.is_legal((8,), (0, 1, 3)) and board.apply((8,), (0, 1, 3)) == (3, 4, 0, 0)


def test_a_learner_asked_past_its_board_says_so_and_a_box_s_multisets_are_weighed_without_search():
    import numpy as np
    from nim_evo.learners import LEARNERS
    from nim_evo.engine.reach import reachable
    from nim_evo.engine.search import SearchedSpace

    learner = LEARNERS["wincount"](Rules((3, 2)), symmetry=True)
    with pytest.raises(UserError, match="beyond the start"):
        learner.move_probabilities(np.array([[9, 9]]))
    space = SearchedSpace(game("1-3-5-moore2"), multiset=True)  # the ordered board's count, by formula
    assert (space.weights == np.bincount(space.indices(reachable(space.game, False, 10**6)),
                                         minlength=space.n_positions)).all()
