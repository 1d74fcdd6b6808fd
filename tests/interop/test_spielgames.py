"""Every family as an OpenSpiel game (nim_evo.interop.spielgames), held to OpenSpiel's own tests,
bots and solvers, to its own nim, and to nim_evo's oracle."""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts, minimax  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402
from open_spiel.python.algorithms.minimax_solver import MinimaxSolver  # noqa: E402
from open_spiel.python.bots.uniform_random import UniformRandomBot  # noqa: E402

import nim_evo.interop.spielgames as spielgames  # noqa: E402
from nim_evo import game  # noqa: E402
from nim_evo.engine.oracle import Oracle  # noqa: E402
from nim_evo.games.registry import FAMILIES  # noqa: E402
from nim_evo.games.spielnames import DEFAULTS, short_names, spiel_parameters  # noqa: E402
from nim_evo.validation import UserError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SIMS = 10  # random_sim_test's games per board (its own generator, the same games each run)

# a game string of each short name, parameters given, and the board it says
STRINGS = {
    "nim_evo_nim(heaps=2;3;4,rule=cap2,misere=True)": "2-3-4-cap2-misere",
    "nim_evo_subtraction(heaps=9;7,rule=sub1.3.4,misere=True)": "9-7-sub1.3.4-misere",
    "nim_evo_squares(heaps=10;6)": "10-6-squares",
    "nim_evo_wythoff(heaps=3;5,misere=True)": "3-5-wythoff-misere",
    "nim_evo_moore(heaps=2;2;3,rule=moore2,misere=True)": "2-2-3-moore2-misere",
    "nim_evo_octal(heaps=7;4,rule=octal.137)": "7-4-octal.137",
    "nim_evo_lasker(heaps=2;4,misere=True)": "2-4-lasker-misere",
    "nim_evo_grundy(heaps=9;)": "9-grundy",
    "nim_evo_kayles(heaps=6;4,misere=True)": "6-4-kayles-misere",
    "nim_evo_dawson(heaps=9;)": "9-dawson",
}

# small boards of every family, both conventions: solved whole by OpenSpiel and by nim_evo
SMALL = ["2-3-4", "2-3-4-misere", "2-3-4-cap2", "9-7-sub1.3.4-misere", "12-sub2.5", "10-6-squares",
         "7-squares-misere", "3-5-wythoff-misere", "4-6-wythoff", "2-2-3-moore2-misere", "2-3-4-moore2",
         "7-4-octal.137", "9-octal.31-misere", "2-4-lasker-misere", "3-4-lasker", "9-grundy", "10-grundy-misere",
         "3-3-kayles", "6-4-kayles", "8-kayles-misere", "4-5-dawson", "9-dawson-misere"]


def load(name):
    """OpenSpiel's game of a nim_evo board name."""
    return pyspiel.load_game(*spiel_parameters(game(name)))


def position(key: str) -> tuple[int, ...]:
    """The heaps of a state's string, ``(player): heaps``."""
    return tuple(int(v) for v in key.split(":")[1].split())


def test_every_family_and_kayles_and_dawson_is_registered_with_its_default_board():
    names = set(pyspiel.registered_names())
    assert set(short_names()) <= names
    assert {f"nim_evo_{family}" for family in FAMILIES} | {"nim_evo_kayles", "nim_evo_dawson"} <= names
    for short_name in short_names():
        spiel = pyspiel.load_game(short_name)
        board = spiel.board
        assert board.name == DEFAULTS[short_name[len("nim_evo_"):]]
        kind = spiel.get_type()
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        assert spiel.num_distinct_actions() == board.n_actions and spiel.num_players() == 2
        assert (spiel.min_utility(), spiel.max_utility(), spiel.utility_sum()) == (-1.0, 1.0, 0.0)
        assert spiel.observation_tensor_shape() == [2 + board.width]


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("short_name", short_names())
def test_openspiel_s_random_sim_test_passes_on_every_default_board(short_name, misere):
    spiel = pyspiel.load_game(short_name, {"misere": misere})
    assert spiel.board.misere is misere
    pyspiel.random_sim_test(spiel, SIMS, True, False)
    assert str(pyspiel.load_game(str(spiel))) == str(spiel)  # its game string reads back


@pytest.mark.parametrize("text", STRINGS)
def test_openspiel_s_random_sim_test_passes_on_a_board_of_each_family_read_from_a_game_string(text):
    spiel = pyspiel.load_game(text)
    assert spiel.board == game(STRINGS[text])
    pyspiel.random_sim_test(spiel, SIMS, True, False)
    again = pyspiel.load_game(str(spiel))
    assert again.board == spiel.board and str(again) == str(spiel)


