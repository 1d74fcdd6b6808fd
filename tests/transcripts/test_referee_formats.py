"""Each transcript format read and graded: games with known labels (winning, blunder, forced,
illegal, under normal and misère play), and what the report says of them."""

from __future__ import annotations

import json

import pytest

from nim_evo.commands.referee import main as referee_main
from nim_evo.transcripts.judge import judge
from nim_evo.transcripts.reading import read_transcripts
from nim_evo.transcripts.summary import summarise

# 1-3-5-7 (lost for the first player, normal and misère alike while a heap holds 2 or more):
# 1 off heap 0 (forced), 1 off heap 3 to 0-3-5-6, nim-sum 0 (winning), 3 off heap 1 (forced),
# 1 off heap 2 to 0-0-4-6 (blunder), 2 off heap 3 to 0-0-4-4 (winning), 5 off heap 2 (illegal)
LONG = [(0, 1), (3, 1), (1, 3), (2, 1), (3, 2), (2, 5)]
LONG_LABELS = ["forced", "winning", "forced", "blunder", "winning", "illegal"]
# 1-1-2: the conventions part. Normal: 2 off heap 2 (winning: 1-1-0), forced, winning.
# Misère: the same moves are a blunder (1-1-0 wins for the player to move), winning (0-1-0), forced.
SHORT = [(2, 2), (0, 1), (1, 1)]
SHORT_LABELS = {"normal": ["winning", "forced", "winning"], "misere": ["blunder", "winning", "forced"]}


def _spiel(move, piles=4):  # OpenSpiel's nim: (take - 1) * piles + pile
    pile, take = move
    return (take - 1) * piles + pile


def _labels(paths, **options):
    judgement = judge(read_transcripts(paths, **options))
    return [judgement.labels(i) for i in range(len(judgement.records))], judgement


def test_nim_evo_lines_in_words_labels_and_actions(tmp_path):
    path = tmp_path / "games.jsonl"
    lines = [{"game": "1-3-5-7", "players": ["a", "b"], "moves": [list(m) for m in LONG]},
             {"game": "1-1-2", "moves": [list(m) for m in SHORT]},
             {"game": "1-1-2-misere", "moves": [f"{p + 1} {c}" for p, c in SHORT]},
             {"game": "8-kayles", "actions": [3, 999]}]
    path.write_text("# a comment\n\n" + "\n".join(json.dumps(line) for line in lines) + "\n")
    labels, judgement = _labels([path])
    assert labels == [LONG_LABELS, SHORT_LABELS["normal"], SHORT_LABELS["misere"], [labels[3][0], "illegal"]]
    assert judgement.illegal == ["[2, 5]", None, None, "999"]  # as the transcript wrote it
    assert [r.source for r in judgement.records] == [f"{path}:{n}" for n in (3, 4, 5, 6)]
    assert judgement.winner.tolist() == [0, 0, 1, 0]  # b's illegal move; the last take wins; loses (misère)
    assert judgement.over.tolist() == [False, True, True, False]


def test_a_convention_is_stated_and_can_be_overridden(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"game": "1-1-2", "moves": [list(m) for m in SHORT]}) + "\n")
    labels, judgement = _labels([path], convention="misere")
    assert labels == [SHORT_LABELS["misere"]] and judgement.records[0].game.name == "1-1-2-misere"
    report = summarise(judgement).to_json()
    assert report["boards"]["1-1-2-misere"]["convention"] == "misère"
    assert "--convention misere" in report["boards"]["1-1-2-misere"]["why"]


