"""The round robin and python -m nim_evo.arena: known results, intervals, files, errors."""

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from nim_evo import Rules, make_agent, solve
from nim_evo.commands.arena import main as arena
from nim_evo.evaluation.roundrobin import round_robin
from nim_evo.plots import DPI
from nim_evo.plots.matrix import figure_size

LEARNER_FILE = str(Path(__file__).parents[2] / "genomes" / "wincount-21-cap3-seed0.json")

BOARD = Rules((7, 5, 3))  # the first player wins with perfect play


def players(rules, *names):
    return {name: make_agent(name, rules) for name in names}


@pytest.mark.parametrize("rules", [BOARD, Rules((2, 3, 4, 5), misere=True), Rules((17,), 3, True)],
                         ids=lambda r: r.name)
def test_exact_known_results(rules):
    """Perfect play never loses a winning position; nim-sum beats random from a winning start
    (7-5-3 and 17-cap3-misere are first-player wins, 2-3-4-5-misere a second-player win)."""
    result = round_robin(rules, players(rules, "nimsum", "minimax", "random"), exact=True)
    winning_seat = result.first if solve(rules).is_win(rules.start) else result.second
    nimsum, minimax, random = range(3)
    one, half = pytest.approx(1, abs=1e-12), pytest.approx(0.5, abs=1e-12)
    assert winning_seat[nimsum, random] == one and winning_seat[minimax, random] == one
    assert winning_seat[nimsum, minimax] == one and winning_seat[minimax, nimsum] == one
    assert result.rate[nimsum, minimax] == half and result.rate[minimax, nimsum] == half
    assert result.rate[nimsum, random] > 0.5 and result.rate[random, nimsum] < 0.5
    off = ~np.eye(3, dtype=bool)
    assert np.allclose((result.rate + result.rate.T)[off], 1)
    assert np.all(np.isnan(np.diag(result.rate)))
    assert np.array_equal(result.low[off], result.rate[off]) and np.array_equal(result.high[off], result.rate[off])
    assert [name for name, _ in result.ranking()][-1] == "random"


def test_sampled_agrees_with_exact_within_its_intervals():
    names = ("nimsum", "random", "take-3", "aggressive")
    exact = round_robin(BOARD, players(BOARD, *names), exact=True)
    sampled = round_robin(BOARD, players(BOARD, *names), games=2000, seed=3)
    off = ~np.eye(len(names), dtype=bool)
    assert np.all((sampled.low[off] <= exact.rate[off]) & (exact.rate[off] <= sampled.high[off]))
    assert np.all(sampled.high[off] - sampled.low[off] < 0.04)
    assert sampled.first[0, 1] == 1.0  # nim-sum from the winning start: every game
    assert np.allclose((sampled.low + sampled.high.T)[off], 1)  # the column's interval mirrors the row's


def test_same_seed_same_matrix_whatever_the_jobs_the_company_or_the_order():
    one = round_robin(BOARD, players(BOARD, "random", "take-3"), games=500, seed=7, jobs=1)
    two = round_robin(BOARD, players(BOARD, "random", "take-3"), games=500, seed=7, jobs=2)
    assert np.array_equal(one.rate, two.rate, equal_nan=True)
    more = round_robin(BOARD, players(BOARD, "nimsum", "take-3", "aggressive", "random"), games=500, seed=7)
    assert more.rate[3, 1] == one.rate[0, 1]  # a pair's games depend on the pair and the seed only
    assert more.first[1, 3] == one.first[1, 0] and more.second[3, 1] == one.second[0, 1]
    other = round_robin(BOARD, players(BOARD, "random", "take-3"), games=500, seed=8)
    assert other.rate[0, 1] != one.rate[0, 1]


def test_csv_has_a_row_per_ordered_pair():
    result = round_robin(BOARD, players(BOARD, "nimsum", "random", "take-3"), games=300, seed=1)
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert len(rows) == 6
    assert {(r["player"], r["opponent"]) for r in rows} == {(a, b) for a in ("nimsum", "random", "take-3")
                                                          for b in ("nimsum", "random", "take-3") if a != b}
    for row in rows:
        assert int(row["games"]) == 600
        assert int(row["wins"]) == round(float(row["win_rate"]) * 600)
        assert float(row["ci_low"]) <= float(row["win_rate"]) <= float(row["ci_high"])
        assert abs((float(row["first_rate"]) + float(row["second_rate"])) / 2 - float(row["win_rate"])) < 1e-6


