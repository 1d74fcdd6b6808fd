import importlib.util
import os
from pathlib import Path

import numpy as np
import pytest

from nim_evo import Rules

os.environ.pop("COLUMNS", None)  # text is wrapped to the terminal's width: the suite's is the fixed one

BOARDS = {
    "1-3-5-7-9": Rules((1, 3, 5, 7, 9)),
    "17-cap3-misere": Rules((17,), 3, True),
    "2-3-4-5-misere": Rules((2, 3, 4, 5), misere=True),
    "3-4-5-cap2": Rules((3, 4, 5), 2),
    "2-3-4-cap2-misere": Rules((2, 3, 4), 2, True),
    "21-cap3": Rules((21,), 3),
}


@pytest.fixture(params=list(BOARDS), ids=list(BOARDS))
def rules(request):
    """The small boards every engine-level test runs on: both endings, with and without caps."""
    return BOARDS[request.param]


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)


@pytest.fixture(autouse=True)
def learner_cache(tmp_path_factory, monkeypatch):
    """Learned opponents trained by a test are cached in a directory of the test session,
    never in the user's cache."""
    from nim_evo.evaluation.opponents import CACHE_ENV

    path = tmp_path_factory.getbasetemp() / "learner-cache"
    monkeypatch.setenv(CACHE_ENV, str(path))
    return path / "learners"


@pytest.fixture(autouse=True)
def allocator_as_it_is(monkeypatch):
    """A run on a big board sets its process's allocator for good
    (:func:`nim_evo.evolution.allocator.keep_large_arrays`): never the test process's, whatever
    a test patches (tests/evolution/test_allocator.py runs it in processes of its own)."""
    from nim_evo.evolution import allocator

    monkeypatch.setattr(allocator, "keep_large_arrays", lambda: False)


COURSE_PLAYERS = Path(__file__).parent / "data" / "course_players.py"


@pytest.fixture(scope="session")
def course():
    """tests/data/course_players.py, loaded once: course-style Nim players as students write them."""
    spec = importlib.util.spec_from_file_location("course_players_for_tests", COURSE_PLAYERS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
