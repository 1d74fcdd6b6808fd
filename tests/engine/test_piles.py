"""Tests of nim_evo.engine.piles: batched games on pile arrays, checked on boards small enough to
enumerate against the exact evaluator of the table path (nim_evo.evaluation.exact.win_probabilities)."""

import numpy as np
import pytest

from nim_evo import Rules, make_agent, win_probabilities
from nim_evo.agents.registry import mover
from nim_evo.games import nimtheory as theory
from nim_evo.engine.piles import play_pile_games
from nim_evo.engine.space import space_for
from nim_evo.genomes import GenomeAgent, get_kind, ruleset, thresholds
from nim_evo.genomes.movers import genomes_mover
from nim_evo.genomes.movers import mover as genome_mover

BOARDS = [Rules((1, 3, 5, 7)), Rules((2, 3, 4), misere=True)]
PLAYERS = ["random", "nimsum", "rules-genome", "thresholds-genome"]


def _player(name, rules):
    """The same player twice: a mover for pile arrays and an agent for the exact evaluator."""
    if name in ("random", "nimsum"):
        return mover(name, rules), make_agent(name, rules)
    kind = name.removesuffix("-genome")
    module = {"rules": ruleset, "thresholds": thresholds}[kind]
    genes = module.KIND.create(rules, np.random.default_rng(len(name) + len(rules.piles)))
    return genome_mover(get_kind(kind), rules, genes), GenomeAgent(kind, genes, rules)


def _assert_within(wins, games, p, context):
    sigma = np.sqrt(games * p * (1 - p))
    assert abs(wins - games * p) <= 4.5 * sigma + 1e-9, (context, wins / games, p)


@pytest.mark.parametrize("rules", BOARDS, ids=[r.name for r in BOARDS])
def test_pile_games_follow_the_exact_win_probabilities(rules):
    """Every pair of random, nim-sum, a rules genome and a thresholds genome, from the start and
    from another position: the first player's win rate is within 4.5 sigma of the exact one."""
    space = space_for(rules)
    rng = np.random.default_rng(31)
    players = {name: _player(name, rules) for name in PLAYERS}
    other = tuple(max(p - 1, 0) if i % 2 else p for i, p in enumerate(rules.piles))
    games = 4000
    for start in (rules.start, other):
        for a in PLAYERS:
            for b in PLAYERS:
                exact = win_probabilities(space, players[a][1], players[b][1])[space.index(start), 0]
                won = play_pile_games(rules, players[a][0], players[b][0], games, rng, start=start)
                assert won.shape == (games,) and set(np.unique(won)) <= {0, 1}
                _assert_within(np.count_nonzero(won == 0), games, exact, (start, a, b))


@pytest.mark.parametrize("kind", ["rules", "thresholds"])
@pytest.mark.parametrize("rules", BOARDS, ids=[r.name for r in BOARDS])
def test_a_mover_for_many_genomes_plays_each_genome_in_its_own_games(rules, kind):
    """genomes_mover(kind, [g1, g2, g3], ...) plays genome i in games i*n .. (i+1)*n - 1: each
    block's win rate, either seat, is that genome's own (exact, 4.5 sigma), however the games
    still running are thinned out as others end."""
    space = space_for(rules)
    module = {"rules": ruleset, "thresholds": thresholds}[kind]
    random_agent = make_agent("random", rules)
    # three genomes with clearly different results against random, as first player
    candidates = [module.KIND.create(rules, np.random.default_rng(seed)) for seed in range(40)]
    rates = [win_probabilities(space, GenomeAgent(kind, g, rules), random_agent)[space.start, 0] for g in candidates]
    order = np.argsort(rates)
    chosen = [candidates[order[0]], candidates[order[len(order) // 2]], candidates[order[-1]]]
    assert max(rates) - min(rates) > 0.1
    exact = [win_probabilities(space, GenomeAgent(kind, g, rules), random_agent)[space.start] for g in chosen]
    n = 3000
    rng = np.random.default_rng(32)
    many = genomes_mover(get_kind(kind), chosen, rules, n)
    them = mover("random", rules)
    as_first = play_pile_games(rules, many, them, 3 * n, rng) == 0
    as_second = play_pile_games(rules, them, many, 3 * n, rng) == 1
    for i in range(3):
        block = slice(i * n, (i + 1) * n)
        _assert_within(np.count_nonzero(as_first[block]), n, exact[i][0], (kind, i, "first"))
        _assert_within(np.count_nonzero(as_second[block]), n, exact[i][1], (kind, i, "second"))
        single = genome_mover(get_kind(kind), rules, chosen[i])  # the single-genome mover agrees
        alone = play_pile_games(rules, single, them, n, rng) == 0
        _assert_within(np.count_nonzero(alone), n, exact[i][0], (kind, i, "single"))


def test_movers_refuse_what_needs_an_enumerable_board():
    """minimax has no pile mover: the error names the board."""
    big = Rules((40,) * 40)
    with pytest.raises(ValueError, match=big.name):
        mover("minimax", big)


def test_nimsum_plays_capped_misere_on_a_board_too_big_to_solve():
    """Bouton's rule on the residues: nim-sum moving first from a won start of 40 piles beats
    random every time, and every move it makes from a won position leaves a lost one."""
    rules = Rules((40,) * 39 + (42,), 3, True)  # residues 0, ..., 0, 2: won (leave a residue of 1)
    assert theory.is_win(rules, rules.piles)
    rng = np.random.default_rng(35)
    won = play_pile_games(rules, mover("nimsum", rules), mover("random", rules), 100, rng)
    assert np.all(won == 0)


def test_pile_games_on_a_board_too_big_to_enumerate():
    """On 40 piles of 40 (no space can be built) games end with a winner, nim-sum (moving first
    from a won start) beats random and itself every time, and random against random splits both ways."""
    rules = Rules((40,) * 39 + (41,))  # nim-sum 41 ^ 40 != 0: the first player wins
    rng = np.random.default_rng(33)
    won = play_pile_games(rules, mover("nimsum", rules), mover("random", rules), 200, rng)
    assert np.all(won == 0)
    won = play_pile_games(rules, mover("nimsum", rules), mover("nimsum", rules), 200, rng)
    assert np.all(won == 0)
    won = play_pile_games(rules, mover("random", rules), mover("random", rules), 200, rng)
    assert 0 < np.count_nonzero(won == 0) < 200
