"""Engine speed on 1-3-5-7-9: batched vs one-game-at-a-time games, and exact evaluation.

- random against random: games per second of the batched runner (numpy, all games in
  lockstep) and of a plain Python loop over the scalar engine (``play_game``), measured
  in the same run, and their ratio (target >= 200);
- exact evaluation of 100 table policies (random deterministic tables, and the same as
  probability tables) against nim-sum, against sampling 1,000 games per seat for each.

    python benchmarks/engine.py
"""

import time

import numpy as np

from nim_evo import Rules, make_agent, play_game, play_games, win_probabilities
from nim_evo.engine.policy import AliasSampler, one_hot
from nim_evo.engine.space import space_for
from nim_evo.evaluation.batched import GAMES_PER_TASK

RATIO_TARGET = 200


def batched_rate(space, table, games, rng) -> float:
    began = time.perf_counter()
    sampler = AliasSampler(table, space)  # built once per table, as a tournament does
    for done in range(0, games, GAMES_PER_TASK):
        play_games(space, sampler, sampler, np.full(min(GAMES_PER_TASK, games - done), space.start), rng)
    return games / (time.perf_counter() - began)


def loop_rate(rules, agent, games, rng) -> float:
    began = time.perf_counter()
    for _ in range(games):
        play_game(rules, (agent, agent), rng)
    return games / (time.perf_counter() - began)


def main():
    rules = Rules((1, 3, 5, 7, 9))
    space = space_for(rules)
    rng = np.random.default_rng(2026)
    agent = make_agent("random", rules)
    table = agent.policy(space)

    batched_rate(space, table, GAMES_PER_TASK, rng)  # warm-up
    loop = loop_rate(rules, agent, 20_000, rng)
    batched = batched_rate(space, table, 2_000_000, rng)
    ratio = batched / loop
    print(f"random vs random on {rules.name}: batched {batched:,.0f} games/s, "
          f"Python loop {loop:,.0f} games/s, ratio {ratio:.0f}x "
          f"(target >= {RATIO_TARGET}: {'OK' if ratio >= RATIO_TARGET else 'MISSED'})")

    k = 100
    scores = np.where(space.legal, rng.random((k, *space.legal.shape)), -1.0)
    moves = scores.argmax(axis=2)
    nimsum = make_agent("nimsum", rules)
    began = time.perf_counter()
    values = win_probabilities(space, moves, nimsum)
    exact_moves = time.perf_counter() - began
    tables = np.stack([one_hot(m, space) for m in moves])
    began = time.perf_counter()
    values_t = win_probabilities(space, tables, nimsum)
    exact_tables = time.perf_counter() - began
    assert np.allclose(values, values_t)
    opponent = AliasSampler(nimsum.policy(space), space)
    began = time.perf_counter()
    for m in moves:
        mine = AliasSampler(one_hot(m, space), space)
        play_games(space, mine, opponent, np.full(1000, space.start), rng)
        play_games(space, opponent, mine, np.full(1000, space.start), rng)
    sampled = time.perf_counter() - began
    print(f"exact evaluation of {k} table policies vs nimsum on {rules.name} "
          f"(every position, both seats): {exact_moves * 1e3:.0f} ms as move arrays, "
          f"{exact_tables * 1e3:.0f} ms as probability tables; sampling 1,000 games per seat "
          f"from the start only: {sampled * 1e3:.0f} ms ({sampled / exact_moves:.1f}x the exact time)")


if __name__ == "__main__":
    main()
