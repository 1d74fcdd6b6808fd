"""``python -m nim_evo.play``: the move reader, whole games driven through stdin, matches."""

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nim_evo
from nim_evo import Rules
from nim_evo.engine.solver import solve
from nim_evo.console.games import describe, hint, read_move, show_piles
from nim_evo.commands.play import main

ROOT = Path(__file__).resolve().parents[2]
GENOME = str(ROOT / "genomes" / "7-5-3-seed1-rules.json")
LEARNER = str(ROOT / "genomes" / "wincount-21-cap3-seed0.json")
PILE_LINE = re.compile(r"^  pile (\d+)\s+o*\s+(\d+)$", re.M)
MOVE_LINE = re.compile(r"^(You|\S+) takes? (\d+)(?: from pile (\d+)|, leaving \d+)\.$", re.M)


class Player:
    """A stdin that answers each prompt by reading what the session printed so far.

    Move prompts get the scripted ``typed`` lines first, then ``policy(piles)`` (a 0-based
    move, typed 1-based); other prompts (who starts, play again) get ``answers`` in order.
    """

    def __init__(self, out, rules, policy, typed=(), answers=("n",)):
        self.out, self.rules, self.policy = out, rules, policy
        self.typed, self.answers = list(typed), list(answers)

    def isatty(self):
        return False

    def readline(self):
        prompt = self.out.getvalue().rsplit("\n", 1)[-1]
        if not prompt.startswith("Your move"):
            return self.answers.pop(0) + "\n"
        if self.typed:
            return self.typed.pop(0) + "\n"
        pile, count = self.policy(shown_piles(self.out.getvalue(), self.rules))
        return f"{pile + 1} {count}\n"


def shown_piles(text, rules):
    """The last piles the session showed."""
    sizes = [int(n) for _, n in PILE_LINE.findall(text)]
    return tuple(sizes[-len(rules.piles):])


def winning(rules):
    """The solver's first winning move, or the first legal move where every move loses."""
    return lambda piles: (solve(rules).winning_moves(piles) or rules.legal_moves(piles))[0]


def first_legal(rules):
    return lambda piles: rules.legal_moves(piles)[0]


def session(argv, rules, policy, typed=(), answers=("n",)):
    out = io.StringIO()
    status = main(argv, stdin=Player(out, rules, policy, typed, answers), stdout=out)
    return status, out.getvalue()


def check_transcript(text, rules):
    """Every shown board is the start or the board after the moves printed so far."""
    blocks, position, moves = [], rules.start, []
    for line in text.splitlines():
        shown = PILE_LINE.fullmatch(line)
        if shown and int(shown[1]) == 1:
            blocks.append([])
        if shown:
            blocks[-1].append(int(shown[2]))
            continue
        took = MOVE_LINE.fullmatch(line)
        if took:
            move = (int(took[3] or 1) - 1, int(took[2]))
            assert tuple(blocks[-1]) == position
            position = rules.apply(position, move)
            moves.append(move)
    assert not any(position)
    return moves


# -- the pure parts ------------------------------------------------------------------------

@pytest.mark.parametrize("text, piles, rules, message", [
    ("", (7, 5, 3), Rules((7, 5, 3)), "Type two numbers, the pile (1-3) and how many to take"),
    ("two", (7, 5, 3), Rules((7, 5, 3)), "'two' is not a move: type two numbers"),
    ("2", (7, 5, 3), Rules((7, 5, 3)), "'2' is not a move"),
    ("1 2 3", (7, 5, 3), Rules((7, 5, 3)), "'1 2 3' is not a move"),
    ("2.5 1", (7, 5, 3), Rules((7, 5, 3)), "is not a move"),
    ("6 1", (7, 5, 3), Rules((7, 5, 3)), "There is no pile 6 (the piles are 1-3)."),
    ("0 1", (7, 5, 3), Rules((7, 5, 3)), "There is no pile 0 (the piles are 1-3)."),
    ("2 1", (7, 0, 3), Rules((7, 5, 3)), "Pile 2 is empty."),
    ("2 5", (7, 4, 3), Rules((7, 5, 3)), "Pile 2 has only 4."),
    ("1 0", (7, 5, 3), Rules((7, 5, 3)), "You must take at least 1."),
    ("1 -2", (7, 5, 3), Rules((7, 5, 3)), "You must take at least 1."),
    ("1 4", (7, 5, 3), Rules((7, 5, 3), 3), "At most 3 per move."),
    ("3 4", (7, 5, 2), Rules((7, 5, 3), 3), "Pile 3 has only 2."),
    ("3", (2,), Rules((21,), 3), "There are only 2 left."),
    ("5", (4,), Rules((21,), 3), "At most 3 per move."),
    ("4", (21,), Rules((21,), 3), "At most 3 per move."),
    ("2 1", (21,), Rules((21,), 3), "There is no pile 2 (there is only pile 1)."),
    ("lots", (21,), Rules((21,), 3), "'lots' is not a move: type how many to take, e.g. 2"),
])
def test_read_move_explains_each_invalid_move_in_one_line(text, piles, rules, message):
    answer = read_move(text, piles, rules)
    assert isinstance(answer, str) and message in answer and "\n" not in answer


