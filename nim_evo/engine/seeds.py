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
