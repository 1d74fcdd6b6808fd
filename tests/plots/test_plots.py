"""Pictures: fitness histories, policy pictures, the plot CLI and run --plot.

The PNGs are opened and measured; colours in the policy pictures are counted against the
solver; every text and legend must lie inside its figure (nothing clipped).
"""

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from nim_evo import Rules, make_agent, solve
from nim_evo.evaluation.strategy import load_strategy
from nim_evo.commands.plot import main as plot
from nim_evo.plots import DPI, pixel_size, save_figure
from nim_evo.plots.history import SIZE, draw_history, load_history
from nim_evo.plots.policy import HEAP_SIZE, draw_policy, verdicts
from nim_evo.commands.run import main as run

GREEN, RED = (0x4D, 0xAF, 0x4A), (0xD7, 0x19, 0x1C)


def png(path):
    """The opened PNG (which must be one), as RGB."""
    image = Image.open(path)
    assert image.format == "PNG"
    return image.convert("RGB")


def pixels(image, color) -> int:
    return int(np.all(np.asarray(image) == color, axis=-1).sum())


def test_history_reads_the_logbook(runs):
    history = load_history(runs / "table")
    assert history.genome == "table" and history.rules == Rules((2, 3, 4)) and history.seed == 0
    assert history.opponents == ("random", "nimsum", "minimax")
    assert list(history.x("generations")) == list(range(7))
    assert history.x("evaluations")[0] == 8 and np.all(np.diff(history.x("evaluations")) > 0)
    with pytest.raises(ValueError, match="exact fitness and plays no games"):
        history.x("games")
    sampled = load_history(runs / "sampled")
    assert np.all(np.diff(sampled.x("games")) > 0)


def test_history_figure_is_labelled_and_nothing_is_clipped(runs, assert_nothing_clipped):
    histories = [load_history(runs / name) for name in ("table", "rules", "sampled")]
    for chosen in (histories[:1], histories):
        figure = draw_history(chosen)
        assert pixel_size(figure) == (SIZE[0] * DPI, SIZE[1] * DPI)
        axes = figure.axes[:3]
        assert [a.get_ylabel().split("\n")[0] for a in axes] == ["fitness", "best individual's", "best individual's"]
        assert axes[2].get_xlabel() == "generation"
        assert all(a.get_legend() is not None for a in axes[:2])
        assert_nothing_clipped(figure)
    title = draw_history(histories[:1]).get_suptitle()
    assert "table genome on 2-3-4, seed 0" in title and "random, nimsum, minimax" in title
    figure = draw_history(histories)
    assert figure.get_suptitle() == ("3 runs on 2-3-4: table, rules genomes\nthe same fitness for all: win rate "
                                     "against random, nimsum, minimax, from the start position")
    assert [t.get_text() for t in figure.legends[0].get_texts()] == [  # what differs: the fitness's kind
        "table, seed 0, exact fitness", "rules, seed 2, exact fitness", "rules, seed 0, sampled fitness, 50 games"]


def test_one_run_has_a_second_axis_of_evaluations(runs):
    figure = draw_history([load_history(runs / "table")])
    assert any(getattr(a, "get_xlabel", lambda: "")() == "evaluations (cumulative)" for a in figure.axes[0].child_axes)


def test_verdicts_against_the_solver():
    rules = Rules((7, 5, 3))
    solution = solve(rules)
    space = solution.space
    for name, expected in [("nimsum", {0, 1, 2}), ("random", {0, 1, 2, 3}), ("dumb", {0, 1, 2, 4})]:
        verdict = verdicts(solution, make_agent(name, rules).policy(space))
        assert set(np.unique(verdict)) == expected, name
        assert verdict[0] == 0 and np.count_nonzero(verdict == 1) == np.count_nonzero(~solution.win[1:])
    # random play is surely right only where every legal move wins
    verdict = verdicts(solution, make_agent("random", rules).policy(space))
    every_move_wins = solution.win & np.all(solution.winning == space.legal, axis=1)
    assert np.array_equal(verdict == 2, every_move_wins)


def test_heap_bars_follow_seed_001(tmp_path, assert_nothing_clipped):
    """One heap: a stacked bar per heap size, seed 001's colours, the solver's take above."""
    agent = load_strategy(Path(__file__).parents[2] / "genomes" / "wincount-21-cap3-seed0.json", stochastic=True)
    figure = draw_policy(agent, "wincount")
    assert pixel_size(figure) == (HEAP_SIZE[0] * DPI, HEAP_SIZE[1] * DPI)
    axes = figure.axes[0]
    heights = np.array([p.get_height() for p in axes.patches if p.get_facecolor()[3] > 0])
    assert len(heights) == 3 * 21
    totals = heights.reshape(3, 21).sum(axis=0)
    assert np.allclose(totals, 1)
    above = [t.get_text() for t in axes.texts if t.get_position()[1] == 1.02]
    assert above[:8] == ["1", "2", "3", "L", "1", "2", "3", "L"]  # 21 take 1-3, normal play: lost at 4k
    assert_nothing_clipped(figure)
    save_figure(figure, tmp_path / "bars.png")
    assert png(tmp_path / "bars.png").size == (1100, 550)
    assert pixels(png(tmp_path / "bars.png"), (0xA4, 0x44, 0x44)) > 1000  # seed 001's "take 1" red