@pytest.mark.parametrize("name", SMALL)
def test_openspiel_s_exact_solvers_agree_with_nim_evo_s_oracle_at_every_position(name):
    """MinimaxSolver's value at every state OpenSpiel reaches, and alpha-beta's at the start, are
    the oracle's verdicts; every state's moves are the board's, and no game outlasts the bound."""
    spiel = load(name)
    board, oracle = spiel.board, Oracle(spiel.board)
    table = MinimaxSolver(str(spiel)).solve()  # (player): heaps -> the value to the player to move
    keys = list(table)
    positions = np.array([position(key) for key in keys], dtype=np.int64)
    wins = oracle.wins(positions)
    assert [table[key].value for key in keys] == [1.0 if win else -1.0 for win in wins]
    assert str(spiel.new_initial_state()) in table
    value, _ = minimax.alpha_beta_search(spiel, maximum_depth=spiel.max_game_length())
    assert value == (1.0 if oracle.wins(np.array([board.start]))[0] else -1.0)

    longest: dict[tuple, int] = {}

    def walk(state) -> int:
        """The most moves from ``state`` to the end, each state's moves checked on the way."""
        here = tuple(state.position)
        if here not in longest:
            legal = state.legal_actions()
            assert legal == board.legal_actions(here)
            assert [state.action_to_string(a) for a in legal] == [board.action_label(a) for a in legal]
            assert state.is_terminal() == board.is_over(here) == (not legal)
            longest[here] = max((1 + walk(state.child(a)) for a in legal), default=0)
        return longest[here]

    length = walk(spiel.new_initial_state())
    assert length <= spiel.max_game_length()
    if board.family in ("nim", "wythoff", "moore", "squares") or board.name.endswith(("kayles", "kayles-misere")):
        assert length == spiel.max_game_length() == sum(board.start)  # one object at a time: the bound is met


