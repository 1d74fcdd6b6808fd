"""nim-evo grade, and course-style players on every command that takes a person's agent."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path

import pytest
from PIL import Image

import nim_evo
from nim_evo.__main__ import main as nim_evo_main
from nim_evo.agents.imported import import_agent
from nim_evo.commands.arena import main as arena_main
from nim_evo.commands.grade import main as grade_main
from nim_evo.commands.play import main as play_main
from nim_evo.commands.run import main as run_main

PLAYERS = Path(__file__).parents[1] / "data" / "course_players.py"
GENOME = Path(__file__).parents[2] / "genomes" / "7-5-3-seed1-rules.json"


def test_grade_prints_the_report_and_the_json_holds_its_figures(capsys):
    assert nim_evo_main(["grade", f"{PLAYERS}:trained_ai", "--piles", "1", "3", "5", "7", "--misere"]) == 0
    text = capsys.readouterr().out
    report = nim_evo.grade_player(f"{PLAYERS}:trained_ai", nim_evo.Rules((1, 3, 5, 7), misere=True))
    assert text.startswith("NimAI on 1-3-5-7-misere (misère play: whoever takes the last object loses); exact")
    assert f"a winning move in {100 * report.accuracy:.2f}% of the {report.positions:,} winning positions" in text
    assert "the first positions it gets wrong" in text and "wins" in text.splitlines()[-1]
    assert grade_main([f"{PLAYERS}:gabriele", "--game", "1-3-5-7-9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"] == "gabriele" and data["exact"] and data["convention"].startswith("normal play")
    assert 0 < data["accuracy"] < 1 and data["positions"] > 0 and len(data["wrong"]) == 10
    assert set(data["win_rates"]) == {"random", "nimsum"} and data["win_rates"]["nimsum"]["second"] == 0


def test_a_strategy_file_brings_its_board_and_the_picture_is_drawn_once(tmp_path, capsys):
    picture = tmp_path / "genome.png"
    assert grade_main([str(GENOME), "--picture", str(picture)]) == 0
    captured = capsys.readouterr()
    assert "on 7-5-3 (normal play" in captured.out and str(picture) in captured.err
    with Image.open(picture) as image:
        assert image.size[0] > 600
    assert grade_main([str(GENOME), "--picture", str(picture)]) == 2
    assert "exists" in capsys.readouterr().err


def test_a_sampled_report_says_so_and_gives_its_margins(capsys):
    assert grade_main(["take-1", "--piles", "1000000000000", "7", "--positions", "200", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "sampled: the board 1000000000000-7 is too big" in " ".join(out.split()) and "± " in out


@pytest.mark.parametrize("argv, message", [
    (["nosuchmodule:X", "--game", "7-5-3"], "no module named nosuchmodule"),
    ([f"{PLAYERS}:Nimply", "--game", "7-5-3"], "Nimply needs 2 arguments"),
    ([f"{PLAYERS}:broken", "--game", "7-5-3"], r"broken raised KeyError at \([0-9, ]+\): 'no entry for this position'"),
    (["random", "--game", "7-5-3", "--positions", "0"], "--positions"),
    (["random", "--game", "7-5-3", "--picture", "x.txt"], "--picture x.txt"),
    (["random", "--piles", "100000", "100000", "--picture", "x.png"], "too many to picture"),
    ([str(GENOME), "--misere"], "--max-take and --misere go with --piles"),
    ([], "name the player to grade"),
])
def test_bad_input_is_one_line_exit_2(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert grade_main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nim_evo: error: ")
    assert pytest.importorskip("re").search(message, err[0]), err[0]
    assert not list(tmp_path.iterdir())


def test_a_player_that_cheats_or_raises_in_a_game_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert arena_main([f"{PLAYERS}:cheater", "nimsum", "--game", "3-4-5", "--games", "5", "--out", "a"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and pytest.importorskip("re").fullmatch(
        r"nim_evo: error: cheater played the illegal move \(\d, 4\) in position \([\d, ]+\) of 3-4-5", err[0]), err
    assert play_main([f"{PLAYERS}:broken", "--opponents", "nimsum", "--games", "2", "--game", "1-1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "broken raised KeyError at (1, 1): 'no entry for this position'" in err[0]


FAULTY = """
import sys


