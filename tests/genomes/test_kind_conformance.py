"""nim_evo.genomes.conformance.check_kind: every built-in kind's views give its one answer, on
Nim's variants and on the games of every other family it plays; a kind whose view departs from
the answer is named, with the check."""

import numpy as np
import pytest

from nim_evo import Rules
from nim_evo.agents.conformance import ConformanceError
from nim_evo.games import game
from nim_evo.genomes import get_kind
from nim_evo.genomes.conformance import check_kind
from nim_evo.genomes.program import ProgramKind
from nim_evo.genomes.ruleset import RulesKind
from nim_evo.genomes.table import TableKind
from nim_evo.genomes.thresholds import ThresholdsKind

NIM = [Rules((1, 3, 5, 7)), Rules((2, 3, 4, 5), max_take=2, misere=True), Rules((3, 3, 4))]
OTHERS = ["7-kayles", "3-4-wythoff", "2-3-4-moore2", "3-5-sub1.3.4", "2-3-5-grundy"]


@pytest.mark.parametrize("rules", NIM, ids=lambda rules: rules.name)
@pytest.mark.parametrize("kind", ["table", "rules", "thresholds", "program"])
def test_every_kind_plays_one_answer_on_nim(kind, rules):
    """(A table, bound to its board, is checked over multisets and over the ordered space; a kind
    that plays any board, also where its move leaves heaps of any size.)"""
    asked = 8 if kind == "table" else 4
    assert check_kind(kind, rules, seed=3) == {**dict.fromkeys(("rows", "stack", "policies", "choose", "files",
                                                                "variation"), asked),
                                                "child_of": 0 if kind == "table" else 4}


@pytest.mark.parametrize("name", OTHERS)
@pytest.mark.parametrize("kind", ["table", "program"])
def test_the_kinds_of_every_family_play_one_answer_there(kind, name):
    """(Found here: a program's population policy broke ties between two arrangements of one
    child by their order in the space, not by action, and a multiset table of a game of
    splitting moves could not be read over the ordered space.)"""
    assert check_kind(kind, game(name), seed=1)["policies"] == (8 if kind == "table" else 4)


class _WrongPolicies(ThresholdsKind):
    def policies(self, genomes, spaces):  # every genome plays uniformly at random
        return [np.stack([space.merge(space.legal / space.legal.sum(axis=1, keepdims=True).clip(1))
                          for _ in genomes]) for space in spaces]


class _WrongChoice(RulesKind):
    def choose(self, genes, rules, positions, rng):
        return np.zeros(len(positions), dtype=np.int64)


class _EndedRow(RulesKind):
    def move_probabilities(self, genes, rules, positions):
        rows = super().move_probabilities(genes, rules, positions)
        rows[~rules.legal_mask(positions).any(axis=1), 0] = 1.0  # (a move where the game is over)
        return rows


class _OrderedBlind(TableKind):
    def policies(self, genomes, spaces):
        if spaces[0].multiset or len(np.asarray(genomes[0])) != spaces[0].n_positions:
            return super().policies(genomes, spaces)
        return [np.zeros((len(genomes), space.n_positions), dtype=np.int64) for space in spaces]


class _WrongChild(ProgramKind):
    def child_of(self, genes, family, heaps):
        return np.sort(np.asarray(heaps))  # (no move at all)


class _LosesOnReading(TableKind):
    def from_json(self, data, rules, container=np.asarray):
        genes = super().from_json(data, rules, container)
        genes[-1] = genes[-2]  # (the last multiset's move is another's)
        return genes


@pytest.mark.parametrize("broken, check", [(_WrongPolicies(), "policies"), (_WrongChoice(), "choose"),
                                           (_LosesOnReading(), "files"), (_EndedRow(), "rows"),
                                           (_OrderedBlind(), "policies"), (_WrongChild(), "child_of")])
def test_a_view_that_departs_from_the_answer_is_named(broken, check):
    with pytest.raises(ConformanceError, match=f"(?sm)genome kind on 1-3-5-7:\n.*^  {check}: "):
        check_kind(broken, Rules((1, 3, 5, 7)))


def test_a_kind_is_checked_by_its_name_or_itself():
    assert check_kind("rules", NIM[0]) == check_kind(get_kind("rules"), NIM[0])
