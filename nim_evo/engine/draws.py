"""Two of numpy's ``Generator.choice`` draws that variation makes thousands of times a
generation, made without ``choice``'s checks and arrays, drawn as numpy draws them: the
same draws from the generator, the same results (tested against ``choice`` itself).

- :func:`weighted`: ``rng.choice(n, p=weights)``, one uniform double searched in the
  cumulative weights (:func:`cumulative`, as numpy makes them);
- :func:`two_of`: ``rng.choice(n, 2, replace=False)``, Floyd's algorithm (a bounded integer
  below ``n - 1``, then one below ``n``, ``n - 1`` in its place if it repeats the first)
  and the pair shuffled (one bounded integer below 2), each bounded integer as
  ``rng.integers`` draws it;
- :func:`below`: ``rng.integers(n)``, without the call where ``n`` is 1 (numpy draws nothing
  then: lexicase's picks mostly end with one candidate).
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np


def cumulative(weights) -> list[float]:
    """The cumulative weights ``choice`` searches: their running sum over its last."""
    cdf = np.asarray(weights, dtype=np.float64).cumsum()
    cdf /= cdf[-1]
    return cdf.tolist()


def weighted(rng: np.random.Generator, cdf: list[float]) -> int:
    """``rng.choice(len(cdf), p=weights)`` for ``cdf = cumulative(weights)``."""
    return bisect_right(cdf, rng.random())


def two_of(rng: np.random.Generator, n: int) -> tuple[int, int]:
    """``rng.choice(n, 2, replace=False)`` (``n`` at least 2), as two ints."""
    first, second = int(rng.integers(n - 1)), int(rng.integers(n))
    pair = [first, n - 1 if second == first else second]
    swap = int(rng.integers(2))
    pair[swap], pair[1] = pair[1], pair[swap]
    return pair[0], pair[1]


def below(rng: np.random.Generator, n: int) -> int:
    """``rng.integers(n)``: of one, 0, which numpy draws nothing for."""
    return 0 if n == 1 else int(rng.integers(n))
