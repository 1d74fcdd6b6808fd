"""nim_evo's PettingZoo AEC environment and Gymnasium environment, held to their libraries'
own checkers and to the solver's verdicts."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import nim_evo
import nim_evo.envs  # noqa: F401  (registers Nim-v0)
from nim_evo import Rules, make_agent, solve
from nim_evo.envs import nim_v0
from nim_evo.interop.single import NimEnv
from nim_evo.validation import AgentError, UserError

BOARDS = ["1-3-5-7-9", "17-cap3-misere", "2-3-4-5-misere"]

# What PettingZoo's api_test says of every dict observation not on its own list of games, of a
# one-pile board, and of the empty board that ends every game of Nim: remarks, not faults.
KNOWN = [
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is a single number",
    "ignore:Observation numpy array is all zeros",
]


def indices(rules, moves):
    return sorted(rules.moves.index(move) for move in moves)


def theory_action(mask, winning):
    """The first winning move if any, else the first legal move."""
    return winning[0] if winning else int(np.flatnonzero(mask)[0])


# -- PettingZoo ------------------------------------------------------------------------


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.filterwarnings(*KNOWN)
def test_pettingzoo_api_and_seed_tests(board):
    api_test(nim_v0.env(piles=board), num_cycles=1000)
    seed_test(lambda: nim_v0.env(piles=board))


@pytest.mark.parametrize("board", [*BOARDS, "7-5-3", "3-4-5-cap2", "2-3-4-cap2-misere"])
def test_a_game_of_theory_moves_ends_as_the_solver_says(board):
    env = nim_v0.env(piles=board)
    env.reset(seed=0)
    rules = env.unwrapped.rules
    solution = solve(rules)
    assert env.unwrapped.moves == rules.moves and rules == Rules.parse(board)
    rewards = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            rewards[agent] = reward
            env.step(None)
            continue
        position = tuple(observation["observation"].tolist())
        assert position == env.unwrapped.position
        assert info["winning_moves"] == indices(rules, solution.winning_moves(position))
        assert observation["action_mask"].tolist() == [int(rules.is_legal(position, m)) for m in rules.moves]
        other = "player_1" if agent == "player_0" else "player_0"
        assert env.infos[other]["winning_moves"] == [] and not env.observe(other)["action_mask"].any()
        env.step(theory_action(observation["action_mask"], info["winning_moves"]))
    first_wins = solution.is_win(rules.piles)
    assert rewards == {"player_0": 1 if first_wins else -1, "player_1": -1 if first_wins else 1}


def test_an_illegal_action_ends_the_game_with_minus_one_to_the_mover():
    env = nim_v0.env(piles="7-5-3")
    env.reset()
    moves = env.unwrapped.moves
    env.step(moves.index((2, 3)))  # player_0 empties the last pile
    env.step(moves.index((2, 1)))  # player_1 takes from it
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0, "player_1": -1}
    finished = {}
    for agent in env.agent_iter():
        finished[agent] = env.last()[1]
        env.step(None)
    assert finished == {"player_0": 0, "player_1": -1}
    raw = nim_v0.raw_env(piles="7-5-3")
    raw.step(moves.index((2, 3)))
    with pytest.raises(UserError, match="player_1 cannot play action 12"):
        raw.step(moves.index((2, 1)))


def test_boards_by_name_or_by_keywords_and_bad_arguments():
    assert nim_v0.raw_env(piles="17-cap3-misere").rules == Rules((17,), 3, True)
    assert nim_v0.raw_env(piles="17-cap3-misere", max_take=3, misere=True).rules == Rules((17,), 3, True)
    assert nim_v0.raw_env(piles=[3, 4, 5], max_take=2).rules == Rules((3, 4, 5), 2)
    assert nim_v0.raw_env().rules == Rules((1, 3, 5, 7, 9))
    for kwargs in [{"piles": "7-5-3", "misere": True}, {"piles": "17-cap3", "max_take": 2},
                   {"piles": "7-5-x"}, {"piles": (0, 0)}, {"piles": (3,), "max_take": 0},
                   {"render_mode": "human"}]:
        with pytest.raises(UserError):
            nim_v0.env(**kwargs)
    with pytest.raises(UserError, match="got an integer of about 5,001 digits in piles"):  # (Python writes none)
        nim_v0.env(piles=(10**5000,))


def test_render():
    env = nim_v0.raw_env(piles="7-5-3", render_mode="ansi")
    assert env.render() == "7-5-3: piles 7 5 3; player_0 to move"
    for move in [(0, 7), (1, 5), (2, 3)]:
        env.step(env.moves.index(move))
    assert env.render() == "7-5-3: piles 0 0 0; game over, player_0 wins"
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert nim_v0.raw_env().render() is None


# -- Gymnasium -------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", [
    {"piles": "7-5-3", "opponent": "nimsum"},
    {"opponent": "random", "render_mode": "ansi"},
    {"piles": "17-cap3-misere", "opponent": "minimax", "seat": 1},
    {"piles": (2, 3, 4, 5), "misere": True, "opponent": "random", "seat": 0},
    {"piles": (5,), "opponent": "nimsum", "seat": 1},  # the opponent's opening move ends the game
], ids=str)
def test_gymnasium_check_env(kwargs):
    env = gymnasium.make("nim_evo.envs:Nim-v0", **kwargs)
    assert isinstance(env.unwrapped, NimEnv)
    check_env(env.unwrapped)


@pytest.mark.parametrize("board", ["7-5-3", "2-3-4-5-misere"])
@pytest.mark.parametrize("seat", [0, 1])
def test_theory_moves_beat_nimsum_exactly_from_winning_starts(board, seat):
    env = NimEnv(piles=board, opponent="nimsum")
    rules, solution = env.rules, solve(env.rules)
    expected = solution.is_win(rules.piles) == (seat == 0)
    for seed in range(3):
        observation, info = env.reset(seed=seed, options={"seat": seat})
        assert info["seat"] == seat
        terminated = False
        while not terminated:
            position = tuple(observation.tolist())
            assert info["winning_moves"] == indices(rules, solution.winning_moves(position))
            action = theory_action(info["action_mask"], info["winning_moves"])
            observation, reward, terminated, truncated, info = env.step(action)
            assert truncated is False
        assert reward == (1.0 if expected else -1.0)


def test_seats_alternate_from_each_seeded_reset():
    env = NimEnv(piles="7-5-3")
    seats = [env.reset(seed=1)[1]["seat"], env.reset()[1]["seat"], env.reset()[1]["seat"]]
    assert seats == [0, 1, 0]
    assert env.reset(seed=2)[1]["seat"] == 0
    observation, info = env.reset(options={"seat": 1})
    assert info["seat"] == 1 and sum(observation) < 15  # the opponent has moved
    assert env.reset()[1]["seat"] == 1  # an episode with its seat named is not counted
    assert [NimEnv(seat=1).reset()[1]["seat"] for _ in range(2)] == [1, 1]
    with pytest.raises(UserError, match="seat"):
        env.reset(options={"seat": 2})
    with pytest.raises(UserError, match="seat"):
        NimEnv(seat="first")


@pytest.mark.parametrize("options", [{"seat": 1.0}, {"seat": True}, {"seat": "1"}, {"colour": 1}, "seat=1"])
def test_a_reset_s_options_are_checked_and_said_in_one_line(options):
    """A seat of 1.0 was taken as seat 1, an unknown option was ignored, and options that are
    no dict were an AttributeError; a seat of numpy's integers is one."""
    env = NimEnv(piles="7-5-3")
    with pytest.raises(UserError, match=r"options(\['seat'\] must be 0 or 1| is None or a dict whose one key is 'seat'), "
                                        r"got "):
        env.reset(options=options)
    assert env.reset(options={"seat": np.int64(1)})[1]["seat"] == 1 and env.reset(options={})[1]["seat"] == 0


