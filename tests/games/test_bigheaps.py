"""A splitting game past every board: its moves are the engine's board's moves, its theory's
winning moves win, and a board of twelve heaps of 100,000 is built where the engine refuses it."""

import numpy as np
import pytest

from nim_evo.games import bigheaps, game
from nim_evo.validation import UserError
from nim_evo.games import splitting

BIG = "-".join(str(n) for n in np.random.default_rng(1).integers(10**4, 10**5, size=12))


def trimmed(row) -> tuple:
    row = list(row)
    while row and row[-1] == 0:
        row.pop()
    return tuple(int(n) for n in row)


def test_a_board_the_engine_refuses_is_built_past_its_limits():
    with pytest.raises(UserError, match="heaps; a board here holds at most"):
        game(f"{BIG}-kayles")
    board = bigheaps.open_board(f"{BIG}-kayles")
    assert len(board.heaps) == 12 and max(board.heaps) > 90_000
    assert bigheaps.same_rule(game("10-kayles"), board) and not bigheaps.same_rule(game("10-dawson"), board)
    assert bigheaps.open_board("1-3-5") is None  # (Nim's board: no splitting game)
    with pytest.raises(UserError):
        game("3-5-kayles").board((10**5,) * 12)  # (the limits hold outside open_board)


@pytest.mark.parametrize("name", ["3-5-kayles", "2-7-dawson", "4-6-lasker", "7-8-grundy"])
def test_every_move_is_the_engine_s_move_and_leaves_what_its_board_leaves(name):
    board = game(name)
    rng = np.random.default_rng(3)
    position = board.start
    for _ in range(6):
        actions = board.legal_actions(position)
        if not len(actions):
            break
        heaps = trimmed(position)
        engine = {board.move_of(a): trimmed(board.apply_action(position, a)) for a in actions}
        mine = {(h, t, p): bigheaps.apply(heaps, (h, t, p)) for h, n in enumerate(heaps) if n
                for t, p in bigheaps.moves_from(board, n)}
        assert {m: trimmed(after) for m, after in mine.items()} == engine
        assert all(bigheaps.is_legal(board, heaps, m) for m in mine)
        assert not bigheaps.is_legal(board, heaps, (len(heaps), 1, 0))
        assert not any(bigheaps.is_legal(board, heaps, (h, t, p)) for h, n in enumerate(heaps) for t in range(n + 1)
                       for p in range(n + 1) if (h, t, p) not in mine)  # (and nothing else is a move)
        for move, after in mine.items():  # the move that leaves a multiset is found back
            assert sorted(bigheaps.apply(heaps, bigheaps.move_to(heaps, after))) == sorted(after)
        position = board.apply_action(position, actions[int(rng.integers(len(actions)))])
    assert bigheaps.has_move(board, trimmed(position)) == bool(len(board.legal_actions(position)))


@pytest.mark.parametrize("family", ["kayles", "dawson", "lasker"])
def test_the_theory_s_winning_moves_leave_lost_positions_among_heaps_of_100000(family):
    board = bigheaps.open_board(f"{BIG}-{family}")
    values = board.values_for(max(board.heaps))
    heaps = board.heaps
    for _ in range(3):
        found = bigheaps.winning_moves(board, heaps, most=3)
        assert found is not None
        if np.bitwise_xor.reduce(values(np.array(heaps))) == 0:
            assert found == []
            heaps = bigheaps.apply(heaps, bigheaps.random_move(board, heaps, np.random.default_rng(0)))
            continue
        assert 1 <= len(found) <= 3
        for move in found:
            assert bigheaps.is_legal(board, heaps, move)
            assert np.bitwise_xor.reduce(values(np.array(bigheaps.apply(heaps, move)))) == 0
        heaps = bigheaps.apply(heaps, found[0])
    assert bigheaps.winning_moves(bigheaps.open_board(f"{BIG}-kayles-misere"), heaps) is None  # (no theory)


def test_a_random_move_is_drawn_uniformly_among_every_legal_move():
    board = game("4-3-lasker")
    heaps = (4, 3)
    every = [(h, t, p) for h, n in enumerate(heaps) for t, p in bigheaps.moves_from(board, n)]
    assert len(every) == 6 + 4  # (4: take 1-4 or split 1+3, 2+2; 3: take 1-3 or split 1+2)
    rng = np.random.default_rng(0)
    draws = [bigheaps.random_move(board, heaps, rng) for _ in range(5000)]
    counts = np.array([draws.count(m) for m in every])
    assert counts.sum() == 5000 and counts.min() > 400 and counts.max() < 600  # (500 each; sd 21)


@pytest.mark.parametrize("name", ["lasker", "kayles", "dawson", "grundy"])
def test_a_heap_s_moves_are_the_same_whatever_bigger_heaps_were_asked_before(name):
    """A small heap reads only the candidate pairs that fit it, in their order, of the many a
    big heap made (each of 5,000 draws among heaps of 4 and 3 read a heap of 100,000's pairs)."""
    board = game(f"5-{name}")
    splitting._CANDIDATES.clear()
    alone = [board.heap_moves(n) for n in range(1, 60)]  # (the pairs made for each heap in turn)
    board.heap_moves(1, 5000)
    after = [board.heap_moves(n) for n in range(1, 60)]
    for n, (small, large) in enumerate(alone, start=1):
        assert np.array_equal(small, after[n - 1][0]) and np.array_equal(large, after[n - 1][1])
        assert ((small + large <= n) & (small <= large)).all() and len(small) == len(set(zip(small, large)))

