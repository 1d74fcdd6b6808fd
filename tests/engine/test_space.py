"""Tests of nim_evo.engine.space: the enumerated positions, move index and transition table."""

from __future__ import annotations

import itertools
from math import prod

import numpy as np
import pytest

import nim_evo.engine.space as space_module
from nim_evo.engine.rules import Rules
from nim_evo.engine.space import Space, SpaceTooLarge, check_space_size, space_for, space_size
from nim_evo.validation import UserError

SMALL_BOARDS = [
    Rules((1,)),
    Rules((5,)),
    Rules((6,), max_take=2),
    Rules((2, 3)),
    Rules((3, 0, 2)),
    Rules((0, 4)),
    Rules((1, 3, 5)),
    Rules((7, 5, 3)),
    Rules((4, 4), max_take=2),
    Rules((5,), max_take=3, misere=True),
    Rules((2, 3, 4), max_take=1),
    Rules((3, 1, 4, 2), max_take=3),
    Rules((2, 3, 4, 5), misere=True),
    Rules((6, 2), max_take=10),  # cap above every pile: no effect
]
IDS = [r.name for r in SMALL_BOARDS]


def _stride_index(start, position):
    """Mixed-radix index, first pile most significant, written independently."""
    index = 0
    for size, top in zip(position, start):
        index = index * (top + 1) + size
    return index


@pytest.mark.parametrize(
    "piles", [(1,), (5,), (0, 4), (1, 3, 5, 7, 9), (7, 5, 3), (2, 3, 4, 5), (17,), (40, 40, 40), (9,) * 6]
)
def test_space_size_is_product_of_pile_sizes_plus_one(piles):
    """space_size is prod(p + 1) and agrees with the built space where it is small."""
    rules = Rules(piles)
    assert space_size(rules) == prod(p + 1 for p in piles)
    assert check_space_size(rules, max_positions=space_size(rules)) == space_size(rules)
    if space_size(rules) <= 100_000:
        space = Space(rules)
        assert space.n_positions == space_size(rules)
        assert space.positions.shape == (space_size(rules), len(piles))
        assert space.totals.shape == (space_size(rules),)


def test_seven_five_three_indices():
    """7-5-3 is the mixed-radix number: (7, 5, 3) is 191, the start, and the empty board is 0."""
    space = Space(Rules((7, 5, 3)))
    assert space.index((7, 5, 3)) == 191
    assert space.start == 191 == space.n_positions - 1
    assert space.index((0, 0, 0)) == 0
    assert space.index((1, 0, 0)) == 24
    assert space.index((0, 1, 0)) == 4
    assert space.index((0, 0, 1)) == 1
    assert space.position(191) == (7, 5, 3)
    assert space.position(0) == (0, 0, 0)


@pytest.mark.parametrize("rules", SMALL_BOARDS, ids=IDS)
def test_index_position_round_trip_over_whole_space(rules):
    """index(position(i)) == i for every i, positions are the full box, in mixed-radix order."""
    space = Space(rules)
    box = list(itertools.product(*(range(p + 1) for p in rules.piles)))
    assert len(box) == space.n_positions
    assert [space.position(i) for i in range(space.n_positions)] == box  # product order is mixed radix
    for i, position in enumerate(box):
        assert space.index(position) == i
        assert _stride_index(rules.piles, position) == i
        assert space.totals[i] == sum(position)
    assert space.position(space.start) == rules.start
    assert space.index(rules.start) == space.start
    np.testing.assert_array_equal(space.indices(space.positions), np.arange(space.n_positions))
    assert space.positions.dtype == np.int32


def test_index_rejects_positions_off_the_board():
    """index raises ValueError for positions beyond the start or of the wrong shape."""
    space = Space(Rules((3, 2)))
    with pytest.raises(ValueError, match="not reachable"):
        space.index((4, 0))
    with pytest.raises(ValueError, match="not reachable"):
        space.index((0, 3))
    with pytest.raises(ValueError):
        space.index((1, 1, 1))
    with pytest.raises(ValueError):
        space.index((-1, 1))


