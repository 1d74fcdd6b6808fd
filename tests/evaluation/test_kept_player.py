"""Tests of nim_evo.evaluation.opponents.KeptPlayer: a panel's kept table as a player of positions."""

import numpy as np
import pytest

from nim_evo import Rules, make_agent
from nim_evo.engine.policy import as_table, dense, kept
from nim_evo.engine.space import space_for
from nim_evo.evaluation.opponents import KeptPlayer


@pytest.mark.parametrize("multiset", [False, True], ids=["ordered", "multiset"])
def test_a_kept_table_plays_as_the_agent_it_was_made_of(multiset):
    """Each position's row is the table's at its multiset, on its own piles: merged over equal
    piles, every representative's row is the table's own, and on the ordered board the rows
    are the agent's; the player is order-blind exactly over multisets."""
    rules = Rules((1, 3, 5, 4))
    space = space_for(rules, multiset=multiset)
    agent = make_agent("random", rules)
    table = kept(as_table(agent, space))
    player = KeptPlayer(table, space, "random")
    rows = player.move_probabilities(space.positions)
    assert np.allclose(space.merge(rows) if multiset else rows, dense(table))
    if multiset:  # other arrangements of the multisets, on the board: legal moves of their own piles, in full
        swapped = space.positions[:, [0, 1, 3, 2]]
        swapped = swapped[(swapped <= np.array(rules.start)).all(axis=1)]
        moved = player.move_probabilities(swapped)
        legal = np.array([[rules.is_legal(tuple(p), rules.move_of(k)) for k in range(rules.n_actions)] for p in swapped])
        assert not (moved[~legal] > 0).any()
        assert np.allclose(moved.sum(axis=1), legal.any(axis=1))
    else:
        assert np.allclose(rows, agent.move_probabilities(space.positions))
    assert player.order_blind == multiset and player.name == "random"
