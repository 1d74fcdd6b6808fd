"""``python -m nim_evo.learn`` and learned opponents in ``python -m nim_evo.run``."""

import json
import subprocess
import sys

import numpy as np
import pytest

from nim_evo import Rules, load_strategy
from nim_evo.evaluation.opponents import resolve, trained
from nim_evo.commands.learn import main
from nim_evo.learners.files import load_learner
from nim_evo.commands.run import main as run_main


def test_learn_trains_reports_and_saves_a_playable_learner(tmp_path, capsys):
    out = tmp_path / "q.json"
    assert main(["--learner", "quality", "--game", "7-5-3", "--games", "3000", "--seed", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert "3,000 games" in printed.out and "game 3,000/3,000" in printed.err
    accuracy = json.loads(out.read_text())["accuracy"]
    assert f"{100 * accuracy:.2f}% of winning positions" in printed.out
    agent = load_strategy(out, Rules((7, 5, 3)))
    assert agent.games_played == 3000 and not agent.stochastic
    assert agent.move((7, 5, 3), np.random.default_rng(0)) in Rules((7, 5, 3)).legal_moves((7, 5, 3))
    again = tmp_path / "again.json"
    assert main(["--learner", "quality", "--game", "7-5-3", "--games", "3000", "--seed", "2", "--out", str(again),
                 "--quiet"]) == 0
    first, second = json.loads(out.read_text()), json.loads(again.read_text())
    assert first["state"] == second["state"]  # the same seed, the same learner


def test_learn_against_an_opponent_reports_its_training_record(tmp_path, capsys):
    out = tmp_path / "w.json"
    assert main(["--learner", "wincount", "--game", "21-cap3", "--games", "4000", "--opponents", "take-3",
                 "--seat", "loser", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "of its training games against take-3" in printed
    document = json.loads(out.read_text())
    assert document["training"] == [{"episodes": 4000, "opponent": "take-3", "seat": "loser"}]
    assert document["win_rates"]["random"][0] > 0.6


def test_subgame_report_prints_the_seed_000_lines(tmp_path, capsys):
    assert main(["--learner", "subgame", "--game", "17-cap3-misere", "--games", "3000", "--report",
                 "--out", str(tmp_path / "s.json")]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    one = next(line for line in lines if line.startswith("--- 1 balls"))
    assert one.startswith("--- 1 balls, best 0 probs: 1 with p=1.000 (w=0,l=")
    for heap in range(2, 18):
        line = next(line for line in lines if line[4:].startswith(f"{heap} balls,"))
        assert line[:3] == ("---" if heap % 4 == 1 else "OK!"), line  # 3,000 games learn every heap


@pytest.mark.parametrize("argv, message", [
    (["--learner", "nope"], "invalid choice"),
    (["--game", "7-5-3"], "--learner is required"),
    (["--learner", "td", "--game", "9-x"], "see --list-games"),
    (["--learner", "td", "--games", "-1"], "--games must be"),
    (["--learner", "td", "--param", "alpha=2"], "alpha must be in [0, 1]"),
    (["--learner", "td", "--param", "beta=1"], "no parameter 'beta'"),
    (["--learner", "td", "--param", "alpha"], "KEY=VALUE"),
    (["--learner", "td", "--param", "alpha=" + "[" * 100_000], "is not a JSON value"),
    (["--learner", "td", "--opponents", "nobody"], "unknown agent"),
    (["--learner", "td", "--seat", "first"], "--seat places the learner"),
    (["--learner", "td", "--piles", "30", "30", "30", "30", "30"], "need a board that can be enumerated"),
])
def test_bad_input_is_one_line_and_status_2(argv, message, tmp_path, capsys):
    assert main([*argv, "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "x.json").exists()


def test_the_default_name_never_meets_a_file_already_there(tmp_path, monkeypatch, capsys):
    """The README's learn commands write the names of files shipped in genomes/: without
    --out a learner takes the next free name (-2, -3, ...), as run ids do; the shipped file stays."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "genomes").mkdir()
    shipped = tmp_path / "genomes" / "td-2-3-seed0.json"
    shipped.write_text("shipped")
    for expected in ("td-2-3-seed0-2.json", "td-2-3-seed0-3.json"):
        assert main(["--learner", "td", "--game", "2-3", "--games", "10", "--quiet"]) == 0
        assert capsys.readouterr().out.strip() == f"genomes/{expected}"
    assert shipped.read_text() == "shipped"
    assert main(["--learner", "td", "--game", "2-3", "--games", "10", "--out", "elsewhere/", "--quiet"]) == 0
    assert capsys.readouterr().out.strip() == "elsewhere/td-2-3-seed0.json"


def test_an_existing_or_unwritable_out_is_refused_before_training(tmp_path, capsys):
    out = tmp_path / "mine.json"
    out.write_text("precious")
    assert main(["--learner", "td", "--game", "2-3", "--games", "10", "--out", str(out)]) == 2
    assert "exists; use --force" in capsys.readouterr().err and out.read_text() == "precious"
    assert main(["--learner", "td", "--game", "2-3", "--games", "10", "--out", str(out), "--force", "--quiet"]) == 0
    assert json.loads(out.read_text())["learner"] == "td"
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["--learner", "td", "--game", "2-3", "--games", "10", "--out", str(blocker / "x.json")]) == 2
    assert f"{blocker} is not a folder" in capsys.readouterr().err


def test_module_entry_point(tmp_path):
    done = subprocess.run([sys.executable, "-m", "nim_evo.learn", "--learner", "montecarlo", "--game", "2-3-4",
                           "--games", "200", "--out", str(tmp_path / "m.json"), "--quiet"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == str(tmp_path / "m.json")


def test_learned_opponents_are_trained_once_then_cached(learner_cache):
    rules = Rules((2, 3, 4), misere=True)
    first = trained("qlearning", rules, seed=3, episodes=500)
    files = list(learner_cache.glob("qlearning-2-3-4-misere-seed3-*.json"))
    assert len(files) == 1
    before = files[0].stat().st_mtime_ns
    second = trained("qlearning", rules, seed=3, episodes=500)
    assert files[0].stat().st_mtime_ns == before  # loaded, not trained again
    np.testing.assert_array_equal(first.q, second.q)
    other = trained("qlearning", rules, seed=4, episodes=500)
    assert len(list(learner_cache.glob("qlearning-*.json"))) == 2 and not np.array_equal(first.q, other.q)
    files[0].write_text("{broken")
    repaired = trained("qlearning", rules, seed=3, episodes=500)  # a damaged entry is retrained
    np.testing.assert_array_equal(repaired.q, first.q)


def test_a_cache_entry_of_another_learner_or_budget_is_not_used(learner_cache, monkeypatch):
    """A file planted under a cache entry's name (another learner, or another budget) is
    trained again and replaced, not played as the opponent asked for."""
    import nim_evo.evaluation.opponents as opponents
    from nim_evo.learners.files import save_learner

    rules = Rules((2, 3, 4), misere=True)
    path = opponents.cached_path("qlearning", rules, seed=3, episodes=500)
    for planted in (trained("td", rules, seed=3, episodes=500), trained("qlearning", rules, seed=3, episodes=100)):
        save_learner(planted, path)
        monkeypatch.setattr(opponents, "_TRAINED", {})  # a new process: only the file is left
        learner = trained("qlearning", rules, seed=3, episodes=500)
        assert learner.name == "qlearning" and learner.games_played == 500
        assert load_learner(path).games_played == 500 and load_learner(path).name == "qlearning"


def test_a_cache_entry_of_another_seed_or_opponent_is_not_used(learner_cache, monkeypatch):
    """Same learner, board, budget and parameters, but trained with another seed (a file of
    the seed-4 training under seed 3's name) or against another opponent (a `learn` file):
    neither records the training asked for, so it is trained again and replaced."""
    import nim_evo.evaluation.opponents as opponents
    from nim_evo.learners.files import save_learner

    rules = Rules((2, 3, 4), misere=True)
    path = opponents.cached_path("qlearning", rules, seed=3, episodes=500)
    honest = trained("qlearning", rules, seed=3, episodes=500).q.copy()
    learn_file = learner_cache.parent / "learned.json"
    assert main(["--learner", "qlearning", "--game", "2-3-4-misere", "--games", "500", "--opponents", "nimsum",
                 "--out", str(learn_file), "--quiet"]) == 0
    for planted in (trained("qlearning", rules, seed=4, episodes=500), load_learner(learn_file)):
        assert not np.array_equal(planted.q, honest)
        save_learner(planted, path)
        monkeypatch.setattr(opponents, "_TRAINED", {})  # a new process: only the file is left
        np.testing.assert_array_equal(trained("qlearning", rules, seed=3, episodes=500).q, honest)
        np.testing.assert_array_equal(load_learner(path).q, honest)  # and the entry replaced


def test_opponent_specs_resolve_to_agents_learners_and_files(tmp_path):
    rules = Rules((2, 3, 4), misere=True)
    assert resolve("random", rules).name == "random"
    learner = resolve("td", rules, seed=1)
    assert learner.name == "td" and learner.games_played == learner.episodes
    path = tmp_path / "td.json"
    assert main(["--learner", "td", "--game", "2-3-4-misere", "--games", "100", "--out", str(path), "--quiet"]) == 0
    assert resolve(str(path), rules).games_played == 100
    with pytest.raises(ValueError, match="trained for 2-3-4-misere, not 2-3-4"):
        resolve(str(path), Rules((2, 3, 4)))


def test_run_with_learned_opponents_in_its_panel(tmp_path, capsys):
    learned = tmp_path / "quality.json"
    assert main(["--learner", "quality", "--game", "2-3-4-misere", "--games", "2000", "--out", str(learned),
                 "--quiet"]) == 0
    out = tmp_path / "run"
    assert run_main(["--game", "2-3-4-misere", "--generations", "3", "--population", "6", "--offspring", "6",
                     "--opponents", f"random,qlearning,subgame,{learned}", "--out", str(out),
                     "--genomes-dir", str(tmp_path / "g")]) == 0
    printed = capsys.readouterr()
    assert "learned opponent qlearning" in printed.err and "learned opponent subgame" in printed.err
    for name in ("qlearning", "subgame", "quality"):  # a file by its name's stem
        assert f"\n  {name} " in printed.out  # the summary's table rows
    header = (out / "logbook.csv").read_text().splitlines()[0].split(",")
    assert {"qlearning", "subgame", str(learned)} <= set(header)
    assert run_main(["--resume", str(out), "--generations", "4", "--quiet"]) == 0  # the cache serves the resume


def test_learned_opponents_need_an_enumerable_board(tmp_path, capsys):
    assert run_main(["--genome", "rules", "--piles", *["30"] * 10, "--fitness", "sampled",
                     "--opponents", "random,td", "--out", str(tmp_path / "r"), "--quiet"]) == 2
    assert "needs the board's tables" in capsys.readouterr().err


def test_a_resumed_run_refuses_an_opponent_file_that_changed(tmp_path, capsys):
    learned = tmp_path / "opp.json"
    args = ["--learner", "td", "--game", "2-3-4-misere", "--out", str(learned), "--quiet"]
    assert main([*args, "--games", "100"]) == 0
    out = tmp_path / "run"
    assert run_main(["--game", "2-3-4-misere", "--generations", "2", "--population", "4", "--offspring", "4",
                     "--opponents", f"random,{learned}", "--out", str(out), "--genomes-dir", str(tmp_path / "g"),
                     "--quiet"]) == 0
    assert run_main(["--resume", str(out), "--generations", "3", "--quiet"]) == 0  # the same file: fine
    assert main([*args, "--games", "300", "--force"]) == 0
    assert run_main(["--resume", str(out), "--generations", "4", "--quiet"]) == 2
    assert "is not the one this run began with" in capsys.readouterr().err


def test_an_out_ending_in_a_slash_is_a_folder_for_the_default_name(tmp_path):
    assert main(["--learner", "td", "--game", "3-4", "--games", "10", "--quiet", "--out", f"{tmp_path}/new/"]) == 0
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["td-3-4-seed0.json"]


def test_two_learns_to_one_out_do_not_overwrite_each_other(tmp_path, capsys, monkeypatch):
    """The file appears while this learn trains (another learn finished first): it is kept,
    and this one says so in one line."""
    from nim_evo.learners.base import Learner

    out = tmp_path / "td.json"
    train = Learner.train

    def train_while_another_finishes(self, *args, **kwargs):
        out.write_text("the other learn's file")
        return train(self, *args, **kwargs)

    monkeypatch.setattr(Learner, "train", train_while_another_finishes)
    assert main(["--learner", "td", "--game", "3-4", "--games", "10", "--quiet", "--out", str(out)]) == 2
    assert "was written by someone else meanwhile" in capsys.readouterr().err
    assert out.read_text() == "the other learn's file"


def test_old_flag_names_work_for_one_release_with_a_note(tmp_path, capsys):
    """--agent, --episodes and --opponent are now --learner, --games and --opponents: the old
    spellings train the same learner, each with a one-line note."""
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    assert main(["--learner", "wincount", "--game", "7-cap3", "--games", "300", "--opponents", "nimsum",
                 "--out", str(new), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["--agent", "wincount", "--game", "7-cap3", "--episodes=300", "--opponent", "nimsum",
                 "--out", str(old), "--quiet"]) == 0
    notes = capsys.readouterr().err.splitlines()
    assert notes == [f"nim_evo: note: {flag} is now {to}; the old name works until nim_evo 0.2"
                     for flag, to in (("--agent", "--learner"), ("--episodes", "--games"), ("--opponent", "--opponents"))]
    assert json.loads(new.read_text())["state"] == json.loads(old.read_text())["state"]


def test_a_learner_trains_against_one_opponent(capsys):
    assert main(["--learner", "td", "--game", "7-cap3", "--opponents", "nimsum,random"]) == 2
    assert "trains against one opponent" in capsys.readouterr().err


def test_the_api_s_old_keywords_warn_and_train_the_same():
    import nim_evo

    rules = nim_evo.Rules((7,), max_take=3)
    with pytest.warns(DeprecationWarning) as caught:
        old = nim_evo.train("wincount", rules, episodes=200, opponent="nimsum", seed=2)
    assert [str(w.message).split(";")[0] for w in caught] == ["episodes= is now games=", "opponent= is now opponents="]
    new = nim_evo.train("wincount", rules, games=200, opponents="nimsum", seed=2)
    assert np.array_equal(old.policy(old.space), new.policy(new.space))
    with pytest.raises(nim_evo.UserError, match="old name of games"):
        nim_evo.train("wincount", rules, episodes=200, games=200)


def test_the_api_trains_against_one_opponent():
    import nim_evo

    with pytest.raises(nim_evo.UserError, match="trains against one opponent"):
        nim_evo.train("wincount", nim_evo.Rules((7,), max_take=3), games=10, opponents="nimsum,random")


def test_a_symmetric_qlearning_file_plays_a_thousand_games_without_an_illegal_move(tmp_path, capsys):
    """The issue's report: a qlearning learner (symmetry, its default) trained on 2-3-4-5 misère
    stopped play with an illegal move (its distribution gave the move of its multiset's
    representative, not of the position). Trained with the learn command's defaults and the
    seed's 30,000 games, it plays 1,000 games in play, and every move it makes is the one its
    own table gives at the actual position."""
    from nim_evo.engine.space import space_for
    from nim_evo.commands.play import main as play_main

    out = tmp_path / "q.json"
    assert main(["--learner", "qlearning", "--game", "2-3-4-5-misere", "--games", "30000", "--seed", "1",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert play_main([str(out), "--opponents", "random", "--games", "1000", "--seed", "2"]) == 0
    text = capsys.readouterr().out
    assert "— Completed 1,000 games —" in text and "illegal" not in text
    learner = load_strategy(out)
    space = space_for(learner.rules)
    table = learner.policy(space)
    rng = np.random.default_rng(0)
    for index in range(1, space.n_positions):
        piles = space.position(index)
        assert table[index, space.move_index(learner.move(piles, rng))] > 0