@pytest.mark.parametrize("text, piles, rules, move", [
    ("2 3", (7, 5, 3), Rules((7, 5, 3)), (1, 3)),
    ("2,3", (7, 5, 3), Rules((7, 5, 3)), (1, 3)),
    ("2:3", (7, 5, 3), Rules((7, 5, 3)), (1, 3)),
    ("  3 ; 3 ", (7, 5, 3), Rules((7, 5, 3)), (2, 3)),
    ("1 7", (7, 5, 3), Rules((7, 5, 3)), (0, 7)),
    ("1 3", (7, 5, 3), Rules((7, 5, 3), 3), (0, 3)),
    ("3", (21,), Rules((21,), 3), (0, 3)),
    ("1 2", (21,), Rules((21,), 3), (0, 2)),
])
def test_read_move_maps_a_typed_move_to_the_0_based_move(text, piles, rules, move):
    assert read_move(text, piles, rules) == move


def test_show_piles_draws_marks_up_to_40_and_describe_says_the_rules():
    assert show_piles((7, 5, 3)).splitlines() == ["  pile 1  ooooooo  7", "  pile 2  ooooo    5",
                                                  "  pile 3  ooo      3"]
    big = show_piles((41, 2)).splitlines()
    assert big[0] == "  pile 1  " + " " * 40 + "  41" and big[1].startswith("  pile 2  oo ")
    assert describe(Rules((7, 5, 3))) == ("Nim 7-5-3: piles of 7, 5 and 3; a move takes any number of objects from "
                                          "one pile; whoever takes the last object wins.")
    assert describe(Rules((17,), 3, True)) == ("Nim 17-cap3-misere: one heap of 17; a move takes 1 to 3 objects; "
                                               "whoever takes the last object loses.")


def test_hint_gives_the_solvers_move_or_says_every_move_loses():
    rules = Rules((3, 4), 2)
    pile, count = solve(rules).winning_moves((3, 4))[0]
    assert hint((3, 4), rules).startswith(f"Hint: take {count} from pile {pile + 1}")
    assert "every move loses" in hint((3, 3), rules)
    assert hint((6,), Rules((6,), 3, True)) == "Hint: take 1."
    huge = Rules((300, 300, 300), 3, True)  # too many positions to solve: theory (residues 0, 0, 0: leave a 1)
    assert hint(huge.piles, huge) == "Hint: take 3 from pile 1 (one of 3 winning moves)."


# -- games against you ---------------------------------------------------------------------

def test_a_whole_game_explains_invalid_moves_gives_hints_and_you_win(capsys):
    rules = Rules((3, 4), 2)
    typed = ["two", "0 1", "3 1", "1 3", "2 5", "1 -1", "help", "hint"]
    status, text = session(["nimsum", "--piles", "3", "4", "--max-take", "2", "--first", "you", "--seed", "7"],
                           rules, winning(rules), typed)
    assert status == 0 and capsys.readouterr().err == ""
    assert text.startswith("Nim 3-4-cap2: piles of 3 and 4; a move takes 1 to 2 objects from one pile")
    for message in ["'two' is not a move", "There is no pile 0 (the piles are 1-2).", "There is no pile 3",
                    "You must take at least 1.", "Type the pile (1-2) and how many to take (1 to 2)"]:
        assert message in text
    assert text.count("At most 2 per move.") == 2
    pile, count = solve(rules).winning_moves((3, 4))[0]
    assert f"Your move (pile count): hint\nHint: take {count} from pile {pile + 1}" in text
    moves = check_transcript(text, rules)
    assert len(moves) % 2 == 1  # you moved first and took the last object
    assert "You win!" in text and "nimsum wins." not in text
    record = ", ".join(f"{p + 1}:{c}" for p, c in moves)
    assert f"Game was [{record}] (pile:count; you first)." in text
    assert text.endswith("Play again? [Y/n] n\nGoodbye.\n")


