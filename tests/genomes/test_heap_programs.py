"""Programs in heap games other than Nim: the fold over a heap part's values plays each
family perfectly where the part holds its Grundy sequence, play on any arrangement is play
over multisets (one conformance suite), files carry the part, and a run evolves the fold on
Nim's boards first."""

import copy
import json
import re

import numpy as np
import pytest

import nim_evo
from nim_evo.evaluation.heldout import board_accuracy, held_out_board, largest_heap, random_boards_accuracy
from nim_evo.evolution.config import Config
from nim_evo.games import Rules, game
from nim_evo.genomes import GenomeAgent, genome_document, genome_from_document
from nim_evo.genomes.program import KIND, Program, heap_boards
from nim_evo.games.subtraction import grundy_sequence
from nim_evo.genomes.scoring import scores
from nim_evo.engine.space import space_for
from nim_evo.validation import UserError
from nim_evo.genomes import get_kind
from nim_evo.genomes.scoring import policy

XOR = "sub(or(a, p), and(a, p))"


def notation(values, preperiod: int) -> str:
    """A heap part's text for a sequence of values whose last ``len - preperiod`` repeat."""
    values = [int(v) for v in values]
    head = " ".join(map(str, values[:preperiod]))
    return f"{head + ' ' if head else ''}({' '.join(map(str, values[preperiod:]))})"


def theory(board) -> str:
    """The family's own Grundy sequence as a heap part (its period where certified, else its
    computed values, enough for the boards here)."""
    values = board.grundy()
    if values.periodic is not None:
        return notation(values.periodic.values, values.periodic.preperiod)
    return notation(values.values[:64], 63)


KNOWN = {  # a board of each family, and its Grundy sequence as a heap part
    "13-17-23-sub1.3.4": "(0 1 0 1 2 3 2)",
    "9-12-sub2.3": "(0 0 1 1 2)",
    "10-14-sub1.2.4.8": "(0 1 2)",
    "3-5-7-lasker": "0 (1 2 4 3) +4",
    "20-kayles": None, "9-14-kayles": None, "24-dawson": None, "20-grundy": None,
}


@pytest.mark.parametrize("name", KNOWN)
def test_the_fold_over_the_grundy_sequence_plays_every_family_perfectly(name):
    board = game(name)
    part = KNOWN[name] or theory(board)
    assert board_accuracy(get_kind("program"), [XOR, "v", "0", part], board) == 1.0
    wrong = re.sub(r"(?<=[ (])1(?=[ )])", "0", part, count=1)  # the first heap of value 1 taken for lost
    assert board_accuracy(get_kind("program"), [XOR, "v", "0", wrong], board) < 1.0


def test_subtract_a_square_by_its_computed_values():
    from nim_evo.games.squares import square_grundy

    board = game("5-9-13-squares")
    assert board_accuracy(get_kind("program"), [XOR, "v", "0", notation(square_grundy(40), 39)], board) == 1.0


@pytest.mark.parametrize("name", ["13-17-23-sub1.3.4", "3-5-7-lasker", "9-14-kayles", "20-grundy", "5-9-13-squares"])
def test_play_on_positions_is_play_over_multisets(name):
    board = game(name)
    space = space_for(board, multiset=True)
    rng = np.random.default_rng(1)
    live = np.flatnonzero(space.legal.any(axis=1))
    for program in [KIND.create(board, rng) for _ in range(4)]:
        assert len(program) == 4
        assert np.array_equal(KIND.choose(program, board, space.positions[live], rng), policy(program, space)[live])


@pytest.mark.parametrize("name", ["4-5-sub1.3.4", "2-3-lasker", "7-kayles"])
def test_a_heap_program_passes_the_conformance_suite(name):
    board = game(name)
    rng = np.random.default_rng(2)
    for genes in ([XOR, "v", "0", theory(board) if board.family != "subtraction" else "(0 1 0 1 2 3 2)"],
                  KIND.plain(KIND.create(board, rng))):
        report = nim_evo.check_player(GenomeAgent("program", genes, board), board)
        assert report.order_blind


