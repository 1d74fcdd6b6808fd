"""The harnesses' own transcript files (TextArena's logs, GTBench's records, PigBench's results),
built here as each harness writes them, read and graded with known labels."""

from __future__ import annotations

import json

from nim_evo.commands.referee import main as referee_main
from nim_evo.transcripts.judge import judge
from nim_evo.transcripts.reading import read_transcripts


def _graded(path, **options):
    judgement = judge(read_transcripts([path], **options))
    return [judgement.labels(i) for i in range(len(judgement.records))], judgement


def _textarena_log(moves, piles=(3, 4, 5)):
    """A TextArena Nim log as its state keeps it: prompts and boards from the game (-1), moves from the players."""
    def board(sizes):
        return "Current Pile:\n" + "\n".join(f"  pile {i}: {n}" for i, n in enumerate(sizes))
    logs = [[-1, f"Welcome to Nim, Player {p}!\nRules: ..."] for p in (0, 1)] + [[-1, board(piles)]]
    sizes = list(piles)
    for ply, text in enumerate(moves):
        logs.append([ply % 2, text])
        pile, count = (int(x) for x in text[text.index("[") + 1:text.index("]")].split())
        if pile < len(sizes) and 0 < count <= sizes[pile]:
            sizes[pile] -= count
            logs.append([-1, f"Player {ply % 2} removes {count} from pile {pile}."])
        logs.append([-1, board(sizes)])
    return logs


def test_textarena_logs(tmp_path):
    # 3-4-5, normal play: 2 off pile 0 (winning: 1-4-5), forced, 5 off pile 2 (blunder: 1-3-0),
    # 2 off pile 1 (winning: 1-1-0), pile 5 (no such pile: illegal)
    moves = ["[0 2]", "I take [1 1]", "[2 5]", "[1 2]", "[5 1]"]
    path = tmp_path / "log.jsonl"
    games = [{"env_id": "Nim-v0", "seed": 1, "players": ["model", "other"], "logs": _textarena_log(moves)},
             {"env_id": "Nim-v0-medium", "logs": _textarena_log(["[3 7]"], (4, 2, 3, 7))}]
    path.write_text("\n".join(map(json.dumps, games)) + "\n")
    labels, judgement = _graded(path)
    assert labels == [["winning", "forced", "blunder", "winning", "illegal"], ["blunder"]]
    assert judgement.illegal[0] == "[5 1]" and judgement.records[0].players == ("model", "other")
    assert [r.game.name for r in judgement.records] == ["3-4-5", "4-2-3-7"]
    assert judgement.records[0].convention.startswith("TextArena's Nim plays normal play")
    bare = tmp_path / "bare.json"  # json.dump(env.state.logs, f)
    bare.write_text(json.dumps(_textarena_log(moves[:3]), indent=2))
    assert _graded(bare)[0] == [["winning", "forced", "blunder"]]
    assert _graded(bare, convention="misere")[0] == [["winning", "forced", "blunder"]]  # heaps above 1 agree


def _gtbench(moves, piles=("1", "3", "5", "7"), status="Normal"):
    steps = []
    for ply, move in enumerate(moves):
        steps.append({"agent": ["prompt_agent", "mcts_agent"][ply % 2], "model_name": ["gpt-4", "mcts"][ply % 2],
                      "observation": {"piles": list(piles), "legal_moves": [], "env_name": "nim"},
                      "move": move, "queries": [], "token_size": 0})
    return {"winner": "", "agents": ["prompt_agent", "mcts_agent"], "steps": steps, "status": status,
            "agents_at_fault": [], "winner_score": 0, "loser_score": 0, "token_size": 0}


def test_gtbench_records(tmp_path):
    # 1-3-5-7, misère (GTBench's default): forced, winning (0-3-5-6), forced, blunder (0-0-4-6),
    # winning (0-0-4-4), 5 off pile 3 of 4 (illegal)
    long = ["<pile:1, take:1>", "<pile:4, take:1>", "<pile:2, take:3>", "<pile:3, take:1>", "<pile:4, take:2>",
            "<pile:3, take:5>"]
    record = {"game_config": {"game_name": "Nim"}, "agents_config": [], "models_config": [], "win_rate": {},
              "matches": [_gtbench(long, status="Abnormal"), _gtbench(["<pile:2, take:3>"])], "token_size": 0}
    path = tmp_path / "nim.json"
    path.write_text(json.dumps(record, indent=2))
    labels, judgement = _graded(path)
    assert labels == [["forced", "winning", "forced", "blunder", "winning", "illegal"], ["forced"]]
    assert judgement.records[0].players == ("prompt_agent_gpt-4", "mcts_agent_mcts")
    assert judgement.records[0].game.name == "1-3-5-7-misere" and "is_misere=True" in judgement.records[0].convention
    # 1-1-1-2: the conventions part. 1 off pile 4 leaves four heaps of 1: under GTBench's own misère
    # play a blunder (the player to move then wins), under --convention normal a winning move
    short = {"matches": [_gtbench(["<pile:4, take:1>"], piles=("1", "1", "1", "2"))]}
    path.write_text(json.dumps(short))
    assert _graded(path)[0] == [["blunder"]]
    assert _graded(path, convention="normal")[0] == [["winning"]]


