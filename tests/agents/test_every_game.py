"""Players say which games they play: random, perfect, minimax, the table genome and the learners
play every registered family's boards (held to their one answer by check_player); Nim's own
agents and genome kinds refuse another family in one line."""

import json

import numpy as np
import pytest

import nim_evo
from nim_evo.games import FAMILIES, Rules, game
from nim_evo.games.subtraction import grundy_sequence
from nim_evo.validation import UserError
from nim_evo.genomes import get_kind

BOARDS = {"nim": ["7-5-3", "2-3-4-misere", "5-6-cap2-misere"],
          "subtraction": ["20-sub1.3.4", "3-5-7-sub1.2.4-misere", "4-8-sub2.3", "9-sub3.5-misere"],
          "squares": ["13-squares", "5-8-squares-misere"], "wythoff": ["5-6-wythoff", "4-7-wythoff-misere"],
          "moore": ["1-3-5-moore2", "1-2-3-moore2-misere"], "octal": ["8-kayles", "12-dawson-misere"],
          "lasker": ["2-3-lasker", "5-lasker-misere"], "grundy": ["11-grundy", "9-grundy-misere"]}
EVERY_GAME = ("random", "perfect", "minimax")


def test_every_registered_family_has_boards_here():
    assert set(BOARDS) == set(FAMILIES)


@pytest.mark.parametrize("name", [n for names in BOARDS.values() for n in names])
def test_many_actions_read_as_moves_at_once_as_one_by_one(name):
    """``moves_of`` (a distribution's moves, read together) is ``move_of`` of each, in order,
    and refuses an action outside the game's as ``move_of`` does."""
    board = game(name)
    actions = np.arange(board.n_actions)[::-1]
    assert board.moves_of(actions) == [board.move_of(int(a)) for a in actions]
    assert board.moves_of(np.array([], dtype=np.int64)) == []
    for bad in (-1, board.n_actions):
        with pytest.raises(UserError, match=f"^{bad} is not an action of "):
            board.moves_of([bad])


@pytest.mark.parametrize("name", [n for names in BOARDS.values() for n in names])
@pytest.mark.parametrize("agent", EVERY_GAME)
def test_the_players_of_every_game_pass_check_player(name, agent):
    report = nim_evo.check_player(nim_evo.make_agent(agent, game(name)))
    assert report.positions == int((~nim_evo.space_for(game(name)).terminal).sum())
    assert set(report.checks) >= {"rows", "distribution", "policy", "move", "choose", "multisets"}


@pytest.mark.parametrize("name", BOARDS["subtraction"])
def test_perfect_play_wins_every_winning_position_against_the_solver(name):
    board = game(name)
    solution = nim_evo.solve(board)
    space = solution.space
    table = nim_evo.make_agent("perfect", board).policy(space)
    assert solution.accuracy(table) == 1.0
    minimax = nim_evo.make_agent("minimax", board).policy(space)
    assert solution.accuracy(minimax) == 1.0
    assert nim_evo.make_agent("random", board).policy(space)[~space.terminal].sum(axis=1) == pytest.approx(1.0)


def test_perfect_play_on_heaps_too_big_to_enumerate_reads_the_grundy_values():
    board = game("1000000007-999999999-123456790-sub1.3.4")
    g = grundy_sequence((1, 3, 4))
    position = board.start
    assert int(np.bitwise_xor.reduce(g(np.array(position)))) != 0  # a winning position
    moves = nim_evo.make_agent("perfect", board).distribution(position)
    assert moves and all(p > 0 for _, p in moves)
    for move, _ in moves:
        after = board.apply(position, move)
        assert int(np.bitwise_xor.reduce(g(np.array(after)))) == 0  # every move it plays leaves a lost position


def test_on_nim_perfect_is_the_nim_sum_agent():
    assert nim_evo.make_agent("perfect", Rules((7, 5, 3))).name == "nimsum"


@pytest.mark.parametrize("agent", ["nimsum", "take-3", "dumb", "aggressive", "fixed-rules"])
def test_nim_s_own_agents_refuse_another_family_in_one_line(agent):
    with pytest.raises(UserError, match=r"plays Nim only, not 20-sub1\.3\.4 \(a subtraction game\)$"):
        nim_evo.make_agent(agent, game("20-sub1.3.4"))


