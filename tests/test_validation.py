"""The validation policy: constraints declared once, checked by the library, reused by the
commands; a person's errors are one line with status 2, our bugs keep their traceback."""

import subprocess
import sys
from numbers import Integral, Real

import pytest

import nim_evo
from nim_evo import Rules
from nim_evo.evolution.config import Config
from nim_evo.validation import (GAMES, SEED, InstanceOf, Interval, Names, Options, ParameterError, UserError, check,
                                validate)

SMALL = Rules((2, 3))


@pytest.mark.parametrize("constraint, good, bad", [
    (Interval(Integral, 1, None), [1, 7, 10**12], [0, -1, 1.5, True, "3", None]),
    (Interval(Real, 0, 1), [0, 0.5, 1, 1.0], [-0.1, 1.01, float("nan"), False]),
    (Options("exact", "sampled"), ["exact", "sampled"], ["Exact", "", None, ["exact"]]),
    (InstanceOf(bool), [True, False], [0, 1, "yes"]),
    (Names(), [("a",), ["a", "b"]], [(), ["a", "a"], ["a", ""], "ab", [1]]),
])
def test_constraints_accept_what_they_say_and_nothing_else(constraint, good, bad):
    assert all(constraint(value) for value in good)
    assert not any(constraint(value) for value in bad)


def test_options_may_follow_a_registry():
    names = ["a"]
    constraint = Options(of=lambda: names)
    assert not constraint("b")
    names.append("b")
    assert constraint("b") and str(constraint) == "one of a, b"


def test_check_names_the_parameter_and_what_it_must_be():
    assert check("seed", 3, [SEED]) == 3
    assert check("indpb", None, [None, Interval(Real, 0, 1)]) is None
    with pytest.raises(ParameterError) as caught:
        check("games", 0, [GAMES])
    error = caught.value
    assert isinstance(error, UserError) and isinstance(error, ValueError)
    assert str(error) == "games must be an integer between 1 and 1,000,000, got 0"
    assert str(error.as_flag()) == "--games must be an integer between 1 and 1,000,000, got 0"
    with pytest.raises(ParameterError, match=r"^indpb must be a number between 0 and 1 or None, got 2$"):
        check("indpb", 2, [None, Interval(Real, 0, 1)])
    with pytest.raises(ParameterError, match="seed"):
        validate({"seed": [SEED], "games": [GAMES]}, {"seed": -1, "games": 5, "other": object()})


@pytest.mark.parametrize("field, value, message", [
    ("generations", 0, "generations must be an integer between 1 and 1,000,000, got 0"),
    ("population", 1, "population must be an integer between 2 and 10,000, got 1"),
    ("genome", "tabel", "genome must be one of table, rules, thresholds"),
    ("fitness", "approximate", "fitness must be one of exact, sampled, got 'approximate'"),
    ("seed", -3, "seed must be an integer >= 0, got -3"),
    ("games", 2_000_000, "games must be an integer between 1 and 1,000,000, got 2,000,000"),
    ("opponents", ("random", "random"), "opponents must be a list of distinct non-empty names"),
    ("rules", (1, 3, 5), "rules must be a game (nim_evo.game('7-5-3')), got (1, 3, 5)"),
    ("cxpb", 0.8, "cxpb + mutpb must be at most 1"),
    ("indpb", -0.5, "indpb must be a number between 0 and 1 or None, got -0.5"),
    ("space", "sorted", "space must be one of multiset, ordered, got 'sorted'"),
])
def test_a_config_checks_itself(field, value, message):
    """A library caller gets the checks the command line has (they are the same ones)."""
    values = {"genome": "table", "rules": SMALL, field: value}
    with pytest.raises(ParameterError) as caught:
        Config(**values)
    assert str(caught.value).startswith(message)


def test_a_config_takes_a_list_of_opponents_as_a_tuple():
    assert Config(genome="rules", rules=SMALL, opponents=["random", "nimsum"]).opponents == ("random", "nimsum")


def test_a_bug_keeps_its_traceback_and_status_1(tmp_path):
    """An error that is not a person's (here a ZeroDivisionError inside the run) is not
    dressed as a one-line usage error: Python's traceback, exit status 1."""
    script = ("import sys, nim_evo.evolution.loop as loop\n"
              "def broken(*args, **kwargs): return 1 / 0\n"
              "loop.start = broken\n"
              "from nim_evo.commands.run import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    done = subprocess.run([sys.executable, "-c", script, "--game", "3-4", "--generations", "1", "--out",
                           str(tmp_path / "r"), "--genomes-dir", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 1
    assert "Traceback" in done.stderr and done.stderr.rstrip().endswith("ZeroDivisionError: division by zero")
    assert "nim_evo: error" not in done.stderr


def test_a_person_s_error_is_one_line_and_status_2(tmp_path):
    done = subprocess.run([sys.executable, "-m", "nim_evo.run", "--game", "3-4", "--population", "1"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "nim_evo: error: --population must be an integer between 2 and 10,000, got 1\n"


def test_more_workers_than_cores_are_lowered_with_a_note(monkeypatch, capsys, tmp_path):
    import os

    import nim_evo.validation as validation
    from nim_evo.commands.run import main

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert validation.usable_jobs(2) == (2, None)
    assert validation.usable_jobs(1000) == (2, "1,000 workers asked for, this machine has 2 cores: using 2")
    assert main(["--game", "3-4", "--generations", "1", "--jobs", "1000", "--quiet", "--out", str(tmp_path / "r"),
                 "--genomes-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().err == "nim_evo: note: 1,000 workers asked for, this machine has 2 cores: using 2\n"
    with pytest.warns(UserWarning, match="using 2"):
        nim_evo.evolve("rules", Rules((3, 4)), generations=1, population=4, offspring=4, jobs=64, progress=False)


@pytest.mark.parametrize("field, value", [("population", 10_001), ("offspring", 100_000), ("generations", 10**7)])
def test_runs_are_bounded(field, value):
    with pytest.raises(ParameterError, match=f"^{field} must be an integer"):
        Config(genome="table", rules=SMALL, **{field: value})
