"""Names in pictures are drawn as written: a ``$`` in a run's id, an opponent's or a strategy
file's name is no mathtext (an invalid formula was a traceback at drawing time, a valid one
silently drawn as math), and a control character is drawn escaped."""

import html
import io
import re
import shutil

import matplotlib
import pytest

from nim_evo import Rules, make_agent
from nim_evo.evaluation.strategy import load_strategy
from nim_evo.plots import save_figure
from nim_evo.plots.history import draw_history, load_history
from nim_evo.plots.policy import draw_strategy
from nim_evo.commands.run import main as run

NAMES = ["a$^$b", "run$\\frac$", "x$\\alpha$y", "$", "_under"]


def drawn_texts(figure) -> list[str]:
    """Every text the figure draws, as drawn: an SVG that keeps text as text."""
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg")
    return [html.unescape(text) for text in re.findall(r"<text[^>]*>([^<]*)</text>", buffer.getvalue())]


@pytest.fixture(scope="module")
def hostile_runs(tmp_path_factory):
    """A run on 2-3-4, its champion copied as ``a$^$b.json``, and two runs named ``run$\\frac$``
    and ``twin$^$`` that play against that file."""
    root = tmp_path_factory.mktemp("plain")
    small = ["--game", "2-3-4", "--population", "6", "--offspring", "8", "--generations", "2", "--quiet",
             "--genomes-dir", str(root / "genomes")]
    assert run([*small, "--out", str(root / "first")]) == 0
    shutil.copy(root / "genomes" / "first-table.json", root / "a$^$b.json")
    for name in ("run$\\frac$", "twin$^$"):
        assert run([*small, "--out", str(root / name), "--opponents", f"random,{root / 'a$^$b.json'}"]) == 0
    return root


def test_arena_names_with_dollars_are_drawn_as_written(tmp_path):
    from nim_evo.evaluation.roundrobin import round_robin
    from nim_evo.plots.matrix import draw_arena

    rules = Rules((2, 3, 4))
    result = round_robin(rules, {name: make_agent(kind, rules) for name, kind in
                                 zip(NAMES, ["random", "nimsum", "minimax", "take-3", "dumb"])}, games=20)
    figure = draw_arena(result)
    assert save_figure(figure, tmp_path / "arena.png").stat().st_size > 0  # was a mathtext ParseException
    texts = drawn_texts(figure)
    for name in NAMES:
        assert name in texts, (name, texts)


def test_a_runs_history_draws_its_id_and_opponent_file_as_written(hostile_runs, tmp_path):
    history = load_history(hostile_runs / "run$\\frac$")
    figure = draw_history([history])
    save_figure(figure, tmp_path / "fitness.png")
    texts = drawn_texts(figure)
    assert "a$^$b" in texts  # the legend
    assert any("against random, a$^$b;" in text for text in texts)  # the title
    twins = draw_history([history, load_history(hostile_runs / "twin$^$")])  # one label: the ids tell them apart
    save_figure(twins, tmp_path / "compare.png")
    texts = drawn_texts(twins)
    assert "table, seed 0 [run$\\frac$]" in texts and "table, seed 0 [twin$^$]" in texts, texts


def test_a_strategy_files_name_is_drawn_as_written(hostile_runs, tmp_path):
    agent = load_strategy(hostile_runs / "a$^$b.json")
    figure = draw_strategy(agent, "x$\\alpha$y\x1b[2J.json")
    save_figure(figure, tmp_path / "policy.png")
    title = figure.get_suptitle()
    assert "\x1b" not in title
    assert any(text.startswith("x$\\alpha$y\\x1b[2J.json: table genome") for text in drawn_texts(figure))