def test_openspiel_serialized_states_and_history_lines(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    games = [(pyspiel.load_game("nim"), LONG[:-1], LONG_LABELS[:-1]),
             (pyspiel.load_game("nim(pile_sizes=1;1;2,is_misere=False)"), SHORT, SHORT_LABELS["normal"]),
             (pyspiel.load_game("nim(pile_sizes=1;1;2)"), SHORT, SHORT_LABELS["misere"])]
    blocks, lines = [], []
    for game, moves, _ in games:
        state = game.new_initial_state()
        for move in moves:
            state.apply_action(_spiel(move, len(game.get_parameters()["pile_sizes"].split(";"))))
        blocks.append(pyspiel.serialize_game_and_state(game, state))
        lines.append(f"{game} {state.history_str()}")
    serialized, histories = tmp_path / "states.txt", tmp_path / "histories.txt"
    serialized.write_text("".join(blocks))
    histories.write_text("\n".join(lines) + "\nnim() [0, 3, 9, 2, 7, 18]\n")  # LONG, its last move illegal
    want = [labels for _, _, labels in games]
    assert _labels([serialized])[0] == want
    labels, judgement = _labels([histories])
    assert labels == want + [LONG_LABELS]
    assert judgement.records[0].game.name == "1-3-5-7-misere"
    assert judgement.records[0].convention == "OpenSpiel's nim with is_misere=True (its default)"
    assert judgement.records[1].convention == "OpenSpiel's nim with is_misere=False"


def test_openspiel_histories_alone_take_their_game_from_the_command(tmp_path):
    path = tmp_path / "histories.txt"
    path.write_text("0, 3, 9, 2, 7\n")
    assert _labels([path], fmt="openspiel", game="nim(pile_sizes=1;3;5;7,is_misere=False)")[0] == [LONG_LABELS[:-1]]
    own = [{"game": "3-4-5"}]  # a nim_evo board's own action ids
    assert _labels([path], fmt="openspiel", game="1-3-5-7")[1].records[0].game.name == "1-3-5-7"
    assert own


def test_the_command_prints_the_labels_json_and_a_picture(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"game": "1-3-5-7", "players": ["model", "mcts"], "moves": [list(m) for m in LONG]})
                    + "\n")
    assert referee_main([str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("1 game, 6 moves graded")
    assert "1-3-5-7: normal play (the transcript's board name), 1 game" in out
    assert f"{path}:1: 1-3-5-7, model first: fWfBWX (model won; illegal move '[2, 5]')" in out
    picture = tmp_path / "accuracy.png"
    assert referee_main([str(path), "--json", "--picture", str(picture)]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert str(picture) in captured.err and picture.stat().st_size > 10_000
    written = picture.read_bytes()
    assert referee_main([str(path), "--picture", str(picture)]) == 2  # a file is never replaced unasked
    assert "exists" in capsys.readouterr().err and picture.read_bytes() == written
    (tmp_path / "folder.png").mkdir()
    assert referee_main([str(path), "--picture", str(tmp_path / "folder.png"), "--force"]) == 2
    assert "is a folder" in capsys.readouterr().err
    players = {line["player"]: line for line in data["players"]}
    model, mcts = players["model"], players["mcts"]  # seat 0: forced, forced, winning; seat 1: W, B, X
    assert (model["moves"], model["forced"], model["winning_positions"], model["winning_moves"]) == (3, 2, 1, 1)
    assert (model["blunders"], model["illegal"], model["first_blunder_median_ply"]) == (0, 0, None)
    assert (mcts["moves"], mcts["winning_positions"], mcts["winning_moves"], mcts["blunders"]) == (2, 2, 1, 1)
    assert (mcts["illegal"], mcts["first_blunder_median_ply"], mcts["blunder_rate"]) == (1, 3, 0.5)
    assert mcts["winning_move_rate"] == 0.5 and 0 < mcts["interval"][0] < 0.5 < mcts["interval"][1] < 1
    assert data["per_game"][0]["labels"] == LONG_LABELS and data["per_game"][0]["winner"] == "model"
    assert data["per_game"][0]["first_blunder_ply"] == [None, 3]
    assert data["by_objects_left"] == {"mcts": [{"objects": 11, "winning_positions": 1, "winning_moves": 0},
                                                {"objects": 15, "winning_positions": 1, "winning_moves": 1}],
                                       "model": [{"objects": 10, "winning_positions": 1, "winning_moves": 1}]}


@pytest.mark.parametrize("content, argv, message", [
    ("not json\n", ["--format", "nim-evo"], r"cannot read games.txt:1: Expecting value"),
    ('{"game": "3-4-5", "moves": [[0, 1]], "extra": 1}\n', [], r"games.txt:1: unknown field 'extra'"),
    ('{"game": "3-4-5x", "moves": []}\n', [], r"games.txt:1: "),
    ('{"moves": [[0, 1]]}\n', [], r"games.txt:1: a line names its board"),
    ('{"game": "3-4-5", "actions": [1.5]}\n', [], r"games.txt:1 \(3-4-5\): an action is a whole number"),
    ('{"game": "3-4-5", "actions": [1], "players": ["x"]}\n', [], r"players are two names"),
    ("nim(pile_sizes=3;4;5) 1, x, 2\n", [], r"games.txt:1: '1, x, 2' is not a history"),
    ("kuhn_poker() 1, 2\n", [], r"OpenSpiel's 'kuhn_poker' is no game nim_evo plays"),
    ("1, 2\n", ["--format", "openspiel"], r"games.txt:1: a line starts with its OpenSpiel game string"),
    ("hello\n", [], r"games.txt: cannot tell which harness wrote it"),
    ("", ["--format", "nim-evo"], r"games.txt: no game in it"),
    ('{"game": "3-4-5", "actions": [1]}\n', ["--picture", "x.txt"], r"--picture x.txt"),
    ('{"game": "3-4-5", "actions": [1]}\n', ["--picture", "games.txt/a.png"], r"games.txt is not a folder"),
    ('{"game": "3-4-5", "actions": [1]}\n', ["--format", "chess"], r"argument --format: invalid choice"),
    ('{"game": "3-4-5", "actions": [1]}\n', ["--convention", "both"], r"argument --convention: invalid choice"),
    ('{"game": "3-4-5", "actions": [1]}\n', ["missing.jsonl"], r"no such file: missing.jsonl"),
    ('{"game": "3-4-5", "actions": [1]}\n', ["."], r"\. is a directory"),
    ("\udcff".encode("utf-8", "surrogateescape").decode("latin-1"), [], r"games.txt: cannot tell"),
])
def test_bad_transcripts_are_one_line_exit_2(content, argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games.txt").write_text(content)
    assert referee_main(["games.txt", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nim_evo: error: "), err
    assert pytest.importorskip("re").search(message, err[0]), err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.txt"]


def test_openspiel_games_of_nim_evo_serialized_by_pyspiel(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    import nim_evo.interop.spielgames  # noqa: F401  (registers nim_evo_<family>)
    from nim_evo import game as board

    kayles = board("8-kayles")
    # 8 pins (Kayles values 0 1 2 3 1 4 3 2 1): 2 from the middle, rows 3 and 3 (winning);
    # 1 from the end of a row (2 and 3: forced); 1 from the row of 2 (1 and 3: blunder)
    moves = [(0, 2, 3), (0, 1, 0), (0, 1, 0)]
    game = pyspiel.load_game("nim_evo_kayles(heaps=8;)")
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(kayles.action_of(move))
    path = tmp_path / "kayles.txt"
    path.write_text(pyspiel.serialize_game_and_state(game, state) + f"{game} {state.history_str()}\n")
    labels, judgement = _labels([path])
    assert labels == [["winning", "forced", "blunder"]] * 2
    assert [r.game.name for r in judgement.records] == ["8-kayles"] * 2
