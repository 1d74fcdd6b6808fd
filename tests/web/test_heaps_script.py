"""nim_evo.web.translate.heaps_script: a program of a splitting game plays, in JavaScript, the
move Python plays among heaps of any size (every tie broken alike, folds that leave Numbers'
exact range run again in BigInt), and each heap's moves are the family's."""

import json
import shutil
import subprocess

import numpy as np
import pytest

from nim_evo.games import bigheaps, game
from nim_evo.genomes.program import KIND
from nim_evo.genomes.scoring import split_child
from nim_evo.validation import UserError
from nim_evo.web.translate import heaps_script

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node (Node.js) is not on PATH: the scripts cannot be run")
XOR = "sub(or(a, p), and(a, p))"
FAMILIES = ["10-kayles", "12-dawson", "3-5-7-lasker", "11-grundy", "10-octal.137", "8-kayles-misere"]
# programs whose folds leave Numbers' exact range (int64 overflow, bitwise operands past 32 bits)
EDGES = [("add(shl(shl(shl(shl(shl(shl(add(a, p))))))), p)", "v", "0 (5 1 9) +1048576"),
         ("mod(not(add(shl(shl(shl(a))), p)), sub(k, add(p, 2)))", "if(lt(v, min(m, 2)), v, m)", "0 3 (1 2)"),
         ("or(shl(shl(shl(shl(shl(shl(shl(shl(shl(shl(a)))))))))), p)", "max(v, 0)", "0 (1 2 4 3) +4")]


def run(script: str, calls: list[str]) -> list:
    driver = [script, f"process.stdout.write(JSON.stringify([{', '.join(calls)}]));"]
    done = subprocess.run([NODE, "-"], input="\n".join(driver), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def programs(board, rng) -> list:
    values = [int(v) for v in board.values_for(64).values[:64]]  # (Grundy's game: not known to be periodic)
    true = [] if board.misere else [XOR, "v", "0", f"{' '.join(map(str, values[:-1]))} ({values[-1]})"]
    made = [KIND.plain(KIND.create(board, np.random.default_rng(seed))) for seed in range(5)]
    return ([true] if true else []) + made + [[step, score, "0", heap] for step, score, heap in EDGES]


def positions(rng) -> list[tuple]:
    small = [tuple(int(n) for n in rng.integers(0, 25, size=int(rng.integers(1, 5)))) for _ in range(40)]
    return [p for p in small if any(p)] + [(5, 5, 0, 3), (1,), (2, 2), (0, 7, 7, 7)]


@pytest.mark.parametrize("name", FAMILIES)
def test_the_script_moves_as_python_moves(name):
    board = game(name)
    rng = np.random.default_rng(4)
    cases = positions(rng)
    for genes in programs(board, rng):
        got = run(heaps_script("program", genes, board), [f"nimSplitMove({json.dumps(list(p))})" for p in cases])
        for position, move in zip(cases, got):
            options = [n for n in position if n and bigheaps.moves_from(board, n)]
            want = list(bigheaps.move_to(position, split_child(genes, board, position))) if options else None
            assert move == want, f"{genes} at {position}: python {want}, script {move}"


def test_twelve_heaps_of_up_to_100000_are_played_as_python_plays_them():
    rng = np.random.default_rng(1)
    for name in ("10-kayles", "3-5-7-lasker"):
        board = game(name)
        genes = [XOR, "v", "0", board.grundy_words()]
        cases = [tuple(int(n) for n in rng.integers(10**4, 10**5, size=12)), (99_999, 0, 65_536, 3)]
        got = run(heaps_script("program", genes, board), [f"nimSplitMove({json.dumps(list(p))})" for p in cases])
        assert got == [list(bigheaps.move_to(p, split_child(genes, board, p))) for p in cases]


@pytest.mark.parametrize("name", FAMILIES[:5])
def test_each_heap_s_moves_are_the_family_s(name):
    board = game(name)
    script = heaps_script("program", [XOR, "v", "0", "(0) +1"], board)
    every = [(n, t, p) for n in range(31) for t in range(n + 1) for p in range(n + 1)]
    got = run(script, [f"nimHeapMoves({n})" for n in range(31)] + [f"nimHasMove({n})" for n in range(200)]
              + [f"[{', '.join(f'nimAllows({n}, {t}, {p})' for n, t, p in every)}]"])
    moves = [bigheaps.moves_from(board, n) for n in range(31)]
    assert [sorted(map(tuple, listed)) for listed in got[:31]] == moves
    assert got[31:231] == [bool(bigheaps.moves_from(board, n)) for n in range(200)]
    assert [(n, t, p) for (n, t, p), ok in zip(every, got[231]) if ok] == [(n, t, p) for n in range(31)
                                                                           for t, p in moves[n]]


def test_a_program_without_a_heap_part_or_of_another_game_is_one_line():
    with pytest.raises(UserError, match="has none"):
        heaps_script("program", [XOR, "v"], game("10-kayles"))
    with pytest.raises(UserError, match="does not know the moves of"):
        heaps_script("program", [XOR, "v", "0", "(0) +1"], game("20-sub1.3.4"))  # (a take-away game: not split)
