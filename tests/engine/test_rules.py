"""Tests of nim_evo.engine.rules: the game description and the scalar path."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from nim_evo.engine.rules import DEFAULT_GAME, PRESETS, Rules, legal_moves
from nim_evo.validation import UserError

# -- validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        (dict(piles=()), "at least one pile"),
        (dict(piles=[]), "at least one pile"),
        (dict(piles=5), "sequence"),
        (dict(piles=None), "sequence"),
        (dict(piles=(3, -1)), ">= 0"),
        (dict(piles=(-4,)), ">= 0"),
        (dict(piles=(3, 1.5)), "whole numbers"),
        (dict(piles=(2.0,)), "whole numbers"),
        (dict(piles=(3, "4")), "whole numbers"),
        (dict(piles=(True, 3)), "whole numbers"),
        (dict(piles=(3, False)), "whole numbers"),
        (dict(piles=(0,)), "all empty"),
        (dict(piles=(0, 0, 0)), "all empty"),
        (dict(piles=(3,), max_take=0), "max_take must be >= 1"),
        (dict(piles=(3,), max_take=-2), "max_take must be >= 1"),
        (dict(piles=(3,), max_take=1.5), "max_take must be a whole number"),
        (dict(piles=(3,), max_take="2"), "max_take must be a whole number"),
        (dict(piles=(3,), max_take=True), "max_take must be a whole number"),
        (dict(piles=(3,), misere=1), "misere must be True or False"),
        (dict(piles=(3,), misere=0), "misere must be True or False"),
        (dict(piles=(3,), misere="yes"), "misere must be True or False"),
        (dict(piles=(3,), misere=None), "misere must be True or False"),
        (dict(piles=(3,), misere=np.bool_(True)), "misere must be True or False"),
    ],
)
def test_invalid_rules_raise_value_error_naming_the_problem(kwargs, fragment):
    """Each bad argument raises ValueError whose message names the problem."""
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")) as info:
        Rules(**kwargs)
    assert fragment in str(info.value)


def test_bad_value_is_quoted_in_the_message():
    """The offending value itself appears in the error message."""
    with pytest.raises(ValueError, match="-7"):
        Rules((3, -7))
    with pytest.raises(ValueError, match="1.5"):
        Rules((3,), max_take=1.5)
    with pytest.raises(ValueError, match="'yes'"):
        Rules((3,), misere="yes")


def test_valid_rules_normalise_inputs():
    """Lists and numpy integers are accepted and stored as a tuple of Python ints."""
    rules = Rules([np.int64(3), np.int32(0), 2], max_take=np.int64(2))
    assert rules.piles == (3, 0, 2)
    assert type(rules.piles) is tuple
    assert all(type(p) is int for p in rules.piles)
    assert rules.max_take == 2 and type(rules.max_take) is int
    assert rules.misere is False


def test_some_empty_piles_are_allowed():
    """Empty piles are fine as long as one object is on the board."""
    assert Rules((0, 0, 1)).piles == (0, 0, 1)


# -- immutability, hashing, pickling -------------------------------------------------------


@pytest.mark.parametrize("field", ["piles", "max_take", "misere"])
def test_rules_are_immutable(field):
    """Assigning to any field raises FrozenInstanceError (an AttributeError)."""
    rules = Rules((3, 4), 2, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(rules, field, (1,) if field == "piles" else 1)
    with pytest.raises(AttributeError):
        setattr(rules, field, None)
    assert rules == Rules((3, 4), 2, True)


def test_new_attributes_cannot_be_added():
    """Frozen rules also refuse new attributes."""
    rules = Rules((3,))
    with pytest.raises(AttributeError):
        rules.colour = "red"


def test_equal_rules_hash_equal():
    """Rules built from equivalent inputs are equal and hash equal."""
    a = Rules((1, 3, 5), None, False)
    b = Rules([1, 3, 5])
    c = Rules((np.int64(1), 3, 5), misere=False)
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert len({a, b, c}) == 1
    assert {a: "x"}[b] == "x"


def test_different_rules_are_not_equal():
    """Piles, cap and ending each distinguish rules."""
    variants = [
        Rules((1, 3, 5)),
        Rules((1, 3, 6)),
        Rules((5, 3, 1)),
        Rules((1, 3, 5), max_take=2),
        Rules((1, 3, 5), max_take=3),
        Rules((1, 3, 5), misere=True),
        Rules((1, 3, 5), max_take=2, misere=True),
    ]
    assert len(set(variants)) == len(variants)
    for i, a in enumerate(variants):
        for j, b in enumerate(variants):
            assert (a == b) == (i == j)


@pytest.mark.parametrize("rules", [Rules((1, 3, 5, 7, 9)), Rules((17,), 3, True), Rules((0, 4), None, True)])
def test_pickle_round_trip(rules):
    """Rules survive pickling, equal and hash-equal to the original."""
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        copy = pickle.loads(pickle.dumps(rules, protocol=protocol))
        assert copy == rules
        assert hash(copy) == hash(rules)
        assert copy.name == rules.name


# -- presets -------------------------------------------------------------------------------

DOCUMENTED_PRESETS = {
    "1-3-5-7-9": ((1, 3, 5, 7, 9), None, False),
    "15-cap3-misere": ((15,), 3, True),
    "16-cap3-misere": ((16,), 3, True),
    "17-cap3-misere": ((17,), 3, True),
    "20-cap4-misere": ((20,), 4, True),
    "21-cap3": ((21,), 3, False),
    "2-3-4-5-misere": ((2, 3, 4, 5), None, True),
    "7-5-3": ((7, 5, 3), None, False),
}


def test_presets_are_exactly_the_documented_games():
    """PRESETS holds exactly the documented seed games, and the default is among them."""
    assert set(PRESETS) == set(DOCUMENTED_PRESETS)
    assert DEFAULT_GAME == "1-3-5-7-9"
    assert DEFAULT_GAME in PRESETS


@pytest.mark.parametrize("name", sorted(DOCUMENTED_PRESETS))
def test_every_preset_builds_with_documented_piles_cap_and_ending(name):
    """Each preset has the documented piles, cap and ending, and its name round trips."""
    piles, cap, misere = DOCUMENTED_PRESETS[name]
    rules = Rules.preset(name)
    assert rules.piles == piles
    assert rules.max_take == cap
    assert rules.misere is misere
    assert rules.last_mover_wins is (not misere)
    assert rules.start == piles
    assert rules.name == name
    assert str(rules) == name
    assert rules == Rules(piles, cap, misere)


@pytest.mark.parametrize("name", ["", "nim", "7-5-4", "1-3-5-7", "21-cap4", "17-cap3", "7-5-3-misere"])
def test_unknown_preset_lists_known_names(name):
    """An unknown preset raises ValueError naming the game and listing the known ones."""
    with pytest.raises(ValueError) as info:
        Rules.preset(name)
    message = str(info.value)
    assert "unknown game" in message
    assert repr(name) in message
    for known in PRESETS:
        assert known in message


# -- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "piles", "cap", "misere"),
    [
        ("17-cap3-misere", (17,), 3, True),
        ("7-5-3", (7, 5, 3), None, False),
        ("21-cap3", (21,), 3, False),
        ("2-3-4-5-misere", (2, 3, 4, 5), None, True),
        ("0-4", (0, 4), None, False),
        ("12", (12,), None, False),
        ("  7-5-3-CAP2-Misere ", (7, 5, 3), 2, True),
        ("007-05", (7, 5), None, False),
    ],
)
def test_parse_reads_piles_cap_and_ending(name, piles, cap, misere):
    """parse reads piles, the optional cap and the optional misère suffix."""
    rules = Rules.parse(name)
    assert (rules.piles, rules.max_take, rules.misere) == (piles, cap, misere)


def test_name_round_trips_through_parse():
    """parse(rules.name) == rules for many random rules, and the name is canonical."""
    rng = np.random.default_rng(11)
    for _ in range(200):
        piles = tuple(int(p) for p in rng.integers(0, 30, size=rng.integers(1, 7)))
        if sum(piles) == 0:
            continue
        cap = None if rng.random() < 0.4 else int(rng.integers(1, 10))
        rules = Rules(piles, cap, bool(rng.random() < 0.5))
        assert Rules.parse(rules.name) == rules
        assert Rules.parse(rules.name).name == rules.name


def test_name_format():
    """The canonical name joins piles by '-', then -capK, then -misere."""
    assert Rules((1, 3, 5, 7, 9)).name == "1-3-5-7-9"
    assert Rules((17,), 3, True).name == "17-cap3-misere"
    assert Rules((4, 0), 2).name == "4-0-cap2"
    assert Rules((4, 0), misere=True).name == "4-0-misere"


@pytest.mark.parametrize(
    "name",
    ["", "-", "cap3", "misere", "7--5", "-7-5", "7-5-", "a-b", "7,5,3", "7 5 3", "7-5-misere-cap3",
     "7-5-cap", "7-5-capx", "7-5-cap-3", "7-5-misere-misere", "7.5", "x7-5"],
)
def test_parse_rejects_malformed_names(name):
    """Malformed names raise ValueError quoting the name and showing the expected form."""
    with pytest.raises(ValueError) as info:
        Rules.parse(name)
    assert "cannot read game" in str(info.value)
    assert repr(name) in str(info.value)


@pytest.mark.parametrize(("name", "fragment"), [("0-0", "all empty"), ("7-cap0", "max_take must be >= 1")])
def test_parse_of_well_formed_but_invalid_names(name, fragment):
    """A well-formed name with invalid values fails with the validation message."""
    with pytest.raises(ValueError, match=fragment):
        Rules.parse(name)


# -- the scalar path -----------------------------------------------------------------------


def test_legal_moves_order_without_cap():
    """Moves are listed by pile, then count 1..n, skipping empty piles."""
    rules = Rules((2, 0, 3))
    assert rules.legal_moves((2, 0, 3)) == [(0, 1), (0, 2), (2, 1), (2, 2), (2, 3)]
    assert rules.legal_moves((1, 0, 1)) == [(0, 1), (2, 1)]
    assert rules.legal_moves((0, 0, 0)) == []


def test_legal_moves_order_with_cap():
    """With a cap, counts run 1..min(n, cap)."""
    rules = Rules((5, 1, 3), max_take=2)
    assert rules.legal_moves((5, 1, 3)) == [(0, 1), (0, 2), (1, 1), (2, 1), (2, 2)]
    assert rules.legal_moves((1, 0, 2)) == [(0, 1), (2, 1), (2, 2)]
    assert Rules((9,), max_take=1).legal_moves((9,)) == [(0, 1)]
    assert legal_moves((3, 4), 3) == [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3)]
    assert legal_moves((3, 4)) == [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (1, 4)]


def test_legal_moves_match_is_legal_and_order_on_random_positions():
    """legal_moves is exactly the sorted set of moves is_legal accepts, and respects the cap."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(1, 5))
        position = tuple(int(p) for p in rng.integers(0, 8, size=n))
        cap = None if rng.random() < 0.3 else int(rng.integers(1, 6))
        rules = Rules(tuple(p + 1 for p in position), cap)
        moves = rules.legal_moves(position)
        assert moves == sorted(moves)
        grid = [(i, c) for i in range(-1, n + 1) for c in range(-1, 10)]
        assert moves == [m for m in grid if rules.is_legal(position, m)]
        expected = sum(min(p, cap) if cap else p for p in position)
        assert len(moves) == expected
        assert all(c <= (cap or c) for _, c in moves)


