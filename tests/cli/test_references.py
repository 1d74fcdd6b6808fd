"""What a person reads names the write-ups nim_evo grew from as the manual's references do
(by title and short name), never by the file numbers of the project's own notes ("seed 003"),
which a reader cannot look up and would take for a ``--seed``."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from nim_evo.engine.rules import PRESETS
from nim_evo.learners import LEARNERS

ROOT = Path(__file__).parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
REFERENCES = (ROOT / "docs" / "explanation" / "references.md").read_text()
FILE_NUMBER = re.compile(r"seed 0\d")
COMMANDS = ("run", "learn", "plot", "play", "arena")


def _output(*argv: str) -> str:
    done = subprocess.run([sys.executable, "-m", *argv], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return " ".join((done.stdout + done.stderr).split())  # a wrapped help line joined again


@pytest.mark.parametrize("name", COMMANDS)
def test_help_names_no_source_by_file_number(name):
    text = _output(f"nim_evo.{name}", "--help")
    assert "usage:" in text
    assert not FILE_NUMBER.search(text), FILE_NUMBER.search(text).group(0)


def test_list_games_names_no_source_by_file_number():
    text = _output("nim_evo.run", "--list-games")
    assert all(name in text for name in PRESETS)
    assert not FILE_NUMBER.search(text)


def _prose(markdown: str) -> str:
    """A page without its fenced blocks (command lines and snippets, which others edit)."""
    return re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M)


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_the_manual_s_prose_names_no_source_by_file_number(page):
    prose = _prose(page.read_text())
    assert not re.search(r"seed 00\d", prose), re.search(r"seed 00\d", prose).group(0)


def _references() -> str:
    return REFERENCES


def test_the_names_a_command_prints_are_the_readmes_references():
    """Each learner's source and each preset's "from ..." is a short name the manual's
    References page lists in bold, so a reader can look it up."""
    listed = {name.lower() for name in re.findall(r"^\d+\. \*\*(.+?)\*\*", _references(), re.M)}
    assert len(listed) == 5
    sources = {cls.source for cls in LEARNERS.values()}
    sources |= {re.search(r"\(from ([^,)]+)", text).group(1) for text in PRESETS.values()}
    for source in sources:
        assert source.lower().removeprefix("the ") in listed, source
