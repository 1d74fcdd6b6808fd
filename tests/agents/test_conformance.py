"""The conformance suite over every player: each built-in agent, each learner with and without
symmetry (briefly trained), each genome kind (random genomes, over multisets and ordered),
each read back from its file, and a person's duck-typed agents, at EVERY position of boards
with unequal piles in normal, capped and misère play (nim_evo.agents.conformance); and the
checks themselves, each failing on a player broken in the way it looks for."""

from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import pytest

from nim_evo import Rules, check_player, load_strategy, make_agent
from nim_evo.agents import Player
from nim_evo.agents.conformance import ConformanceError, Report
from nim_evo.agents.minimax import MinimaxAgent
from nim_evo.genomes import GenomeAgent, genome_document, get_kind
from nim_evo.atomic import write_json
from nim_evo.learners import LEARNERS, make_learner
from nim_evo.learners.files import save_learner

BOARDS = {
    "1-2-4": Rules((1, 2, 4)),
    "2-3-4-cap2": Rules((2, 3, 4), 2),
    "1-3-4-misere": Rules((1, 3, 4), misere=True),
    "2-3-3-4-cap3-misere": Rules((2, 3, 3, 4), 3, True),
}
AGENTS = ["random", "nimsum", "minimax", "minimax-depth2", "take-3", "dumb", "aggressive", "fixed-rules"]
KINDS = ["table-multiset", "table-ordered", "rules", "thresholds", "program"]


class FirstPile:
    """A person's agent: one object from the first non-empty pile (it reads the pile order)."""

    name = "first-pile"

    def distribution(self, piles):
        return [((next(i for i, n in enumerate(piles) if n), 1), 1.0)]


class Longest:
    """A person's deterministic agent with move only: all of the longest pile, as far as the cap
    allows (the first of the longest: order-blind, and it says so)."""

    order_blind = True

    def __init__(self, rules):
        self.rules = rules

    def move(self, piles, rng):
        pile = max(range(len(piles)), key=lambda i: (piles[i], -i))
        return pile, min(piles[pile], self.rules.max_take or piles[pile])


class Proportional:
    """A person's random agent answering a batch: moves in proportion to the count taken."""

    name = "proportional"
    order_blind = True

    def __init__(self, rules):
        self.rules = rules
        self.moves = np.array(rules.moves)

    def move_probabilities(self, positions):
        legal = positions[:, self.moves[:, 0]] >= self.moves[:, 1]
        weights = np.where(legal, self.moves[:, 1], 0).astype(float)
        totals = weights.sum(axis=1, keepdims=True)
        return np.divide(weights, totals, out=np.zeros_like(weights), where=totals > 0)


def agent(name: str, rules: Rules):
    return MinimaxAgent(rules, depth=2) if name == "minimax-depth2" else make_agent(name, rules)


def learner(name: str, symmetry: bool, rules: Rules):
    trained = make_learner(name, rules, symmetry=symmetry)
    trained.train(300, np.random.default_rng(5))
    return trained


def genome(kind: str, rules: Rules, seed: int = 3) -> GenomeAgent:
    name, _, space = kind.partition("-")
    genes = get_kind(name).create(rules, np.random.default_rng(seed), multiset=space != "ordered")
    return GenomeAgent(name, genes, rules)


def check(player, rules) -> Report:
    report = check_player(player, rules)
    assert report.positions == int(np.prod(np.array(rules.piles) + 1)) - 1
    assert {"rows", "one at a time", "distribution", "policy", "move", "choose", "frequencies"} <= set(report.checks)
    assert ("multisets" in report.checks) == report.order_blind
    return report


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("name", AGENTS)
def test_every_built_in_agent_conforms(name, board):
    assert check(agent(name, BOARDS[board]), BOARDS[board]).order_blind


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("symmetry", [True, False], ids=["symmetry", "ordered"])
@pytest.mark.parametrize("name", LEARNERS)
def test_every_learner_conforms_with_and_without_symmetry(name, symmetry, board, tmp_path):
    rules = BOARDS[board]
    trained = learner(name, symmetry, rules)
    report = check(trained, rules)
    assert report.order_blind == symmetry
    save_learner(trained, tmp_path / "learner.json")
    loaded = load_strategy(tmp_path / "learner.json")
    check(loaded, rules)
    positions = np.array(rules.piles)[None] - np.indices(np.array(rules.piles) + 1).reshape(len(rules.piles), -1).T
    assert np.array_equal(loaded.move_probabilities(positions), trained.move_probabilities(positions))


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_genome_kind_conforms_and_plays_the_same_read_back_from_its_file(kind, board, tmp_path):
    rules = BOARDS[board]
    for seed in (3, 4):
        player = genome(kind, rules, seed)
        report = check(player, rules)
        assert report.order_blind == (kind != "table-ordered")
        path = tmp_path / f"{seed}.json"
        write_json(path, genome_document(player.kind, player.genes, rules))
        loaded = load_strategy(path)
        check(loaded, rules)
        space = np.indices(np.array(rules.piles) + 1).reshape(len(rules.piles), -1).T
        assert np.array_equal(loaded.move_probabilities(space), player.move_probabilities(space))


