"""load_strategy on the champions shipped in genomes/: they load, play, and are as good as recorded."""

import json
from pathlib import Path

import numpy as np
import pytest

from nim_evo import load_strategy, solve
from nim_evo.engine.limits import SpaceTooLarge
from nim_evo.engine.policy import as_table
from nim_evo.engine.space import space_for
from nim_evo.validation import UserError

ORDERED = 20_000  # positions of a board in its places searched, at most
SHIPPED = sorted((Path(__file__).parents[2] / "genomes").glob("*.json"))


def test_every_kind_is_shipped_for_1_3_5_7_9():
    kinds = {json.loads(p.read_text()).get("kind") for p in SHIPPED if json.loads(p.read_text())["rules"].get("piles") == [1, 3, 5, 7, 9]}
    assert kinds == {"table", "rules", "thresholds", "program"}


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_champion_plays_as_recorded(path):
    """Legal moves everywhere, and the accuracy its file records, recomputed with the solver."""
    agent = load_strategy(path)
    document = json.loads(path.read_text())
    try:  # (every shipped board in its places has fewer positions: the search stops soon where it has more)
        solution = solve(space_for(agent.rules, max_positions=ORDERED))
    except SpaceTooLarge:  # (3-5-7 of Lasker's Nim, its heaps in their places: judged over its multisets)
        solution = solve(space_for(agent.rules, multiset=True))
    table = as_table(agent, solution.space)
    winners = np.flatnonzero(solution.win & (solution.space.totals > 0))
    accuracy = float((table[winners] * solution.winning[winners]).sum(axis=1).mean())
    assert accuracy == pytest.approx(document["accuracy"], abs=1e-9)
    assert document["command"].startswith(("python -m nim_evo.run", "python -m nim_evo.learn"))
    rng = np.random.default_rng(0)
    for index in rng.integers(1, solution.space.n_positions, 50):
        piles = solution.space.position(index)
        assert agent.rules.is_legal(piles, agent.move(piles, rng))


def _altered(tmp_path, change) -> Path:
    document = json.loads((Path(__file__).parents[2] / "genomes" / "1-3-5-7-9-seed1-table.json").read_text())
    change(document)
    path = tmp_path / "altered.json"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(kind=["table"]), "unknown genome ['table']"),
    (lambda d: d.update(kind={"a": 1}), "unknown genome {'a': 1}"),
    (lambda d: d["rules"].update(piles=[10**12, 3]), "above the limit of 2,000,000"),
])
def test_a_strategy_file_that_is_wrong_is_one_line_from_play_and_plot(tmp_path, capsys, change, message):
    """Not an unhashable-type or memory traceback: one line, status 2, the file untouched."""
    from nim_evo.commands.play import main as play
    from nim_evo.commands.plot import main as plot

    path = _altered(tmp_path, change)
    before = path.read_bytes()
    assert play([str(path), "--opponents", "random"]) == 2
    assert plot([str(path), "--out", str(tmp_path / "p.png")]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and all(line.startswith("nim_evo: error: ") and message in line for line in errors)
    assert path.read_bytes() == before and not (tmp_path / "p.png").exists()


@pytest.mark.parametrize("name", ["1-3-5-7-9-seed2-rules.json", "1-3-5-7-9-seed3-thresholds.json"])
def test_a_board_free_genome_plays_another_board_of_its_family(name):
    import numpy as np

    from nim_evo import Rules

    path = Path(__file__).parents[2] / "genomes" / name
    agent = load_strategy(path, Rules((4, 6, 9, 2)))
    assert agent.rules == Rules((4, 6, 9, 2))
    pile, count = agent.move((4, 6, 9, 2), np.random.default_rng(0))
    assert 0 <= pile < 4 and 1 <= count <= (4, 6, 9, 2)[pile]
    with pytest.raises(UserError, match="plays any board of it, but 4-6-cap2 is normal play with a cap of 2"):
        load_strategy(path, Rules((4, 6), max_take=2))
