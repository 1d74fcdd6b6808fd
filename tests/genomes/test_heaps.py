"""A program's heap part: the Winning Ways notation read back and written, the values it
gives (the known Grundy sequences of Nim, a subtraction set and Lasker's Nim), files never run,
and variation that keeps its shape."""

import numpy as np
import pytest

from nim_evo.games import game
from nim_evo.games.lasker import lasker_grundy
from nim_evo.games.subtraction import grundy_sequence
from nim_evo.genomes import heaps
from nim_evo.validation import UserError

BIG = np.array([10**6, 10**9 + 7, 10**15 - 1, 123_456_789_012])


def test_nims_heap_value_is_the_heap_itself():
    nim = heaps.parse(heaps.IDENTITY, "test")
    assert (nim.values, nim.period, nim.saltus) == ((0,), 1, 1)
    assert np.array_equal(nim(np.arange(200)), np.arange(200))
    assert np.array_equal(nim(BIG), BIG)


def test_a_subtraction_sets_period_is_its_grundy_sequence_at_every_size():
    part = heaps.parse("(0 1 0 1 2 3 2)", "test")
    truth = grundy_sequence((1, 3, 4))
    sizes = np.concatenate([np.arange(1000), BIG])
    assert np.array_equal(part(sizes), truth(sizes))
    assert not np.array_equal(heaps.parse("(0 1 0 1 2 3 3)", "test")(sizes), truth(sizes))


def test_lasker_s_nim_is_arithmetic_periodic_with_saltus_four():
    part = heaps.parse("0 (1 2 4 3) +4", "test")
    sizes = np.concatenate([np.arange(1000), BIG])
    assert np.array_equal(part(sizes), lasker_grundy(sizes))
    assert (part.preperiod, part.period, part.saltus, part.size()) == (1, 4, 4, 6)


def test_values_of_any_shape_and_the_table_read_directly():
    part = heaps.parse("0 5 (1 2)", "test")
    assert part(np.array([[0, 1], [2, 3]])).tolist() == [[0, 5], [1, 2]]
    assert part(np.array([4, 5, 6], dtype=np.int64)).tolist() == [1, 2, 1]
    assert part(np.zeros((0, 3), dtype=np.int64)).shape == (0, 3)


@pytest.mark.parametrize("text", ["(0)", "0 (1 2 4 3) +4", "0 1 2 3 1 4 (3 2 1)", "(0 1 0 1 2 3 2)", "(0) +1"])
def test_notation_round_trips(text):
    assert str(heaps.parse(text, "test")) == text
    assert str(heaps.parse(f"  {text.replace(' ', '   ')} ", "test")) == text


@pytest.mark.parametrize("text, message", [
    ("0 1 2", "is no heap part"),
    ("(1 2)", "the value of an empty heap \\(the first\\) must be 0, got 1"),
    ("0 (1 x)", "is no heap part"),
    ("0 (1 2) -4", "is no heap part"),
    ("0 (1 2) +4; import os", "is no heap part"),
    ("0 (1 99999999)", "at most 4096 values, each and the saltus at most 1,048,576"),
    ("0 (" + " 1" * 5000 + ")", "at most 4096 values"),
    (7, "must be a heap part"),
    (None, "must be a heap part"),
])
def test_a_heap_part_in_a_file_is_read_never_run(text, message):
    with pytest.raises(UserError, match=f"^the file's heap.*{message}"):
        heaps.parse(text, "the file's heap part")


def test_variation_keeps_the_shape_and_growing_plays_alike():
    rng = np.random.default_rng(3)
    part = heaps.create(rng)
    sizes = np.arange(300)
    seen = set()
    for _ in range(2000):
        child = heaps.mutate(part, rng)
        assert child.values[0] == 0 and 1 <= child.period <= len(child.values)
        assert heaps.parse(str(child), "test") == child
        if len(child.values) > len(part.values):  # grown: the new entries what the period gave there, but a
            grown = np.arange(len(part.values), len(child.values))  # value mutation's last, redrawn
            assert child.values[:len(part.values)] == part.values
            assert list(child.values[len(part.values):-1]) == list(part(grown[:-1]))
            if child.values[-1] == part(np.int64(grown[-1])) and child.period == part.period:
                assert np.array_equal(child(sizes), part(sizes))  # (grown alone: it plays alike)
                seen.add("grow")
            else:
                seen.add("reach")
        part = child if len(child.values) < 40 else heaps.create(rng)
    assert seen == {"grow", "reach"}


def test_variation_is_reproducible_and_crossover_mixes_tables():
    a, b = heaps.parse("0 1 2 3 4 (5 6)", "a"), heaps.parse("0 7 7 (7 7 7) +2", "b")
    first = [heaps.mutate(a, np.random.default_rng(s)) for s in range(20)]
    assert first == [heaps.mutate(a, np.random.default_rng(s)) for s in range(20)]
    for seed in range(20):
        c, d = heaps.crossover(a, b, np.random.default_rng(seed))
        cut = next(k for k in range(1, 7) if c.values[k] != a.values[k])
        assert c.values == a.values[:cut] + b.values[cut:] and d.values == b.values[:cut] + a.values[cut:]
        assert (c.period, c.saltus, d.period, d.saltus) == (3, 2, 2, 0)


