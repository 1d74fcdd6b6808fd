"""Tests of nim_evo.engine.seeds: what a seed may be at the public boundary."""

import numpy as np
import pytest

from nim_evo.engine.seeds import seed_sequence, stream_parts


def _draws(seq):
    return np.random.default_rng(seq).integers(0, 2**63, size=4).tolist()


def test_ints_and_int_sequences_give_their_seed_sequence():
    assert _draws(seed_sequence(5)) == _draws(np.random.SeedSequence(5))
    assert _draws(seed_sequence([1, 2, 3])) == _draws(np.random.SeedSequence([1, 2, 3]))
    assert _draws(seed_sequence(np.int64(5))) == _draws(seed_sequence(5))
    assert _draws(seed_sequence(5)) != _draws(seed_sequence(6))


def test_a_seed_sequence_is_copied_with_its_spawn_state():
    """The copy draws the same as the original and spawns the same children; spawning from
    the copy leaves the caller's sequence untouched, even one that has spawned before."""
    original = np.random.SeedSequence(9)
    original.spawn(3)
    copy = seed_sequence(original)
    assert copy is not original
    assert _draws(copy) == _draws(original)
    children = copy.spawn(2)
    assert original.n_children_spawned == 3
    assert [_draws(c) for c in children] == [_draws(c) for c in np.random.SeedSequence(9).spawn(5)[3:]]
    again = seed_sequence(original).spawn(2)
    assert [_draws(c) for c in again] == [_draws(c) for c in children]
    child = np.random.SeedSequence(9).spawn(1)[0]  # a spawned child keeps its spawn key
    assert _draws(seed_sequence(child)) == _draws(child)


def test_a_generator_seeds_by_drawing_from_it():
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    first = seed_sequence(a)
    assert _draws(first) == _draws(seed_sequence(b))
    assert _draws(seed_sequence(a)) != _draws(first)  # the generator advanced


@pytest.mark.parametrize("seed", [-1, 1.5, "seven", [1, -2], [1.5], object(), {"a": 1}])
def test_bad_seeds_raise_value_error(seed):
    with pytest.raises(ValueError, match="a seed must be"):
        seed_sequence(seed)


@pytest.mark.parametrize("half_word", [False, True])
def test_stream_parts_draw_what_the_stream_draws_and_move_it_past(half_word):
    """Cut in parts, a stream gives the same doubles in the same places, and the generator
    goes on after them as if it had drawn them (a 32-bit draw's kept half word included)."""
    whole, cut = np.random.default_rng(7), np.random.default_rng(7)
    if half_word:  # (a bounded 32-bit draw leaves half a word in PCG64, for the next one)
        whole.integers(0, 10, dtype=np.uint32), cut.integers(0, 10, dtype=np.uint32)
    expected = whole.random(1000)
    parts = stream_parts(cut, [300, 0, 700])
    assert np.array_equal(np.concatenate([parts[0].random(300), parts[1].random(0), parts[2].random(700)]), expected)
    assert np.array_equal(whole.integers(0, 10, size=5, dtype=np.uint32), cut.integers(0, 10, size=5, dtype=np.uint32))
    assert whole.random() == cut.random()
    assert stream_parts(np.random.Generator(np.random.MT19937(1)), [1, 2]) is None  # (it cannot jump ahead)
