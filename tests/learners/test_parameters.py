"""Tests for nim_evo.learners.parameters: each learner's declared, frozen, checked parameters."""

import dataclasses

import pytest

from nim_evo import Rules
from nim_evo.learners import LEARNERS, LearnerParameters, make_learner
from nim_evo.learners.qlearning import SCHEDULE, QParameters
from nim_evo.learners.reinforcement import MonteCarloParameters, TDParameters

R23 = Rules((2, 3))


@pytest.mark.parametrize("name", LEARNERS)
def test_every_learner_declares_a_frozen_dataclass_of_its_parameters(name):
    cls = LEARNERS[name].Parameters
    assert issubclass(cls, LearnerParameters) and dataclasses.is_dataclass(cls)
    params = make_learner(name, R23).params
    assert isinstance(params, cls) and params == cls()
    assert cls.names()[-1] == "symmetry" and list(cls.defaults()) == list(cls.names())
    with pytest.raises(dataclasses.FrozenInstanceError):
        params.symmetry = not params.symmetry  # type: ignore[misc]


def test_values_take_their_field_s_type_and_json_forms_are_read():
    params = QParameters(schedule=[[10, 1], [5, 0.5]], reward=2)
    assert params.schedule == ((10, 1.0), (5, 0.5)) and isinstance(params.reward, float)
    assert params.as_json() == {"schedule": [[10, 1.0], [5, 0.5]], "reward": 2.0, "exploration": "retry",
                                "symmetry": True}
    assert QParameters().schedule == SCHEDULE and QParameters().symmetry


def test_a_learner_reads_its_parameters_as_attributes_of_params():
    learner = make_learner("td", R23, alpha=0.5)
    assert learner.params.alpha == 0.5 and learner.params.gamma == 0.9 and not learner.symmetry
    assert not hasattr(learner, "alpha")  # no attribute magic: the parameters live in params


@pytest.mark.parametrize("build, message", [
    (lambda: TDParameters(alpha=2.0), "alpha must be in [0, 1], got 2.0"),
    (lambda: TDParameters(alpha="fast"), "parameter alpha must be a number, got 'fast'"),
    (lambda: TDParameters(symmetry=1), "parameter symmetry must be true or false, got 1"),
    (lambda: QParameters(schedule=5), "parameter schedule must be a list of [games, value] pairs, got 5"),
    (lambda: QParameters(exploration="greedy"), "exploration must be 'retry'"),
    (lambda: MonteCarloParameters.of("montecarlo", {"beta": 1}), "montecarlo has no parameter 'beta' (its parameters: "),
])
def test_bad_values_are_refused_in_one_line_naming_the_parameter(build, message):
    with pytest.raises(ValueError) as caught:
        build()
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_monte_carlo_keeps_its_own_defaults():
    assert (MonteCarloParameters().epsilon, TDParameters().epsilon) == (0.3, 0.4)
    assert MonteCarloParameters.names() == TDParameters.names()


@pytest.mark.parametrize("name", ["wincount-21-cap3-seed0", "quality-7-5-3-seed0", "subgame-17-cap3-misere-seed1"])
def test_learner_files_written_before_the_declared_parameters_load(name):
    """Files shipped before (some before symmetry was a parameter) load with their values."""
    from pathlib import Path

    from nim_evo.learners.files import load_learner

    learner = load_learner(Path(__file__).parents[2] / "genomes" / f"{name}.json")
    assert learner.params == learner.Parameters() and learner.games_played > 0


def test_a_learner_declaring_parameters_the_old_way_is_told_how_in_one_line():
    from nim_evo.learners import Learner

    with pytest.raises(TypeError, match="declare its parameters as a LearnerParameters dataclass"):
        type("OldStyle", (Learner,), {"defaults": {"rate": 0.5}})
    with pytest.raises(TypeError, match="not as check_params$"):
        type("OldChecks", (Learner,), {"check_params": lambda self: None})  # its checks would be ignored
