"""Seeds at the public boundary (scikit-learn's ``check_random_state``, for SeedSequences)."""

from __future__ import annotations

import numpy as np

from nim_evo.validation import UserError


def seed_sequence(seed) -> np.random.SeedSequence:
    """A fresh ``SeedSequence`` for ``seed``.

    Accepts an int or a sequence of ints; a ``SeedSequence``, copied so that spawning from
    the result leaves the caller's untouched (the same seed gives the same result twice);
    or a ``Generator``, from which it draws its entropy (advancing it).
    """
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size,
                                      n_children_spawned=seed.n_children_spawned)
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(seed.integers(0, 2**63, size=4).tolist())
    try:
        return np.random.SeedSequence(seed)
    except (TypeError, ValueError):
        raise UserError(f"a seed must be a non-negative int, a sequence of them, a SeedSequence or a "
                         f"Generator, got {seed!r}") from None


def stream_parts(rng: np.random.Generator, sizes) -> list[np.random.Generator] | None:
    """Generators that draw, one after another, what ``rng`` would draw next in ``sizes``
    64-bit words each (a double of ``random()`` is one word), and ``rng`` moved past them
    all: one stream cut into parts that threads can draw at once, the same numbers in the
    same places. ``None`` where the bit generator cannot jump ahead (PCG64's ``advance``:
    ``default_rng``'s)."""
    bits = rng.bit_generator
    if not isinstance(bits, (np.random.PCG64, np.random.PCG64DXSM)):
        return None
    before = bits.state
    parts = []
    for size in sizes:
        part = type(bits)()
        part.state = bits.state
        parts.append(np.random.Generator(part))
        bits.advance(int(size))
    after = bits.state  # (advance() drops the half word a 32-bit draw may have left: kept, as drawing doubles keeps it)
    after["has_uint32"], after["uinteger"] = before["has_uint32"], before["uinteger"]
    bits.state = after
    return parts
