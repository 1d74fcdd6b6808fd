import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.legend import Legend

from nim_evo.plots import DPI

from nim_evo.commands.run import main as run


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


@pytest.fixture
def assert_nothing_clipped():
    """A check that everything drawn (texts, tick labels, legends) lies inside the figure: its
    tight bounding box, the one ``bbox_inches="tight"`` would crop to, is within the page."""
    def check(figure):
        canvas = FigureCanvasAgg(figure)
        canvas.draw()
        renderer = canvas.get_renderer()
        width, height = figure.get_size_inches()
        tight = figure.get_tightbbox(renderer)
        assert tight.x0 >= -0.01 and tight.y0 >= -0.01 and tight.x1 <= width + 0.01 and tight.y1 <= height + 0.01, \
            tight
        for legend in figure.findobj(Legend):
            box = legend.get_window_extent(renderer)
            assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width * DPI and box.y1 <= height * DPI, legend
    return check
