"""Probability-threshold genome (Nagappan's CI report, 4.1.3): evolved probabilities of move strategies.

Eight genes in ``[0, 1]``, one weight per strategy; at every move the agent picks a
strategy with probability weight / sum of weights (all zero: uniform), then plays it:

    random            any legal move
    shortest-all      from the shortest non-empty pile: all of it (as far as the cap allows)
    shortest-one      ... one object
    shortest-random   ... a random count
    longest-all / longest-one / longest-random: the same from the longest pile
    nimsum            a winning move if there is one, else any legal move

The weights are evolved against win rates. The policy is the mixture of the strategies'
policies, computed on arrays of positions, so the genome plays any board.

Operators are DEAP's real-valued ``cxBlend`` and ``mutGaussian``, written over the numpy
Generator the evolution loop passes down (DEAP's own draw from the global ``random``
module), then clipped back into ``[0, 1]``.

The random and nim-sum strategies are the ``random`` and ``nimsum`` agents' own answers
(:mod:`nim_evo.agents.base`): Nim theory, whose closed forms cover every family, so the
genome plays any board.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from nim_evo.agents.base import RandomAgent, nimsum_rows
from nim_evo.engine import boards
from nim_evo.engine.rules import Rules
from nim_evo.games.nim import nim_board
from nim_evo.engine.space import Space
from nim_evo.genomes.protocol import GenomeKind, individual_type, script_source
from nim_evo.validation import UserError

NAME = "thresholds"
STRATEGIES = ("random", "shortest-all", "shortest-one", "shortest-random",
              "longest-all", "longest-one", "longest-random", "nimsum")


def probabilities(genes) -> np.ndarray:
    """The genome's weights as the probability of each strategy (uniform where they are all 0)."""
    weights = np.clip(np.asarray(genes, dtype=float), 0.0, None)
    total = weights.sum()
    return weights / total if total > 0 else np.full(len(STRATEGIES), 1.0 / len(STRATEGIES))


def policy(genes, space: Space) -> np.ndarray:
    """The policy table over the space (over multisets: at the representatives, equal
    piles' moves added up)."""
    return np.einsum("s,skm->km", probabilities(genes), _space_tables(space))


def policies(stack: list | np.ndarray, space: Space) -> np.ndarray:
    """Policy tables of many genomes at once: ``(k, n_positions, n_moves)``."""
    weights = np.stack([probabilities(g) for g in stack])
    return np.einsum("is,skm->ikm", weights, _space_tables(space))


def strategy_tables(rules: Rules, positions: np.ndarray) -> np.ndarray:
    """``(n_strategies, k, n_moves)``: each strategy's move probabilities in each position."""
    positions = np.asarray(positions, dtype=np.int64)
    legal = boards.legal_mask(rules, positions)
    tables = [RandomAgent(rules).move_probabilities(positions)]
    rows = np.arange(len(positions))
    for pile in (boards.shortest(positions), boards.longest(positions)):
        size = positions[rows, pile]
        most = np.minimum(size, rules.max_take or np.iinfo(np.int64).max)
        ok = size > 0
        for count in (most, np.ones_like(size)):
            table = np.zeros(legal.shape)
            table[rows[ok], boards.move_indices(rules, pile[ok], count[ok])] = 1.0
            tables.append(table)
        moves = boards.move_list(rules)
        from_pile = legal & (moves[:, 0] == pile[:, None])
        tables.append(boards.uniform_rows(from_pile))
    tables.append(nimsum_rows(rules, positions))
    return np.stack(tables)


@lru_cache(maxsize=4)
def _space_tables(space: Space) -> np.ndarray:
    tables = space.merge(strategy_tables(nim_board(space.rules), space.positions))
    tables.flags.writeable = False
    return tables


