"""Tests of nim_evo.engine.search: any game's space, found by search, and Nim's counted spaces held to it."""

import numpy as np
import pytest

import nim_evo
from nim_evo.engine.search import SearchedSpace
from nim_evo.engine.sizes import SpaceTooLarge
from nim_evo.engine.space import space_for
from nim_evo.games import Rules, game
from nim_evo.validation import UserError


@pytest.mark.parametrize("name", ["7-5-3", "3-4-5-cap2-misere", "2-2-3-3", "1-3-5-7-misere", "4-4-4-cap1"])
def test_the_search_finds_nim_s_box_and_multisets_array_for_array(name):
    board = game(name)
    for multiset in (False, True):
        counted, searched = nim_evo.space_for(board, multiset=multiset), SearchedSpace(board, multiset=multiset)
        where = searched.indices(counted.positions)
        assert searched.n_positions == counted.n_positions and (where >= 0).all()
        assert np.array_equal(searched.legal[where], counted.legal)
        assert np.array_equal(searched.next[where], np.where(counted.next >= 0, where[np.maximum(counted.next, 0)], -1))
        assert np.array_equal(searched.multiplicity[where], counted.multiplicity)
        assert np.array_equal(searched.columns[where], counted.columns)
        assert np.array_equal(searched.weights[where], counted.weights)
        assert np.array_equal(searched.terminal[where], counted.terminal)
        first, second = nim_evo.solve(counted), nim_evo.solve(searched)
        assert np.array_equal(second.win[where], first.win)
        assert np.array_equal(second.remoteness[where], first.remoteness)


def test_every_move_leads_to_a_lower_index():
    space = SearchedSpace(game("3-5-7-sub1.2.4"), multiset=True)
    rows, moves = np.nonzero(space.legal)
    assert (space.next[rows, moves] < rows).all()
    assert [int(space.order[level[0]]) for level in space.levels] == sorted(set(space.order.tolist()))


@pytest.mark.parametrize("name", ["3-5-7-sub1.2.4", "4-5-kayles", "3-4-lasker", "4-5-wythoff", "1-2-3-moore2",
                                  "7-5-3", "2-3-4-cap2-misere"])
@pytest.mark.parametrize("multiset", [False, True])
def test_next_is_minus_one_exactly_where_a_move_is_illegal(name, multiset):
    """The spaces' contract (:class:`nim_evo.engine.space.Space`): ``next`` is -1 where a
    move is illegal and a position index where it is legal, on every kind of space; the
    greedy table mutation reads an illegal move's value from the end of its array by it."""
    space = space_for(game(name), multiset=multiset)
    assert np.array_equal(space.next == -1, ~space.legal)
    assert (space.next[space.legal] >= 0).all() and (space.next < space.n_positions).all()


def test_positions_not_on_the_board_are_minus_one_or_one_line_errors():
    space = SearchedSpace(game("9-sub3.5"))
    assert space.indices(np.array([[2], [9], [6]])).tolist() == [-1, space.start, int(space.index((6,)))]
    with pytest.raises(UserError, match=r"position \(2,\) is not reachable from the start \(9,\)"):
        space.index((2,))


def test_a_board_too_big_to_enumerate_is_one_line():
    with pytest.raises(SpaceTooLarge, match="too many to enumerate") as caught:
        SearchedSpace(game("30-30-30-30-30-sub1.2"), max_positions=10_000)
    assert "\n" not in str(caught.value)


def test_a_multiset_column_stands_for_every_action_that_reaches_its_multiset():
    space = nim_evo.space_for(game("4-4-6-sub1.3"), multiset=True)
    index = space.index((4, 4, 6))
    columns = {int(k): int(space.multiplicity[index, k]) for k in np.flatnonzero(space.legal[index])}
    moves = {space.move(k): n for k, n in columns.items()}
    assert moves == {(0, 1): 2, (0, 3): 2, (2, 1): 1, (2, 3): 1}  # the two heaps of 4 merged
    assert space.concrete_moves((4, 6, 4), space.move_index((0, 3))) == [(0, 3), (2, 3)]


def test_boxes_are_counted_and_other_boards_searched():
    """Nim's boards and a subtraction game's with 1 in its set are boxes, counted; a set without 1
    leaves holes in the box (a heap of 20 taken 2 or 3 at a time never holds 19), searched."""
    assert type(nim_evo.space_for(Rules((7, 5, 3)))).__name__ == "Space"
    assert type(nim_evo.space_for("7-5-3", multiset=True)).__name__ == "MultisetSpace"
    assert type(nim_evo.space_for("4-6-sub1.3.4", multiset=True)).__name__ == "MultisetSpace"
    assert type(nim_evo.space_for("20-sub1.3.4")).__name__ == "Space"
    assert isinstance(nim_evo.space_for("20-sub2.3"), SearchedSpace)


@pytest.mark.parametrize("name", ["4-6-6-sub1.3.4", "3-5-7-sub1.2.4-misere"])
def test_a_counted_subtraction_box_is_the_searched_one(name):
    """The counted spaces of a subtraction box hold the search's positions, moves and verdicts."""
    board = game(name)
    for multiset in (False, True):
        counted, searched = nim_evo.space_for(board, multiset=multiset), SearchedSpace(board, multiset=multiset)
        where = searched.indices(counted.positions)
        assert counted.n_positions == searched.n_positions and (where >= 0).all()
        np.testing.assert_array_equal(counted.legal, searched.legal[where])
        np.testing.assert_array_equal(np.where(counted.next >= 0, where[np.maximum(counted.next, 0)], -1),
                                      searched.next[where])
        np.testing.assert_array_equal(counted.multiplicity, searched.multiplicity[where])
        np.testing.assert_array_equal(counted.columns, searched.columns[where])
        np.testing.assert_array_equal(nim_evo.solve(counted).win, nim_evo.solve(searched).win[where])