def test_an_empty_heap_is_no_heap():
    """A padded column changes no score: the fold skips empty heaps, whatever its step does at 0."""
    board = game("7-kayles")
    program = ["add(a, add(p, 1))", "v", "0", "(0 1 2)"]
    narrow = np.array([[1, 2, 4], [3, 3, 0]])
    wide = np.concatenate([narrow, np.zeros((2, 5), dtype=np.int64)], axis=1)
    assert np.array_equal(scores(program, board, narrow), scores(program, board, wide))
    assert scores(program, board, narrow).tolist() == [1 + 2 + 1 + 1 + 1 + 0 + 1, 0 + 1 + 0 + 1]


def test_a_heap_program_file_round_trips_and_plays_its_family_and_rule_only(tmp_path):
    board = game("20-sub1.3.4")
    program = Program([XOR, "v", "0", "(0 1 0 1 2 3 2)"])
    data = KIND.to_json(program, board)
    assert data["heap"] == "(0 1 0 1 2 3 2)"
    assert data["expression"] == f"p = (0 1 0 1 2 3 2); fold({XOR}) -> v"
    assert KIND.plain(KIND.from_json(data, board)) == KIND.plain(program)
    path = tmp_path / "sub.json"
    path.write_text(json.dumps(genome_document("program", KIND.plain(program), board)))
    kind, genes, rules = genome_from_document(json.loads(path.read_text()))
    assert (kind, rules, str(genes[3])) == (KIND, board, "(0 1 0 1 2 3 2)")
    lasker = game("3-5-7-lasker")
    (tmp_path / "lasker.json").write_text(json.dumps(genome_document("program", [XOR, "v", "0", "0 (1 2 4 3) +4"], lasker)))
    assert nim_evo.load_strategy(tmp_path / "lasker.json", game("30-40-50-lasker")).rules == game("30-40-50-lasker")
    other = game("9-13-30-sub1.3.4")
    agent = nim_evo.load_strategy(path, other)
    assert board_accuracy(get_kind("program"), agent.genes, other) == 1.0
    for wrong, message in (("20-sub2.3", "plays any board of its family and rule, not 20-sub2.3 \\(a subtraction"),
                           ("20-sub1.3.4-misere", "not 20-sub1.3.4-misere"), ("7-5-3", "not 7-5-3 \\(a nim game\\)")):
        with pytest.raises(UserError, match=message):
            nim_evo.load_strategy(path, game(wrong))


def test_a_nim_program_of_three_trees_reads_and_plays_as_before():
    assert KIND.plain(Program([XOR, "v"])) == [XOR, "v", "0"]
    assert KIND.check_plain([XOR, "v", "0"], Rules((3, 4))) == [XOR, "v", "0"]
    assert KIND.check_plain([XOR, "v", "0", "(0) +1"], Rules((3, 4)))[3] == "(0) +1"
    with pytest.raises(UserError, match="genes\\[3\\]: .* is no heap part"):
        KIND.check_plain([XOR, "v", "0", "xor"], Rules((3, 4)))


def test_a_heap_game_run_evolves_nims_fold_first_then_the_heap_part():
    config = Config("program", game("20-sub1.3.4"), opponents=("perfect",))
    first, second = config.stages
    assert first.nim and first.held == ("second", "heap") and second.held == ("step", "second")
    assert first.restarts and not second.restarts  # (a heap part accumulates: a stalled one is not replaced)
    assert config.training_rules(0) == tuple(Rules(board) for board in KIND.train_boards)
    assert config.training_rules(1) == heap_boards(game("20-sub1.3.4"))
    assert config.stage_games(1) == (game("20-sub1.3.4"),)
    assert [b.name for b in heap_boards(game("7-kayles"))] == [
        "2-3-kayles", "1-4-6-kayles", "3-5-7-kayles", "2-4-6-7-kayles", "12-kayles", "20-kayles", "9-14-kayles"]
    assert all(b.name.endswith("-sub2.3") for b in heap_boards(game("9-sub2.3")))


def test_a_short_heap_game_run_holds_nims_heap_value_in_its_first_stage(tmp_path):
    run = nim_evo.evolve("program", game("20-sub1.3.4"), generations=2, population=30, offspring=30, seed=4,
                         out=tmp_path / "run", progress=False)
    assert str(run.genes[3]) == "(0) +1"  # still in the first stage: Nim's boards, the heap itself
    assert list(run.held_out) == ["1-3-5-7-9-11-13-sub1.3.4", "random boards"]
    champion = json.loads((tmp_path / "run" / "champion.json").read_text())
    assert champion["genome"]["heap"] == "(0) +1"


