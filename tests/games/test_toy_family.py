"""A new game family is one file and its registration: the toy splitting family of ``toy_game.py``
passes check_game, is solved (against a brute force written here), and comes in as a package's
entry point."""

import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import nim_evo
from nim_evo.engine.conformance import check_game
from nim_evo.games import FAMILIES, game, register

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def toy():
    from toy_game import TakeOrSplit

    register(TakeOrSplit)
    yield TakeOrSplit
    FAMILIES._items.pop("take-or-split")  # other tests see the built-in families only


def brute_force_wins(heaps: tuple, misere: bool) -> bool:
    """Take one from a heap of two or more, or split a heap in two, on sorted tuples of non-empty heaps."""

    @lru_cache(maxsize=None)
    def wins(heaps):
        children = set()
        for i, n in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1:]
            if n >= 2:
                children.add(tuple(sorted(rest + (n - 1,))))
            for j in range(1, n // 2 + 1):
                if n - j >= 1:
                    children.add(tuple(sorted(rest + (j, n - j))))
        if not children:
            return misere
        return any(not wins(child) for child in children)

    return wins(tuple(sorted(h for h in heaps if h)))


@pytest.mark.parametrize("name", ["5-split", "6-split-misere", "7-split"])
def test_the_toy_family_passes_check_game_and_is_solved(toy, name):
    board = game(name)
    assert isinstance(board, toy) and board.name == name
    report = check_game(board)
    assert set(report.checks) >= {"name", "alphabet", "views", "order", "interchangeable", "solver"}
    for multiset in (False, True):
        solution = nim_evo.solve(nim_evo.space_for(board, multiset=multiset))
        positions = solution.space.positions
        expected = [brute_force_wins(tuple(p), board.misere) for p in positions.tolist()]
        assert solution.win.tolist() == expected
        # the game ends on boards of single objects (every number of them), never on the empty board
        ended = positions[solution.space.terminal]
        assert (ended <= 1).all() and sorted(ended.sum(axis=1).tolist()) == list(range(1, board.heap + 1))


def test_a_split_makes_positions_of_more_heaps(toy):
    board = game("6-split")
    assert board.start == (6, 0, 0, 0, 0, 0)
    assert board.apply_action(board.start, board.parse_action("split 2 off heap 1")) == (4, 2, 0, 0, 0, 0)
    space = nim_evo.space_for(board, multiset=True)
    assert space.n_positions == 29  # the partitions of 1 to 6: 1+2+3+5+7+11
    assert {tuple(sorted(p for p in row if p)) for row in space.positions.tolist()} == {
        tuple(sorted(p)) for p in _partitions_up_to(6) if p}


def _partitions_up_to(n):
    def partitions(m, most):
        if m == 0:
            yield ()
            return
        for part in range(min(m, most), 0, -1):
            for rest in partitions(m - part, part):
                yield (part, *rest)

    return [p for m in range(n + 1) for p in partitions(m, m)]


def test_the_toy_family_comes_in_as_a_package_s_entry_point(tmp_path):
    site = tmp_path / "site"
    info = site / "toy_nim_game-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-nim-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[nim_evo.games]\ntake-or-split = toy_game:TakeOrSplit\n")
    shutil.copy(HERE / "toy_game.py", site / "toy_game.py")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    code = "import nim_evo; s = nim_evo.solve('5-split'); print(s.space.n_positions, int(s.win.sum()))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    positions, won = map(int, done.stdout.split())
    space = nim_evo.space_for(_toy_in_process(5))
    assert (positions, won) == (space.n_positions, int(nim_evo.solve(space).win.sum()))


def _toy_in_process(heap):
    sys.path.insert(0, str(HERE))
    try:
        from toy_game import TakeOrSplit
    finally:
        sys.path.remove(str(HERE))
    return TakeOrSplit(heap)
