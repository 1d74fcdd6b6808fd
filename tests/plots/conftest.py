import pytest

from nim_evo.run import main as run


@pytest.fixture(scope="session")
def runs(tmp_path_factory):
    """Two short runs on 2-3-4 (table and rules genomes) and one sampled run."""
    root = tmp_path_factory.mktemp("runs")
    small = ["--game", "2-3-4", "--population", "8", "--offspring", "12", "--generations", "6", "--quiet",
             "--genomes-dir", str(root / "genomes")]
    for name, extra in [("table", ["--genome", "table"]), ("rules", ["--genome", "rules", "--seed", "2"]),
                        ("sampled", ["--genome", "rules", "--fitness", "sampled", "--games", "50"])]:
        assert run([*small, *extra, "--out", str(root / name)]) == 0
    return root
