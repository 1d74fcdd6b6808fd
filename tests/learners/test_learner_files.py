"""Learner files: versioned JSON that loads bit for bit, plays as saved, and refuses bad files in one line."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from nim_evo import Rules, load_strategy
from nim_evo.learners import LEARNERS, Learner, make_learner
from nim_evo.learners.files import learner_document, learner_from_document, load_learner, save_learner

RULES = Rules((2, 3, 4), misere=True)
PARAMS = {"qlearning": {"schedule": ((100, 0.9), (100, 0.4)), "symmetry": True},
          "wincount": {"cutoff": 50}, "td": {"alpha": 0.4, "epsilon_decay": 0.001, "symmetry": True}}
GENOMES = sorted((Path(__file__).parents[2] / "genomes").glob("*.json"))


def trained(name, games=150, seed=3):
    learner = make_learner(name, RULES, **PARAMS.get(name, {}))
    learner.train(games, np.random.default_rng(seed), opponent="random" if name == "subgame" else None)
    return learner


@pytest.mark.parametrize("name", LEARNERS)
def test_round_trip_is_bit_identical_and_keeps_training_identically(name, tmp_path):
    learner = trained(name)
    path = tmp_path / f"{name}.json"
    save_learner(learner, path, note="kept")
    document = json.loads(path.read_text())
    assert (document["format"], document["version"], document["learner"], document["note"]) == \
        ("nim_evo/learner", 1, name, "kept")
    assert document["rules"] == {"piles": [2, 3, 4], "max_take": None, "misere": True}
    loaded = load_learner(path, rules=RULES)
    assert type(loaded) is type(learner) and not loaded.stochastic
    for key in learner.state_names:
        a, b = np.asarray(getattr(learner, key)), np.asarray(getattr(loaded, key))
        assert a.shape == b.shape and b.dtype == np.float64 and a.tobytes() == b.tobytes(), key
    assert (loaded.params, loaded.games_played, loaded.training) == (learner.params, 150, learner.training)
    np.testing.assert_array_equal(loaded.policy(loaded.space), learner.policy(learner.space))
    won = learner.train(100, np.random.default_rng(4))
    np.testing.assert_array_equal(loaded.train(100, np.random.default_rng(4)), won)
    for key in learner.state_names:
        np.testing.assert_array_equal(getattr(loaded, key), getattr(learner, key), err_msg=key)
    assert learner_document(loaded) == learner_document(learner)


def test_counts_are_written_as_integers():
    document = learner_document(trained("wincount"))
    values = document["state"]["counts"]["values"]
    assert all(type(v) is int for v in values) and document["state"]["counts"]["shape"] == [60, 9]
    assert document["params"] == {"cutoff": 50, "symmetry": False}
    assert learner_document(trained("qlearning"))["params"]["schedule"] == [[100, 0.9], [100, 0.4]]


def test_load_strategy_plays_greedy_unless_asked(tmp_path):
    learner = trained("wincount", games=400)
    path = tmp_path / "wincount.json"
    save_learner(learner, path)
    space = learner.space
    greedy, own = load_strategy(path), load_strategy(path, rules=RULES, stochastic=True)
    assert isinstance(greedy, Learner) and isinstance(own, Learner) and own.stochastic and not greedy.stochastic
    counts = np.where(space.legal, learner.counts, 0)
    best = space.legal & (counts == counts.max(axis=1, keepdims=True))
    np.testing.assert_allclose(greedy.policy(space)[1:], (best / best.sum(axis=1, keepdims=True).clip(1))[1:])
    np.testing.assert_allclose(own.policy(space)[1:], (counts / counts.sum(axis=1, keepdims=True).clip(1))[1:])
    assert not np.allclose(greedy.policy(space), own.policy(space))
    rng = np.random.default_rng(0)
    assert all(RULES.is_legal((2, 3, 4), own.move((2, 3, 4), rng)) for _ in range(20))
    with pytest.raises(ValueError, match="trained for 2-3-4-misere, not 2-3-4$"):
        load_strategy(path, rules=Rules((2, 3, 4)))
    assert not isinstance(load_strategy(GENOMES[0]), Learner)  # a genome file still loads as a genome


def write(tmp_path, document):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    return path


def edited(change):
    document = learner_document(trained("td", games=20))
    change(document)
    return document


BAD = {
    "wrong format": (lambda d: d.update(format="nim_evo/learners"), "is not a nim_evo (genome or trained )?learner"),
    "no format": (lambda d: d.pop("format"), "is not a nim_evo (genome or trained )?learner"),
    "wrong version": (lambda d: d.update(version=2), r"learner version 2 \(written by a newer nim_evo\); this nim_evo reads version 1"),
    "unknown learner": (lambda d: d.update(learner="sarsa"), "unknown learner 'sarsa'"),
    "bad rules": (lambda d: d.update(rules={"piles": "many"}), ""),
    "no params": (lambda d: d.pop("params"), "no learner parameters"),
    "param out of range": (lambda d: d["params"].update(gamma=2.0), "gamma must be in"),
    "unknown param": (lambda d: d["params"].update(lambda_=0.5), "no parameter 'lambda_'"),
    "param of wrong type": (lambda d: d["params"].update(alpha="fast"), "alpha must be a number"),
    "games_played": (lambda d: d.update(games_played=-1), "games_played must be a count"),
    "missing state": (lambda d: d["state"].pop("alpha_now"), "state holds q, epsilon_now, alpha_now"),
    "extra state": (lambda d: d["state"].update(table={"shape": [], "values": [0]}), "state holds"),
    "wrong shape": (lambda d: d["state"]["q"].update(shape=[60, 8]), "'q' has shape \\[60, 8\\], expected \\[28, 9\\]"),
    "short values": (lambda d: d["state"]["q"].update(values=d["state"]["q"]["values"][:-1]), "'q' should be a flat list"),
    "nested values": (lambda d: d["state"]["q"].update(values=[d["state"]["q"]["values"]]), "'q' should be a flat list"),
    "text values": (lambda d: d["state"]["q"].update(values="0.1 0.2"), "not a shape and a list of numbers"),
    "no shape": (lambda d: d["state"]["q"].pop("shape"), "not a shape and a list of numbers"),
    "NaN": (lambda d: d["state"]["q"]["values"].__setitem__(7, float("nan")), "'q' holds a value that is not a finite"),
    "infinity": (lambda d: d["state"].update(epsilon_now={"shape": [], "values": [float("inf")]}), "not a finite"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_files_are_refused_in_one_line(case, tmp_path):
    change, message = BAD[case]
    path = write(tmp_path, edited(change))
    for load in (load_learner, load_strategy):
        with pytest.raises(ValueError) as error:
            load(path)
        text = str(error.value)
        assert "\n" not in text and (message == "" or re.search(message, text)), text
        if case != "bad rules":
            assert text.startswith(str(path)), text  # says which file


def test_unreadable_files_and_rules_mismatch(tmp_path):
    path = tmp_path / "td.json"
    save_learner(trained("td", games=20), path)
    with pytest.raises(ValueError, match="trained for 2-3-4-misere, not 2-3-5-misere"):
        load_learner(path, rules=Rules((2, 3, 5), misere=True))
    with pytest.raises(ValueError, match="no such file"):
        load_learner(tmp_path / "missing.json")
    (tmp_path / "broken.json").write_text('{"format": "nim_evo/learner", ')
    with pytest.raises(ValueError, match="cannot read"):
        load_learner(tmp_path / "broken.json")
    with pytest.raises(ValueError, match="is not a nim_evo genome or trained learner"):
        load_strategy(write(tmp_path, {"format": "something else"}))


@pytest.mark.parametrize("key", ["stochastic", "rules"])
def test_params_named_like_constructor_arguments_are_refused(key):
    document = learner_document(make_learner("wincount", RULES))
    document["params"][key] = True
    with pytest.raises(ValueError, match=key):
        learner_from_document(document)


def test_rates_outside_zero_one_are_refused(tmp_path):
    document = learner_document(trained("td", games=50))
    document["state"]["epsilon_now"]["values"] = [1.5]
    with pytest.raises(ValueError, match="epsilon_now"):
        learner_from_document(document)


@pytest.mark.parametrize("name, key, value, message", [
    ("wincount", "counts", 0, "count must be >= 1"),
    ("subgame", "losses", -1, "must be >= 0"),
    ("quality", "quality", 5000, "qualities must lie between"),
    ("td", "alpha_now", -0.5, "alpha_now"),
])
def test_states_out_of_range_are_refused(name, key, value, message):
    learner = make_learner(name, RULES)
    document = learner_document(learner)
    legal_cell = int(np.flatnonzero(learner.space.legal.ravel())[0]) if document["state"][key]["shape"] else 0
    document["state"][key]["values"][legal_cell] = value
    with pytest.raises(ValueError, match=message):
        learner_from_document(document)
