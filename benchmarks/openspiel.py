"""Random rollouts on 1-3-5-7-9 (normal play): nim_evo's batched engine against OpenSpiel's.

- OpenSpiel (``pyspiel``, the ``nim`` game with ``pile_sizes="1;3;5;7;9"`` and
  ``is_misere=False``: OpenSpiel's nim is misère unless told otherwise): games per second of
  uniformly random rollouts from the start, one game at a time as OpenSpiel plays them,
  two ways:

  * the Python API written the fast way: per game ``new_initial_state``, then
    ``legal_actions`` / ``apply_action`` until no action is left (a terminal state has
    none), bound methods held for the game, the actions chosen by a numpy ``Generator``
    (uniforms drawn in blocks, one used per ply);
  * OpenSpiel's own C++ loop: ``evaluate_bots`` on a new initial state with two uniform
    random bots (``make_uniform_random_bot``), one call per game;

- nim_evo: games per second of random against random through
  ``tournament(Rules((1, 3, 5, 7, 9)), random, ["random"], games=N)`` (``N`` games per seat,
  ``2N`` in all, one job), on the ordered space (3,840 positions) and on the space of
  multisets (728; the random agent's multiset policy plays the same games), each divided
  by both OpenSpiel figures measured in the same process (target >= 100x).

The four take turns for a few rounds and each keeps its best round (other work on the
machine slows a round, never speeds one up). Both engines must play the same game: the
first player's win rate over every round, of OpenSpiel's games and of each nim_evo space,
is printed beside the exact value (nim_evo's evaluator, backward induction) and must lie
within 4.5 standard errors of it. That rate is 1/2 on this board under either convention,
so normal play is checked apart: in OpenSpiel games, whoever took the last object won.

    pip install open_spiel          # not a dependency of nim_evo
    python benchmarks/openspiel.py
"""

import sys
import time
from importlib.metadata import PackageNotFoundError, version

import numpy as np

from nim_evo import Rules, make_agent, space_for, tournament, win_probabilities

PILES = (1, 3, 5, 7, 9)
RATIO_TARGET = 100
ROUNDS = 3
OPENSPIEL_GAMES = 150_000   # per round and loop: about a second each
NIM_EVO_GAMES = 2_000_000   # per seat and round: 4,000,000 games
UNIFORMS = 100_000          # uniforms drawn at once for OpenSpiel's Python loop
SIGMAS = 4.5


def openspiel_loop(game, games: int, rng: np.random.Generator) -> tuple[float, int]:
    """Games per second and first-player wins of random rollouts through the Python API."""
    longest = sum(PILES)  # plies of the longest game: one object each
    new_state = game.new_initial_state
    uniforms, used = [], 0
    wins = 0
    began = time.perf_counter()
    for _ in range(games):
        if used > len(uniforms) - longest:
            uniforms, used = uniforms[used:] + rng.random(UNIFORMS).tolist(), 0
        state = new_state()
        legal, apply = state.legal_actions, state.apply_action
        actions = legal()
        while actions:
            apply(actions[int(uniforms[used] * len(actions))])
            used += 1
            actions = legal()
        wins += state.returns()[0] > 0
    return games / (time.perf_counter() - began), wins


def openspiel_bots(pyspiel, game, games: int, seed: int) -> tuple[float, int]:
    """Games per second and first-player wins of OpenSpiel's C++ ``evaluate_bots`` loop."""
    bots = [pyspiel.make_uniform_random_bot(player, seed + player) for player in (0, 1)]
    new_state = game.new_initial_state
    evaluate = pyspiel.evaluate_bots
    wins = 0
    began = time.perf_counter()
    for i in range(games):
        wins += evaluate(new_state(), bots, seed + i)[0] > 0  # it plays on the state it is given
    return games / (time.perf_counter() - began), wins


def nim_evo_rate(rules, agent, games: int, seed: int, multiset: bool) -> tuple[float, int]:
    """Games per second of ``tournament`` and the first mover's wins (both seats' games)."""
    began = time.perf_counter()
    (result,) = tournament(rules, agent, ["random"], games=games, seed=seed, multiset=multiset)
    rate = 2 * games / (time.perf_counter() - began)
    # seat 0: the player moved first; seat 1: the opponent did
    first_mover = round(result.first_rate * games) + games - round(result.second_rate * games)
    return rate, first_mover


