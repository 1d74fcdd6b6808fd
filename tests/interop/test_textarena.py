"""nim_evo players as TextArena agents in TextArena's own Nim (``textarena.make``, its default
wrappers included), the games logged by ``play`` and graded by ``nim-evo referee``, each label
held to the nim-sum rule written here."""

import json
import random
import re
from functools import reduce
from operator import xor
from pathlib import Path

import pytest

textarena = pytest.importorskip("textarena")

from nim_evo.interop.textarena import UnreadableObservation, agent, play, position_of  # noqa: E402
from nim_evo.commands.referee import main as referee_main  # noqa: E402
from nim_evo.validation import UserError  # noqa: E402

GENOME = Path(__file__).resolve().parents[2] / "genomes" / "7-5-3-seed1-rules.json"


def board(observation: str) -> list[int]:
    """The piles TextArena announced last, read here on its own: the lines after the last 'Current Pile:'."""
    return [int(n) for n in re.findall(r"pile \d+: (\d+)", observation.rsplit("Current Pile:", 1)[1])]


def first_object(observation: str) -> str:
    """A scripted agent: one object from the first pile that has one."""
    piles = board(observation)
    return f"[{next(i for i, n in enumerate(piles) if n)} 1]"


def nim_sum_labels(start, moves) -> list[str]:
    """Each move's label by the nim-sum rule (normal Nim: the player to move is lost iff the xor of
    the piles is 0); an illegal move ends the game."""
    piles, labels = list(start), []
    for pile, count in moves:
        if not (0 <= pile < len(piles) and 0 < count <= piles[pile]):
            return labels + ["illegal"]
        before = reduce(xor, piles)
        piles[pile] -= count
        labels.append("forced" if before == 0 else "winning" if reduce(xor, piles) == 0 else "blunder")
    return labels


def moves_of(logs) -> list[tuple[int, int]]:
    """The players' moves in a log, as '[pile quantity]' says them."""
    return [tuple(map(int, re.search(r"\[\s*(\d+)\s+(\d+)\s*\]", text).groups())) for who, text in logs if who >= 0]


