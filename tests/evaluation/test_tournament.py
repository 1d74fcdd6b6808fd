"""Tournaments: a player's record against each opponent, sampled or exact."""

import numpy as np
import pytest

from nim_evo import Rules, make_agent, tournament, win_probabilities
from nim_evo.engine.space import space_for


def test_tournament_same_seed_same_result_any_jobs():
    """A seed fixes the outcome; the number of workers does not change it."""
    rules = Rules((1, 3, 5, 7, 9))
    player = make_agent("fixed-rules", rules)
    runs = [tournament(rules, player, ["random", "aggressive"], games=120_000, seed=7, jobs=jobs)
            for jobs in (1, 2, 1)]
    assert runs[0] == runs[1] == runs[2]
    other = tournament(rules, player, ["random", "aggressive"], games=120_000, seed=8)
    assert other != runs[0]


def test_tournament_reports_rates_and_intervals():
    """nimsum beats random from the winning start; CIs bracket the sampled and the exact rate."""
    rules = Rules((1, 3, 5, 7, 9))
    nimsum = make_agent("nimsum", rules)
    sampled = tournament(rules, nimsum, ["random", "nimsum"], games=2000, seed=1)
    exact = tournament(rules, nimsum, ["random", "nimsum"], exact=True)
    assert [r.opponent for r in sampled] == ["random", "nimsum"]
    vs_random, vs_self = sampled
    assert vs_random.first_rate == 1.0 and vs_random.games == 4000
    assert vs_random.ci_low <= vs_random.win_rate <= vs_random.ci_high
    assert vs_self.first_rate == 1.0 and vs_self.second_rate == 0.0 and vs_self.win_rate == 0.5
    for s, e in zip(sampled, exact):
        assert e.exact and e.ci_low == e.win_rate == e.ci_high
        assert s.ci_low <= e.win_rate <= s.ci_high


def test_tournament_from_every_position():
    """starts='all' plays seed 000's sub-games: exact rate is the mean over non-empty positions."""
    rules = Rules((3, 4), 2)
    space = space_for(rules)
    player = make_agent("random", rules)
    exact = tournament(rules, player, ["nimsum"], exact=True, starts="all")[0]
    p = win_probabilities(space, player, make_agent("nimsum", rules))[1:]
    assert exact.first_rate == pytest.approx(p[:, 0].mean())
    assert exact.second_rate == pytest.approx(p[:, 1].mean())
    sampled = tournament(rules, player, ["nimsum"], games=20_000, seed=3, starts="all")[0]
    assert sampled.ci_low <= exact.win_rate <= sampled.ci_high
    with pytest.raises(ValueError, match="starts"):
        tournament(rules, player, ["nimsum"], starts="some")


# -- seeds -------------------------------------------------------------------------------------


def test_tournament_seed_sequence_is_copied_not_consumed():
    """The same SeedSequence object twice gives the same result (spawning works on a copy), the
    same as its int; the caller's sequence is left as it was."""
    rules = Rules((3, 4))
    player = make_agent("random", rules)
    seq = np.random.SeedSequence(5)
    first = tournament(rules, player, ["random", "dumb"], games=3000, seed=seq)
    second = tournament(rules, player, ["random", "dumb"], games=3000, seed=seq)
    assert first == second
    assert seq.n_children_spawned == 0
    assert tournament(rules, player, ["random", "dumb"], games=3000, seed=5) == first
    assert tournament(rules, player, ["random", "dumb"], games=3000, seed=np.random.SeedSequence(6)) != first


def test_tournament_accepts_a_generator_seed():
    """A Generator seeds a tournament: equal generators give equal results, and the generator
    advances (a second tournament from it differs)."""
    rules = Rules((3, 4))
    player = make_agent("random", rules)
    a, b = np.random.default_rng(11), np.random.default_rng(11)
    first = tournament(rules, player, ["random"], games=3000, seed=a)
    assert tournament(rules, player, ["random"], games=3000, seed=b) == first
    assert tournament(rules, player, ["random"], games=3000, seed=a) != first
    assert 0.0 < first[0].win_rate < 1.0


@pytest.mark.parametrize("seed", [-1, 1.5, "seven", [1, -2], object()])
def test_tournament_refuses_bad_seeds(seed):
    rules = Rules((3, 4))
    with pytest.raises(ValueError, match="seed"):
        tournament(rules, make_agent("random", rules), ["random"], games=10, seed=seed)


@pytest.mark.parametrize("starts", ["start", "all"])
def test_a_tournament_over_multisets_is_the_ordered_one(starts):
    """Exact: the same rates to the last digits; sampled from every position: each multiset
    plays as many games as the positions it stands for, so the rates agree within sampling."""
    rules = Rules((3, 2, 3), misere=True)
    player = make_agent("fixed-rules", rules)
    for exact, games in ((True, 1), (False, 20)):
        ordered = tournament(rules, player, ["random", "nimsum"], games=games, exact=exact, starts=starts, seed=3)
        folded = tournament(rules, player, ["random", "nimsum"], games=games, exact=exact, starts=starts, seed=3,
                            multiset=True)
        for a, b in zip(ordered, folded, strict=True):
            assert a.games == b.games
            tolerance = 1e-12 if exact else 4.5 * np.sqrt(0.25 / a.games) * 2
            assert abs(a.first_rate - b.first_rate) <= tolerance and abs(a.second_rate - b.second_rate) <= tolerance