def last_mover_wins(game, games: int, rng: np.random.Generator) -> bool:
    """In every one of ``games`` random OpenSpiel games, did whoever moved last win?"""
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.integers(len(actions))])
        if (state.returns()[0] > 0) != (len(state.history()) % 2 == 1):
            return False
    return True


def agreement(name: str, wins: int, games: int, exact: float) -> tuple[str, bool]:
    rate = wins / games
    z = (rate - exact) / np.sqrt(exact * (1 - exact) / games)
    return f"{name} {rate:.5f} ({games:,} games, {z:+.1f} sigma)", abs(z) <= SIGMAS


def main():
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed, nothing to compare with. Install it with "
              "`pip install open_spiel` (it is not a dependency of nim_evo), then run "
              "`python benchmarks/openspiel.py` again.")
        return
    try:
        spiel_version = version("open_spiel")
    except PackageNotFoundError:
        spiel_version = "?"

    rules = Rules(PILES)
    agent = make_agent("random", rules)
    game = pyspiel.load_game("nim", {"pile_sizes": ";".join(map(str, PILES)), "is_misere": False})
    rng = np.random.default_rng(2026)
    if game.get_parameters()["is_misere"] or not last_mover_wins(game, 2000, rng):
        raise SystemExit("OpenSpiel's nim is not playing normal play: the comparison would be wrong")
    space = space_for(rules)
    table = agent.policy(space)
    exact = float(win_probabilities(space, table, table)[space.start, 0])

    openspiel_loop(game, 2000, rng)                               # warm-up
    openspiel_bots(pyspiel, game, 2000, 0)
    for multiset in (False, True):
        tournament(rules, agent, ["random"], games=50_000, seed=0, multiset=multiset)

    loop, bots, ordered, multisets = names = ["OpenSpiel Python loop", "OpenSpiel evaluate_bots",
                                              "nim_evo ordered", "nim_evo multisets"]
    best = dict.fromkeys(names, 0.0)
    wins = dict.fromkeys(names, 0)
    games = dict.fromkeys(names, 0)
    for r in range(ROUNDS):
        runs = {
            loop: lambda: openspiel_loop(game, OPENSPIEL_GAMES, rng),
            bots: lambda: openspiel_bots(pyspiel, game, OPENSPIEL_GAMES, 1000 + r * OPENSPIEL_GAMES),
            ordered: lambda: nim_evo_rate(rules, agent, NIM_EVO_GAMES, 100 + r, False),
            multisets: lambda: nim_evo_rate(rules, agent, NIM_EVO_GAMES, 200 + r, True),
        }
        for name, run in runs.items():
            rate, won = run()
            best[name] = max(best[name], rate)
            wins[name] += won
            games[name] += OPENSPIEL_GAMES if name.startswith("OpenSpiel") else 2 * NIM_EVO_GAMES

    def verdict(ratio):
        return f"{ratio:.0f}x ({'OK' if ratio >= RATIO_TARGET else 'MISSED'})"

    print(f"random rollouts on {rules.name} (normal play), games/s, best of {ROUNDS} rounds in turn, one core")
    print(f"OpenSpiel {spiel_version}: Python API loop {best[loop]:,.0f}, C++ evaluate_bots {best[bots]:,.0f}")
    for name, label in ((ordered, "ordered space, 3,840 positions"), (multisets, "multisets, 728 positions")):
        print(f"nim_evo tournament, {label}: {best[name]:,.0f}; over OpenSpiel's Python loop "
              f"{verdict(best[name] / best[loop])}, over its C++ loop {verdict(best[name] / best[bots])} "
              f"(target >= {RATIO_TARGET}x)")
    lines, agree = zip(*(agreement(name, wins[name], games[name], exact) for name in names))
    print(f"first player's win rate, random vs random: exact {exact:.5f}; " + "; ".join(lines)
          + f" (all within {SIGMAS} sigma: {'OK' if all(agree) else 'DISAGREE'}); "
          f"normal play in OpenSpiel: the last mover won every one of 2,000 games")


if __name__ == "__main__":
    sys.exit(main())
