"""Held-out accuracy of board-free genomes: perfect for the known winning programs of each
family, low for a near miss, judged by the solver and by theory."""

import numpy as np
import pytest

from nim_evo import Rules
from nim_evo.evaluation.heldout import board_accuracy, held_out_accuracy, random_boards_accuracy
from nim_evo.genomes.program import Program
from nim_evo.genomes import get_kind

XOR = "sub(or(a, p), and(a, p))"


@pytest.mark.parametrize("program, family, seven", [
    (Program([XOR, "v"]), Rules((1, 2)), "1-3-5-7-9-11-13"),
    (Program(["sub(or(a, mod(p, k)), and(a, mod(p, k)))", "v"]), Rules((1, 2), max_take=3),
     "1-3-5-7-9-11-13-cap3"),
    (Program([XOR, "if(lt(1, m), v, if(eq(v, 1), 0, 1))"]), Rules((1, 2), misere=True), "1-3-5-7-9-11-13-misere"),
])
def test_the_winning_programs_generalise_perfectly(program, family, seven):
    assert held_out_accuracy(get_kind("program"), program, family) == {seven: 1.0, "random boards": 1.0}


def test_a_near_miss_is_seen_for_what_it_is():
    """The parity of the total (a local optimum of GP on this problem) on held-out boards."""
    report = held_out_accuracy(get_kind("program"), Program(["and(1, add(a, p))", "v"]), Rules((1, 2)))
    assert 0.05 < report["1-3-5-7-9-11-13"] < 0.5 and report["random boards"] < 0.05
    normal_only = Program([XOR, "v"])  # right for normal play, wrong in misère endgames
    misere = held_out_accuracy(get_kind("program"), normal_only, Rules((1, 2), misere=True))
    assert misere["1-3-5-7-9-11-13-misere"] < 1.0


def test_misere_with_a_cap_is_judged_on_random_boards_too():
    """Bouton's rule on the residues judges capped misère on big boards: a program that
    ignores the cap misses there, one on the residues does not (the endgame, every residue 0
    or 1, is rare on big boards: 1-3-5-7-9-11-13 is where it shows)."""
    family = Rules((1, 2), max_take=3, misere=True)
    residues = "sub(or(a, mod(p, k)), and(a, mod(p, k)))"
    blind = held_out_accuracy(get_kind("program"), Program([XOR, "v"]), family)
    capped = held_out_accuracy(get_kind("program"), Program([residues, "v"]), family)
    assert list(blind) == ["1-3-5-7-9-11-13-cap3-misere", "random boards"]
    assert blind["random boards"] < 0.9 and capped["random boards"] == 1.0
    assert capped["1-3-5-7-9-11-13-cap3-misere"] < 0.9

def test_a_stage_hands_on_only_a_program_that_validates_beyond_its_training_boards():
    """A step right on every training board (and on 1-3-5-7-9) by a trick of few piles fails
    the validation sample of 5 to 10 piles; exclusive or passes, under every cap asked."""
    from nim_evo.evaluation.heldout import validates

    trick = "or(sub(or(max(shl(p), a), a), a), sub(or(shl(p), sub(shl(a), a)), shl(p)))"  # a seed's stage 0
    assert board_accuracy(get_kind("program"), Program([trick, "v"]), Rules((1, 3, 5, 7, 9))) == 1.0
    assert not validates(get_kind("program"), [trick, "v"], ((None, False),))
    assert validates(get_kind("program"), [XOR, "v"], ((None, False),))
    residues = "sub(or(a, mod(p, k)), and(a, mod(p, k)))"
    assert validates(get_kind("program"), [residues, "v"], ((None, False), (2, False), (3, False)))
    assert not validates(get_kind("program"), [XOR, "v"], ((None, False), (3, False)))


