"""Writes the example transcripts of the how-to page "Referee a benchmark" (docs/how-to/referee.md).

    python docs/transcripts/make_examples.py

* ``openspiel-nim.txt``: OpenSpiel itself (pyspiel) plays its ``nim`` (1-3-5-7, misère by
  default) and nim_evo's Kayles (``nim_evo_kayles``), MCTS against a uniform random bot; the
  file holds what ``pyspiel.serialize_game_and_state`` writes and ``state.history_str()`` lines.
* ``gtbench-nim.json``: the same kind of games (OpenSpiel's MCTS as GTBench's ``mcts_agent``
  against a random agent) saved in the layout of GTBench's ``HistoryTracker.save_as_json``, moves
  in GTBench's words (``<pile:2, take:1>``): GTBench itself needs an LLM behind an API key.
* ``textarena-nim.jsonl``: TextArena's own ``Nim-v0`` environment, nim_evo's perfect agent
  against a random one, written by :func:`nim_evo.interop.textarena.play`.
* ``pigbench-full_results.json`` and ``nim-evo.jsonl`` are written by hand (below): games in the
  published LLM benchmark's own move texts, one per impartial title, and nim_evo's JSON Lines.

Every file is seeded: the same command writes the same bytes.
"""

import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent


def openspiel_games():
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import nim_evo.interop.spielgames  # noqa: F401  (registers nim_evo_kayles and the other families)

    blocks, lines, gtbench = [], [], []
    for k, name in enumerate(["nim", "nim", "nim(pile_sizes=3;4;5,is_misere=False)", "nim_evo_kayles(heaps=8;)"]):
        game = pyspiel.load_game(name)
        rng = np.random.RandomState(k)
        bots = [mcts.MCTSBot(game, 2, 300, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
                pyspiel.make_uniform_random_bot(1, k)]
        if k % 2:
            bots = [pyspiel.make_uniform_random_bot(0, k), bots[0]]
        state, steps = game.new_initial_state(), []
        while not state.is_terminal():
            action = bots[state.current_player()].step(state)
            steps.append((state.current_player(), str(state).split(" ")[1:], state.action_to_string(action)))
            state.apply_action(action)
        if k == 0:
            blocks.append(pyspiel.serialize_game_and_state(game, state))
        lines.append(f"{game} {state.history_str()}")
        if name.startswith("nim") and not name.startswith("nim_evo") and "pile_sizes" not in name:
            agents = ["mcts_agent", "random_agent"] if k % 2 == 0 else ["random_agent", "mcts_agent"]
            gtbench.append({"winner": "", "agents": agents, "status": "Normal", "agents_at_fault": [],
                            "winner_score": 1, "loser_score": -1, "token_size": 0,
                            "steps": [{"agent": agents[player], "model_name": "",
                                       "observation": {"opponent_moves": [], "self_moves": [], "piles": piles,
                                                       "legal_moves": [], "env_name": "nim"},
                                       "move": f"<{text[:-1]}>", "queries": [], "token_size": 0}
                                      for player, piles, text in steps]})
    (HERE / "openspiel-nim.txt").write_text("".join(blocks) + "\n".join(lines) + "\n")
    tracker = {"game_config": {"game_name": "Nim"}, "agents_config": [], "models_config": [], "win_rate": {},
               "matches": gtbench, "token_size": 0}
    (HERE / "gtbench-nim.json").write_text(json.dumps(tracker, indent=2) + "\n")


def textarena_games():
    from nim_evo.interop import textarena

    path = HERE / "textarena-nim.jsonl"
    path.unlink(missing_ok=True)
    for seed in (1, 2):
        textarena.play("Nim-v0", [textarena.agent("perfect", seed=seed), textarena.agent("random", seed=seed)],
                       seed=seed, path=path, players=["perfect", "random"])


# One game per impartial title, in the benchmark's own move texts: the model moves first (its answers
# hold <move>...</move>), MCTS's moves are reported in the next prompt, as its play_base.py writes them
PIGBENCH = [("BookNimEasy", ["2,2", "1,3", "2,1", "0,1", "2,1"], False),
            ("CountToTwentyOne", ["1", "2", "3", "5"], True),
            ("SubtractSquare", ["1", "4", "4", "4"], False),
            ("WythofsNim", ["1,1", "both,5"], False),
            ("GrundysGame", ["0:7,4", "0:6,1", "0:4,2", "1:3,1", "1:2,1", "0:3,1", "0:2,1"], False),
            ("Kayles", ["3,4", "0", "5", "1,2", "6", "7"], False),
            ("TurningTurtles", ["0", "2,4", "1,3"], False)]


def pigbench_games():
    entries = []
    for title, moves, invalid in PIGBENCH:
        messages = [{"role": "user", "content": f"You are playing a game of {title}. You move first. ..."}]
        for ply, move in enumerate(moves):
            if ply % 2 == 0:
                messages.append({"role": "assistant", "content": f"Thinking it over...\n<move>{move}</move>"})
            elif ply == len(moves) - 1 and not invalid:
                messages.append({"role": "user", "content": f"The opponent made move {move}. The game state is:\n"
                                                            "...\n\nGame over, they win."})
            else:
                messages.append({"role": "user", "content": f"You made move {moves[ply - 1]}\nAfter you made this "
                                                            "move, the state was:\n...\n\nYour opponent made move "
                                                            f"{move}\nAfter he made this move, the state was:\n...\n\n"
                                                            "What is your next move?"})
        entries.append({"run_name": f"{title}_example-model_1000mcts", "game_class_name": title,
                        "model": "example-model", "game_name": title, "mcts_iterations": 1000, "wins": 0,
                        "losses": 0, "draws": 0, "invalid_moves": int(invalid), "messages": messages})
    (HERE / "pigbench-full_results.json").write_text(json.dumps(entries, indent=2) + "\n")


if __name__ == "__main__":
    openspiel_games()
    textarena_games()
    pigbench_games()