def test_round_robin_needs_two():
    with pytest.raises(ValueError, match="at least two"):
        round_robin(BOARD, players(BOARD, "nimsum"))


def test_cli_prints_and_writes_the_matrix(tmp_path, capsys):
    out = tmp_path / "a"
    assert arena(["nimsum", "random", "minimax", "--game", "7-5-3", "--games", "200", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "arena on 7-5-3: 200 games per pair and seat, seed 0; each rate within ±" in printed
    assert "ranking: " in printed and printed.rstrip().endswith(str(out / "arena.png"))
    rows = list(csv.DictReader(open(out / "arena.csv")))
    nimsum_random = next(r for r in rows if r["player"] == "nimsum" and r["opponent"] == "random")
    assert float(nimsum_random["first_rate"]) == 1.0
    image = Image.open(out / "arena.png")
    assert image.format == "PNG"
    width, height = figure_size(3)
    assert image.size == (round(width * DPI), round(height * DPI))


def test_cli_exact_with_a_strategy_file_takes_its_board(tmp_path, capsys):
    out = tmp_path / "b"
    assert arena([LEARNER_FILE, "nimsum", "random", "--exact", "--out", str(out),
                  "--quiet"]) == 0
    assert capsys.readouterr().out.split() == [str(out / "arena.csv"), str(out / "arena.png")]
    rows = {(r["player"], r["opponent"]): r for r in csv.DictReader(open(out / "arena.csv"))}
    learned = rows[("wincount-21-cap3-seed0", "random")]
    assert learned["wins"] == "" and float(learned["first_rate"]) == pytest.approx(1, abs=1e-9)  # it learned heap 21 perfectly


def test_cli_never_replaces_results_without_force(tmp_path, capsys):
    out = tmp_path / "c"
    argv = ["take-3", "random", "--game", "7-5-3", "--games", "50", "--out", str(out), "--quiet"]
    assert arena(argv) == 0
    before = (out / "arena.csv").read_bytes()
    assert arena([*argv, "--seed", "5"]) == 2
    assert "exists; use --force" in capsys.readouterr().err
    assert (out / "arena.csv").read_bytes() == before
    assert arena([*argv, "--seed", "5", "--force"]) == 0
    assert (out / "arena.csv").read_bytes() != before


def test_cli_default_directory_is_numbered(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert arena(["nimsum", "random", "--game", "3-4", "--games", "20", "--quiet"]) == 0
    assert capsys.readouterr().out.split()[::2] == ["runs/arena-3-4-seed0/arena.csv", "runs/arena-3-4-seed0-2/arena.csv"]


@pytest.mark.parametrize("argv, message", [
    (["nimsum"], "two or more"),
    (["nimsum", "nobody"], "nobody"),
    (["nimsum", "nimsum"], "nimsum takes part twice"),
    (["nimsum", "random", "--games", "0"], "--games must be an integer between 1 and 1,000,000, got 0"),
    (["nimsum", LEARNER_FILE, "--game", "7-5-3"], "not 7-5-3"),
    (["nimsum", "random", "--piles", *["40"] * 10], "the arena plays on boards of at most"),
    (["nimsum", "random", "--game", "bogus"], "cannot read game"),
])
def test_cli_errors_are_one_line(tmp_path, capsys, argv, message):
    assert arena([*argv, "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("nim_evo: error:")
    assert not (tmp_path / "x" / "arena.csv").exists()


def test_the_text_matrix_fits_100_columns_with_eleven_long_names(tmp_path):
    """Eleven players, four of them strategy files with long names: every line within 100
    columns, each row numbered with its name cut in the middle, arena.csv keeping the names whole."""
    from nim_evo.commands.arena import format_table

    rules = Rules((2, 3))
    players = {name: make_agent(name, rules) for name in ("nimsum", "minimax", "random", "take-3", "dumb",
                                                           "aggressive", "fixed-rules")}
    for i in range(4):
        players[f"genomes/a-very-long-strategy-file-name-number-{i}-seed0-table.json"] = make_agent("random", rules)
    result = round_robin(rules, players, games=20, seed=0)
    lines = format_table(result).splitlines()
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    rows = [line for line in lines if line[:3].strip().isdigit()]
    assert [row.split()[0] for row in rows] == [str(i) for i in range(1, 12)]
    assert all("~" in row for row in rows[7:])
    assert "a-very-long-strategy-file-name-number-3-seed0-table.json" in result.to_csv()
