"""Tests of nim_evo.engine.multiset: multiset positions held to the ordered space they fold."""

from __future__ import annotations

import itertools
import pickle
from math import comb

import numpy as np
import pytest

from nim_evo.engine.multiset import MultisetSpace
from nim_evo.engine.rules import Rules
from nim_evo.engine.solver import solve
from nim_evo.engine.space import SpaceTooLarge, check_space_size, space_for, space_size

BOARDS = [
    Rules((5,)),
    Rules((6,), max_take=2),
    Rules((3, 0, 2)),
    Rules((7, 5, 3)),
    Rules((4, 4), max_take=2),
    Rules((2, 3, 4, 5), misere=True),
    Rules((3, 1, 4, 2), max_take=3),
    Rules((1, 3, 5, 7, 9)),
    Rules((5, 2, 5, 2), max_take=3, misere=True),
]
IDS = [r.name for r in BOARDS]


def _sorted_box(start):
    """Every multiset reachable from ``start``, written independently: ascending tuples
    at most the sorted start pile by pile, in lexicographic order."""
    top = sorted(start)
    return sorted({tuple(sorted(p)) for p in itertools.product(*(range(n + 1) for n in start))
                   if all(a <= b for a, b in zip(sorted(p), top))})


@pytest.mark.parametrize("rules", BOARDS, ids=IDS)
def test_positions_are_the_reachable_multisets_in_lexicographic_order(rules):
    """One index per multiset, the empty board first and the start last; each row is a
    position of the board (at most the start pile by pile) with the multiset's sizes."""
    space = MultisetSpace(rules)
    expected = _sorted_box(rules.piles)
    assert space.n_positions == len(expected) == space_size(rules, multiset=True)
    assert [tuple(sorted(p)) for p in space.positions.tolist()] == expected
    assert (space.positions <= np.array(rules.piles)).all()
    assert space.index(rules.piles) == space.start and space.index((0,) * len(rules.piles)) == 0
    assert (space.totals == space.positions.sum(axis=1)).all()


@pytest.mark.parametrize("piles, count", [((1, 3, 5, 7, 9), 728), ((2, 3, 4, 5), 90),
                                          ((1, 3, 5, 7, 9, 11, 13), 21_318),
                                          ((1, 3, 5, 7, 9, 11, 13, 15), 120_175), ((9,) * 6, comb(15, 6))])
def test_counts_without_enumerating(piles, count):
    """The multiset counts of the issue (and the stars-and-bars count of equal piles)."""
    assert space_size(Rules(piles), multiset=True) == count


def test_limit_counts_multisets():
    """Eight heaps pass the default limit as multisets; a limit below the count refuses them."""
    rules = Rules((1, 3, 5, 7, 9, 11, 13, 15))
    assert check_space_size(rules, multiset=True) == 120_175
    with pytest.raises(SpaceTooLarge, match="10,321,920 positions"):
        check_space_size(rules)
    with pytest.raises(SpaceTooLarge, match="120,175 multisets"):
        MultisetSpace(rules, max_positions=100_000)


@pytest.mark.parametrize("rules", BOARDS, ids=IDS)
def test_every_position_maps_to_its_multiset(rules):
    """index, indices and the weights agree with the ordered space: every ordered position
    lands on the multiset of its sorted sizes, and each multiset's weight counts them."""
    ordered, space = space_for(rules), MultisetSpace(rules)
    idx = space.indices(ordered.positions)
    expected = {m: k for k, m in enumerate(_sorted_box(rules.piles))}
    assert idx.tolist() == [expected[tuple(sorted(p))] for p in ordered.positions.tolist()]
    assert [space.index(p) for p in ordered.positions.tolist()[::7]] == idx[::7].tolist()
    assert np.array_equal(space.weights, np.bincount(idx, minlength=space.n_positions))


@pytest.mark.parametrize("rules", BOARDS, ids=IDS)
def test_moves_and_transitions_fold_the_ordered_ones(rules):
    """At every position, the concrete moves grouped by the multiset they lead to are the
    legal columns of its multiset: the right count (multiplicity), the right successor,
    and each concrete move maps to its column and back."""
    ordered, space = space_for(rules), MultisetSpace(rules)
    for p in range(1, ordered.n_positions):
        position = ordered.position(p)
        index = space.index(position)
        groups = {}
        for k in np.flatnonzero(ordered.legal[p]):
            move = ordered.move(k)
            column = space.move_index_at(position, move)
            groups.setdefault(column, []).append(move)
            assert space.next[index, column] == space.index(ordered.position(ordered.next[p, k]))
        assert sorted(groups) == np.flatnonzero(space.legal[index]).tolist()
        for column, moves in groups.items():
            assert space.multiplicity[index, column] == len(moves)
            assert space.concrete_moves(position, column) == sorted(moves)
            assert space.concrete_move(position, column) == sorted(moves)[0]