def test_apply_removes_objects():
    """apply takes count objects from the pile and leaves the others alone."""
    rules = Rules((3, 4, 5))
    assert rules.apply((3, 4, 5), (1, 2)) == (3, 2, 5)
    assert rules.apply((3, 4, 5), (2, 5)) == (3, 4, 0)
    assert rules.apply((3, 4, 5), (0, 1)) == (2, 4, 5)
    assert rules.apply([1, 0, 0], (0, 1)) == (0, 0, 0)


@pytest.mark.parametrize(
    ("position", "move"),
    [
        ((3, 4), (0, 0)),
        ((3, 4), (0, -1)),
        ((3, 4), (0, 4)),
        ((3, 0), (1, 1)),
        ((3, 4), (2, 1)),
        ((3, 4), (-1, 1)),
        ((3, 4), (1, 3)),  # above the cap of 2
    ],
)
def test_apply_rejects_illegal_moves(position, move):
    """Illegal moves (bad pile, zero/negative count, too many, over the cap) raise ValueError."""
    rules = Rules((3, 4), max_take=2)
    assert not rules.is_legal(position, move)
    with pytest.raises(ValueError, match="illegal move"):
        rules.apply(position, move)


def test_is_terminal():
    """Only the empty board is terminal."""
    assert Rules.is_terminal((0, 0, 0))
    assert Rules.is_terminal((0,))
    assert not Rules.is_terminal((0, 1, 0))
    assert not Rules((3,)).is_terminal((3,))