def test_from_a_lost_seat_nimsum_wins_and_a_pinned_first_is_not_asked_again():
    rules = Rules((7, 5, 3))
    status, text = session(["--game", "7-5-3", "--first", "computer", "--seed", "3"], rules, first_legal(rules),
                           answers=["y", "n"])
    assert status == 0
    assert text.count("nimsum wins.") == 2 and "You win!" not in text
    assert "— Game 2 —" in text and "Do you want to start?" not in text
    assert text.count("nimsum starts.") == 2


def test_who_starts_is_asked_again_on_a_bad_answer_and_before_each_game():
    rules = Rules((7, 5, 3))
    status, text = session(["--game", "7-5-3", "--seed", "1"], rules, winning(rules),
                           answers=["maybe", "n", "y", "yes", "n"])
    assert status == 0
    assert text.count("Do you want to start? [Y/n/r(andom)]") == 3
    assert "Please answer y (you start), n (nimsum starts) or r (a coin decides)." in text
    first, second = text.split("— Game 2 —")
    assert "nimsum starts." in first and "nimsum wins." in first  # 7-5-3 is a first-player win
    assert "You start." in second and "You win!" in second


def test_first_alternate_takes_turns_and_a_coin_can_decide():
    rules = Rules((7, 5, 3))
    status, text = session(["--game", "7-5-3", "--first", "alternate", "--seed", "5"], rules, winning(rules),
                           answers=["y", "n"])
    first, second = text.split("— Game 2 —")
    assert status == 0 and "You start." in first and "nimsum starts." in second
    status, text = session(["--game", "7-5-3", "--seed", "5"], rules, winning(rules), answers=["r", "n"])
    assert status == 0 and re.search(r"^The coin says: (You start|nimsum starts)\.$", text, re.M)


@pytest.mark.parametrize("typed", ["1 1\n", "1 1\nquit\n"])
def test_end_of_input_or_quit_mid_game_says_goodbye(typed, capsys):
    out = io.StringIO()
    assert main(["--game", "7-5-3", "--first", "you", "--seed", "0"], stdin=io.StringIO(typed), stdout=out) == 0
    text = out.getvalue()
    assert "You take 1 from pile 1." in text and "takes" in text and text.endswith("Goodbye.\n")
    assert "Traceback" not in text + capsys.readouterr().err


def test_ctrl_c_at_a_prompt_exits_130_without_a_traceback(capsys):
    class Interrupted:
        def isatty(self):
            return False

        def readline(self):
            raise KeyboardInterrupt

    out = io.StringIO()
    assert main(["--game", "7-5-3", "--first", "you"], stdin=Interrupted(), stdout=out) == 130
    assert out.getvalue().endswith("Your move (pile count): \nGoodbye.\n")
    assert capsys.readouterr().err == ""


