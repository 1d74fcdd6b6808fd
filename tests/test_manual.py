"""The manual, built: the docs site builds with no warning (``mkdocs build --strict``), offline,
with an API reference generated from the docstrings and each command's options from its own
parser; and the tutorial notebook runs, as written, in a Jupyter kernel."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1",
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "WARNING" not in done.stderr, done.stderr[-4000:]
    return out


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_api_reference_documents_evolve_from_its_docstring(site):
    import nim_evo

    page = (site / "reference" / "python" / "index.html").read_text()
    assert 'id="nim_evo.evolve"' in page
    first_line = nim_evo.evolve.__doc__.strip().splitlines()[0].replace("``", "")
    assert " ".join(first_line.split()[:6]) in _text(page)
    assert ":func:" not in page and ":class:" not in page  # Sphinx's roles, shown as code
    text = _text(page)
    for name in ("alpha_decay", "epsilon_min", "cutoff", "window", "certain", "schedule"):  # learners' parameters
        assert name in text, name
    for name in ("resume", "train", "Run", "load_strategy", "tournament", "solve", "Rules", "check_player"):
        assert f'id="nim_evo.{name}"' in page, name


def test_each_command_s_options_come_from_its_parser(site):
    from nim_evo.commands import COMMANDS

    page = _text((site / "reference" / "commands" / "index.html").read_text())
    for name in COMMANDS:
        assert f"nim-evo {name}" in page, name
    assert "--generations" in page and "--until" in page and "--learner" in page and "--grid" in page


def test_the_site_asks_no_other_server_for_anything(site):
    """Offline: no page loads a font, script or style from another host (links out are fine)."""
    for page in site.rglob("*.html"):
        html = page.read_text()
        loads = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="(https?:)?//[^"]+"', html)
        assert not loads, (page, loads[:3])
    for style in site.rglob("*.css"):  # a stylesheet's fonts and imports
        loads = re.findall(r"url\([\"']?(?:https?:)?//|@import[^;]*//", style.read_text())
        assert not loads, (style, loads[:3])


def test_every_page_is_in_the_site(site):
    assert (site / "index.html").exists()
    for page in (ROOT / "docs").rglob("*.md"):
        if page.name != "index.md":
            assert (site / page.relative_to(ROOT / "docs").with_suffix("") / "index.html").exists(), page


def test_the_tutorial_notebook_runs_as_written(tmp_path):
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(ROOT / "docs" / "tutorials" / "first-champion.ipynb", as_version=4)
    os.environ.setdefault("MPLBACKEND", "Agg")
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "is a winning move: True" in text and "accuracy 100.00%" in text
    assert any("text/html" in o.get("data", {}) and "<img" in o["data"]["text/html"] for o in outputs)  # the run, shown
    assert (tmp_path / "fitness.png").stat().st_size > 10_000