def test_check_position():
    """check_position normalises good positions and names the problem with bad ones."""
    rules = Rules((3, 4))
    assert rules.check_position([np.int64(1), 2]) == (1, 2)
    with pytest.raises(ValueError, match="has 3 piles; this game has 2"):
        rules.check_position((1, 2, 3))
    with pytest.raises(ValueError, match="whole numbers from 0 to"):
        rules.check_position((1, -1))
    with pytest.raises(ValueError, match="whole numbers from 0 to"):
        rules.check_position((1, 0.5))
    with pytest.raises(ValueError, match="whole numbers from 0 to"):
        rules.check_position((True, 1))


@pytest.mark.parametrize("move", [(0, 1.5), (0, 1.0), (True, 1), (0, True), (0,), (0, 1, 1), (0.0, 1),
                                  ("0", 1), None, 3, (0, np.float64(1.0))])
def test_moves_must_be_pairs_of_whole_numbers(move):
    """A move that is not a (pile, count) pair of integers is illegal everywhere, even when
    its values would be (1.0 objects, True as pile 1): is_legal says False, apply refuses."""
    rules = Rules((3, 4))
    assert rules.is_legal((3, 4), move) is False
    with pytest.raises(ValueError, match="illegal move"):
        rules.apply((3, 4), move)