def test_policy_refuses_a_board_too_big():
    with pytest.raises(ValueError, match="too many to picture"):
        draw_policy(make_agent("random", Rules((30,) * 6)), "random")


def test_plot_cli_writes_run_pictures(runs, capsys):
    assert plot([str(runs / "table")]) == 0
    written = capsys.readouterr().out.split()
    assert written == [str(runs / "table" / "fitness.png"), str(runs / "table" / "policy.png")]
    assert png(written[0]).size == (1100, 1000)
    assert png(written[1]).size == (1200, 850)


def test_plot_cli_compares_runs_and_draws_strategy_files(runs, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    genome = sorted((runs / "genomes").glob("*.json"))[0]
    assert plot([str(runs / "table"), str(runs / "rules"), "--no-policy", "--x", "evaluations"]) == 0
    written = capsys.readouterr().out.split()
    assert written[-1] == str(runs / "compare-table+rules.png")
    assert not (runs / "rules" / "policy.png").exists()
    assert png(written[-1]).size == (1100, 1000)
    assert plot([str(genome)]) == 0
    assert capsys.readouterr().out.strip() == f"runs/policy-{genome.stem}.png"
    assert png(tmp_path / "runs" / f"policy-{genome.stem}.png").size == (1200, 850)
    assert plot([str(runs / "table"), str(runs / "rules"), "--each", "--no-policy"]) == 0
    assert capsys.readouterr().out.split() == [str(runs / "table" / "fitness.png"), str(runs / "rules" / "fitness.png"),
                                               str(runs / "compare-table+rules.png")]


def test_comparison_names_stay_short_and_run_ids_are_real_names(runs, tmp_path, capsys, monkeypatch):
    many = [runs / "table", runs / "rules", runs / "sampled"]
    for k in range(2):
        target = tmp_path / f"copy{k}"
        target.mkdir()
        for name in ("config.json", "logbook.csv"):
            (target / name).write_bytes((runs / "table" / name).read_bytes())
        many.append(target)
    assert plot([*map(str, many), "--no-policy"]) == 0
    name = Path(capsys.readouterr().out.split()[-1]).name
    assert name.startswith("compare-table-and-4-more-") and len(name) < 50
    monkeypatch.chdir(runs / "rules")
    assert load_history(".").run_id == "rules"


def test_plot_cli_formats_and_out(runs, tmp_path, capsys):
    out = tmp_path / "history.svg"
    assert plot([str(runs / "rules"), "--out", str(out), "--no-policy"]) == 0
    assert b"<svg" in out.read_bytes()[:1000]
    assert plot([str(runs / "rules"), "--format", "pdf", "--no-policy", "--out", str(tmp_path / "h")]) == 0
    assert (tmp_path / "h.pdf").read_bytes().startswith(b"%PDF")
    before = out.read_bytes()
    assert plot([str(runs / "rules"), "--out", str(out)]) == 2
    assert out.read_bytes() == before
    assert "exists; use --force" in capsys.readouterr().err
    assert plot([str(runs / "rules"), "--out", str(out), "--force", "--no-policy"]) == 0


@pytest.mark.parametrize("argv, message", [
    (["nowhere"], "no run directory or strategy file at nowhere"),
    (["RUN", "--x", "games"], "uses exact fitness and plays no games"),
    (["RUN", "--out", "x.svg", "--format", "png"], "is a .svg file but --format says png"),
    (["RUN", "RUN"], "a run directory is named twice"),
    (["RUN", "--out", "x.jpg"], "nim_evo draws .png, .svg, .pdf pictures"),
    (["RUN", "--out", "RUN"], "is a directory"),
    (["RUN", "--out", "newdir/"], "is a directory"),
    (["RUN", "RUN2", "--out", "x.png", "--each"], "--out names one picture"),
])
def test_plot_cli_errors_are_one_line(runs, capsys, argv, message):
    argv = [{"RUN": str(runs / "table"), "RUN2": str(runs / "rules")}.get(a, a) for a in argv]
    assert plot(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("nim_evo: error:")


def test_run_plot_draws_at_the_end(tmp_path, capsys):
    out = tmp_path / "r"
    assert run(["--game", "17-cap3-misere", "--genome", "rules", "--generations", "3", "--population", "6",
                "--offspring", "6", "--out", str(out), "--genomes-dir", str(tmp_path), "--plot"]) == 0
    assert "pictures: " in capsys.readouterr().out
    assert png(out / "fitness.png").size == (1100, 1000)
    assert png(out / "policy.png").size == (1100, 550)


def test_run_plot_failing_is_a_warning_after_the_export(tmp_path, capsys, monkeypatch):
    import nim_evo.plots.run

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(nim_evo.plots.run, "draw_run", broken)
    assert run(["--game", "3-4", "--generations", "2", "--population", "4", "--offspring", "4", "--quiet",
                "--out", str(tmp_path / "r"), "--genomes-dir", str(tmp_path), "--plot"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(tmp_path / "r-table.json")
    assert "warning: no pictures drawn" in captured.err and "No space left" in captured.err


def test_several_runs_keep_each_opponent_its_line_style(runs, tmp_path):
    """Runs with one panel in two orders: an opponent's lines share one style, the legend's."""
    other = tmp_path / "other"
    other.mkdir()
    config = json.loads((runs / "table" / "config.json").read_text())
    config["opponents"] = ["nimsum", "minimax", "random"]
    (other / "config.json").write_text(json.dumps(config))
    (other / "logbook.csv").write_bytes((runs / "table" / "logbook.csv").read_bytes())
    figure = draw_history([load_history(runs / "table"), load_history(other)])
    rates = figure.axes[1]
    legend = {t.get_text(): h.get_linestyle() for t, h in zip(rates.get_legend().get_texts(),
                                                               rates.get_legend().legend_handles)}
    lines = rates.get_lines()
    assert [line.get_linestyle() for line in lines] == [legend["random"], legend["nimsum"], legend["minimax"],
                                                        legend["nimsum"], legend["minimax"], legend["random"]]


def test_a_big_heap_is_drawn_as_a_map(tmp_path, assert_nothing_clipped):
    rules = Rules((500,))
    figure = draw_policy(make_agent("nimsum", rules), "nimsum")
    assert pixel_size(figure) == (HEAP_SIZE[0] * DPI, HEAP_SIZE[1] * DPI)
    axes = figure.axes[0]
    assert axes.get_xlabel() == "objects in the heap" and axes.get_ylabel() == "take"
    assert axes.images[0].get_array().shape == (500, 500)
    winning = axes.collections[0].get_offsets()
    assert np.array_equal(winning[:, 0], winning[:, 1])  # normal play, one heap: take it all
    assert_nothing_clipped(figure)


def test_run_plot_on_a_board_too_big_draws_the_history_only(tmp_path, capsys):
    out = tmp_path / "big"
    assert run(["--piles", *["30"] * 10, "--genome", "rules", "--fitness", "sampled", "--games", "20",
                "--opponents", "random", "--generations", "2", "--population", "4", "--offspring", "4",
                "--out", str(out), "--genomes-dir", str(tmp_path), "--plot", "svg", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "no policy picture" in captured.err and "too many to picture" in captured.err
    assert (out / "fitness.svg").exists() and not (out / "policy.svg").exists()
    figure = draw_history([load_history(out)])
    assert any("not measured" in t.get_text() for t in figure.axes[2].texts)


@pytest.mark.parametrize("names", [("nimsum", "random"), ("nimsum", "minimax", "random", "take-3", "aggressive",
                                                         "dumb", "fixed-rules")])
def test_arena_heat_map_is_labelled_and_nothing_is_clipped(names, assert_nothing_clipped):
    from nim_evo.evaluation.roundrobin import round_robin
    from nim_evo.plots.matrix import draw_arena, figure_size

    rules = Rules((3, 4, 5))
    result = round_robin(rules, {name: make_agent(name, rules) for name in names}, games=100)
    figure = draw_arena(result)
    assert pixel_size(figure) == tuple(round(v * DPI) for v in figure_size(len(names)))
    axes = figure.axes[0]
    assert axes.get_xlabel() == "opponent" and axes.get_ylabel() == "player"
    assert [t.get_text() for t in axes.get_xticklabels()] == list(names)
    assert "Arena on 3-4-5: 100 games per seat, seed 0" in figure.get_suptitle()
    cells = [t.get_text() for t in axes.texts if t.get_text() != "-"]
    assert len(cells) == len(names) * (len(names) - 1) and all("[" in c for c in cells)
    assert_nothing_clipped(figure)


def test_a_program_run_shows_its_restarts_and_its_held_out_accuracy(tmp_path):
    """A board-free run's logbook has ``heldout`` (accuracy on 1-3-5-7-9-11-13) and, with
    restarts, ``restart``: the figure marks each new population and draws both accuracies."""
    out = tmp_path / "p"
    assert run(["--genome", "program", "--game", "2-3-4", "--population", "8", "--offspring", "8",
                "--generations", "6", "--restart", "1", "--quiet", "--out", str(out),
                "--genomes-dir", str(tmp_path / "genomes")]) == 0
    history = load_history(out)
    assert {"heldout", "restart"} <= set(history.columns) and history.columns["restart"].sum() >= 1
    figure = draw_history([history])
    fitness, _, accuracy = figure.axes[:3]
    marked = [line for line in fitness.lines if line.get_linestyle() == ":" and len(set(line.get_xdata())) == 1]
    assert len(marked) == int(history.columns["restart"].sum())
    assert [text.get_text() for text in accuracy.get_legend().get_texts()] == [
        "on 1-3-5-7-9-11-13 (never trained on)", "on the run's board"]
