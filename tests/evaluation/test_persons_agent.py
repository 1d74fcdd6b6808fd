"""A person's agent is a first-class player: an opponent in evolution (an object in Python,
``module:NAME`` or ``file.py:NAME`` on the command line), in training, tournaments and the
arena; and every exact figure about one that reads the pile order is the ordered game's
truth, whether or not multisets were asked for."""

from __future__ import annotations

import csv
import re
import textwrap

import numpy as np
import pytest

import nim_evo
from nim_evo import Rules, tournament
from nim_evo.evolution.loop import home_panel
from nim_evo.genomes import GenomeAgent
from nim_evo.commands.run import main as run_main
from nim_evo.validation import UserError

MISERE = Rules((2, 3, 4, 5), misere=True)

AGENTS_PY = textwrap.dedent('''
    """A person's agents (a test module)."""


    class FirstPile:
        """One object from the first non-empty pile: it reads the pile order."""

        def distribution(self, piles):
            return [((next(i for i, n in enumerate(piles) if n), 1), 1.0)]


    class Cautious:
        """Made with the rules: one object from the longest pile, and it says it is order-blind."""

        order_blind = True

        def __init__(self, rules):
            self.rules = rules

        def move(self, piles, rng):
            return max(range(len(piles)), key=lambda i: (piles[i], -i)), 1


    def make(rules):
        return Cautious(rules)


    ready = FirstPile()
    NOT_AN_AGENT = 42
''')


class FirstPile:
    """One object from the first non-empty pile: it reads the pile order."""

    name = "first-pile"

    def distribution(self, piles):
        return [((next(i for i, n in enumerate(piles) if n), 1), 1.0)]


