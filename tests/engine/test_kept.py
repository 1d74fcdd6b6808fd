"""The bounded cache of spaces and solutions: the ones asked last, up to a count and a total
weight, the one asked last always; a run of four families keeps its eight boards."""

import pytest

from nim_evo.engine import kept
from nim_evo.engine.space import space_for
from nim_evo.games import Rules


@pytest.mark.parametrize("fixed", [False, True])
def test_the_ones_asked_last_are_kept_up_to_a_count_and_a_weight(fixed):
    """The same whether the weights are summed again each time or, ``fixed``, as they come."""
    built = []

    @kept.bounded(lambda arguments, value: value[1], items=3, total=10, fixed=fixed)
    def make(name, weight):
        built.append(name)
        return (name, weight)

    first = make("a", 2)
    assert make("a", 2) is first and built == ["a"]  # (asked again: the same object, not built again)
    make("b", 2), make("c", 2)
    make("a", 2)  # (a is now the latest: d pushes out b, the oldest)
    make("d", 2)
    assert built == ["a", "b", "c", "d"]
    make("a", 2), make("c", 2), make("d", 2)
    assert built == ["a", "b", "c", "d"]
    make("b", 2)
    assert built[-1] == "b"
    make("heavy", 50)  # (heavier than the total: kept alone, the others dropped)
    make("heavy", 50)
    assert built.count("heavy") == 1
    make("a", 2)
    assert built[-1] == "a"
    make("heavy", 50)  # (a pushed it out: built again)
    assert built.count("heavy") == 2
    make("x", 4), make("y", 4), make("z", 4)  # (three under the count, twelve over the weight: x goes)
    make("y", 4), make("z", 4)
    assert built[-3:] == ["x", "y", "z"]
    make("x", 4)
    assert built[-1] == "x"
    make("x", 4)
    count = len(built)
    make.cache_clear()
    make("x", 4)  # (kept until cleared)
    assert len(built) == count + 1


def test_weights_summed_again_see_a_result_grow_and_fixed_ones_are_taken_as_they_came():
    """A space's weight grows as its arrays are built: summed again, the cache sees it."""
    built = []

    def make(fixed):
        @kept.bounded(lambda arguments, value: value[0], items=5, total=10, fixed=fixed)
        def grown(name):
            built.append(name)
            return [1]
        return grown

    for fixed, kept_first in ((False, False), (True, True)):
        grown = make(fixed)
        first = grown("a")
        grown("b")
        first[0] = 9  # (a grew after it was kept: 9 + 1 + 1 is past the total)
        grown("c")
        built.clear()
        grown("a")
        assert (built == []) is kept_first


def test_eight_boards_of_four_families_are_kept():
    boards = [Rules((1, 3, 5, 7, 9), max_take, misere) for max_take in (None, 3) for misere in (False, True)]
    boards += [Rules((1, 3, 5, 7, 9, 11, 13), max_take, misere) for max_take in (None, 3) for misere in (False, True)]
    spaces = [space_for(board, multiset=True) for board in boards]
    assert all(space_for(board, multiset=True) is space for board, space in zip(boards, spaces))