@pytest.mark.parametrize("seed", [1.5, -1, "x", None, True])
def test_an_opponent_seed_that_is_no_seed_is_said_in_one_line(seed):
    with pytest.raises(UserError, match=f"opponent_seed must be an integer >= 0, got "):
        NimEnv(piles="7-5-3", opponent="qlearning", opponent_seed=seed)


def test_a_step_after_every_agent_left_the_game_is_said_in_one_line():
    """PettingZoo's raw env: after the end, each agent steps ``None`` and leaves; a step more
    was a KeyError."""
    env = nim_v0.raw_env(piles=(1,))
    env.reset()
    env.step(0)
    env.step(None)
    env.step(None)
    assert env.agents == []
    with pytest.raises(UserError, match=r"the game is over and every agent has left it: call reset\(\) first"):
        env.step(None)


def episode(env, seed, policy_seed):
    """Two episodes from ``reset(seed=seed)`` played by random legal moves: what was seen."""
    rng, seen = np.random.default_rng(policy_seed), []
    for options in [{"seed": seed}, {}]:
        observation, info = env.reset(**options)
        seen.append((observation.tolist(), info["seat"]))
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, reward, terminated, _, info = env.step(action)
            seen.append((observation.tolist(), reward))
    return seen


def test_the_same_seed_gives_the_same_episodes():
    runs = [episode(NimEnv(opponent="random"), seed=7, policy_seed=3) for _ in range(2)]
    assert runs[0] == runs[1]
    env = NimEnv(opponent="random")
    assert episode(env, seed=7, policy_seed=3) == episode(env, seed=7, policy_seed=3)