def refereed(path, capsys) -> dict:
    capsys.readouterr()
    assert referee_main([str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_perfect_plays_textarenas_nim_and_the_referee_grades_its_log(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    boards = [("Nim-v0", None, (3, 4, 5)), ("Nim-v0", {"piles": [1, 2, 3]}, (1, 2, 3)),
              ("Nim-v0-medium", None, (4, 2, 3, 7))]
    games = []
    for env_id, kwargs, start in boards:
        for seat in (0, 1):
            agents = [first_object, first_object]
            agents[seat] = agent("perfect")
            games.append((seat, start, play(env_id, agents, seed=seat, path=path, env_kwargs=kwargs)))
    lines = path.read_text().splitlines()
    assert [json.loads(line) for line in lines] == [game for _, _, game in games]  # returned as written
    report = refereed(path, capsys)
    assert len(report["per_game"]) == 6
    for (seat, start, game), graded in zip(games, report["per_game"]):
        assert game["players"] == [["perfect", "first_object"], ["first_object", "perfect"]][seat]
        assert game["logs"][2] == [-1, "Current Pile:\n" + "\n".join(f"  pile {i}: {n}" for i, n in enumerate(start))]
        expected = nim_sum_labels(start, moves_of(game["logs"]))
        assert graded["labels"] == expected and "illegal" not in expected
        perfects = expected[seat::2]
        assert all(label in ("winning", "forced") for label in perfects)
        winning_start = reduce(xor, start) != 0
        if winning_start == (seat == 0):  # perfect moves first from a winning position, or second from a lost one
            assert set(perfects) == {"winning"} and graded["winner"] == "perfect"
            assert game["rewards"] == {str(seat): 1, str(1 - seat): -1}
        assert graded["winner"] == game["players"][max(game["rewards"], key=game["rewards"].get) == "1"]


def test_a_move_textarena_refuses_is_graded_illegal_and_its_retry_is_not(tmp_path, capsys):
    """TextArena gives a player one more try after an invalid move (a second one loses); the log holds both."""
    answers = iter(["[0 1]", "[0 9]", "[0 8]"])
    game = play("Nim-v0", [lambda observation: next(answers), agent("perfect")], seed=0, path=tmp_path / "g.jsonl")
    said = [text for who, text in game["logs"] if who == -1]
    assert any(text.startswith("Player 0 attempted an invalid move") for text in said)
    assert game["rewards"] == {"0": -1, "1": 1} and game["game_info"]["0"]["invalid_move"]
    graded = refereed(tmp_path / "g.jsonl", capsys)["per_game"][0]
    moves = moves_of(game["logs"])
    assert moves[0] == (0, 1) and moves[2:] == [(0, 9), (0, 8)]  # the retry is in the log ...
    assert graded["labels"] == nim_sum_labels((3, 4, 5), moves) == ["blunder", "winning", "illegal"]  # ... not graded


def test_the_same_seed_writes_the_same_file_whatever_the_global_random_state(tmp_path):
    def run(seed: int, name: str, noise: int) -> bytes:
        random.seed(noise)  # nim_evo's agents draw from their own generators
        path = tmp_path / name
        play("Nim-v0", [agent("random", seed=seed), agent("perfect")], seed, path=path)
        play("Nim-v0-large", [agent("random", seed=seed), agent("random", seed=seed + 1)], seed, path=path)
        return path.read_bytes()

    assert run(3, "a.jsonl", 1) == run(3, "b.jsonl", 2)
    logs = {json.dumps(json.loads(run(seed, f"{seed}.jsonl", 0).splitlines()[1])["logs"]) for seed in range(5)}
    assert len(logs) == 5  # another seed, another game
    random.seed(7)
    state = random.getstate()
    play("Nim-v0", [agent("random", seed=1), agent("random", seed=2)], seed=5)  # TextArena seeds random
    assert random.getstate() == state  # ... and play puts it back


def test_a_champion_and_a_learner_as_agents(tmp_path, capsys):
    path = tmp_path / "champion.jsonl"
    opponents = [first_object, agent("random", seed=4)]
    for k, opponent in enumerate(opponents):
        for champion in (agent(str(GENOME)), agent(str(GENOME), rules="7-5-3")):
            play("Nim-v0", [champion, opponent][::1 - 2 * k], seed=k, path=path, env_kwargs={"piles": [7, 5, 3]})
    play("Nim-v0", [agent("td", seed=0), first_object], seed=0, path=path)
    report = refereed(path, capsys)
    games = [json.loads(line) for line in path.read_text().splitlines()]
    assert [g["players"] for g in games[:2]] == [["7-5-3-seed1-rules", "first_object"]] * 2
    assert games[-1]["players"][0] == "td" and games[0]["kwargs"] == {"piles": [7, 5, 3]}
    for game, graded in zip(games, report["per_game"]):
        start = (7, 5, 3) if "kwargs" in game else (3, 4, 5)
        assert graded["game"] == "-".join(map(str, start))
        assert graded["labels"] == nim_sum_labels(start, moves_of(game["logs"]))
    with pytest.raises(UserError, match="7-5-3"):  # a champion for another board than the one given
        agent(str(GENOME), rules="7-5-3-misere")


def test_an_observation_without_a_nim_board_is_one_line(tmp_path):
    perfect = agent("perfect")
    for observation in ("[GAME] You are playing Tic Tac Toe.", "Current Pile:\n  pile 3: 1", 42):
        with pytest.raises(UnreadableObservation, match="holds no TextArena Nim board") as caught:
            perfect(observation)
        assert "\n" not in str(caught.value)
    with pytest.raises(UnreadableObservation, match="holds no TextArena Nim board"):
        play("TicTacToe-v0", [perfect, lambda observation: "[4]"], seed=0)  # another game of TextArena's
    with pytest.raises(UnreadableObservation, match="3-4-5, and the observation's board 9-4-5 is not on it"):
        agent("perfect", rules="3-4-5")("Current Pile:\n  pile 0: 9\n  pile 1: 4\n  pile 2: 5")
    assert position_of("Current Pile:\n  pile 0: 1\n  pile 1: 2\nCurrent Pile:\n  pile 0: 0\n  pile 1: 2") == (0, 2)
    assert agent("nimsum")("x\n[GAME] Current Pile:\n  pile 0: 3\n  pile 1: 1") == "[0 2]"
    with pytest.raises(UserError, match="unknown agent 'perfekt'"):
        agent("perfekt")
    with pytest.raises(UserError, match="normal play without a cap"):
        agent("perfect", rules="3-4-5-misere")
    with pytest.raises(UserError, match="Nim-v9. not found"):
        play("Nim-v9", [perfect, perfect], seed=0)


def test_play_appends_to_a_log_and_never_overwrites_another_file(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    with pytest.raises(UserError, match="does not hold TextArena games"):
        play("Nim-v0", [agent("perfect"), first_object], seed=0, path=other)
    assert other.read_text() == "my notes\n"
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"env_id": "Nim-v0", "logs": []}))  # no newline at the end
    play("Nim-v0", [agent("perfect"), first_object], seed=0, path=log)
    assert [json.loads(line)["env_id"] for line in log.read_text().splitlines()] == ["Nim-v0", "Nim-v0"]


def test_without_textarena_one_line_names_the_extra(monkeypatch):
    import sys

    from nim_evo.interop.extras import MissingExtra

    monkeypatch.setitem(sys.modules, "textarena", None)
    with pytest.raises(MissingExtra, match=r"pip install 'nim-evo\[textarena\]'"):
        agent("perfect")
    with pytest.raises(MissingExtra, match=r"nim-evo\[textarena\]"):
        play("Nim-v0", [first_object, first_object], seed=0)