@pytest.mark.parametrize("rules", BOARDS, ids=IDS)
def test_merge_adds_equal_piles(rules):
    """Uniform play over the representative's concrete moves merges into the multiplicities."""
    space = MultisetSpace(rules)
    concrete = space.concrete_legal / space.concrete_legal.sum(axis=1, keepdims=True).clip(min=1)
    merged = space.merge(concrete)
    counts = space.multiplicity.sum(axis=1, keepdims=True).clip(min=1)
    assert np.allclose(merged, space.multiplicity / counts)
    assert np.allclose(space.merge(np.stack([concrete, concrete]))[1], merged)


@pytest.mark.parametrize("rules", BOARDS, ids=IDS)
def test_solver_agrees_with_the_ordered_space(rules):
    """Win, remoteness and the winning moves of every position are the ordered solver's."""
    ordered, space = solve(space_for(rules)), solve(MultisetSpace(rules))
    idx = space.space.indices(ordered.space.positions)
    assert np.array_equal(space.win[idx], ordered.win)
    assert np.array_equal(space.remoteness[idx], ordered.remoteness)
    for p in range(1, ordered.space.n_positions, 3):
        position = ordered.space.position(p)
        assert space.winning_moves(position) == ordered.winning_moves(position)
        assert space.is_win(position) == ordered.is_win(position)


def test_any_order_of_piles_is_the_same_multiset():
    """A position and its permutations share an index; a multiset beyond the start is refused."""
    space = MultisetSpace(Rules((1, 3, 5, 7, 9)))
    assert space.index((9, 0, 5, 1, 3)) == space.index((0, 1, 3, 5, 9)) == space.index((1, 0, 3, 5, 9))
    with pytest.raises(ValueError, match="not reachable"):
        space.index((9, 9, 0, 0, 0))
    with pytest.raises(ValueError, match="has 2 piles"):
        space.index((1, 2))


def test_concrete_move_on_another_arrangement():
    """A column read on the representative names the first pile of that size on any arrangement."""
    rules = Rules((7, 5, 3))
    space = MultisetSpace(rules)
    index = space.index((5, 5, 0))
    assert space.position(index) == (5, 5, 0)
    column = space.move_index_at((0, 5, 5), (2, 4))
    assert space.multiplicity[index, column] == 2
    assert space.concrete_move((0, 5, 5), column) == (1, 4)
    assert space.concrete_moves((5, 0, 5), column) == [(0, 4), (2, 4)]
    with pytest.raises(ValueError, match="illegal move"):
        space.move_index_at((0, 5, 5), (0, 1))


def test_read_only_and_pickles_small():
    """Tables are read-only; a pickled space is its rules, rebuilt (and shared) on loading."""
    space = space_for(Rules((1, 3, 5, 7, 9)), multiset=True)
    with pytest.raises(ValueError):
        space.next[0, 0] = 1
    blob = pickle.dumps(space)
    assert len(blob) < 1000
    again = pickle.loads(blob)
    assert again is space


AGENTS = ["random", "nimsum", "minimax", "take-3", "dumb", "aggressive", "fixed-rules"]


@pytest.mark.parametrize("rules", [Rules((7, 5, 3)), Rules((2, 3, 4, 5), misere=True), Rules((5, 2, 5, 2), 3, True)],
                         ids=lambda r: r.name)
@pytest.mark.parametrize("name", AGENTS)
def test_agents_play_the_same_games_over_multisets(rules, name):
    """Every built-in agent treats equal piles alike: compiled over multisets it wins exactly
    as often, from every position and either seat, as over the ordered space; and its
    vectorised table is the one its move distributions give."""
    from nim_evo.agents import PositionalAgent, make_agent
    from nim_evo.evaluation.exact import win_probabilities

    ordered, space = space_for(rules), MultisetSpace(rules)
    agent, opponent = make_agent(name, rules), make_agent("minimax" if name == "random" else "random", rules)
    table = agent.policy(space)
    assert np.allclose(table, PositionalAgent.policy(agent, space))
    values = win_probabilities(space, table, opponent)
    expected = win_probabilities(ordered, agent, opponent)
    assert np.allclose(values[space.indices(ordered.positions)], expected, atol=1e-12)


def test_an_ordered_learner_is_refused_over_multisets_and_judged_on_the_ordered_board():
    """A learner of the ordered space reads the order of the piles: asked for a table over
    multisets it is refused in one line, and a tournament asked to play over multisets plays
    it on the ordered board, with the ordered board's figures."""
    from nim_evo import tournament
    from nim_evo.learners import make_learner
    from nim_evo.validation import OrderReading

    rules = Rules((3, 2, 2))
    learner = make_learner("wincount", rules)
    learner.train(300, np.random.default_rng(1))
    with pytest.raises(OrderReading, match="^wincount reads the order of the piles"):
        learner.policy(MultisetSpace(rules))
    ordered, asked = (tournament(rules, learner, ["random", "nimsum"], exact=True, starts="all", multiset=m)
                      for m in (False, True))
    assert [(r.first_rate, r.second_rate) for r in ordered] == [(r.first_rate, r.second_rate) for r in asked]