def test_info_step_illegal_and_render():
    env = NimEnv(piles="7-5-3", opponent="nimsum", render_mode="ansi")
    with pytest.raises(UserError, match="reset"):
        env.step(0)
    observation, info = env.reset(seed=0, options={"seat": 0})
    assert observation.dtype == np.int64 and info["action_mask"].dtype == np.int8
    assert set(info) == {"action_mask", "winning_moves", "seat"}
    assert env.render() == "7-5-3: piles 7 5 3; agent to move"
    observation, reward, terminated, truncated, info = env.step(env.moves.index((2, 3)))
    assert (reward, terminated, truncated, info["illegal"]) == (0.0, False, False, False)
    observation, reward, terminated, truncated, info = env.step(env.moves.index((2, 1)))
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    assert env.render().endswith("game over, opponent wins")
    for action in [-1, 10**6, "a", 2.5]:
        env.reset(options={"seat": 0})
        assert env.step(action)[1:3] == (-1.0, True)
    with pytest.raises(UserError, match="reset"):
        env.step(0)


def test_opponents_as_agent_objects_and_bad_opponents():
    rules = Rules.parse("7-5-3")
    by_name = NimEnv(piles=rules, opponent="nimsum", seat=1).reset(seed=4)[0]
    by_object = NimEnv(piles="7-5-3", opponent=make_agent("nimsum", rules), seat=1).reset(seed=4)[0]
    assert by_name.tolist() == by_object.tolist()

    class TakeOne:  # a course-style player: a move from the piles
        def move(self, piles, rng):
            return next(i for i, n in enumerate(piles) if n), 1

    observation, _ = NimEnv(piles="7-5-3", opponent=TakeOne(), seat=1).reset()
    assert observation.tolist() == [6, 5, 3]

    class Cheat:
        def move(self, piles, rng):
            return 0, 99

    with pytest.raises(AgentError, match="illegal move"):
        NimEnv(piles="7-5-3", opponent=Cheat(), seat=1).reset()
    for bad in ["no-such-player", object()]:
        with pytest.raises(UserError):
            NimEnv(opponent=bad)


def test_without_the_rl_extra_the_environments_say_which_extra_in_one_line(monkeypatch):
    import importlib
    import sys

    from nim_evo.interop.extras import MissingExtra

    monkeypatch.setitem(sys.modules, "gymnasium", None)
    for name in ("nim_evo.envs", "nim_evo.envs.nim_v0", "nim_evo.interop.single", "nim_evo.interop.aec"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(MissingExtra, match=r"^nim_evo.envs needs the gymnasium package: pip install 'nim-evo\[rl\]'$"):
        importlib.import_module("nim_evo.envs")


# -- every family -----------------------------------------------------------------------------

FAMILY_BOARDS = ["20-sub1.3.4", "13-squares-misere", "8-kayles", "12-dawson-misere", "5-6-wythoff", "1-3-5-moore2",
                 "3-4-lasker", "11-grundy"]


@pytest.mark.parametrize("name", FAMILY_BOARDS)
@pytest.mark.filterwarnings(*KNOWN)
def test_every_family_passes_pettingzoo_s_tests_and_ends_as_the_solver_says(name):
    api_test(nim_v0.env(game=name), num_cycles=200)
    seed_test(lambda: nim_v0.env(game=name))
    env = nim_v0.env(game=name)
    env.reset(seed=0)
    board = env.unwrapped.rules
    solution = solve(nim_evo.space_for(board, multiset=True))
    rewards = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            rewards[agent] = reward
            env.step(None)
            continue
        position = tuple(observation["observation"].tolist())
        assert observation["action_mask"].tolist() == board.legal_mask(np.array([position])).astype(int)[0].tolist()
        assert info["winning_moves"] == sorted(board.action_of(m) for m in solution.winning_moves(position))
        env.step(theory_action(observation["action_mask"], info["winning_moves"]))
    first_wins = solution.is_win(board.start)
    assert rewards == {"player_0": 1 if first_wins else -1, "player_1": -1 if first_wins else 1}


@pytest.mark.parametrize("name", FAMILY_BOARDS)
def test_every_family_passes_gymnasium_s_check_env(name):
    env = gymnasium.make("nim_evo.envs:Nim-v0", game=name, opponent="perfect")
    check_env(env.unwrapped)
    assert env.unwrapped.action_space.n == nim_evo.game(name).n_actions