@pytest.mark.parametrize("kind", ["rules", "thresholds"])
def test_nim_s_own_genome_kinds_refuse_another_family_in_one_line(kind):
    with pytest.raises(UserError, match=f"'{kind}' plays Nim only, not 20-sub1.3.4 .*the table genome plays every game"):
        nim_evo.evolve(kind, game("20-sub1.3.4"), generations=1, progress=False)


def test_programs_play_games_whose_move_takes_from_several_heaps():
    """Wythoff's game and Moore's Nim are no sums of one-heap games: a program of theirs has no
    heap part and one stage, nothing held, on boards of the family's own (Wythoff's two heaps).
    Moore's Nim_1 is Nim: exclusive or plays it perfectly, judged on Moore's boards."""
    from nim_evo.evaluation.heldout import held_out_accuracy
    from nim_evo.genomes.program import KIND, Program, heap_boards
    from nim_evo.genomes.protocol import Stage

    wythoff = game("5-6-wythoff")
    assert KIND.stages(((None, False),), game=wythoff) == (Stage(((None, False),)),)
    assert len(KIND.create(wythoff, np.random.default_rng(0))) == 3
    assert all(len(board.heaps) == 2 for board in heap_boards(wythoff)) and len(heap_boards(wythoff)) == 4
    xor = Program(["sub(or(a, p), and(a, p))", "v"])
    assert held_out_accuracy(get_kind("program"), xor, game("1-3-5-moore1")) == {"1-3-5-7-9-11-13-moore1": 1.0,
                                                                      "random boards": 1.0}
    assert held_out_accuracy(get_kind("program"), xor, game("1-3-5-moore2"))["random boards"] < 0.5
    with pytest.raises(UserError, match="a program trains on boards of 1 to 4 heaps of up to 40, and none is a board "
                                        "of 1-2-3-4-5-6-moore5's family and rule$"):
        nim_evo.evolve("program", game("1-2-3-4-5-6-moore5"), generations=1, progress=False)


def test_perfect_play_without_theory_beyond_the_solver_is_refused_in_one_line():
    from nim_evo.games import Subtraction

    board = Subtraction((300,) * 4, tuple(range(2, 202)), misere=True)  # 800 actions: the search stops early
    with pytest.raises(UserError, match="no theory here, and the board .* too many to enumerate"):
        nim_evo.make_agent("perfect", board)


@pytest.mark.parametrize("name", ["4-8-sub2.3", "3-5-7-sub1.2.4-misere"])
def test_a_table_genome_is_evolved_exported_and_played_on_a_subtraction_board(name, tmp_path):
    board = game(name)
    run = nim_evo.evolve("table", board, opponents=["random", "perfect"], until="accuracy=1", generations=60,
                         seed=0, progress=False)
    assert run.accuracy == 1.0 and run.state.generation < 60
    path = run.export(tmp_path / "champion.json")
    document = json.loads(path.read_text())
    assert document["rules"] == {"game": name}
    space = nim_evo.space_for(board, multiset=True)
    moves = document["genome"]["moves"]
    assert len(moves) == space.n_positions
    assert [m is None for m in moves] == space.terminal.tolist()  # a move wherever the game goes on
    agent = nim_evo.load_strategy(path)
    assert agent.rules == board and nim_evo.check_player(agent).positions > 0
    assert nim_evo.solve(space).accuracy(agent.policy(space)) == 1.0
    resumed = nim_evo.resume(run.directory, generations=run.state.generation + 1, progress=False) \
        if run.directory else None
    assert resumed is None or resumed.rules == board


@pytest.mark.parametrize("learner", ["qlearning", "td", "wincount"])
def test_the_learners_learn_a_subtraction_game(learner):
    board = game("20-sub1.3.4")
    games = 5_000 if learner == "wincount" else None  # seed 000's learner: 98% after 5,000; the others' own
    trained = nim_evo.train(learner, board, games=games, seed=0)
    solution = nim_evo.solve(nim_evo.space_for(board, multiset=trained.symmetry))
    assert solution.accuracy(trained.policy(solution.space)) >= 0.9
