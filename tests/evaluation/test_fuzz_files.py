"""Every file nim_evo reads back, fuzzed (Hypothesis): shipped genomes and learners, and a
run's config, with random values put anywhere in them, either load or raise the one user
error type (a one-line ``UserError``); never another exception. Derandomized, so CI sees
the same examples every time."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nim_evo.evaluation.strategy import load_strategy
from nim_evo.evolution.loop import Config
from nim_evo.validation import UserError

SHIPPED = sorted((Path(__file__).parents[2] / "genomes").glob("*.json"))
SMALL = [p for p in SHIPPED if p.stat().st_size < 20_000]  # fast to load many times
FUZZ = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12)


def paths_of(document, prefix=()):
    """Every place in a JSON document: a key path."""
    yield prefix
    if isinstance(document, dict):
        for key, value in document.items():
            yield from paths_of(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document[:6]):
            yield from paths_of(value, (*prefix, index))


def replaced(document, path, value):
    document = copy.deepcopy(document)
    if not path:
        return value
    holder = document
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return document


@pytest.mark.parametrize("source", SMALL, ids=[p.stem for p in SMALL])
@FUZZ
@given(data=st.data())
def test_a_mutated_strategy_file_loads_or_is_one_user_error(tmp_path, source, data):
    document = json.loads(source.read_text())
    places = list(paths_of(document))
    path = data.draw(st.sampled_from(places))
    mutated = replaced(document, path, data.draw(json_values))
    target = tmp_path / "mutated.json"
    target.write_text(json.dumps(mutated))
    try:
        agent = load_strategy(target)
    except UserError as error:
        assert "\n" not in str(error)
        return
    piles = agent.rules.start
    if sum(piles):
        agent.move(piles, __import__("numpy").random.default_rng(0))  # what loads, plays


@FUZZ
@given(data=st.data())
def test_a_mutated_run_config_loads_or_is_one_user_error(data):
    from nim_evo import Rules

    document = Config(genome="table", rules=Rules((1, 3, 5))).to_json()
    path = data.draw(st.sampled_from(list(paths_of(document))[1:]))
    try:
        Config.from_json(replaced(document, path, data.draw(json_values)))
    except UserError as error:
        assert "\n" not in str(error)