class ThresholdsKind(GenomeKind):
    """The probability thresholds as a genome kind: a random mix of strategies, any board."""

    name = NAME
    individual = individual_type("ThresholdsIndividual", np.ndarray)
    mutation_parameters = ("indpb",)

    def mutate(self, genes, rules: Rules, rng: np.random.Generator, sigma: float = 0.2, indpb: float = 0.3):
        """DEAP's ``mutGaussian`` over ``rng``: each weight, with probability ``indpb``, gains a
        normal deviate of mean 0 and deviation ``sigma``."""
        hit = rng.random(len(genes)) < indpb
        genes += np.where(hit, rng.normal(0.0, sigma, len(genes)), 0.0)
        np.clip(genes, 0.0, 1.0, out=genes)
        return (genes,)

    def crossover(self, a, b, rules: Rules, rng: np.random.Generator, alpha: float = 0.3):
        """DEAP's ``cxBlend`` over ``rng``: per weight, ``gamma = (1 + 2 alpha) u - alpha`` and
        the children ``(1 - gamma) a + gamma b`` and ``gamma a + (1 - gamma) b``."""
        gamma = (1.0 + 2.0 * alpha) * rng.random(len(a)) - alpha
        a[:], b[:] = (1.0 - gamma) * a + gamma * b, gamma * a + (1.0 - gamma) * b
        np.clip(a, 0.0, 1.0, out=a)
        np.clip(b, 0.0, 1.0, out=b)
        return a, b

    def move_probabilities(self, genes, rules: Rules, positions: np.ndarray) -> np.ndarray:
        """``(k, n_moves)``: the probability of each move in each position. ``genes`` is one
        genome, or a ``(k, strategies)`` array of weights, one genome per position."""
        genes = np.asarray(genes, dtype=float)
        tables = strategy_tables(rules, positions)
        if genes.ndim == 1:
            return np.einsum("s,skm->km", probabilities(genes), tables)
        weights = np.stack([probabilities(g) for g in genes])
        return np.einsum("ks,skm->km", weights, tables)

    def to_json(self, genes, rules: Rules) -> dict:
        """A thresholds genome as an exported file's ``genome`` field: each strategy's weight."""
        return {"weights": {name: float(w) for name, w in zip(STRATEGIES, genes)}}

    def from_json(self, data: dict, rules: Rules, container=np.asarray):
        """The thresholds genome a file's ``genome`` field holds, each weight checked; a one-line
        ``UserError`` otherwise."""
        weights = data.get("weights")
        if not isinstance(weights, dict) or set(weights) != set(STRATEGIES):
            raise UserError(f"a thresholds genome needs one weight for each of {', '.join(STRATEGIES)}")
        values = [weights[name] for name in STRATEGIES]
        if not all(isinstance(w, (int, float)) and not isinstance(w, bool) for w in values):
            raise UserError("thresholds weights must be numbers")
        genes = np.array(values, dtype=float)
        if np.any(genes < 0) or np.any(genes > 1) or not np.all(np.isfinite(genes)):
            raise UserError("thresholds weights must lie in [0, 1]")
        return container(genes)

    def order_blind(self, genes, rules: Rules) -> bool:
        return True  # it reads pile sizes, the first of equal piles where it picks one

    def create(self, rules: Rules, rng: np.random.Generator, container=np.asarray, multiset: bool = True):
        """A thresholds genome of random weights, one per strategy."""
        return container(rng.random(len(STRATEGIES)))

    def policies(self, genomes: list, spaces: tuple) -> list[np.ndarray]:
        """The genomes' tables over each space at once (:func:`policies`: the strategies' tables
        made once a space)."""
        return [policies(genomes, space) if len(genomes) else np.zeros((0, space.n_positions, space.n_moves))
                for space in spaces]

    def check_ranges(self, genes, rules: Rules) -> None:
        if not ((genes >= 0) & (genes <= 1)).all():
            raise UserError("thresholds must lie in [0, 1]")

    scripted = True

    def script(self, genes, game: Rules) -> tuple[tuple[str, ...], dict]:
        """``scripts/thresholds.js``, mixing ports of the strategies with the probabilities
        :func:`probabilities` computes (nim-sum's winning takes, and misère with a cap judged
        on each child)."""
        plain = self.check_plain(self.plain(genes), game)
        return (script_source("thresholds.js"),), {"probabilities": [float(p) for p in probabilities(plain)]}


KIND = ThresholdsKind()