def _pigbench(title, moves, invalid=False, mcts=500):
    """A PigBench full_results.json entry: the model (first) answers in <move> tags, MCTS's moves reported."""
    messages = [{"role": "user", "content": "You are playing a game ...\nWhat is your next move?"}]
    for ply, move in enumerate(moves):
        if ply % 2 == 0:
            messages.append({"role": "assistant", "content": f"Let me think.\n<move>{move}</move>"})
        elif ply == len(moves) - 1 and not invalid:
            messages.append({"role": "user", "content": f"The opponent made move {move}. The game state is:\n...\n\n"
                                                        "Game over, they win."})
        else:
            messages.append({"role": "user", "content": f"You made move {moves[ply - 1]}\nAfter you made this move, "
                                                        f"the state was:\n...\n\nYour opponent made move {move}\n"
                                                        "After he made this move, the state was:\n...\n\nWhat is your "
                                                        "next move?"})
    return {"run_name": f"{title}_model", "game_class_name": title, "model": "some-model", "game_name": title,
            "mcts_iterations": mcts, "wins": 0, "losses": 0, "draws": 0, "invalid_moves": int(invalid),
            "messages": messages}


PIGBENCH = [  # title, moves, invalid, labels (worked out by each title's theory in the comments)
    # 1-3-4 misère: 2 off shelf 2 (1-3-2, nim-sum 0: winning), forced (1-0-2), 1 off shelf 2 (1-0-1: two
    # heaps of 1, the player to move wins in misère: blunder), winning (0-0-1), forced
    ("BookNimEasy", ["2,2", "1,3", "2,1", "0,1", "2,1"], False, ["winning", "forced", "blunder", "winning", "forced"]),
    # a heap of 21, take 1 to 3: lost at multiples of 4. Count to 1 (20: winning), 2 (19: forced),
    # 3 (18: blunder), 5 (16: winning), then a move the harness refused
    ("CountToTwentyOne", ["1", "2", "3", "5"], True, ["winning", "forced", "blunder", "winning", "illegal"]),
    # 13, subtract squares (lost at 0, 2, 5, 7, 10, 12): 1 (12: winning), 4 (8: forced), 4 (4: blunder), 4 (0: winning)
    ("SubtractSquare", ["1", "4", "4", "4"], False, ["winning", "forced", "blunder", "winning"]),
    # 5-6 (cold: 0-0, 1-2, 3-5, 4-7): 1 off pile 1 (5-5: blunder), 5 off both (0-0: winning)
    ("WythofsNim", ["1,1", "both,5"], False, ["blunder", "winning"]),
    # 11 (Grundy values 0 0 1 0 2 1 0 2 1 0 2 for heaps 1..11); heaps sorted largest first after each move
    ("GrundysGame", ["0:7,4", "0:6,1", "0:4,2", "1:3,1", "1:2,1", "0:3,1", "0:2,1"], False,
     ["winning", "forced", "winning", "forced", "winning", "forced", "winning"]),
    # 8 pins (Kayles values 0 1 2 3 1 4 3 2 1): pins 3,4 (rows 3, 3: winning), 0 (forced), 5 (rows 2, 2:
    # winning), 1,2 (forced), 6 (row 1: blunder; 6,7 wins), 7 (winning)
    ("Kayles", ["3,4", "0", "5", "1,2", "6", "7"], False, ["winning", "forced", "winning", "forced", "blunder", "winning"]),
    # five heads: Nim 1-2-3-4-5 (nim-sum 1): coin 0 (2-3-4-5: winning), coins 2,4 (2-4: forced), coins 1,3 (winning)
    ("TurningTurtles", ["0", "2,4", "1,3"], False, ["winning", "forced", "winning"]),
]