@pytest.mark.parametrize("misere", [False, True])
def test_nim_evo_nim_plays_as_openspiel_s_own_nim_at_every_position(misere):
    pile_sizes = "2;3;4"
    theirs = pyspiel.load_game("nim", {"pile_sizes": pile_sizes, "is_misere": misere})
    ours = pyspiel.load_game("nim_evo_nim", {"heaps": pile_sizes, "misere": misere})
    board, n = ours.board, 3
    seen = set()

    def mapped(action: int) -> int:
        """OpenSpiel's nim numbers a move (take - 1) * piles + pile."""
        return board.action_of((action % n, action // n + 1))

    def walk(their_state, our_state):
        assert str(their_state) == str(our_state)  # both print (player): piles
        if str(their_state) in seen:
            return
        seen.add(str(their_state))
        assert their_state.is_terminal() == our_state.is_terminal()
        assert their_state.current_player() == our_state.current_player()
        if their_state.is_terminal():
            assert their_state.returns() == our_state.returns()
            return
        legal = their_state.legal_actions()
        assert sorted(mapped(a) for a in legal) == our_state.legal_actions()
        for action in legal:
            walk(their_state.child(action), our_state.child(mapped(action)))

    walk(theirs.new_initial_state(), ours.new_initial_state())
    assert len(seen) > 100  # every position of 2-3-4, with either player to move where both happen


@pytest.mark.parametrize("text", ["nim_evo_kayles(heaps=7;)", "nim_evo_wythoff(heaps=3;5)",
                                  "nim_evo_subtraction(heaps=14;,rule=sub1.3.4)", "nim_evo_kayles(heaps=3;4,misere=True)"])
def test_openspiel_s_mcts_wins_from_the_winning_seat_against_a_random_bot(text):
    """MCTS with random rollouts in the seat the oracle says wins (the first on 7 pins, the second
    on Wythoff's 3-5 and on 14 with {1, 3, 4}) beats uniform random play, and two of them
    play it out as theory says; a game's returns are +1 and -1."""
    spiel = pyspiel.load_game(text)
    board = spiel.board
    seat = 0 if Oracle(board).wins(np.array([board.start]))[0] else 1
    games, won = 8, 0
    for seed in range(games):
        rng = np.random.RandomState(seed)
        searcher = mcts.MCTSBot(spiel, 2, 200, mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=True)
        bots = [searcher, UniformRandomBot(1 - seat, np.random.RandomState(100 + seed))]
        if seat == 1:
            bots = [UniformRandomBot(0, np.random.RandomState(100 + seed)), searcher]
        returns = evaluate_bots(spiel.new_initial_state(), bots, np.random.default_rng(seed))
        assert sorted(returns) == [-1.0, 1.0]
        won += returns[seat] == 1.0
    assert won >= games - 1
    searchers = [mcts.MCTSBot(spiel, 2, 400, mcts.RandomRolloutEvaluator(1, np.random.RandomState(p)),
                              random_state=np.random.RandomState(10 + p), solve=True) for p in (0, 1)]
    returns = evaluate_bots(spiel.new_initial_state(), searchers, np.random.default_rng(0))
    assert returns[seat] == 1.0 and returns[1 - seat] == -1.0


def test_a_uniform_random_bot_wins_sometimes_from_either_seat():
    """The baseline the MCTS test beats: on 7 pins random play wins from either seat."""
    spiel = pyspiel.load_game("nim_evo_kayles(heaps=7;)")
    first = [evaluate_bots(spiel.new_initial_state(), [UniformRandomBot(0, np.random.RandomState(s)),
                                                       UniformRandomBot(1, np.random.RandomState(50 + s))],
                           np.random.default_rng(s))[0] for s in range(40)]
    assert 0 < first.count(1.0) < 40


def test_states_print_observe_and_end_as_the_board_does():
    spiel = pyspiel.load_game("nim_evo_grundy(heaps=7;,misere=True)")
    state = spiel.new_initial_state()
    assert str(state) == "(0): 7 0 0 0 0 0 0" and state.observation_string(1) == str(state)
    assert state.observation_tensor(0) == [1.0, 0.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    action = spiel.board.action_of((0, 0, 3))  # split 7 into 3 and 4
    assert state.action_to_string(action) == "1 0 3"
    state.apply_action(action)
    assert str(state) == "(1): 3 4 0 0 0 0 0" and state.observation_tensor(0)[:4] == [0.0, 1.0, 3.0, 4.0]
    assert state.information_state_string(0) == state.history_str() == str(action)
    with pytest.raises(UserError, match="illegal move"):
        state.apply_action(action)  # 3 cannot leave 3 on one side
    for move in [(0, 0, 1), (1, 0, 1)]:  # 3 -> 1 and 2, then 4 -> 1 and 3
        state.apply_action(spiel.board.action_of(move))
    assert str(state) == "(1): 1 1 2 3 0 0 0" and state.returns() == [0.0, 0.0]
    state.apply_action(spiel.board.action_of((3, 0, 1)))  # 3 -> 1 and 2: heaps of 1 and 2 alone, no move
    assert state.is_terminal() and str(state) == "(0): 1 1 2 1 2 0 0"
    assert state.returns() == [1.0, -1.0]  # misère: player 1 made the last move and loses
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []


def test_a_one_heap_board_s_string_ends_in_a_semicolon_and_reads_back():
    spiel = pyspiel.load_game("nim_evo_kayles", {"heaps": "10"})
    assert str(spiel) == "nim_evo_kayles(heaps=10;,misere=False)"
    assert pyspiel.load_game("nim_evo_kayles(heaps=10;)").board == spiel.board == game("10-kayles")
    serialized = pyspiel.serialize_game_and_state(spiel, spiel.new_initial_state().child(3))
    again, state = pyspiel.deserialize_game_and_state(serialized)
    assert again.board == spiel.board and state.history() == [3]


def test_unknown_parameters_and_bad_values_are_clear_errors():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'bogus'. Available parameters are: heaps, misere"):
        pyspiel.load_game("nim_evo_kayles(bogus=1)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'rule'"):
        pyspiel.load_game("nim_evo_dawson(heaps=5;,rule=sub1.2)")
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter heaps"):
        pyspiel.load_game("nim_evo_kayles(heaps=10)")  # a bare number: OpenSpiel's int, and heaps is a string
    for text, message in [("nim_evo_nim(heaps=3;x)", r"heaps='3;x' is not heap sizes joined by ;"),
                          ("nim_evo_subtraction(heaps=9;,rule=cap3)", "a board of nim"),
                          ("nim_evo_wythoff(heaps=1;2;3)", "wythoff")]:
        with pytest.raises(UserError, match=message) as error:
            pyspiel.load_game(text)
        assert "\n" not in str(error.value)


def test_registering_again_is_harmless():
    before = str(pyspiel.load_game("nim_evo_subtraction(heaps=9;7,rule=sub1.3.4,misere=True)"))
    assert importlib.import_module("nim_evo.interop.spielgames") is spielgames
    assert spielgames.register() == []
    after = pyspiel.load_game("nim_evo_subtraction(heaps=9;7,rule=sub1.3.4,misere=True)")
    assert str(after) == before and isinstance(after, spielgames.NimEvoGame)


SCRIPT = """
import importlib, sys
sys.path.insert(0, sys.argv[1])
import pyspiel
import nim_evo.interop.spielgames as spielgames
assert importlib.import_module("nim_evo.interop.spielgames") is spielgames and spielgames.register() == []
from toy_game import TakeOrSplit
from nim_evo.games import register
from nim_evo.validation import UserError
register(TakeOrSplit)
assert spielgames.register() == ["nim_evo_take-or-split"] and spielgames.register() == []
try:
    pyspiel.load_game("nim_evo_take-or-split")
except UserError as error:
    print(error)
game = pyspiel.load_game("nim_evo_take-or-split(heaps=6;,rule=split,misere=True)")
pyspiel.random_sim_test(game, 5, True, False)
print(game, game.board.name, game.max_game_length())
"""


def test_a_family_added_later_is_registered_by_calling_register_again_and_the_process_exits_cleanly():
    """In a process of its own: pyspiel keeps what is registered until the interpreter has gone,
    and a registration that Python frees before then crashes the exit."""
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "tests" / "games")], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "nim_evo_take-or-split has no default board: give its heaps and rule"
    assert lines[1].startswith("nim_evo_take-or-split(heaps=6;,misere=True,rule=split) 6-split-misere")


def test_import_nim_evo_does_not_import_pyspiel():
    done = subprocess.run([sys.executable, "-c", "import sys, nim_evo, nim_evo.interop, nim_evo.games.spielnames; "
                                                 "print('pyspiel' in sys.modules)"],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == "False", done.stderr[-2000:]