@pytest.mark.parametrize("rules", SMALL_BOARDS, ids=IDS)
def test_moves_follow_the_engine_order(rules):
    """The move index is legal_moves(start), and move/move_index round trip."""
    space = Space(rules)
    expected = rules.legal_moves(rules.start)
    assert [space.move(k) for k in range(space.n_moves)] == expected
    assert space.moves.shape == (len(expected), 2)
    assert space.n_moves == len(expected)
    for k, move in enumerate(expected):
        assert space.move_index(move) == k
        assert space.move_index(list(move)) == k


def test_move_index_rejects_non_moves():
    """move_index raises ValueError for a move not on the board (e.g. over the cap)."""
    space = Space(Rules((3, 4), max_take=2))
    for move in [(0, 3), (1, 0), (2, 1), (0, -1)]:
        with pytest.raises(ValueError, match="is not a move of"):
            space.move_index(move)


@pytest.mark.parametrize("rules", SMALL_BOARDS, ids=IDS)
def test_next_agrees_with_scalar_apply(rules):
    """For every (position, move) pair, next/legal agree with Rules.is_legal and Rules.apply."""
    space = Space(rules)
    assert space.next.shape == space.legal.shape == (space.n_positions, space.n_moves)
    for i in range(space.n_positions):
        position = space.position(i)
        scalar_moves = rules.legal_moves(position)
        batched_moves = [space.move(k) for k in np.flatnonzero(space.legal[i])]
        assert batched_moves == scalar_moves
        for k in range(space.n_moves):
            move = space.move(k)
            if rules.is_legal(position, move):
                assert space.legal[i, k]
                after = rules.apply(position, move)
                assert space.next[i, k] == space.index(after)
                assert space.next[i, k] < i  # every move lowers the index
                assert space.totals[space.next[i, k]] == space.totals[i] - move[1]
            else:
                assert not space.legal[i, k]
                assert space.next[i, k] == -1
    np.testing.assert_array_equal(space.next == -1, ~space.legal)


def test_empty_board_has_no_legal_moves_and_start_has_all():
    """Row 0 (the empty board) is all illegal; the start row is all legal."""
    for rules in SMALL_BOARDS:
        space = Space(rules)
        assert not space.legal[0].any()
        assert (space.next[0] == -1).all()
        assert space.legal[space.start].all()


@pytest.mark.parametrize("rules", SMALL_BOARDS, ids=IDS)
def test_levels_partition_the_space_by_totals(rules):
    """level(t) holds exactly the positions with t objects, ascending, and the levels partition the space."""
    space = Space(rules)
    assert space.max_total == sum(rules.piles)
    seen = []
    for total in range(space.max_total + 1):
        level = np.asarray(space.level(total))
        expected = np.flatnonzero(space.totals == total)
        np.testing.assert_array_equal(level, expected)
        assert len(level) > 0
        assert np.all(np.diff(level) > 0)
        seen.extend(level.tolist())
    assert sorted(seen) == list(range(space.n_positions))
    assert len(seen) == space.n_positions
    np.testing.assert_array_equal(space.level(0), [0])
    np.testing.assert_array_equal(space.level(space.max_total), [space.start])


def test_refuses_huge_board_quickly():
    """40 piles of 40 raise SpaceTooLarge (a ValueError) before anything is built (the
    refusal allocates under a megabyte), naming the size and the limit."""
    import tracemalloc

    rules = Rules((40,) * 40)
    tracemalloc.start()
    try:
        with pytest.raises(SpaceTooLarge) as info:
            Space(rules)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert rules.name in message
    assert f"{space_size(rules):,}" in message
    assert "2,000,000" in message
    with pytest.raises(ValueError):
        space_for(rules)


def test_refusal_does_not_touch_numpy(monkeypatch):
    """Refusal happens before any array is built: with numpy unavailable to the module, it still raises."""

    class NoNumpy:
        def __getattr__(self, name):
            raise AssertionError(f"numpy.{name} used before the size check")

    monkeypatch.setattr(space_module, "np", NoNumpy())
    with pytest.raises(SpaceTooLarge):
        Space(Rules((40,) * 40))
    with pytest.raises(SpaceTooLarge):
        Space(Rules((3, 3)), max_positions=15)


def test_limit_is_inclusive():
    """A board exactly at max_positions is built; one position fewer allowed is refused."""
    rules = Rules((3, 3))
    assert Space(rules, max_positions=16).n_positions == 16
    with pytest.raises(SpaceTooLarge, match="above the limit of 15"):
        Space(rules, max_positions=15)
    with pytest.raises(SpaceTooLarge):
        check_space_size(rules, 15)