def test_pigbench_results_every_impartial_title(tmp_path, capsys):
    path = tmp_path / "full_results.json"
    path.write_text(json.dumps([_pigbench(title, moves, invalid) for title, moves, invalid, _ in PIGBENCH], indent=2))
    labels, judgement = _graded(path)
    assert labels == [want for *_, want in PIGBENCH]
    assert [r.game.name for r in judgement.records] == ["1-3-4-misere", "21-sub1.2.3", "13-squares", "5-6-wythoff",
                                                         "11-grundy", "8-kayles", "1-2-3-4-5"]
    assert judgement.records[0].players == ("some-model", "mcts(500)")
    assert judgement.illegal[1].startswith("(refused by the harness")
    assert judgement.winner.tolist() == [1, 1, 1, 1, 0, 1, 0]  # book nim: the model took the last book
    assert judgement.objects[judgement.record == 6].tolist() == [5, 4, 2]  # coins showing heads
    assert referee_main([str(path), "--convention", "normal"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "1-3-4: normal play (--convention normal (the harness's own: PigBench's BookNimEasy" in out


def test_pigbench_results_hold_its_other_titles_too_which_are_skipped(tmp_path):
    path = tmp_path / "full_results.json"
    path.write_text(json.dumps([_pigbench("TicTacToe3x4", ["0,0", "1,1"]), _pigbench("Kayles", ["3,4"]),
                                _pigbench("Domineering", ["0,0"])]))
    labels, judgement = _graded(path)
    assert labels == [["winning"]] and judgement.records[0].game.name == "8-kayles"


def test_gtbench_reads_a_move_as_gtbench_does(tmp_path):
    # GTBench makes <pile:0, take:2> the id (2 - 1) * 4 + 0 - 1 = 3, which OpenSpiel plays as pile 4, take 1
    path = tmp_path / "nim.json"
    # (1-3-5-7 misère, lost: forced), then 1 off pile 1 (0-3-5-6, nim-sum 0: winning)
    path.write_text(json.dumps({"matches": [_gtbench(["<pile:0, take:2>", "<pile:1, take:1>"])]}))
    labels, judgement = _graded(path)
    assert judgement.records[0].actions[:1] == [judgement.records[0].game.action_of((3, 1))]
    assert labels == [["forced", "winning"]]


def test_textarena_a_retry_after_an_invalid_move_keeps_textarenas_result(tmp_path):
    logs = _textarena_log(["[0 9]"])[:-1] + [[-1, "Player 0 attempted an invalid move. Reason: ..."]]
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps({"env_id": "Nim-v0", "logs": logs + [[0, "[0 3]"]], "rewards": {"0": 1, "1": -1}}))
    labels, judgement = _graded(path)
    assert labels == [["illegal"]] and judgement.winner.tolist() == [0]  # TextArena's result, not the referee's guess


def test_a_move_in_no_harness_words_is_illegal_and_the_rest_not_graded(tmp_path):
    path = tmp_path / "full_results.json"
    path.write_text(json.dumps([_pigbench("Kayles", ["3,5", "0"]), _pigbench("GrundysGame", ["0:5,5"]),
                                _pigbench("WythofsNim", ["2,1"]), _pigbench("TurningTurtles", ["4,2"])]))
    labels, judgement = _graded(path)
    assert labels == [["illegal"]] * 4
    assert judgement.illegal == ["3,5", "0:5,5", "2,1", "4,2"]


def test_a_harness_file_that_says_no_game_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cases = [
        ([_pigbench("TicTacToe3x4", ["0,0"])], [], r"no impartial title in it \(it holds TicTacToe3x4"),
        ([_pigbench("TurningTurtles", ["0"])], ["--convention", "misere"], r"holds in normal play only"),
        ([{**_pigbench("Kayles", ["3"]), "messages": [{"role": "user", "content": "x"},
                                                      {"role": "assistant", "content": "no tags"}]}], [],
         r"game 1: message 2, the model's, holds no <move>"),
        ({"matches": [{"steps": []}]}, [], r"match 1: a match has its steps"),
        ({"matches": [_gtbench(["<pile:1, take:1>"], piles=("x",))]}, [], r"observation holds no piles"),
        ({"logs": [[-1, "hello"], [0, 3]]}, [], r"a log entry is \[from_id, message\]"),
        ({"logs": [[-1, "hello"], [0, "[0 1]"]]}, [], r"announces no piles"),
        ({"logs": [[1, "[0 1]"]], "env_id": "Nim-v0"}, [], r"player 1 moves at ply 0"),
        ({"logs": [[0, "[0 1]"]], "env_id": "Nim-v0"}, ["--format", "gtbench"], r"a GTBench record is an object"),
    ]
    for content, argv, message in cases:
        (tmp_path / "t.json").write_text(json.dumps(content))
        assert referee_main(["t.json", *argv]) == 2, message
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("nim_evo: error: t.json"), err
        assert __import__("re").search(message, err[0]), err[0]