class Raising:
    name, order_blind = "raising", True

    def move(self, piles, *rest):
        raise RuntimeError("boom in my code")


class Exiting:
    name, order_blind = "exiting", True

    def move(self, piles, *rest):
        sys.exit(0)


class Base:
    name, order_blind = "base", True

    def move(self, piles, *rest):
        raise BaseException("not even an Exception")


raising, exiting, base = Raising(), Exiting(), Base()
"""


@pytest.mark.parametrize("agent, said", [("raising", "raised RuntimeError in move at (.*): boom in my code"),
                                         ("exiting", "raised SystemExit in move at (.*): 0"),
                                         ("base", "raised BaseException in move at (.*): not even an Exception")])
def test_a_player_s_own_fault_is_one_line_exit_2_in_every_command(tmp_path, capsys, monkeypatch, agent, said):
    """An exception in a person's agent, ``sys.exit(0)`` among them, is the player's fault in
    every command that plays it (``run`` answered with a traceback, and a ``SystemExit`` ended
    any command with status 0, as if all went well)."""
    from nim_evo.commands.learn import main as learn_main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "faulty.py").write_text(FAULTY)
    spec = f"{tmp_path / 'faulty.py'}:{agent}"
    commands = {"run": (run_main, ["--game", "2-3", "--opponents", spec, "--generations", "1", "--population", "4",
                                   "--offspring", "4", "--out", "r"]),
                "grade": (grade_main, [spec, "--game", "2-3"]),
                "arena": (arena_main, [spec, "random", "--game", "2-3", "--games", "4", "--out", "a"]),
                "play": (play_main, [spec, "--opponents", "random", "--games", "2", "--game", "2-3", "--first",
                                     "strategy"]),
                "learn": (learn_main, ["--learner", "qlearning", "--opponents", spec, "--game", "2-3", "--games", "10",
                                       "--out", "l.json", "--quiet"])}
    for name, (main, argv) in commands.items():
        assert main(argv) == 2, name
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and pytest.importorskip("re").fullmatch(f"nim_evo: error: {agent} {said}", err[0]), (name, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["faulty.py"]  # nothing left behind (arena left its folder)


MALFORMED = """
import numpy as np


class Raising:
    def __index__(self):
        raise RuntimeError("index boom")

    __int__ = __index__


class Moving:
    order_blind = True

    def __init__(self, name, answer):
        self.name, self.answer = name, answer

    def move(self, piles, *rest):
        return self.answer()


class Tabling:
    order_blind = True

    def __init__(self, name, answer):
        self.name, self.answer = name, answer

    def move_probabilities(self, positions, *rest):
        return self.answer(positions)


