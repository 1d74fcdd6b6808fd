"""Tests of nim_evo.engine.conformance: check_game passes every registered family's boards, and fails
games whose views, order, box, theory or fast paths depart from their rule."""

from dataclasses import dataclass

import numpy as np
import pytest

from nim_evo.engine.conformance import ConformanceError, check_game
from nim_evo.games import FAMILIES, Rules, Subtraction, game
from nim_evo.validation import UserError

BOARDS = {"nim": ["7-5-3", "1-2-3-4-misere", "3-4-5-cap2", "2-2-3-cap2-misere", "21-cap3", "17-cap3-misere"],
          "subtraction": ["20-sub1.3.4", "3-5-7-sub1.2.4-misere", "12-sub2.5.7", "4-6-sub2.3-misere",
                          "21-sub1.2.3-misere"],
          "squares": ["13-squares", "6-9-squares", "4-5-7-squares-misere"],
          "wythoff": ["5-6-wythoff", "9-13-wythoff", "4-7-wythoff-misere", "8-8-wythoff-misere"],
          "moore": ["1-3-5-7-moore2", "2-3-4-moore3", "1-2-3-4-moore2-misere", "1-1-2-3-moore2-misere"],
          "octal": ["8-kayles", "3-4-kayles", "12-dawson", "10-octal.137", "2-3-4-octal.6", "7-kayles-misere"],
          "lasker": ["7-lasker", "2-2-3-lasker", "3-4-lasker-misere"],
          "grundy": ["11-grundy", "4-7-grundy", "9-grundy-misere"]}


def test_every_registered_family_has_boards_here():
    assert set(FAMILIES) == set(BOARDS)
    for name, family in FAMILIES.items():
        assert game(family.example).family == name


@pytest.mark.parametrize("name", [name for names in BOARDS.values() for name in names])
def test_every_registered_family_passes(name):
    report = check_game(game(name))
    for check in ("name", "alphabet", "views", "order", "interchangeable", "solver"):
        assert report.checks[check] >= 1, check
    if game(name).family == "nim":  # Nim's counted box and multisets held to the search
        assert report.checks["fast paths"] > report.positions
    if not game(name).misere and game(name).family != "subtraction":  # theory judged every position
        assert not report.notes
        assert not report.notes  # and its closed forms hold everywhere


@dataclass(frozen=True)
class _DropsAMove(Rules):
    def legal_moves(self, position):
        return super().legal_moves(position)[1:]


@dataclass(frozen=True)
class _WrongTheory(Subtraction):
    def theory_wins(self, positions):
        return np.zeros(len(positions), dtype=bool)


@dataclass(frozen=True)
class _FalseBox(Subtraction):
    @property
    def box(self):
        return True


@dataclass(frozen=True)
class _OrderUp(Subtraction):
    def order(self, positions):
        return -np.asarray(positions).sum(axis=-1)


@dataclass(frozen=True)
class _OverOnTheEmptyBoardOnly(Subtraction):
    def over_mask(self, positions):  # Nim's fast path, wrong where a heap of 1 cannot be taken 2 or 3
        return ~np.asarray(positions).any(axis=1)


@dataclass(frozen=True)
class _StepIgnoresTheCap(Subtraction):
    def step(self, positions, actions):  # any count a heap holds, even one the set does not allow
        children, legal = super().step(positions, actions)
        return children, legal | ((np.asarray(actions) == 0) & (np.asarray(positions)[:, 0] > 0))


@pytest.mark.parametrize("broken, check", [
    (_DropsAMove((2, 3)), "views: legal_moves"),
    (_WrongTheory((5, 6), (1, 3)), "solver: at"),
    (_FalseBox((7,), (2, 3)), "box: the board says it is a box"),
    (_OrderUp((4, 5), (1, 2)), "order: action"),
    (_OverOnTheEmptyBoardOnly((4, 5), (2, 3)), "views: over_mask at"),
    (_StepIgnoresTheCap((4, 5), (2, 3)), "views: step at"),
])
def test_a_game_that_departs_from_its_rule_fails(broken, check):
    with pytest.raises(ConformanceError, match=check):
        check_game(broken)


def test_a_board_too_big_to_check_is_one_line():
    with pytest.raises(UserError, match="check_game asks each on its own"):
        check_game(game("9-9-9-9-9-9"))
