"""The README, run: every shell command and Python snippet in README.md, in the order it gives
them, in one scratch directory holding a copy of the shipped genomes/, so that no example can
break silently. Budgets are shortened as the README says ("the README's test runs ..."):
``--generations N`` becomes ``N // 100 + 2`` (200 -> 4, 300 -> 5: a resume still goes further),
``--games N`` at most 2,000, ``generations=N`` in a snippet at most 4. A person's input
to ``play`` is ``quit``. What cannot run here is skipped by rule, each rule with its reason,
and a command of any other form fails the test rather than being skipped.

The cases depend on each other (a resume needs its run): run the module whole.
"""

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
README = (ROOT / "README.md").read_text()

SKIPPED = {  # a rule on the command's words -> why it does not run here
    "install": "the install commands: .ci/run runs them on a fresh clone (its own venv, pip install)",
    "placeholder": "`...` stands for the reader's own options",
    "cluster": "configures or starts a Dask cluster on other machines",
    "benchmark": "a benchmark: minutes to an hour of measuring, run by hand",
}


def _rule(words: list[str]) -> str | None:
    if words[0] in ("pip", "python3") or words[:2] == ["python3", "-m"]:
        return "install"
    if "..." in words:
        return "placeholder"
    if words[0] in ("dask", "mkdir"):
        return "cluster"
    if words[0] == "python" and words[1].startswith("benchmarks/"):
        return "benchmark"
    return None


def _commands() -> list[str]:
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        lines += [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]
    return lines


def _snippets() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, re.S)


def _shortened(words: list[str]) -> list[str]:
    words = list(words)
    for flag, cut in (("--generations", lambda n: n // 100 + 2), ("--games", lambda n: min(n, 2000))):
        if flag in words:
            i = words.index(flag) + 1
            words[i] = str(cut(int(words[i])))
        elif flag == "--generations" and words[2] == "nim_evo.run" and "--resume" not in words \
                and "--list-games" not in words:
            words += [flag, "2"]
        elif flag == "--games" and words[2] == "nim_evo.learn":
            words += [flag, "2000"]
    return words


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    where = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "genomes", where / "genomes")
    return where


def _environment(scratch: Path) -> dict:
    return {**os.environ, "NIM_EVO_CACHE": str(scratch / "cache"), "MPLBACKEND": "Agg",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def test_the_readme_has_what_this_test_runs():
    commands = _commands()
    assert len(commands) >= 30 and len(_snippets()) >= 2
    ran = [c for c in commands if _rule(shlex.split(c, comments=True)) is None]
    assert len(ran) >= 20 and all(c.startswith("python -m nim_evo.") for c in ran), ran


@pytest.mark.parametrize("line", _commands())
def test_a_readme_command_runs_as_written(scratch, line):
    words = shlex.split(line, comments=True)
    rule = _rule(words)
    if rule is not None:
        pytest.skip(SKIPPED[rule])
    assert words[:2] == ["python", "-m"] and words[2].startswith("nim_evo."), f"a command of a new form: {line}"
    argv = [sys.executable, "-m", *_shortened(words)[2:]]
    human = words[2] == "nim_evo.play" and "--opponents" not in words
    done = subprocess.run(argv, cwd=scratch, env=_environment(scratch), input="quit\n" if human else "",
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (argv, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("index", range(len(_snippets())))
def test_a_readme_snippet_runs_as_written(scratch, index):
    code = re.sub(r"generations=(\d+)", lambda m: f"generations={min(int(m.group(1)), 4)}", _snippets()[index])
    done = subprocess.run([sys.executable, "-c", code], cwd=scratch, env=_environment(scratch),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