raising = Moving("raising", lambda: (Raising(), Raising()))
huge = Moving("huge", lambda: (0, 10 ** 5000))
nones = Tabling("nones", lambda positions: np.full((len(positions), 9), None, dtype=object))
nans = Tabling("nans", lambda positions: np.full((len(positions), 9), np.nan))
words = Tabling("words", lambda positions: np.full((len(positions), 9), "half"))
"""


@pytest.mark.parametrize("agent, said", [
    ("raising", r"raising answered \(<.*Raising object at .*>\) at \(.*\), which raised RuntimeError as it was read: "
                r"index boom"),
    ("huge", r"huge played the illegal move a tuple holding an integer of thousands of digits in position \(.*\) "
             r"of 2-3-4"),
    ("nones", r"nones.move_probabilities answered array\(\[nan, .*\]\) at \(.*\); probabilities are finite numbers"),
    ("nans", r"nans.move_probabilities answered array\(\[nan, .*\]\) at \(.*\); probabilities are finite numbers"),
    ("words", r"words.move_probabilities answered array\(\[\['half', .*\) for \d+ positions, not numbers: ValueError"),
])
def test_an_answer_that_is_no_move_or_no_numbers_is_one_line_exit_2(tmp_path, capsys, monkeypatch, agent, said):
    """Answers nothing checked: an object whose ``__index__`` raises, a count of 5,000 digits
    (Python will not write it), probabilities that are None, NaN or words (tracebacks, or NaN
    graded as illegal moves, before)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "malformed.py").write_text(MALFORMED)
    spec = f"{tmp_path / 'malformed.py'}:{agent}"
    commands = {"play": (play_main, [spec, "--opponents", "random", "--games", "2", "--game", "2-3-4", "--first",
                                     "strategy"]),
                "arena": (arena_main, [spec, "random", "--game", "2-3-4", "--games", "4", "--out", "a"])}
    if agent != "huge":  # (grade reports an illegal move as a finding)
        commands["grade"] = (grade_main, [spec, "--game", "2-3-4"])
    for name, (main, argv) in commands.items():
        assert main(argv) == 2, name
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and pytest.importorskip("re").fullmatch(f"nim_evo: error: {said}", err[0]), (name, err)


