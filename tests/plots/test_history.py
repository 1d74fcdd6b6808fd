"""Fitness histories that do not mislead: comparisons of runs whose fitness differs are
refused, coinciding lines stay visible and are named, big counts have no axis offset, and a
folder that is no run says what it is."""

import json
import re
import shutil

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from nim_evo import Rules
from nim_evo.evolution.config import Config
from nim_evo.commands.plot import main as plot
from nim_evo.plots import count_label
from nim_evo.plots.history import History, check_comparable, draw_history, load_history


def copy_run(runs, tmp_path, name, **changes):
    """A copy of the table run whose config.json has ``changes`` (without the pictures other
    tests of the session may have drawn into the run)."""
    target = tmp_path / name
    shutil.copytree(runs / "table", target, ignore=shutil.ignore_patterns("*.png"))
    config = json.loads((target / "config.json").read_text())
    config.update(changes)
    (target / "config.json").write_text(json.dumps(config))
    return target


def synthetic(generations=6, config=None, **columns) -> History:
    """A history made in memory: ``columns`` (arrays over the generations) over flat defaults."""
    config = config or Config("table", Rules((2, 3, 4))).to_json()
    base = {"gen": np.arange(generations), "evals": np.full(generations, 40), "games": np.zeros(generations),
            "min": np.linspace(0.1, 0.5, generations), "mean": np.linspace(0.2, 0.6, generations),
            "max": np.linspace(0.3, 0.7, generations), "accuracy": np.linspace(0.2, 1, generations),
            "random": np.linspace(0.6, 1, generations), "nimsum": np.linspace(0, 0.5, generations),
            "minimax": np.linspace(0, 0.4, generations)}
    base.update(columns)
    logbook = [{name: float(values[g]) for name, values in base.items()} for g in range(generations)]
    return History.from_logbook("synthetic", config, logbook)


def drawn(figure):
    FigureCanvasAgg(figure).draw()
    return figure