def test_held_out_boards_and_heap_sizes_by_family():
    assert held_out_board(game("20-sub1.3.4")).name == "1-3-5-7-9-11-13-sub1.3.4"
    assert [held_out_board(game(f"7-{family}")).name for family in ("kayles", "dawson", "lasker")] == [
        "36-kayles", "40-dawson", "24-lasker"]
    assert largest_heap(game("20-sub1.3.4")) == 10**6
    assert largest_heap(game("5-squares")) == 125_000  # its values are computed to 131,072
    assert (largest_heap(game("3-lasker")), largest_heap(game("3-lasker"), 10, 100)) == (15, 25)  # rows for every split
    assert largest_heap(game("5-6-wythoff"), 2) == 10_000  # (each board lists its moves: 3n on two heaps of n)
    program = [XOR, "v", "0", "(0 1 0 1 2 3 2)"]
    rng = np.random.default_rng(0)
    assert random_boards_accuracy(get_kind("program"), program, game("20-sub1.3.4"), rng, (3, 12), 10**6) == 1.0
    assert random_boards_accuracy(get_kind("program"), [XOR, "v", "0", "(0 1 0 1 2 3 3)"], game("20-sub1.3.4"), rng,
                                  (3, 12), 10**6) < 0.95


@pytest.mark.parametrize("name", ["20-sub1.3.4", "9-sub2.3", "3-lasker", "10-kayles", "12-dawson"])
def test_the_games_grundy_words_are_its_values(name):
    """What ``play``, the run's summary and the page show beside a program is the theory: the
    notation read back gives the family's Grundy values of every heap."""
    from nim_evo.genomes import heaps

    board = game(name)
    sizes = np.concatenate([np.arange(600), [10**6 + 3, 10**12 + 5]])
    truth = board.heap_values(16)(sizes) if hasattr(board, "heap_values") else grundy_sequence(board.subtraction)(sizes)
    assert np.array_equal(heaps.parse(board.grundy_words(), "words")(sizes), truth)


def test_sequences_with_no_known_period_show_their_first_values():
    assert game("11-grundy").grundy_words() == "0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0 4 3 0 ..."
    assert game("13-squares").grundy_words().startswith("0 1 0 1 2 0 1 0 1 2 ")
    assert game("7-5-3").grundy_words() is None and game("5-6-wythoff").grundy_words() is None


def test_play_shows_the_program_beside_the_games_theory(tmp_path, capsys):
    from nim_evo.commands.play import main as play

    path = tmp_path / "lasker.json"
    path.write_text(json.dumps(genome_document("program", [XOR, "v", "0", "0 (2 1) +2"], game("3-5-7-lasker"))))
    assert play([str(path), "--game", "30-40-50-lasker", "--opponents", "perfect", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"plays the program p = 0 (2 1) +2; fold({XOR}) -> v\n(the game's Grundy values of one heap: 0 (1 2 4 3) +4)" \
        in out
    assert "lasker   1 win,  50.0% (1 of 1 first, 0 of 1 second)" in out  # (the start is a win: first seat wins)


def test_a_heap_mutation_goes_to_a_heap_of_the_first_decision_its_parent_lost():
    kayles = game("10-kayles")
    decided = np.array([[40, 0, 0, 0], [50, 7, 0, 0], [31, 23, 0, 0], [33, 12, 9, 0]])
    parent = KIND.individual(KIND.create(kayles, np.random.default_rng(0), held={"step": None}))
    parent[3] = KIND.part(KIND.from_json({"step": XOR, "score": "v", "heap": "0 1 2 (3)"}, kayles), "heap")
    where = {}
    for cases in (None, [1.0] * 50 + [1, 0, 0, 0]):  # (board cases first; then rows 1-3 lost: 31-23 is the first)
        if cases is not None:
            parent.cases = np.array(cases)
        rng, changed = np.random.default_rng(1), []
        for _ in range(2000):
            (child,) = KIND.mutate(copy.deepcopy(parent), kayles, rng, held=("step", "second", "score"),
                                   decided=decided)  # (a clone, as the run's toolbox makes: its cases too)
            before, after = parent[3].upto(64), child[3].upto(64)
            changed += [int(h) for h in np.flatnonzero(before != after)[:1]]
        where[cases is not None] = np.mean([h in (23, 31) for h in changed])
    assert where[False] == 0 and where[True] > 0.15  # (a value mutation, 0.55 of them: to one of those half the time)