@pytest.mark.parametrize("attribute", ["positions", "totals", "moves", "legal", "next", "strides"])
def test_arrays_are_read_only(attribute):
    """Every array of a space refuses writes."""
    space = Space(Rules((2, 3), max_take=2))
    array = getattr(space, attribute)
    assert not array.flags.writeable
    with pytest.raises(ValueError):
        array[0] = 1
    with pytest.raises(ValueError):
        array.flat[-1] = 0


def test_space_for_is_shared():
    """space_for returns one shared space per rules."""
    rules = Rules((4, 2))
    assert space_for(rules) is space_for(Rules((4, 2)))
    assert space_for(rules).n_positions == 15


def test_refuses_a_board_with_too_many_position_move_pairs():
    """1000-1000 has ~1M positions (under the limit) but 2,000 moves: ~2e9 position-move pairs."""
    rules = Rules((1000, 1000))
    assert space_size(rules) <= space_module.DEFAULT_MAX_POSITIONS
    with pytest.raises(SpaceTooLarge, match="position-move pairs") as info:
        check_space_size(rules)
    assert rules.name in str(info.value)
    with pytest.raises(SpaceTooLarge, match="position-move pairs"):
        Space(rules)
    assert not space_module.enumerable(rules)


@pytest.mark.parametrize("index", [-1, -16, 16, 100])
def test_position_refuses_indices_outside_the_space(index):
    space = Space(Rules((3, 3)))
    with pytest.raises(ValueError, match="outside 0..15"):
        space.position(index)


@pytest.mark.parametrize("move_index", [-1, 6, 7])
def test_move_refuses_indices_outside_the_move_list(move_index):
    space = Space(Rules((3, 3)))
    assert space.n_moves == 6
    with pytest.raises(ValueError, match="outside 0..5"):
        space.move(move_index)


def test_a_board_of_many_moves_is_enumerable_but_not_tabulable():
    """One pile of 9,999: 10,000 positions, 9,999 moves. The space may be built (a solver's
    bytes per pair), but agents' tables over it (about 150 bytes per pair) are refused."""
    rules = Rules((9999,))
    assert space_module.enumerable(rules)
    assert not space_module.tabulable(rules)
    assert space_module.tabulable(Rules((4000,)))  # 16 million pairs
    assert space_module.tabulable(Rules((2, 4, 6, 8, 10, 12, 14, 16)), multiset=True)  # 8 heaps: 17.8 million
    assert not space_module.tabulable(Rules((1000, 1000)))  # not even enumerable


def test_the_size_of_a_board_of_a_hundred_piles_is_exact():
    """Counted in integers past 2^53 (floats overflowed at about 110 piles of 1,000): a
    hundred piles of 1,000 have comb(1100, 100) multisets (sorted tuples of 100 sizes in 0..1000)."""
    from math import comb

    from nim_evo.engine.sizes import multiset_count

    assert multiset_count([1000] * 100) == comb(1100, 100)
    assert multiset_count([7] * 30) == comb(37, 30)  # below 2^53: the float count, exact
    rules = Rules((1000,) * 100)
    with pytest.raises(SpaceTooLarge) as caught:
        check_space_size(rules, multiset=True)
    assert f"has {comb(1100, 100):,} multisets of piles" in str(caught.value)
    assert "more memory than any machine has" in str(caught.value)


def test_a_board_holds_at_most_a_hundred_piles_and_long_ones_get_short_file_names():
    from nim_evo.engine.rules import FILE_NAME_LENGTH, MAX_PILES

    with pytest.raises(UserError, match=f"piles must hold at most {MAX_PILES} piles, got 101"):
        Rules((1,) * 101)
    long, other = Rules((1000,) * 100, max_take=3), Rules((1000,) * 99 + (999,), max_take=3)
    assert len(long.file_stem) <= FILE_NAME_LENGTH and long.file_stem != other.file_stem
    assert long.file_stem.startswith("1000-1000-") and long.file_stem.endswith("-1000-cap3")
    assert Rules((1, 3, 5)).file_stem == "1-3-5"