@pytest.mark.parametrize("changes, message", [
    ({"opponents": ["random", "nimsum"]}, "their fitness is against different panels (random, nimsum, minimax and "
                                          "random, nimsum), not comparable; plot each run alone"),
    ({"rules": {"piles": [2, 3, 5], "max_take": None, "misere": False}},
     "their fitness is measured on different boards (2-3-4 and 2-3-5), not comparable"),
    ({"rules": {"piles": [2, 3, 4], "max_take": None, "misere": True}},
     "measured on different boards (2-3-4 and 2-3-4-misere)"),
    ({"starts": "all"}, "their fitness is from different starts (the start position and every position)"),
])
def test_runs_whose_fitness_differs_are_refused(runs, tmp_path, capsys, changes, message):
    other = copy_run(runs, tmp_path, "other", **changes)
    with pytest.raises(ValueError, match="cannot compare table and other: "):
        draw_history([load_history(runs / "table"), load_history(other)])
    assert plot([str(runs / "table"), str(other), "--no-policy", "--each"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and not (other / "fitness.png").exists()  # refused before anything is drawn
    assert captured.err.startswith("nim_evo: error: cannot compare table and other: ") and message in captured.err
    assert captured.err.count("\n") == 1


def test_a_panel_in_another_order_or_another_setting_compares_and_the_label_names_it(runs, tmp_path):
    reordered = copy_run(runs, tmp_path, "reordered", opponents=["minimax", "random", "nimsum"])
    bigger = copy_run(runs, tmp_path, "bigger", population=100, offspring=200)
    histories = [load_history(runs / "table"), load_history(reordered), load_history(bigger)]
    check_comparable(histories)
    figure = draw_history(histories)
    assert [t.get_text() for t in figure.legends[0].get_texts()] == [
        "table, seed 0, population 8, 12 offspring [table]", "table, seed 0, population 8, 12 offspring [reordered]",
        "table, seed 0, population 100, 200 offspring"]


def test_board_free_runs_on_other_boards_compare_when_trained_on_the_same_boards(runs, tmp_path):
    """Fitness of a rules genome trained on the same boards means the same thing whatever board
    its accuracy is measured on: compared, each label names its board."""
    first = copy_run(runs, tmp_path, "first", genome="rules", train_boards=[[3, 4, 5]])
    second = copy_run(runs, tmp_path, "second", genome="rules", train_boards=[[3, 4, 5]],
                      rules={"piles": [7, 5, 3], "max_take": None, "misere": False})
    figure = draw_history([load_history(first), load_history(second)])
    assert [t.get_text() for t in figure.legends[0].get_texts()] == ["rules, 2-3-4, seed 0", "rules, 7-5-3, seed 0"]
    assert "win rate on 3-4-5 against random, nimsum, minimax" in figure.get_suptitle()


def test_coinciding_win_rates_stay_visible_and_the_legend_says_so():
    history = synthetic(minimax=np.array([0, 0.1, 0.2, 0.5, 0.5, 0.5]), nimsum=np.array([0, 0.2, 0.3, 0.5, 0.5, 0.5]))
    rates = draw_history([history]).axes[1]
    assert [t.get_text() for t in rates.get_legend().get_texts()] == [
        "random", "nimsum", "minimax (= nimsum from generation 3)"]
    lines = rates.get_lines()
    assert len({line.get_linestyle() for line in lines}) == 3  # dashes: the line below shows through the gaps
    widths = [line.get_linewidth() for line in lines]
    assert widths == sorted(widths, reverse=True) and widths[0] > widths[-1]  # and beyond the one on top
    same = synthetic(minimax=np.linspace(0, 0.5, 6))
    assert draw_history([same]).axes[1].get_legend().get_texts()[2].get_text() == "minimax (= nimsum throughout)"


def test_a_converged_population_is_named_in_the_legend():
    flat = np.array([0.1, 0.4, 0.6, 0.66, 0.66, 0.66])
    history = synthetic(max=flat, mean=np.array([0.05, 0.3, 0.5, 0.6, 0.66, 0.66]), min=flat.copy())
    legend = draw_history([history]).axes[0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [
        "best", "mean (= best from generation 4)", "worst (= best throughout)", "best-worst spread"]


def test_big_counts_read_plainly_without_an_axis_offset():
    config = Config("rules", Rules((2, 3, 4)), fitness="sampled").to_json()
    history = synthetic(config=config, games=np.full(6, 2.5e7))
    figure = drawn(draw_history([history], "games"))
    axis = figure.axes[2].xaxis
    assert axis.get_offset_text().get_text() == ""
    labels = [t.get_text() for t in axis.get_ticklabels()]
    assert "60M" in labels and all(re.fullmatch(r"0|[0-9.]+M", label) for label in labels), labels
    figure = drawn(draw_history([history]))  # generations below, games played on top
    top = figure.axes[0].child_axes[0].xaxis
    labels = [t.get_text() for t in top.get_ticklabels()]
    assert top.get_offset_text().get_text() == ""
    assert all(re.fullmatch(r"-?[0-9.]+M|0", label) for label in labels), labels
    thin = synthetic(max=np.full(6, 0.6667), mean=np.full(6, 0.66668), min=np.full(6, 0.66666))
    fitness = drawn(draw_history([thin])).axes[0].yaxis
    assert fitness.get_offset_text().get_text() == ""


def test_count_labels():
    assert [count_label(v) for v in (0, 2.5, 1600, 9999, 10_000, 250_000, 1.25e6, 1e8, 3.5e9, -200)] == [
        "0", "2.5", "1,600", "9,999", "10k", "250k", "1.25M", "100M", "3.5G", "-200"]


def test_an_arena_folder_says_what_it_is(tmp_path, capsys):
    from nim_evo.commands.arena import main as arena

    out = tmp_path / "arena-7-5-3-seed0"
    assert arena(["nimsum", "random", "--game", "7-5-3", "--games", "50", "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    assert plot([str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (f"nim_evo: error: {out} is an arena's output, not a run: its picture is {out / 'arena.png'} "
                   "(python -m nim_evo.arena draws it); plot draws run directories and strategy files\n")


def test_a_folder_of_runs_or_of_nothing_says_what_it_is(runs, tmp_path, capsys):
    assert plot([str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"nim_evo: error: {tmp_path} is no run directory (it has no config.json); "
                                       "plot draws run directories (runs/<run-id>) and strategy files "
                                       "(genomes/*.json)\n")
    assert plot([str(runs)]) == 2
    err = capsys.readouterr().err
    assert f"{runs} is a folder of 3 runs, not a run: name one (or several, to compare them), e.g. " in err
    assert err.count("\n") == 1
