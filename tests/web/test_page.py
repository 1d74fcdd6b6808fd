"""The exported page's logic against the engine (its nimDistribution run by Node.js), and the
export command's files and errors. The page in a real browser: tests/web/test_browser.py."""

import json
import re
import shutil
import subprocess
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from nim_evo import Rules, evolve, load_strategy
from nim_evo.engine.space import space_for
from nim_evo.export import main as export
from nim_evo.web.lookup import lookup_script, script_json
from nim_evo.web.page import build_page

ROOT = Path(__file__).resolve().parents[2]
GENOMES = ROOT / "genomes"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js (node) is not installed: the page's JavaScript "
                                                      "is checked against the engine with it")


def page_moves(script: str, positions) -> list:
    """``nimDistribution`` of ``script`` at each position, run by Node.js."""
    program = script + f"\nconsole.log(JSON.stringify({script_json([list(p) for p in positions])}" \
                       ".map((p) => nimDistribution(p))));"
    done = subprocess.run([NODE, "-"], input=program, capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout)


def python_moves(agent, piles) -> dict:
    return {tuple(move): p for move, p in agent.distribution(tuple(piles)) if p > 0}


def as_dict(moves) -> dict:
    return {(pile, count): p for pile, count, p in moves}


@pytest.fixture(scope="module")
def champion(tmp_path_factory):
    """The default run's champion (table genome over multisets on 1-3-5-7-9), shortened."""
    path = tmp_path_factory.mktemp("champion") / "champion.json"
    evolve("table", Rules((1, 3, 5, 7, 9)), generations=12, seed=0, progress=False).export(path)
    return path


@needs_node
def test_a_table_page_plays_the_champions_move_at_every_position(champion):
    agent = load_strategy(champion)
    ordered = space_for(agent.rules)  # every arrangement, not just the multisets the page keys by
    positions = [tuple(int(n) for n in p) for p in ordered.positions[1:]]
    moves = page_moves(lookup_script(agent), positions)
    assert len(positions) == 3839
    for piles, page in zip(positions, moves, strict=True):
        assert as_dict(page) == python_moves(agent, piles), piles


@needs_node
def test_a_seven_heap_table_page_is_small_and_right():
    agent = load_strategy(GENOMES / "1-3-5-7-9-11-13-seed1-table.json")
    script = lookup_script(agent)
    assert len(script) < 600_000  # 21,318 multisets, not 645,120 positions
    rng = np.random.default_rng(5)
    positions = [tuple(int(rng.integers(0, top + 1)) for top in agent.rules.piles) for _ in range(400)]
    positions = [p for p in positions if any(p)]
    for piles, page in zip(positions, page_moves(script, positions), strict=True):
        assert as_dict(page) == python_moves(agent, piles), piles


@needs_node
@pytest.mark.parametrize("name", ["quality-7-5-3-seed0.json", "wincount-21-cap3-seed0.json"])
def test_a_learner_page_plays_its_greedy_moves(name):
    agent = load_strategy(GENOMES / name)
    positions = [p for p in product(*(range(n + 1) for n in agent.rules.piles)) if any(p)]
    for piles, page in zip(positions, page_moves(lookup_script(agent), positions), strict=True):
        assert as_dict(page) == pytest.approx(python_moves(agent, piles)), piles


def test_the_page_is_self_contained_and_forbids_requests(champion):
    text = build_page(load_strategy(champion), {"board": "1-3-5-7-9"})
    assert "default-src 'none'" in text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)  # nothing fetched from anywhere
    assert "@import" not in text and "url(" not in text and "fetch(" not in text
    assert "Piles 1 3 5 7 9; a move takes any number of objects" in text


def test_data_cannot_close_the_script_element():
    assert script_json({"name": "</script><script>alert(1)</script>"}) == \
        '{"name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"}'


def test_export_writes_a_page_with_the_runs_history_and_never_replaces_a_file(tmp_path, capsys, monkeypatch):
    from nim_evo.run import main as run

    monkeypatch.chdir(tmp_path)
    assert run(["--game", "7-5-3", "--generations", "4", "--quiet"]) == 0
    strategy = capsys.readouterr().out.strip()
    page = tmp_path / "page.html"
    assert export(["--html", str(page), strategy, "--run", "runs/7-5-3-seed0-table"]) == 0
    text = page.read_text()
    assert re.search(r"<div id=\"history\"><svg[^>]*>", text)  # the fitness history, inline
    assert re.search(r"<td>generations</td><td>4</td>", text) and "<td>seed</td><td>0</td>" in text
    before = page.read_bytes()
    for argv, message in (([str(page), strategy], "exists; use --force"),
                          ([str(tmp_path / "page.txt"), strategy], "must end in .html"),
                          ([str(tmp_path / "b.html"), "no/such.json"], "no/such.json"),
                          ([str(tmp_path / "b.html"), strategy, "--run", "runs"], "runs")):
        capsys.readouterr()
        assert export(["--html", *argv]) == 2
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and message in error, error
    assert page.read_bytes() == before and not (tmp_path / "b.html").exists()
    assert export(["--html", str(page), strategy, "--force"]) == 0


def page_scripts(page: Path) -> str:
    """The exported page's game data and strategy scripts (the game script needs a document)."""
    scripts = re.findall(r"<script>\n(.*?)\n</script>", page.read_text(), re.S)
    assert len(scripts) == 3
    return scripts[0] + "\n" + scripts[1]


@needs_node
def test_exported_pages_of_every_kind_play_as_the_engine(tmp_path, champion):
    """A page per kind, exported by the command, its scripts run as the browser runs them: the
    champion's distribution at every position of the page's board equals the Python agent's."""
    from nim_evo.genomes import genome_document
    from nim_evo.genomes.program import Program
    from nim_evo.io import write_json

    program = tmp_path / "xor-program.json"
    write_json(program, genome_document("program", Program(["sub(or(a, p), and(a, p))", "v"]),
                                        Rules((1, 3, 5, 7, 9)), name="xor-program"))
    files = [champion, program, *(GENOMES / name for name in (
        "1-3-5-7-9-seed2-rules.json", "1-3-5-7-9-seed3-thresholds.json", "17-cap3-misere-seed1-rules.json",
        "2-3-4-5-misere-seed1-table.json", "wincount-21-cap3-seed0.json", "subgame-17-cap3-misere-seed1.json"))]
    for strategy in files:
        page = tmp_path / f"{strategy.stem}.html"
        assert export(["--html", str(page), str(strategy)]) == 0
        agent = load_strategy(strategy)
        positions = [p for p in product(*(range(n + 1) for n in agent.rules.piles)) if any(p)]
        script = page_scripts(page) + "\nconst board = NIM_GAME.piles;"
        program_text = script + f"\nconsole.log(JSON.stringify({script_json([list(p) for p in positions])}" \
                                ".map((p) => nimDistribution(p, board))));"
        done = subprocess.run([NODE, "-"], input=program_text, capture_output=True, text=True, timeout=300, check=True)
        for piles, moves in zip(positions, json.loads(done.stdout), strict=True):
            assert as_dict(moves) == pytest.approx(python_moves(agent, piles)), (strategy.name, piles)


def test_the_page_needs_a_strategy_file(tmp_path, capsys):
    assert export(["--html", str(tmp_path / "x.html"), str(GENOMES / "README.md")]) == 2
    assert not (tmp_path / "x.html").exists()
