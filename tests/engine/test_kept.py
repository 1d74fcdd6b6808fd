"""The bounded cache of spaces and solutions: the ones asked last, up to a count and a total
weight, the one asked last always; a run of four families keeps its eight boards."""

import numpy as np
import pytest

from nim_evo.engine import kept
from nim_evo.engine.space import space_for
from nim_evo.games import Rules


def test_the_ones_asked_last_are_kept_up_to_a_count_and_a_weight():
    built = []

    @kept.bounded(lambda arguments, value: value[1], items=3, total=10)
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


def test_a_memo_keeps_the_results_given_last_up_to_a_count_and_bytes_read_only():
    memo = kept.Memo(3, 100)
    arrays = {key: np.full(5, ord(key)) for key in "abcde"}
    for key in "abc":
        memo.put(key, arrays[key], 30)
    assert memo.get("a") is arrays["a"] and memo.nbytes == 90
    memo.put("d", arrays["d"], 30)  # (a count of three: b, the oldest asked, goes)
    assert memo.get("b") is None and memo.get("c") is arrays["c"]
    memo.put("a", np.zeros(1), 30)  # (kept already: the first stays)
    assert memo.get("a") is arrays["a"] and memo.nbytes == 90
    memo.put("e", arrays["e"], 80)  # (past the bytes: all but the latest go)
    assert [memo.get(key) is not None for key in "acde"] == [False, False, False, True] and memo.nbytes == 80
    assert not arrays["e"].flags.writeable  # (what it holds, nothing changes)
    with pytest.raises(ValueError):
        arrays["e"][0] = 1


def test_eight_boards_of_four_families_are_kept():
    boards = [Rules((1, 3, 5, 7, 9), max_take, misere) for max_take in (None, 3) for misere in (False, True)]
    boards += [Rules((1, 3, 5, 7, 9, 11, 13), max_take, misere) for max_take in (None, 3) for misere in (False, True)]
    spaces = [space_for(board, multiset=True) for board in boards]
    assert all(space_for(board, multiset=True) is space for board, space in zip(boards, spaces))