def test_a_piped_game_through_a_real_process():
    typed = "1\n" * 5 + "n\n"  # 21-cap3: nimsum takes 1, then 3 after each of your 1s
    done = subprocess.run([sys.executable, "-m", "nim_evo.play", "nimsum", "--game", "21-cap3", "--first", "computer",
                           "--seed", "3"], input=typed, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    assert "nimsum takes 1, leaving 20.\n" in done.stdout
    assert done.stdout.count("Your move (count): 1\nYou take 1, leaving") == 5  # the input is echoed
    assert "nimsum wins.\nGame was [1, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3] (nimsum first).\n" in done.stdout
    assert done.stdout.endswith("Play again? [Y/n] n\nGoodbye.\n")


def test_a_reader_that_stops_early_ends_the_match_quietly():
    """``... | head -2``: no "Broken pipe" error, the status of a process ended by SIGPIPE."""
    play = subprocess.Popen([sys.executable, "-m", "nim_evo.play", "nimsum", "--opponents", "random", "--games", "2000",
                             "--watch", "--game", "7-5-3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert play.stdout.readline().startswith(b"Nim 7-5-3")
    play.stdout.close()
    assert play.wait(timeout=60) == 141
    assert play.stderr.read() == b""


def test_playing_an_exported_genome_takes_the_game_from_the_file():
    rules = Rules((7, 5, 3))
    status, text = session([GENOME, "--first", "you", "--seed", "0"], rules, winning(rules))
    assert status == 0 and text.startswith("Nim 7-5-3: ")
    assert "You play against 7-5-3-seed1-rules." in text and "7-5-3-seed1-rules takes" in text
    check_transcript(text, rules)
    assert "You win!" in text


@pytest.mark.parametrize("extra", [[], ["--game", "21-cap3"], ["--stochastic"]])
def test_playing_a_learner_file_on_its_single_heap(extra):
    rules = Rules((21,), 3)
    status, text = session([LEARNER, "--first", "you", "--seed", "0", *extra], rules, winning(rules))
    assert status == 0 and text.startswith("Nim 21-cap3: one heap of 21; a move takes 1 to 3 objects;")
    check_transcript(text, rules)
    assert "You win!" in text


def test_a_file_for_another_game_is_refused_in_one_line(capsys):
    out = io.StringIO()
    assert main([LEARNER, "--game", "7-5-3"], stdin=io.StringIO(""), stdout=out) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "was trained for 21-cap3, not 7-5-3" in err and out.getvalue() == ""


def test_a_program_champion_plays_a_board_it_never_saw(tmp_path, capsys):
    """A board-free genome (here the normal-play program) plays any board of its family:
    ten piles up to 30, never enumerated; another family is refused in one line."""
    from nim_evo.genomes import genome_document
    from nim_evo.genomes.program import Program
    from nim_evo import Rules
    import json

    path = tmp_path / "program.json"
    path.write_text(json.dumps(genome_document("program", Program(["sub(or(a, p), and(a, p))", "v"]),
                                               Rules((1, 3, 5, 7)))))
    board = ["--piles", "5", "8", "11", "14", "17", "20", "23", "26", "29", "30"]
    assert main([str(path), *board, "--opponents", "nimsum", "--games", "2"]) == 0
    out = capsys.readouterr().out
    # 5-8-...-30 is a win for the player to move (nim-sum 9): against perfect play each wins its first seat
    assert "program  1 win,  50.0% (1 of 1 first, 0 of 1 second)" in out
    assert main([str(path), "--piles", "5", "8", "11", "--misere", "--opponents", "random"]) == 2
    assert capsys.readouterr().err == (f"nim_evo: error: {path} was evolved for normal play with no cap and plays any "
                                       "board of it, but 5-8-11-misere is misère play with no cap\n")


# -- computer against computer ---------------------------------------------------------------

def match(argv):
    out = io.StringIO()
    assert main(argv, stdin=io.StringIO(""), stdout=out) == 0
    return out.getvalue()


def tallies(text):
    """{name: (wins, [(won, of, seat), ...])} from the summary lines."""
    found = {}
    for name, wins, seats in re.findall(r"^(\S+)\s+(\d+) wins?, +[\d.]+% \((.*)\)$", text, re.M):
        found[name] = (int(wins), [(int(a), int(b), s) for a, b, s in re.findall(r"(\d+) of (\d+) (\w+)", seats)])
    return found


def test_nimsum_always_first_on_7_5_3_wins_every_game():
    text = match(["nimsum", "--opponents", "random", "--games", "200", "--game", "7-5-3", "--seed", "1",
                  "--first", "strategy"])
    assert "— Completed 200 games —" in text
    assert tallies(text) == {"nimsum": (200, [(200, 200, "first")]), "random": (0, [(0, 200, "second")])}


def test_alternating_seats_add_up():
    text = match(["random", "--opponents", "dumb", "--games", "101", "--game", "7-5-3", "--seed", "4"])
    counts = tallies(text)
    (a_wins, a_seats), (b_wins, b_seats) = counts["random"], counts["dumb"]
    assert a_wins + b_wins == 101 and 0 < a_wins < 101
    assert [(of, seat) for _, of, seat in a_seats] == [(51, "first"), (50, "second")]
    assert [(of, seat) for _, of, seat in b_seats] == [(50, "first"), (51, "second")]
    assert a_seats[0][0] + b_seats[1][0] == 51 and a_seats[1][0] + b_seats[0][0] == 50  # each game has one winner


def test_ctrl_c_during_a_match_prints_the_tally_so_far(monkeypatch):
    import nim_evo.console.games

    played = []

    def interrupted_after_ten(*args):
        if len(played) == 10:
            raise KeyboardInterrupt
        played.append(1)
        return nim_evo.engine.game.play_game(*args)

    monkeypatch.setattr(nim_evo.console.games, "play_game", interrupted_after_ten)
    out = io.StringIO()
    assert main(["nimsum", "--opponents", "random", "--games", "1000", "--game", "7-5-3", "--seed", "1",
                 "--first", "strategy"], io.StringIO(""), out) == 130
    text = out.getvalue()
    assert "— Interrupted after 10 games —" in text and text.rstrip().endswith("Goodbye.")
    assert tallies(text) == {"nimsum": (10, [(10, 10, "first")]), "random": (0, [(0, 10, "second")])}


def test_watch_prints_every_game_and_the_same_seed_gives_the_same_output():
    argv = ["nimsum", "--opponents", "random", "--games", "3", "--game", "7-5-3", "--seed", "9", "--watch"]
    text = match(argv)
    assert text == match(argv)
    for game in (1, 2, 3):
        assert f"— Game {game} —" in text
    assert "nimsum moves first, random second." in text and "random moves first, nimsum second." in text
    assert re.search(r"^random takes \d+ from pile \d\.$", text, re.M) and "  pile 1  ooooooo  7" in text
    assert tallies(text) == tallies(match(argv[:-1]))  # watching does not change the games


def test_the_same_agent_on_both_sides_gets_two_names():
    text = match(["nimsum", "--opponents", "nimsum", "--games", "4", "--game", "17-cap3-misere", "--seed", "2",
                  "--first", "random"])
    assert "nimsum (1) against nimsum (2): 4 games, a coin decides who starts." in text
    last = text.splitlines()[-2:]
    assert last[0].startswith("nimsum (1)  ") and last[1].startswith("nimsum (2)  ")
    wins = [int(re.search(r"\)\s+(\d+) wins?", line)[1]) for line in last]
    assert sum(wins) == 4


@pytest.mark.parametrize("argv, message", [
    (["nope"], "unknown agent 'nope'"),
    (["--opponents", "nope"], "unknown agent 'nope'"),
    (["--opponents", "random", "--games", "0"], "--games must be an integer between 1 and 1,000,000"),
    (["--games", "5"], "--games goes with --opponents"),
    (["--watch"], "--watch goes with --opponents"),
    (["--opponents", "random", "--first", "you"], "--first names STRATEGY's seat"),
    (["--first", "other"], "against you, --first is"),
    (["--stochastic"], "--stochastic is for learners"),
    (["--game", "9-x"], "cannot read game"),
    (["genomes/no-such-file.json"], "no such file"),
    (["--opponents", LEARNER, "--game", "7-5-3"], "not 7-5-3"),
    (["--seed", "-1"], "--seed must be an integer >= 0, got -1"),
])
def test_usage_errors_are_one_line_and_exit_2(argv, message, capsys):
    out = io.StringIO()
    assert main(argv, stdin=io.StringIO(""), stdout=out) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and out.getvalue() == ""


def test_list_games_goes_to_the_given_stream():
    out = io.StringIO()
    assert main(["--list-games"], stdout=out) == 0 and "7-5-3" in out.getvalue()


def test_a_move_of_thousands_of_digits_is_asked_again():
    text = "2 " + "9" * 5000
    assert read_move(text, (7, 5, 3), Rules((7, 5, 3))) == f"{text[:37] + '...'!r} is not a move: type two numbers, " \
        "the pile (1-3) and how many to take, e.g. 2 3 (or help)."


@pytest.mark.parametrize("closed, stream", [("<&-", "input"), (">&-", "output")])
def test_closed_standard_streams_are_one_line(closed, stream):
    done = subprocess.run(f"{sys.executable} -m nim_evo.play --game 7-5-3 {closed}", shell=True, capture_output=True,
                          text=True)
    assert done.returncode == 2
    assert done.stderr == f"nim_evo: error: standard {stream} is closed; play needs both\n"



def test_a_person_plays_piles_of_a_trillion(capsys):
    """The board's moves are never listed: nimsum answers at once, and wins from where you leave it."""
    rules = Rules((10**12, 10**9))
    def halve(piles):
        pile = max(range(len(piles)), key=lambda i: piles[i])
        return pile, max(1, piles[pile] // 2)
    status, text = session(["nimsum", "--piles", str(10**12), str(10**9), "--first", "you", "--seed", "3"],
                           rules, halve)
    assert status == 0 and capsys.readouterr().err == ""
    moves = check_transcript(text, rules)
    assert len(moves) % 2 == 0 and "nimsum wins." in text  # nimsum took the last object


def test_against_is_now_opponents(capsys):
    argv = ["nimsum", "--game", "7-5-3", "--games", "20", "--seed", "3"]
    assert main([*argv, "--opponents", "random"]) == 0
    new = capsys.readouterr()
    assert main([*argv, "--against", "random"]) == 0
    old = capsys.readouterr()
    assert old.out == new.out and new.err == ""
    assert old.err.strip() == "nim_evo: note: --against is now --opponents; the old name works until nim_evo 0.2"
    assert main([*argv, "--opponents", "random,dumb"]) == 2
    assert "play is a match of two" in capsys.readouterr().err


def test_playing_a_program_shows_it_as_a_person_reads_it():
    import io
    from pathlib import Path

    from nim_evo.commands.play import main as play_main

    shipped = Path(__file__).parents[2] / "genomes" / "1-3-5-7-9-seed0-program.json"
    out = io.StringIO()
    assert play_main([str(shipped), "--piles", "4", "9", "12"], stdin=io.StringIO(""), stdout=out) == 0
    assert "plays the program fold(sub(or(a, p), and(p, a))) -> v" in out.getvalue()


# -- games whose moves split a heap or take from several ----------------------------------------

HEAP_LINE = re.compile(r"^  heap (\d+)\s+o*\s+(\d+)$", re.M)


class LabelPlayer:
    """A stdin that types, at each move prompt, the label of the solver's first winning move in
    the position the session showed last (empty heaps are not shown: their slots are 0)."""

    def __init__(self, out, board, typed=(), answers=("y", "n")):
        self.out, self.board = out, board
        self.typed, self.answers = list(typed), list(answers)
        self.solution = solve(nim_evo.space_for(board, multiset=True))

    def isatty(self):
        return False

    def readline(self):
        text = self.out.getvalue()
        if not text.rsplit("\n", 1)[-1].startswith("Your move"):
            return self.answers.pop(0) + "\n"
        if self.typed:
            return self.typed.pop(0) + "\n"
        position, block = [0] * self.board.width, False
        for line in reversed(text.splitlines()):  # the last board shown: its block of heap lines
            shown = HEAP_LINE.fullmatch(line)
            if shown:
                position[int(shown[1]) - 1], block = int(shown[2]), True
            elif block:
                break
        moves = self.solution.winning_moves(tuple(position)) or self.board.legal_moves(tuple(position))
        return self.board.action_label(self.board.action_of(moves[0])) + "\n"


@pytest.mark.parametrize("name, typed", [
    ("8-kayles", ["help", "moves", "1 3 0", "9 1 0", "hint"]),
    ("5-6-wythoff", ["help", "1 2 2 3", "hint"]),
])
def test_a_person_plays_a_game_by_its_move_labels_and_wins(name, typed):
    board = nim_evo.game(name)
    out = io.StringIO()
    status = main(["perfect", "--game", name, "--seed", "2"], stdin=LabelPlayer(out, board, typed), stdout=out)
    text = out.getvalue()
    assert status == 0 and "You win!" in text and text.endswith("Goodbye.\n")
    assert f"Your move: help\nType {board.typing}." in text
    assert "'1 2 2 3' is not a move" in text or "'1 3 0' is not a move" in text
    if name == "8-kayles":
        assert "Moves: 1 1 0 (leaves a heap of 7); 1 1 1 (leaves heaps 1 6);" in text
        assert "'9 1 0' is not a move" in text
    first = nim_evo.make_agent("perfect", board).winning_moves(board.start)[0]
    assert f"You play {board.action_label(board.action_of(first))}, leaving" in text
    assert "Hint: play " in text  # from a winning position, the hint names a move
    labels = re.findall(r"^(?:You play|perfect plays) ([\d ]+), leaving", text, re.M)
    assert f"Game was [{', '.join(labels)}] (you first)." in text
