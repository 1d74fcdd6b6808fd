"""The progress bars (nim_evo.console.progress): on a terminal, one line redrawn and clipped to
its width; piped, a plain line every tenth of the way; quiet, nothing; closed on an error."""

import io

import pytest

import nim_evo
from nim_evo.console.progress import Progress, TrainingProgress

OPPONENTS = ("random", "nimsum", "minimax")


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self):
        return True


def record(gen):
    return {"gen": gen, "max": 0.5 + gen / 100, "mean": 0.25, "random": 0.875, "nimsum": 0.5, "minimax": 0.375,
            "accuracy": 0.625}


def drawn(text):
    """What the terminal shows of each redraw: the pieces between carriage returns and newlines."""
    return [piece for line in text.split("\n") for piece in line.split("\r") if piece]


def test_on_a_terminal_the_bar_shows_generation_fitness_win_rates_and_accuracy():
    stream = Terminal()
    with Progress(10, stream=stream, ncols=200) as bar:
        for gen in range(4):
            bar.update(record(gen), OPPONENTS)
    text = stream.getvalue()
    last = drawn(text)[-1]  # closing draws the bar as it stands
    assert last.startswith("gen 3/10 |") and "00:00<" in last
    assert "best 0.5300 mean 0.2500, acc 62.5%, random 0.875 nimsum 0.500 minimax 0.375" in last
    assert text.endswith("\n") and "\n" not in text[:-1]  # one line, ended when the bar closes


def test_a_bar_closes_itself_at_its_total_and_the_next_print_starts_a_fresh_line():
    stream = Terminal()
    bar = Progress(2, stream=stream, ncols=200)
    for gen in range(3):
        bar.update(record(gen), OPPONENTS)
    assert stream.getvalue().endswith("\n") and drawn(stream.getvalue())[-1].startswith("gen 2/2 ")
    bar.close()  # again: nothing
    assert stream.getvalue().count("\n") == 1


def test_a_line_is_never_wider_than_ncols():
    stream = Terminal()
    with Progress(10, stream=stream, ncols=40) as bar:
        for gen in range(11):
            bar.update(record(gen), OPPONENTS)
    pieces = drawn(stream.getvalue())
    assert pieces and max(len(piece) for piece in pieces) <= 40
    assert pieces[-1].startswith("gen 10/10 |")
    stream = Terminal()
    with TrainingProgress(100_000, stream=stream, ncols=30) as bar:
        for done in range(1000, 100_001, 1000):
            bar(done)
    assert max(len(piece) for piece in drawn(stream.getvalue())) <= 30


def test_quiet_shows_nothing_on_a_terminal_or_piped():
    for stream in (Terminal(), io.StringIO()):
        with Progress(10, quiet=True, stream=stream) as bar:
            for gen in range(11):
                bar.update(record(gen), OPPONENTS)
        with TrainingProgress(100, quiet=True, stream=stream) as bar:
            bar(100)
        with TrainingProgress(0, stream=stream):  # no games: no bar "0/0"
            pass
        assert stream.getvalue() == ""


def test_piped_a_plain_line_every_tenth_of_the_way():
    """A log file gets whole lines (no carriage returns, no bar): the first, every tenth, the last."""
    stream = io.StringIO()
    with Progress(100, stream=stream) as bar:
        for gen in range(101):
            bar.update(record(gen), OPPONENTS)
    lines = stream.getvalue().splitlines()
    assert [line.split()[1] for line in lines] == [f"{gen}/100" for gen in range(0, 101, 10)]
    assert "\r" not in stream.getvalue() and "|" not in stream.getvalue()
    assert lines[-1].startswith("gen 100/100  00:")
    assert lines[-1].endswith("best 1.5000 mean 0.2500, acc 62.5%, random 0.875 nimsum 0.500 minimax 0.375")


def test_a_resumed_run_starts_the_bar_where_it_stopped():
    stream = Terminal()
    with Progress(10, 4, stream=stream, ncols=200) as bar:
        bar.update(record(4), OPPONENTS)
        bar.update(record(5), OPPONENTS)
    pieces = drawn(stream.getvalue())
    assert pieces[0].startswith("gen 4/10 |") and not any("gen 0/" in p for p in pieces)
    assert len(pieces[0].split("|")[1].strip()) == 4  # 4 of 10 of a 10-character bar already filled
    assert pieces[-1].startswith("gen 5/10 |")
    piped = io.StringIO()
    with Progress(10, 4, stream=piped) as bar:
        for gen in range(4, 11):
            bar.update(record(gen), OPPONENTS)
    assert piped.getvalue().splitlines()[0].startswith("gen 4/10  00:00<?")  # no rate yet: no ETA


def test_training_shows_games_played_and_games_per_second():
    stream = Terminal()
    with TrainingProgress(3000, stream=stream, ncols=200) as bar:
        for done in range(30, 3001, 30):
            bar(done)
    last = drawn(stream.getvalue())[-1]
    assert last.startswith("game 3,000/3,000 |") and last.endswith(" games/s")
    assert stream.getvalue().endswith("\n")


def test_an_error_mid_run_closes_the_bar_and_ends_its_line():
    stream = Terminal()
    with pytest.raises(KeyboardInterrupt):
        with Progress(10, stream=stream, ncols=200) as bar:
            bar.update(record(0), OPPONENTS)
            bar.update(record(1), OPPONENTS)
            raise KeyboardInterrupt
    assert stream.getvalue().endswith("\n") and drawn(stream.getvalue())[-1].startswith("gen 1/10 ")


def test_evolve_and_resume_report_on_stderr(tmp_path, capsys):
    """Piped (pytest's stderr is no terminal): a line per generation here, the resumed run's
    first at the generation it resumed from."""
    rules = nim_evo.Rules((2, 3))
    nim_evo.evolve("rules", rules, generations=2, seed=1, population=4, offspring=4, out=tmp_path / "run")
    err = capsys.readouterr().err
    assert [line.split()[1] for line in err.splitlines() if line.startswith("gen ")] == ["0/2", "1/2", "2/2"]
    nim_evo.resume(tmp_path / "run", generations=4, genomes_dir=tmp_path / "genomes")
    err = capsys.readouterr().err
    assert [line.split()[1] for line in err.splitlines() if line.startswith("gen ")] == ["2/4", "3/4", "4/4"]


def test_the_best_fitness_stands_beside_the_most_possible():
    stream = io.StringIO()
    with Progress(2, stream=stream) as bar:
        bar.ceiling = 2 / 3
        bar.update(record(1), OPPONENTS)
    assert "best 0.5100 of ≤0.6667 mean 0.2500" in stream.getvalue()


def test_a_run_s_bar_shows_its_panel_s_ceiling(capsys):
    nim_evo.evolve("table", nim_evo.Rules((2, 3)), generations=1, population=4, offspring=4, opponents=["nimsum"])
    assert "of ≤0.5000 mean" in capsys.readouterr().err  # 2-3: one seat wins against a perfect player


def test_the_bar_says_the_stage_and_marks_a_new_population():
    """A best that falls back is explained: the bar says the run restarted (a new population)."""
    stream = Terminal()
    with Progress(10, stream=stream, ncols=300) as bar:
        bar.update({**record(4), "stage": 1, "restart": 1}, OPPONENTS)
        shown = drawn(stream.getvalue())[-1]
        bar.update({**record(5), "stage": 1, "restart": 0}, OPPONENTS)
    assert "stage 1, best 0.5400" in shown and shown.endswith(", restarted")
    assert "restarted" not in drawn(stream.getvalue())[-1]