@pytest.mark.parametrize("board", BOARDS)
def test_a_persons_duck_typed_agents_conform(board):
    rules = BOARDS[board]
    report = check(FirstPile(), rules)
    assert not report.order_blind and report.player == "first-pile"
    assert check(Longest(rules), rules).order_blind
    assert check(Proportional(rules), rules).order_blind


def test_an_undeclared_player_that_chooses_by_sizes_is_told_it_may_declare_itself():
    rules = BOARDS["1-2-4"]

    class Quiet(Longest):
        order_blind = False

    assert any("may declare order_blind = True" in note for note in check(Quiet(rules), rules).notes)
    assert not check(FirstPile(), Rules((2, 3, 4))).notes


# -- each check fails on the defect it looks for ----------------------------------------------


class _Broken(Player):
    """The random agent of a board with one face broken (``defect``)."""

    def __init__(self, rules, defect: str):
        super().__init__(rules)
        self.defect, self.inner, self.name = defect, make_agent("random", rules), f"broken-{defect}"
        self.order_blind = True

    def move_probabilities(self, positions):
        rows = self.inner.move_probabilities(positions)
        if self.defect == "rows":
            rows[:, 0] += 0.5
        if self.defect == "batch" and len(positions) > 1:  # a batch answers its last position wrong
            rows[-1] = np.eye(rows.shape[1])[np.flatnonzero(rows[-1])[0]]
        return rows

    def distribution(self, piles):
        if self.defect == "representative":  # the old symmetric learners: the move of another arrangement
            return super().distribution(tuple(sorted(piles)))
        return super().distribution(piles)

    def move(self, piles, rng):
        if self.defect == "first":  # always the first of its moves
            return self.distribution(piles)[0][0]
        return super().move(piles, rng)

    def choose(self, positions, rng):
        chosen = super().choose(positions, rng)
        return np.zeros_like(chosen) if self.defect == "choose" else chosen

    def policy(self, space):
        table = super().policy(space)
        if self.defect == "policy" and not space.multiset:  # the start's row: its first move only
            table = table.copy()
            table[-1] = np.eye(table.shape[1])[np.flatnonzero(table[-1])[0]]
        return table


@pytest.mark.parametrize("defect, check_name", [("rows", "rows"), ("batch", "one at a time"),
                                                ("representative", "distribution"), ("first", "frequencies of move"),
                                                ("choose", "choose"), ("policy", "policy")])
def test_each_check_fails_on_its_defect(defect, check_name):
    rules = Rules((2, 3, 4), 2)
    with pytest.raises(ConformanceError, match=f"(?s)^broken-{defect} on 2-3-4-cap2: .*?\n  {check_name}: "):
        check_player(_Broken(rules, defect), rules)


def test_a_player_that_claims_order_blindness_but_reads_the_order_fails_over_multisets():
    class Claims(FirstPile):
        order_blind = True

    with pytest.raises(ConformanceError, match=r"multisets: \(.*\): merged"):
        check_player(Claims(), Rules((1, 3, 4)))


def test_an_agent_that_raises_or_plays_illegal_moves_fails_with_what_it_did():
    class Raises(FirstPile):
        def distribution(self, piles):
            raise ZeroDivisionError("oops")

    class Illegal(FirstPile):
        def distribution(self, piles):
            return [((0, 9), 1.0)]

    with pytest.raises(ConformanceError, match="rows: AgentError: first-pile raised ZeroDivisionError in distribution at"):
        check_player(Raises(), Rules((1, 3, 4)))
    with pytest.raises(ConformanceError, match=r"first-pile played the illegal move \(0, 9\)"):
        check_player(Illegal(), Rules((1, 3, 4)))


def test_a_board_too_big_to_check_position_by_position_is_refused_in_one_line():
    from nim_evo.validation import UserError

    with pytest.raises(UserError, match="check_player asks each on its own"):
        check_player(make_agent("random", Rules((1, 3, 5, 7, 9, 11))), Rules((1, 3, 5, 7, 9, 11)))


# -- the page's scripts ------------------------------------------------------------------------

NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node (Node.js) is not on PATH: the page's scripts cannot be run")
@pytest.mark.parametrize("kind", ["rules", "thresholds", "program"])
def test_the_pages_script_plays_every_position_as_the_player(kind):
    """For the kinds the page translates, the script's moves and probabilities are the
    player's distribution at every position of every board (1e-12)."""
    from nim_evo.web.translate import strategy_script

    driver = ["const results = [];"]
    expected = []
    for rules in BOARDS.values():
        for seed in (3, 4):
            player = genome(kind, rules, seed)
            positions = [tuple(int(v) for v in p) for p in np.indices(np.array(rules.piles) + 1).reshape(
                len(rules.piles), -1).T if any(p)]
            expected.append([dict(player.distribution(p)) for p in positions])
            driver += ["{", strategy_script(kind, player.genes, rules),
                       f"results.push({json.dumps(positions)}.map((p) => nimDistribution(p, {list(rules.piles)})));", "}"]
    driver.append("process.stdout.write(JSON.stringify(results));")
    done = subprocess.run([NODE, "-"], input="\n".join(driver), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    for want, got in zip(expected, json.loads(done.stdout), strict=True):
        for w, g in zip(want, got, strict=True):
            moves = {(p, c): q for p, c, q in g}
            assert moves.keys() == w.keys() and all(abs(moves[m] - w[m]) <= 1e-12 for m in w)