def test_a_player_s_prints_stay_off_the_json_report(tmp_path, capsys):
    """What a person's agent prints (as it is made and as it plays) goes to stderr under
    ``--json``: stdout is the report alone, one JSON object (it was corrupted before)."""
    (tmp_path / "chatty.py").write_text(
        "class Chatty:\n"
        "    name, order_blind = 'chatty', True\n"
        "    def __init__(self):\n"
        "        print('hello from my agent')\n"
        "    def move(self, piles, *rest):\n"
        "        print('thinking about', piles)\n"
        "        return next((k, 1) for k, n in enumerate(piles) if n)\n")
    assert grade_main([f"{tmp_path / 'chatty.py'}:Chatty", "--game", "2-3", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["positions"] > 0
    assert "hello from my agent" in err and "thinking about" in err


def test_a_player_that_never_answers_is_stopped_at_the_budget_in_one_line(tmp_path, capsys):
    """``--budget`` bounds the grade: an agent that sleeps forever used to hold it forever."""
    (tmp_path / "asleep.py").write_text("import time\n\n\ndef asleep(piles):\n    time.sleep(10**6)\n")
    began = time.perf_counter()
    assert grade_main([f"{tmp_path / 'asleep.py'}:asleep", "--game", "2-3-4", "--budget", "0.5"]) == 2
    assert time.perf_counter() - began < 0.5 + 5
    assert capsys.readouterr().err == ("nim_evo: error: asleep answered no position within the budget of 0.5 s; "
                                       "give it more with --budget\n")


def test_running_out_of_memory_is_one_line(capsys, monkeypatch):
    """A MemoryError (a process's limit: numpy says how much it asked for) was a traceback."""
    import nim_evo.evaluation.grading as grading

    def short_of_memory(*args, **kwargs):
        raise MemoryError("Unable to allocate 3.00 GiB for an array with shape (4032015, 100) and data type float64")

    monkeypatch.setattr(grading, "grade_player", short_of_memory)
    assert grade_main(["nimsum", "--game", "2-3"]) == 2
    assert capsys.readouterr().err == ("nim_evo: error: not enough memory (Unable to allocate 3.00 GiB for an array "
                                       "with shape (4032015, 100) and data type float64): this machine, or this "
                                       "process's limit, has too little for it\n")


PROPERTIES = """
def first(piles):
    return next((k, 1) for k, n in enumerate(piles) if n)


def broken(attribute):
    def read(self):
        raise RuntimeError(attribute + " boom")
    return property(read)


class Named:
    name, order_blind, rules = "named", True, None
    move = staticmethod(lambda piles, *rest: first(piles))


name = type("BrokenName", (Named,), {"name": broken("name")})()
order_blind = type("BrokenBlind", (Named,), {"order_blind": broken("order_blind")})()
rules = type("BrokenRules", (Named,), {"rules": broken("rules")})()
move = type("BrokenMove", (Named,), {"move": broken("move")})()
"""


@pytest.mark.parametrize("attribute", ["name", "order_blind", "rules", "move", "module"])
def test_a_player_whose_properties_raise_is_one_line_exit_2(tmp_path, capsys, monkeypatch, attribute):
    """An agent whose ``name``, ``order_blind``, ``rules`` or ``move`` property raises, or a
    module whose ``__getattr__`` raises, is a person's code failing: one line naming it, exit 2
    (tracebacks before)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "properties.py").write_text(PROPERTIES)
    (tmp_path / "module.py").write_text("def __getattr__(name):\n    raise RuntimeError('module boom')\n")
    spec = f"{tmp_path / 'properties.py'}:{attribute}" if attribute != "module" else f"{tmp_path / 'module.py'}:agent"
    said = (f"{spec} raised RuntimeError as its attributes were read: {attribute} boom" if attribute != "module" else
            f"{tmp_path / 'module.py'} raised RuntimeError when asked for agent (from {spec}): module boom")
    for main, argv in ((grade_main, [spec, "--game", "2-3"]),
                       (arena_main, [spec, "random", "--game", "2-3", "--games", "4", "--out", "a"]),
                       (run_main, ["--game", "2-3", "--opponents", spec, "--generations", "1", "--population", "4",
                                   "--offspring", "4", "--out", "r"])):
        assert main(argv) == 2
        assert capsys.readouterr().err.strip().splitlines() == [f"nim_evo: error: {said}"]


def test_an_illegal_move_is_a_finding_not_an_error(capsys):
    assert grade_main([f"{PLAYERS}:cheater", "--game", "1-3-5-7-9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["illegal_moves"] > 0 and any("illegal_move" in w for w in data["wrong"])


def test_course_players_play_in_play_and_arena(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert play_main([f"{PLAYERS}:expert", "--opponents", "random", "--games", "20", "--game", "1-3-5-7-9",
                      "--first", "strategy"]) == 0
    out = capsys.readouterr().out
    assert "expert" in out and "20" in out
    assert arena_main([f"{PLAYERS}:expert", f"{PLAYERS}:gabriele", "nimsum", "--game", "7-5-3", "--exact",
                       "--out", "arena", "--quiet"]) == 0
    with open(tmp_path / "arena" / "arena.csv") as handle:
        rates = {(row["player"], row["opponent"]): float(row["win_rate"]) for row in csv.DictReader(handle)}
    # 7-5-3 is a first-player win: the expert (nim-sum by brute force) is nimsum's equal, the greedy one loses all
    assert rates["expert", "nimsum"] == 0.5 and rates["expert", "gabriele"] == 1.0
    assert rates["gabriele", "nimsum"] == 0.0


def test_a_course_player_is_an_opponent_in_evolution(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = f"{PLAYERS}:trained_ai"
    assert run_main(["--genome", "table", "--game", "1-3-5-7-misere", "--opponents", f"{spec},nimsum",
                     "--generations", "2", "--population", "8", "--offspring", "12", "--out", "run",
                     "--genomes-dir", "genomes", "--quiet"]) == 0
    champion = nim_evo.load_strategy(next((tmp_path / "genomes").glob("*.json")))
    ai = import_agent(spec, champion.rules)
    exact = nim_evo.tournament(champion.rules, champion, [ai], exact=True)[0]
    with open(tmp_path / "run" / "logbook.csv") as handle:
        assert float(list(csv.DictReader(handle))[-1][spec]) == round(exact.win_rate, 6)