@pytest.mark.parametrize("text, simplest", [
    ("0 2 0 2 3 1 3 (0 2 0 2 3 1 3)", "(0 2 0 2 3 1 3)"),
    ("(0 1 0 1 0 1)", "(0 1)"),
    ("0 (1 2 4 3 5 6 8 7) +8", "0 (1 2 4 3) +4"),
    ("0 1 2 3 (4) +1", "(0) +1"),
    ("0 1 (1 2 4 3) +4", "0 1 (1 2 4 3) +4"),  # (not Lasker's: 2 is 1 + 4 short, so the table stays)
    ("0 5 (1 2 1 2 1)", "0 5 (1 2 1 2 1)"),  # a period of 5 has no shorter one
])
def test_the_simplest_table_has_the_same_values(text, simplest):
    part = heaps.parse(text, "test")
    assert str(part.simplest()) == simplest
    sizes = np.concatenate([np.arange(500), BIG])
    assert np.array_equal(part.simplest()(sizes), part(sizes))


def test_simplest_keeps_every_random_parts_values():
    rng = np.random.default_rng(5)
    sizes = np.arange(400)
    for _ in range(300):
        part = heaps.create(rng)
        for _ in range(int(rng.integers(0, 8))):
            part = heaps.mutate(part, rng)
        simple = part.simplest()
        assert np.array_equal(simple(sizes), part(sizes)) and simple.size() <= part.size()


def test_a_value_mutation_goes_where_the_parent_s_play_first_fails_half_the_time():
    part = heaps.parse("0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2 1 4 6 7 4 1 2 8 5 4 (7 2)", "kayles-like")
    changed = {None: [], 13: []}
    for focus in changed:
        rng = np.random.default_rng(0)
        for _ in range(3000):
            child = heaps.mutate(part, rng, focus=focus)
            if child.values[:len(part.values)] != part.values and len(child.values) == len(part.values):
                changed[focus].append(next(i for i, (x, y) in enumerate(zip(part.values, child.values)) if x != y))
    at = {focus: heaps_changed.count(13) / len(heaps_changed) for focus, heaps_changed in changed.items()}
    assert at[None] < 0.06 and 0.4 < at[13] < 0.8  # (uniform: 1 of 59 heaps; focused: half, and by chance)


def test_half_the_values_drawn_are_ones_the_table_holds():
    rng = np.random.default_rng(1)
    drawn = np.array([heaps.draw_value([0, 9, 9, 9, 9, 9, 9, 9, 9, 9], rng) for _ in range(4000)])
    assert drawn.min() == 0 and drawn.max() == 10
    assert 0.45 < np.mean(drawn == 9) < 0.55  # (half reused, nine in ten of them a 9; 1/11 of the fresh ones)
    assert 0.03 < np.mean(drawn == 5) < 0.06  # (a value the table lacks: 1/11 of the fresh ones only)


def test_a_local_search_tries_every_value_held_and_one_more_or_sixteen_of_them():
    kayles_like = heaps.parse("0 1 2 3 1 4 3 2 1 4 2 (6)", "few values")
    assert heaps.candidates(kayles_like, 5, np.random.default_rng(0)) == [0, 1, 2, 3, 6, 7]  # (4 is heap 5's)
    lasker_like = heaps.parse(" ".join(map(str, range(100))) + " (100)", "many values")
    drawn = heaps.candidates(lasker_like, 50, np.random.default_rng(0))
    assert len(drawn) == heaps.CANDIDATES and 50 not in drawn and set(drawn) <= set(range(102))
    grown = heaps.with_value(kayles_like, 20, 9, alone=True)
    assert grown(np.int64(20)) == 9 and all(grown(np.int64(h)) == kayles_like(np.int64(h)) for h in range(60) if h != 20)
    residue = heaps.with_value(kayles_like, 20, 9)
    assert [int(residue(np.int64(h))) for h in (20, 21, 22)] == [9, 9, 9]  # (the period's one value: its whole residue)


def test_a_local_search_reads_values_past_the_table_and_the_table_with_each_period():
    identity = heaps.parse(heaps.IDENTITY, "Nim's")
    assert heaps.candidates(identity, 3, np.random.default_rng(0)) == [0, 1, 2, 4]  # (the values of heaps 0-3, and 4)
    grown = heaps.parse("0 1 2 4 3 5 6 8 (7) +1", "Lasker's first values, Nim's after")
    read = {str(part.simplest()) for part in heaps.periods(grown)}
    assert "0 (1 2 4 3) +4" in read and str(grown) not in {str(part) for part in heaps.periods(grown)}
    assert all(part.values == grown.values and 1 <= part.period <= heaps.PERIODS for part in heaps.periods(grown))
    long = heaps.parse(" ".join(["0"] * 40) + " (1)", "long")
    assert max(part.period for part in heaps.periods(long)) == heaps.PERIODS


