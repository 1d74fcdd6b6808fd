"""The population evaluator changes how fitness is computed, never what: short runs of every
genome kind give bit for bit the logbook and hall of fame they gave at commit 1be1205, before
it (digests from ``golden.py`` run on that commit; ``program-merged``'s on 7324d71, before
fitness tasks were merged and genomes remembered)."""

import pytest

from golden import RUNS, digest

BEFORE = {
    'table-5': '7e199b66d24bde0d99e5bb743e5b9b1ffc4d944614d68589b24a6ff71ebd6d56',
    'table-ordered': '072c866cfeab7f26cf5580b8f03f17c15b739023e5ed12a6e70a172ebdb6ac4a',
    'table-misere': '870ac43a59ee809208584c4e98365ecb02dde8c65143f0d449b1aa1bfdde2d17',
    'table-sub': 'f28b9d37e57b9d5d0c0050ac78c977c5431d45011bf39aac5847f69fc7a2d605',
    'table-kayles': '7ad721cc7083ca58042f2c2b9e8617131f60212afd1e51b855d4ef9a33ccb6c8',
    'rules': 'f4121745cbc21423f7a2867e0beb623245ccfc70c5f3c221627bd6bf253723a3',
    'thresholds': '6b5a179fda9c4a9c53385717684152dc9b47a42abb0533f7cf1c741f35b9be00',
    'program': 'bf21068dbfd479430d2ab9fcfbb97f61bceb14848bd717ea063183071251168b',
    'program-sub': 'c248f45db51385d05b494dda5aec55480f9a79f9dcb8d3d7e9ee6a66698301d7',
    'program-four': '3236bdcc3ecdef4678589aba69a46d3254c1a46cc2c92379bb8d2dc2046a6f92',
    'program-merged': '040f5f4632f3b2b982f9c0c8bbc8280de50f4120bf7d41a6def80a6cf72d6d2d',  # (on 7324d71)
}


def test_every_run_is_pinned():
    assert set(BEFORE) == set(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_same_bits_as_before(name):
    assert digest(name) == BEFORE[name]
