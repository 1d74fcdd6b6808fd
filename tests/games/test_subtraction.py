"""Tests of nim_evo.games.subtraction: the family's names, its rule, and its theory against brute force."""

import itertools
import json
import pickle
from functools import lru_cache

import numpy as np
import pytest

import nim_evo
from nim_evo.engine.conformance import check_game
from nim_evo.games import Rules, Subtraction, game, game_from_json
from nim_evo.validation import UserError


def brute_force_wins(heaps, subtraction, misere):
    """Win/loss of the player to move, by a memoised search written here."""

    @lru_cache(maxsize=None)
    def wins(heaps):
        children = [tuple(sorted(heaps[:i] + (n - s,) + heaps[i + 1:])) for i, n in enumerate(heaps)
                    for s in subtraction if s <= n]
        if not children:
            return misere
        return any(not wins(child) for child in children)

    return wins(tuple(sorted(heaps)))


def test_the_p_positions_of_sub_1_3_4_are_n_mod_7_in_0_and_2():
    solution = nim_evo.solve("20-sub1.3.4")
    heaps = solution.space.positions[:, 0]
    assert sorted(heaps.tolist()) == list(range(21))
    assert (~solution.win).tolist() == [n % 7 in (0, 2) for n in heaps.tolist()]


@pytest.mark.parametrize("name", ["20-sub2.5.7", "4-6-7-sub1.3", "3-5-7-sub1.2.4-misere", "15-sub2.3-misere",
                                  "2-4-9-sub3.5", "1-3-5-sub1.2.4"])
def test_the_solver_agrees_with_brute_force_on_every_position(name):
    board = game(name)
    for multiset in (False, True):
        solution = nim_evo.solve(nim_evo.space_for(board, multiset=multiset))
        expected = [brute_force_wins(tuple(p), board.subtraction, board.misere)
                    for p in solution.space.positions.tolist()]
        assert solution.win.tolist() == expected


def test_without_1_in_the_set_the_game_ends_before_the_board_is_empty():
    solution = nim_evo.solve("9-sub3.5")
    ended = sorted(int(p[0]) for p in solution.space.positions[solution.space.terminal])
    # 9 -> 6 or 4; 6 -> 3 or 1; 4 -> 1; 3 -> 0: a heap of 1 has no move, and the game ends there too
    assert sorted(int(p[0]) for p in solution.space.positions) == [0, 1, 3, 4, 6, 9]
    assert ended == [0, 1]
    assert solution.win.tolist() == [n in (3, 4, 6) for n in solution.space.positions[:, 0].tolist()]


def test_the_grundy_theory_holds_on_boards_too_big_to_enumerate():
    """Normal play: the xor of each heap's Grundy value, on heaps of 10^12, against the
    periodic sequence written out by hand (S = {1, 3, 4}: 0 1 0 1 2 3 2, period 7)."""
    board = game("1000000000000-999999999999-77-sub1.3.4")
    by_hand = [0, 1, 0, 1, 2, 3, 2]
    heaps = np.array([board.start], dtype=np.int64)
    total = by_hand[10**12 % 7] ^ by_hand[(10**12 - 1) % 7] ^ by_hand[77 % 7]
    assert board.theory_wins(heaps).tolist() == [total != 0]


def test_theory_agrees_with_the_solver_on_many_sets_and_boards():
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(40):
        members = tuple(sorted(set(rng.integers(1, 9, size=rng.integers(1, 4)).tolist())))
        heaps = tuple(rng.integers(0, 12, size=rng.integers(1, 4)).tolist())
        if max(heaps) < members[0]:
            continue
        for misere in (False, True):
            board = Subtraction(heaps, members, misere)
            theory = board.theory_wins(nim_evo.space_for(board).positions)
            if theory is None:
                assert misere and len(heaps) > 1 and not board.capped_nim
                continue
            assert theory.tolist() == nim_evo.solve(board).win.tolist(), board.name
            checked += 1
    assert checked >= 40


def test_one_to_k_is_nim_with_a_cap():
    for heaps, k, misere in [((21,), 3, False), ((17,), 3, True), ((3, 4, 5), 2, True), ((2, 5), 4, False)]:
        sub, nim = Subtraction(heaps, tuple(range(1, k + 1)), misere), Rules(heaps, k, misere)
        assert sub.moves == nim.moves and sub.capped_nim
        assert nim_evo.solve(sub).win.tolist() == nim_evo.solve(nim).win[
            nim_evo.space_for(nim).indices(nim_evo.space_for(sub).positions)].tolist()


@pytest.mark.parametrize("name", ["20-sub1.3.4", "3-5-7-sub1.2.4-misere", "12-sub2.5.7", "4-6-sub2.3-misere"])
def test_subtraction_boards_pass_check_game(name):
    report = check_game(game(name))
    assert report.checks["views"] == report.positions and report.checks["solver"] == report.positions


def test_names_parse_back_and_the_set_is_kept_sorted_once():
    board = game("3-5-7-SUB4.1.2.2-misere")
    assert board == Subtraction((3, 5, 7), (1, 2, 4), True) and board.name == "3-5-7-sub1.2.4-misere"
    assert game(board.name) == board and pickle.loads(pickle.dumps(board)) == board
    assert game_from_json(json.loads(json.dumps(board.to_json()))) == board
    assert board.to_json() == {"game": "3-5-7-sub1.2.4-misere"}
    assert board.moves[:4] == ((0, 1), (0, 2), (1, 1), (1, 2)) and board.n_actions == 8
    assert board.action_label(board.action_of((2, 4))) == "3 4"


@pytest.mark.parametrize("name, message", [
    ("20-sub", "cannot read game '20-sub'"),
    ("20-sub0.3", "from 1 to 1,000,000, got 0"),
    ("20-sub1..3", "cannot read game"),
    ("2-sub3", "least member, 3, is above every heap"),
    ("0-0-sub1", "at least one object"),
    ("20-sub1.3-misere-misere", "cannot read game"),
    ("20-sub2000000", "from 1 to 1,000,000"),
])
def test_bad_names_are_one_line_errors(name, message):
    with pytest.raises(UserError, match=message) as caught:
        game(name)
    assert "\n" not in str(caught.value)


def test_bad_values_are_one_line_errors():
    for heaps, members in [((), (1,)), ((3,), ()), ((3,), (1.5,)), ((3,), (True,)), ((-1, 4), (1,)),
                           ((3,) * 101, (1,)), ((3,), tuple(range(1, 1002)))]:
        with pytest.raises(UserError):
            Subtraction(heaps, members)


def test_a_subtraction_board_s_every_move_is_a_heap_and_a_member():
    board = game("5-8-sub2.3.7")
    for position in itertools.product(range(6), range(9)):
        moves = board.legal_moves(position)
        assert moves == [(i, s) for i, n in enumerate(position) for s in (2, 3, 7) if s <= n]