def test_numpy_integer_moves_are_legal():
    rules = Rules((3, 4))
    assert rules.is_legal((3, 4), (np.int64(1), np.int32(2)))
    after = rules.apply((3, 4), (np.int64(1), np.int32(2)))
    assert after == (3, 2) and all(type(p) is int for p in after)


@pytest.mark.parametrize("rules, position", [(Rules((3, 0, 5, 2)), (3, 0, 5, 2)), (Rules((3, 0, 5, 2), 2), (3, 0, 5, 2)),
                                             (Rules((9,), 4, True), (6,))])
def test_random_move_is_the_listed_move_of_the_same_draw(rules, position):
    """random_move lists nothing, yet draws exactly legal_moves(position)[rng.integers(count)]."""
    moves = rules.legal_moves(position)
    assert rules.count_moves(position) == len(moves)
    for seed in range(100):
        expected = moves[np.random.default_rng(seed).integers(len(moves))]
        assert rules.random_move(position, np.random.default_rng(seed)) == expected


def test_huge_piles_are_counted_and_drawn_from_never_listed():
    rules = Rules((10**15, 10**12), 10**9)
    assert rules.count_moves(rules.start) == 2 * 10**9
    rng = np.random.default_rng(0)
    assert all(rules.is_legal(rules.start, rules.random_move(rules.start, rng)) for _ in range(100))
    with pytest.raises(UserError, match="2,000,000,000 legal moves, too many to list"):
        rules.legal_moves(rules.start)
    with pytest.raises(UserError, match="no legal move"):
        rules.random_move((0, 0), rng)
    with pytest.raises(UserError, match="at most 1,000,000,000,000,000"):
        Rules((10**15 + 1,))
