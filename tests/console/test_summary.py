"""What a run prints at its end: fitness beside its ceiling, sampling margins, times that add up,
lines that fit 100 columns."""

import re

import pytest

from nim_evo import Rules, evolve
from nim_evo.console.summary import noise_text, times_text
from nim_evo.console.text import WIDTH, middle
from nim_evo.evolution.fitness import Panel
from nim_evo.evolution.loop import State
from nim_evo.commands.run import main


def test_a_perfect_champion_reaches_the_ceiling_of_its_panel():
    """A perfect champion cannot win the second seat against nimsum and minimax: 2/3 is the most
    possible, and the ceiling says so; against random alone the ceiling is (almost) 1."""
    run = evolve("table", Rules((7, 5, 3)), generations=30, seed=1, progress=False)
    assert run.accuracy == 1.0
    assert run.ceiling[0] == pytest.approx(2 / 3, abs=1e-6)
    assert run.genes.fitness.values[0] == pytest.approx(run.ceiling[0], abs=1e-6)
    assert run.genes.fitness.values[1] == pytest.approx(run.ceiling[1], abs=1e-6)
    alone = Panel.build(Rules((7, 5, 3)), ["random"]).ceiling
    assert alone[0] == pytest.approx(1.0, abs=1e-6) and alone[1] < 1  # from a lost sub-game random may still lose


def test_an_imperfect_champion_is_below_its_ceiling():
    run = evolve("rules", Rules((7, 5, 3)), generations=2, seed=0, progress=False)
    assert run.genes.fitness.values[0] < run.ceiling[0] - 0.05


def test_the_times_add_up():
    state = State(population=[], halloffame=None, logbook=None, generation=20, seconds=48.7)
    fresh = times_text(0.64, 2.23, 0.29, state, 0)
    total, *parts = (float(x) for x in re.findall(r"(\d+\.\d) s", fresh))
    assert total == pytest.approx(sum(parts)) and "evolving 20 generations" in fresh
    resumed = times_text(0.64, 2.23, 0.29, state, 15)
    assert "evolving generations 16 to 20" in resumed and "48.7 s evolving over all the run's sessions" in resumed


def test_a_sampled_fitness_states_its_margin(tmp_path, capsys):
    class Genes:
        class fitness:
            values = (0.5, 0.0)

    class Config:
        opponents, games = ("random", "nimsum", "minimax"), 300

    class Run:
        genes, config, toolbox = Genes, Config, type("Toolbox", (), {"panels": (None,)})

    # six win rates of 300 games each: at most 1.96 sqrt(0.25 / 1800) = 0.0231
    assert "within about ±0.0231 (95%)" in noise_text(Run)


def test_names_are_cut_in_the_middle():
    assert middle("genomes/quality-7-5-3-seed0.json", 15) == "genomes~d0.json"
    assert middle("nimsum", 15) == "nimsum"
    assert len(middle("x" * 50, 22)) == 22


def test_the_summary_fits_100_columns_with_a_strategy_file_opponent(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["--game", "2-3-4", "--generations", "3", "--quiet"]) == 0
    opponent = capsys.readouterr().out.strip()  # genomes/2-3-4-seed0-table.json
    assert main(["--game", "2-3-4", "--generations", "3", "--genome", "rules",
                 "--opponents", f"random,{opponent},nimsum"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
    header = next(i for i, line in enumerate(lines) if line.strip().startswith("opponent"))
    rows = lines[header + 1:header + 4]
    assert [row.split()[0] for row in rows] == ["random", "2-3-4-seed0-table", "nimsum"]
    assert len({row.index("[") for row in rows}) == 1  # the columns line up
    assert re.search(r"champion: fitness \d\.\d{4} of at most \d\.\d{4} possible against this panel", out)
    total, *parts = (float(x) for x in re.findall(r"(\d+\.\d) s", next(l for l in lines if l.startswith("time:"))))
    assert total == pytest.approx(sum(parts))


def test_a_sampled_run_states_its_noise_before_and_after(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["--game", "2-3-4", "--genome", "rules", "--fitness", "sampled", "--games", "300",
                 "--generations", "2"]) == 0
    printed = capsys.readouterr()
    assert "sampled fitness: each win rate within about ±0.040 (95%)" in printed.err  # 1.96 sqrt(1/4 / 600)
    assert re.search(r"sampled from 300 games per opponent and seat: within about ±0\.0\d{3} \(95%\)", printed.out)
    assert "sub-games" not in printed.out  # not measured by sampling


def test_past_the_arenas_tables_the_check_plays_on_piles(tmp_path, capsys, monkeypatch):
    """A board a run's panel tables (kept sparse) but the arena would not (nine heaps: 56
    million position-move pairs) is checked in games on pile arrays, as a board with no
    tables is: a sampled tournament's dense tables and samplers took 10.8 GB there."""
    from nim_evo.engine import space
    from nim_evo.evaluation import tournament

    real = space.tabulable
    monkeypatch.setattr(space, "tabulable", lambda rules, multiset=False, cells=None:
                        cells is not None and real(rules, multiset, cells))  # (only a panel's limit admits it)
    monkeypatch.setattr(tournament, "tournament", lambda *args, **kwargs: pytest.fail("tables made for the check"))
    monkeypatch.chdir(tmp_path)
    assert main(["--game", "1-3-5-7", "--generations", "12", "--opponents", "random,nimsum,minimax"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.strip().startswith("opponent"))
    rates = {row.split()[0]: float(row.split()[1]) for row in lines[header + 1:header + 4]}
    assert rates["random"] > 0.95 and 0.47 < rates["nimsum"] < 0.53 and 0.47 < rates["minimax"] < 0.53, rates