def test_a_swap_exchanges_two_heaps_values_alone_or_for_their_residues():
    identity = heaps.parse(heaps.IDENTITY, "Nim's")
    alone = heaps.swapped(identity, 19, 20, alone=True)
    assert [int(alone(np.int64(h))) for h in range(17, 24)] == [17, 18, 20, 19, 21, 22, 23]
    lasker = heaps.parse("0 (1 2 3 4) +4", "Nim's, period 4")
    assert str(heaps.swapped(lasker, 3, 4).simplest()) == "0 (1 2 4 3) +4"  # (in the period: every residue)


def test_an_exchange_in_every_period_reaches_lasker_s_values_from_nim_s_in_one_step():
    """Lasker's Nim's values are Nim's with each pair 4k + 3, 4k + 4 exchanged: from Nim's, the
    failing heap's pair exchanged in every period of 4, whichever pair it is; a table with
    some pairs exchanged already gets the rest in the same order; heap 0 keeps 0."""
    identity = heaps.parse(heaps.IDENTITY, "Nim's")
    for heap, other in ((19, 20), (28, 27), (3, 4)):
        assert str(heaps.exchanged(identity, heap, other, 4).simplest()) == "0 (1 2 4 3) +4"
    assert str(heaps.exchanged(identity, 1, 2, 2).simplest()) == "0 (2 1) +2"  # (a relabelling of Lasker's)
    assert str(heaps.exchanged(identity, 19, 20, 8).simplest()) == "(0 1 2 4 3 5 6 7) +8"
    partly = heaps.parse("0 1 2 4 3 5 6 (7) +1", "Lasker's first values, Nim's after")
    assert str(heaps.exchanged(partly, 7, 8, 4).simplest()) == "0 (1 2 4 3) +4"
    lasker = heaps.parse("0 (1 2 4 3) +4", "Lasker's")
    assert str(heaps.exchanged(lasker, 19, 20, 4).simplest()) == heaps.IDENTITY  # (the pair's order, every pair's)
    assert heaps.exchanged(identity, 19, 21, 2) is None and heaps.exchanged(identity, 4095, 4096, 12) is None
    assert all(heaps.exchanged(identity, h, h + 1, p).values[0] == 0 for h in range(1, 30) for p in range(2, 13))


def test_a_new_period_may_take_the_saltus_the_table_keeps():
    table = heaps.parse("0 1 3 4 2 5 7 8 (6)", "Lasker's values relabelled, its period not yet found")
    found = {str(child.simplest()) for child in (heaps.mutate(table, np.random.default_rng(s)) for s in range(600))}
    assert "0 (1 3 4 2) +4" in found  # (period 4: the last value, 6, less the one four before, 2)


def test_a_sweep_tries_every_value_up_to_two_more_than_twice_the_largest_below_the_heap():
    part = heaps.parse("0 1 (2)", "p")
    variants = heaps.values_at(part, 4, 9)
    # the heaps below 4 hold 0 1 2 2: values 0 to 6 (heap 4's own, 2, its periodic part's, among them)
    assert [v.values[4] for v in variants] == [0, 1, 2, 3, 4, 5, 6] and variants[2].values == (0, 1, 2, 2, 2, 2, 2, 2, 2, 2)
    assert all(len(v.values) == 10 and v.values[:4] == (0, 1, 2, 2) and v.values[5:] == (2,) * 5 for v in variants)
    assert all(v(np.arange(10, 40)).tolist() == [2] * 30 for v in variants)  # (past the table as before)
    assert heaps.values_at(heaps.parse("0 (1 2 4 3) +4", "p"), 4, 9) == []  # (values that grow: no sweep)
    assert [v.values[3] for v in heaps.values_at(heaps.parse("0 (100)", "p"), 3, 5)] == list(range(heaps.SWEPT_VALUES))


@pytest.mark.parametrize("family, length, period", [("kayles", 121, 12), ("dawson", 121, 34)])
def test_a_table_set_to_where_decisions_end_is_read_with_the_period_it_holds_there(family, length, period):
    values = game(f"10-{family}").heap_values(100_000)(np.arange(100_000))
    read = heaps.repeating(heaps.HeapPart(tuple(int(v) for v in values[:length]), 1))
    assert read.period == period
    assert np.array_equal(read(np.arange(100_000)), values)
    # a table whose end repeats nothing whole is read as it was
    assert heaps.repeating(heaps.HeapPart((0, 1, 2, 3, 4, 5, 6), 3)) == heaps.HeapPart((0, 1, 2, 3, 4, 5, 6), 3)
    assert heaps.repeating(heaps.parse("0 (1 2 4 3) +4", "p")) == heaps.parse("0 (1 2 4 3) +4", "p")
