"""plot of several runs of one setting: their median and interquartile band, not a line each."""

from __future__ import annotations

import numpy as np
import pytest

import nim_evo
from nim_evo.commands.plot import main as plot_main
from nim_evo.plots.history import draw_comparison, load_history

RULES = nim_evo.Rules((3, 4, 5))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    where = tmp_path_factory.mktemp("bands")
    for population in (10, 20):
        for seed in range(3):
            nim_evo.evolve("table", RULES, generations=4, seed=seed, population=population, until="accuracy=1",
                           offspring=20, progress=False, out=where / f"p{population}-s{seed}")
    return where


def test_runs_that_differ_in_their_seed_alone_are_drawn_as_a_median_and_a_band(runs):
    histories = [load_history(runs / f"p{p}-s{s}") for p in (10, 20) for s in range(3)]
    figure = draw_comparison(histories)
    fitness = figure.axes[0]
    medians = [line for line in fitness.lines]
    assert len(medians) == 2  # one line per setting, not six
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert legend == ["table, population 10 (3 runs)", "table, population 20 (3 runs)"]
    best = np.array([[h.columns["max"][-1] for h in histories[:3]]])  # a stopped run carried on at its last value
    assert medians[0].get_ydata()[-1] == pytest.approx(np.median(best))
    assert len(fitness.collections) == 2  # the bands


def test_runs_that_differ_in_generations_are_different_settings(runs, tmp_path):
    nim_evo.evolve("table", RULES, generations=5, seed=0, population=10, offspring=20, until="accuracy=1",
                   progress=False, out=tmp_path / "longer")
    histories = [load_history(runs / "p10-s1"), load_history(runs / "p10-s2"), load_history(tmp_path / "longer")]
    legend = [text.get_text() for text in draw_comparison(histories).legends[0].get_texts()]
    assert legend == ["table (2 runs)", "table, generations 5 (1 runs)"]


def test_runs_of_different_settings_alone_keep_a_line_each(runs, tmp_path):
    histories = [load_history(runs / name) for name in ("p10-s0", "p20-s1")]
    figure = draw_comparison(histories)
    assert "run (each drawn thinner" in figure.legends[0].get_title().get_text()
    assert plot_main([str(runs / f"p10-s{s}") for s in range(3)] + ["--out", str(tmp_path / "b.png")]) == 0
    assert (tmp_path / "b.png").stat().st_size > 10_000