@pytest.fixture
def agents_module(tmp_path, monkeypatch):
    (tmp_path / "myagents.py").write_text(AGENTS_PY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path / "myagents.py"


def test_exact_figures_about_an_order_reading_agent_are_the_ordered_games():
    """With and without multisets, a tournament's exact figures against an agent that reads the
    pile order are the ordered board's: 0.9490 for nimsum over every sub-game of 2-3-4-5 misère
    (over multisets, read at each multiset's representative, it was 0.9553)."""
    truth, asked = (tournament(MISERE, "nimsum", [FirstPile()], exact=True, starts="all", multiset=m)[0]
                    for m in (False, True))
    assert (asked.first_rate, asked.second_rate) == (truth.first_rate, truth.second_rate)
    assert round(truth.win_rate, 4) == 0.9490
    starts = np.array([5, 17, 40])  # multisets, as the positions each stands for
    per_multiset = tournament(MISERE, "nimsum", [FirstPile()], exact=True, starts=starts, multiset=True)[0]
    ordered, multisets = nim_evo.space_for(MISERE), nim_evo.space_for(MISERE, multiset=True)
    positions = np.flatnonzero(np.isin(multisets.indices(ordered.positions), starts))
    by_hand = tournament(MISERE, "nimsum", [FirstPile()], exact=True, starts=positions)[0]
    assert per_multiset.win_rate == pytest.approx(by_hand.win_rate, abs=1e-12)


def test_evolve_takes_a_persons_agent_and_logs_its_exact_rate(tmp_path):
    """evolve(opponents=[FirstPile(), "nimsum"]) on 2-3-4-5 misère: the panel plays the ordered
    board (the agent reads the order), the champion's logged rate against the agent is its exact
    rate there, and the summary's fresh games are played there too."""
    run = nim_evo.evolve("table", MISERE, opponents=[FirstPile(), "nimsum"], generations=4, population=10,
                         offspring=20, seed=3, progress=False, out=tmp_path / "run")
    assert run.config.opponents == ("first-pile", "nimsum")
    panel = home_panel(run.toolbox, run.config)
    assert not panel.multiset and panel.tables[0].shape[0] == nim_evo.space_size(MISERE)
    champion = GenomeAgent("table", run.genes, MISERE)
    exact = tournament(MISERE, champion, [FirstPile(), "nimsum"], exact=True)
    assert run.logbook[-1]["first-pile"] == round(exact[0].win_rate, 6)
    assert run.logbook[-1]["nimsum"] == round(exact[1].win_rate, 6)
    with open(tmp_path / "run" / "logbook.csv") as handle:
        assert float(list(csv.DictReader(handle))[-1]["first-pile"]) == round(exact[0].win_rate, 6)
    from nim_evo.console.summary import _check

    fresh = _check(run, panel, 1)[0]
    assert fresh.opponent == "first-pile" and fresh.ci_low <= exact[0].win_rate <= fresh.ci_high
    with pytest.raises(UserError, match=r"the run played first-pile, given as agent objects in Python: give them "
                                        r"again, resume\(\.\.\., agents=\{'first-pile': \.\.\.\}\)"):
        nim_evo.resume(tmp_path / "run", 6, progress=False, genomes_dir=tmp_path / "genomes")
    again = nim_evo.resume(tmp_path / "run", 6, progress=False, agents={"first-pile": FirstPile()},
                           genomes_dir=tmp_path / "genomes")
    assert again.state.generation == 6


@pytest.mark.parametrize("opponents, message", [
    ([object()], r"^opponents\[0\] is a object, not an agent"),
    ([FirstPile(), FirstPile()], r"^opponents\[1\] is called 'first-pile', which names another opponent"),
    ([type("Impostor", (FirstPile,), {"name": "random"})()], r"which names a player nim_evo knows"),
])
def test_agent_objects_that_cannot_stand_as_opponents_are_one_line(opponents, message, tmp_path):
    with pytest.raises(UserError, match=message):
        nim_evo.evolve("table", MISERE, opponents=opponents, generations=1, progress=False, out=tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_run_takes_module_and_file_specs_and_logs_the_exact_rate(agents_module, capsys):
    """run --opponents myagents:FirstPile,nimsum (and the file's path): the logged rate against
    the agent is the champion's exact rate on the ordered board."""
    for spec in ("myagents:FirstPile", f"{agents_module}:FirstPile"):
        out = agents_module.parent / ("run-" + str(len(spec)))
        assert run_main(["--genome", "table", "--game", "2-3-4-5-misere", "--opponents", f"{spec},nimsum",
                         "--generations", "3", "--population", "8", "--offspring", "12", "--out", str(out),
                         "--genomes-dir", str(out / "genomes"), "--quiet"]) == 0
        champion = nim_evo.load_strategy(next((out / "genomes").glob("*.json")))
        exact = tournament(MISERE, champion, [FirstPile()], exact=True)[0]
        with open(out / "logbook.csv") as handle:
            assert float(list(csv.DictReader(handle))[-1][spec]) == round(exact.win_rate, 6)


@pytest.mark.parametrize("spec, message", [
    ("nosuchmodule:X", r"no module named nosuchmodule \(from nosuchmodule:X\)"),
    ("myagents:Nothing", r"myagents has no Nothing \(from myagents:Nothing\)"),
    ("myagents:NOT_AN_AGENT", r"myagents:NOT_AN_AGENT is a int, not an agent"),
    ("nosuchfile.py:X", r"no Python file nosuchfile.py"),
])
def test_a_wrong_spec_is_one_line_exit_2_and_writes_nothing(spec, message, agents_module, capsys):
    out = agents_module.parent / "r"
    assert run_main(["--genome", "table", "--game", "2-3-4-5-misere", "--opponents", f"{spec},nimsum",
                     "--generations", "2", "--out", str(out), "--genomes-dir", str(out / "genomes")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nim_evo: error: ")
    assert pytest.importorskip("re").search(message, err[0]), err[0]
    assert not out.exists()


def test_a_class_made_with_the_rules_a_factory_and_an_object_all_play(agents_module):
    from nim_evo.agents.imported import import_agent

    players = [import_agent(spec, MISERE) for spec in ("myagents:Cautious", "myagents:make", "myagents:ready")]
    assert [p.order_blind for p in players] == [True, True, False]
    for player in players:
        nim_evo.check_player(player, MISERE)


def test_learn_play_and_arena_take_a_spec(agents_module, capsys):
    from nim_evo.commands.arena import main as arena_main
    from nim_evo.commands.learn import main as learn_main
    from nim_evo.commands.play import main as play_main

    assert learn_main(["--learner", "wincount", "--game", "2-3-4-5-misere", "--games", "300", "--opponents",
                       "myagents:FirstPile", "--out", "w.json", "--quiet"]) == 0
    assert play_main(["myagents:Cautious", "--game", "2-3-4-5-misere", "--opponents", "myagents:FirstPile",
                      "--games", "20"]) == 0
    assert "Completed 20 games" in capsys.readouterr().out
    assert arena_main(["myagents:FirstPile", "nimsum", "w.json", "--game", "2-3-4-5-misere", "--exact", "--quiet",
                       "--out", "arena"]) == 0


def test_a_symmetric_learner_refuses_to_train_against_an_order_reading_agent():
    with pytest.raises(UserError, match="first-pile reads the order of the piles; a learner with symmetry trains over "
                                        "multisets"):
        nim_evo.train("qlearning", MISERE, games=10, opponents=FirstPile())
    trained = nim_evo.train("qlearning", MISERE, games=200, opponents=FirstPile(), symmetry=False)
    assert trained.training[-1]["opponent"] == "first-pile"


def test_an_order_reading_player_on_a_board_too_big_for_the_ordered_tables_is_refused_naming_it():
    """Eight odd heaps: 120,175 multisets, 10,321,920 positions. An order-reading player cannot
    be judged over the multisets and the ordered board is too big: one line naming it."""
    big = Rules(tuple(range(1, 16, 2)))
    with pytest.raises(UserError, match=r"^first-pile reads the order of the piles .* judged on the ordered board, and "
                                        r"1-3-5-7-9-11-13-15 has 10,321,920 positions"):
        tournament(big, "nimsum", [FirstPile()], exact=True, multiset=True)
    from nim_evo.evaluation.roundrobin import round_robin

    with pytest.raises(UserError, match="^first-pile reads the order of the piles"):
        round_robin(big, {"nimsum": nim_evo.make_agent("nimsum", big), "first-pile": FirstPile()}, exact=True)


def test_review_findings_are_one_line_or_the_agents_fault():
    """An agent whose rules are no Rules is one line; a position off the board is the caller's
    mistake, not the player's; an answer of three numbers is no move."""
    bad = type("Odd", (FirstPile,), {"rules": "nim"})()
    with pytest.raises(UserError, match=r"^first-pile.rules is a str, not a game \(a nim_evo.Rules or another\)$"):
        tournament(MISERE, "nimsum", [bad], exact=True)
    learner = nim_evo.train("wincount", Rules((3, 3)), games=50)
    with pytest.raises(UserError, match=r"not reachable from the start \(3, 3\)"):
        learner.distribution((5, 5))
    with pytest.raises(UserError):
        learner.move((1, 4), np.random.default_rng(0))
    three = type("Three", (), {"move": lambda self, piles, rng: (0, 1, 99)})()
    with pytest.raises(nim_evo.AgentError, match=r"^Three played the illegal move \(0, 1, 99\)"):
        nim_evo.play_game(MISERE, (three, three), np.random.default_rng(0))


def test_learn_refuses_an_order_reading_opponent_for_a_symmetric_learner_before_making_a_folder(agents_module,
                                                                                                 capsys):
    from nim_evo.commands.learn import main as learn_main

    assert learn_main(["--learner", "qlearning", "--game", "2-3-4-5-misere", "--opponents", "myagents:FirstPile",
                       "--out", "new/q.json"]) == 2
    assert "train it with --no-symmetry" in capsys.readouterr().err
    assert not (agents_module.parent / "new").exists()


def test_a_slow_agent_is_said_to_be_slow_with_an_estimate_once(monkeypatch, capsys):
    """A person's agent that takes 20 ms a move is asked at all 120 positions of 3-4-5 before a
    game is played: one line says so, with how long it will take; a fast agent says nothing."""
    import time

    from nim_evo.agents import adapted

    class Slow:
        name = "Slowpoke"

        def move(self, piles, rng):
            time.sleep(0.01)  # asked twice a position (move-only agents are checked for determinism)
            pile = next(k for k, n in enumerate(piles) if n)
            return pile, 1

    monkeypatch.setattr(adapted, "SLOW", 0.2)
    rules = Rules((3, 4, 5))
    tournament(rules, Slow(), ["random"], games=2)
    err = capsys.readouterr().err
    assert re.fullmatch(r"nim_evo: Slowpoke takes 0\.0\d+ s a position: asking it at 120 positions of 3-4-5 "
                        r"takes about \d+ s more\n", err), err

    class Fast(Slow):
        name = "Fast"

        def move(self, piles, rng):
            return next(k for k, n in enumerate(piles) if n), 1

    tournament(rules, Fast(), ["random"], games=2)
    assert capsys.readouterr().err == ""


def test_a_run_directory_never_makes_a_resume_import_code_it_names(agents_module, capsys):
    """A received run directory whose opponents name code (a payload dropped beside it) is
    refused at --resume, nothing imported, until the person names that code again."""
    out = agents_module.parent / "runs" / "r"
    spec = f"{agents_module.parent / 'payload.py'}:Agent"
    (agents_module.parent / "payload.py").write_text(textwrap.dedent('''
        import pathlib
        pathlib.Path(__file__).with_name("PWNED").write_text("ran")
        from myagents import FirstPile as Agent
    '''))
    assert run_main(["--game", "2-3", "--population", "4", "--offspring", "4", "--generations", "1", "--quiet",
                     "--opponents", f"random,{spec}", "--out", str(out), "--genomes-dir", "g"]) == 0
    (agents_module.parent / "PWNED").unlink()
    capsys.readouterr()
    assert run_main(["--resume", str(out), "--generations", "2", "--quiet", "--genomes-dir", "g"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a run directory cannot make nim_evo run code" in err
    assert f"--opponents random,{spec}" in err and not (agents_module.parent / "PWNED").exists()
    assert run_main(["--resume", str(out), "--generations", "2", "--quiet", "--genomes-dir", "g",
                     "--opponents", "nimsum"]) == 2
    assert "cannot change them" in capsys.readouterr().err
    assert run_main(["--resume", str(out), "--generations", "2", "--quiet", "--genomes-dir", "g",
                     "--opponents", f"random,{spec}"]) == 0
    with pytest.raises(UserError, match="a run directory cannot make nim_evo run code"):
        nim_evo.resume(out, 3, genomes_dir="g", progress=False)
    assert nim_evo.resume(out, 3, genomes_dir="g", progress=False, code=[spec]).state.generation == 3