def test_a_family_with_no_theory_is_judged_on_random_boards_the_solver_solves():
    """Misère play of subtraction {1, 3, 4} has no theory here: its random boards are small
    enough for the solver, which judges each whole. Misère {1, 2, 3} is Nim's misère under a cap
    of 3 in other words, judged by theory (Bouton's rule on the residues): the solver's boards
    judge its programs alike, Bouton's rule on the values (0 1 2 3) perfect, normal play's rule
    missing endgames."""
    from nim_evo.evaluation.heldout import _has_theory, _solved_boards, validates
    from nim_evo.games import game

    capped = game("20-sub1.2.3-misere")
    bouton = Program([XOR, "if(lt(1, w), v, if(eq(v, 1), 0, 1))", "max(b, p)", "(0 1 2 3)"])
    normal = Program([XOR, "v", "0", "(0 1 2 3)"])
    assert _has_theory(capped, 3) and not _has_theory(game("20-sub1.3.4-misere"), 3)
    solved = {name: np.mean(list(_solved_boards(get_kind("program"), program, capped, np.random.default_rng(3), (3, 12), 10**6,
                                                10)))
              for name, program in (("bouton", bouton), ("normal", normal))}
    assert solved["bouton"] == 1.0 and solved["normal"] < 0.99
    assert held_out_accuracy(get_kind("program"), bouton, capped) == {"1-3-5-7-9-11-13-sub1.2.3-misere": 1.0,
                                                            "random boards": 1.0}
    family = game("20-sub1.3.4-misere")
    normal = Program([XOR, "v", "0", "(0 1 0 1 2 3 2)"])  # its Grundy values: right in normal play alone
    report = held_out_accuracy(get_kind("program"), normal, family)
    assert list(report) == ["1-3-5-7-9-11-13-sub1.3.4-misere", "random boards"] and report["random boards"] < 0.99
    assert not validates(get_kind("program"), list(map(str, normal)), (family,))
    assert validates(get_kind("program"), list(map(str, normal)), (game("20-sub1.3.4"),))


def test_random_boards_hold_as_many_heaps_as_the_rule_is_played_on():
    from nim_evo.evaluation.heldout import heap_counts
    from nim_evo.games import game

    assert heap_counts(game("20-sub2.3"), (5, 10)) == (5, 6, 7, 8, 9, 10)  # (a heap of 1 has no move there)
    assert heap_counts(game("5-6-wythoff"), (3, 12)) == (2,)
    assert heap_counts(game("1-3-5-7-9-moore4"), (3, 6)) == (4, 5, 6)
    assert heap_counts(game("1-1-1-1-1-1-1-moore7"), (3, 5)) == (7,)


@pytest.mark.parametrize("program, family", [
    (Program([XOR, "v"]), "nim"),
    (Program(["and(1, add(a, p))", "v"]), "nim"),
    (Program([XOR, "v", "0", "(0 1 0 1 2 3 2)"]), "20-sub1.3.4"),
    (Program([XOR, "v", "0", "(0 1 0 1 2 3 3)"]), "20-sub1.3.4"),
    (Program([XOR, "v", "0", "(0 1 0 1 2 3 2)"]), "20-sub1.3.4-misere"),
])
def test_held_out_perfection_is_what_the_accuracies_say(program, family):
    """The stop and hand-on question (both held-out shares 1) answered from the first miss
    on gives what the accuracies say, asked before them and after (then remembered)."""
    from nim_evo.evaluation.heldout import held_out_perfect
    from nim_evo.games import game

    family = Rules((1, 2)) if family == "nim" else game(family)
    first = held_out_perfect(get_kind("program"), program, family, seed=3)
    report = held_out_accuracy(get_kind("program"), program, family, seed=3)
    assert first == held_out_perfect(get_kind("program"), program, family, seed=3) == all(v == 1.0 for v in report.values())


def test_held_out_perfection_stops_at_the_first_wrong_move(monkeypatch):
    """Nim's values in Lasker's Nim are wrong on its held-out board: no random board is asked.
    Lasker's values to heap 24 (the held-out board's) and Nim's beyond are right there, and
    wrong at once on heaps of up to a million (each position there scores every child of every
    heap): the question ends at its first position, where the accuracy judges all 40."""
    from nim_evo.evaluation.heldout import held_out_perfect
    from nim_evo.games import game
    from nim_evo.genomes.program import ProgramKind

    asked = []
    child_of = ProgramKind.child_of
    monkeypatch.setattr(ProgramKind, "child_of", lambda self, *args: asked.append(1) or child_of(self, *args))
    nim_values = Program([XOR, "v", "0", "(0) +1"])
    assert not held_out_perfect(get_kind("program"), nim_values, game("3-5-7-lasker"), seed=1)
    assert not asked
    lasker_to_24 = Program([XOR, "v", "0", "0 1 2 4 3 5 6 8 7 9 10 12 11 13 14 16 15 17 18 20 19 21 22 24 23 (25) +1"])
    assert not held_out_perfect(get_kind("program"), lasker_to_24, game("3-5-7-lasker"), seed=1)
    assert len(asked) == 1
