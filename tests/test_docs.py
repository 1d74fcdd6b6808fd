"""The docs, run: every Python block and every ``nim-evo`` command of docs/*.md, in order, in
one scratch folder holding a copy of the shipped genomes/ (the install commands aside: CI
installs the extras they name)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md"))


def _blocks(page: Path):
    for language, body in re.findall(r"```(python|bash)\n(.*?)```", page.read_text(), re.S):
        if language == "python":
            yield "python", body
        else:
            yield from (("bash", line) for line in body.splitlines() if line.startswith("nim-evo "))


CASES = [(page, i, language, body) for page in PAGES for i, (language, body) in enumerate(_blocks(page))]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    where = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "genomes", where / "genomes")
    return where


def test_every_page_has_examples():
    assert PAGES and all(any(case[0] == page for case in CASES) for page in PAGES)


@pytest.mark.parametrize("page, i, language, body", CASES, ids=[f"{c[0].stem}-{c[1]}-{c[2]}" for c in CASES])
def test_a_docs_example_runs(page, i, language, body, scratch):
    environment = {**os.environ, "NIM_EVO_CACHE": str(scratch / "cache"), "MPLBACKEND": "Agg"}
    if language == "python":
        command = [sys.executable, "-c", body]
    else:
        command = [sys.executable, "-m", "nim_evo", *shlex.split(body)[1:]]
    done = subprocess.run(command, cwd=scratch, env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page.name} block {i}:\n{body}\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), f"{page.name} block {i} printed nothing"
