"""The README and the manual, run: every shell command, file and Python block of README.md and
docs/**/*.md, in the order each page gives them, in a scratch folder per page holding a copy of
the shipped genomes/, so that no example can break silently.

A command is run as ``python -m nim_evo ...`` from the checkout, whichever way the page spells
it (``nim-evo run ...`` or ``python -m nim_evo.run ...``). Budgets are shortened as the README
says: ``--generations N`` becomes ``N // 100 + 2`` (200 -> 4, 300 -> 5: a resume still goes
further) and a run given none gets 2; training ``--games`` are at most 2,000. A person's input
to ``play`` is ``quit``. A heredoc (``cat > FILE <<'END'``) writes its file. What cannot run
here is skipped by rule, each rule with its reason; a line of any other form fails.

The examples of a page depend on each other (a resume needs its run): a page is one test, run
alone with ``-k`` and its path (``pytest tests/test_docs.py -k how-to/dask.md``).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
import shutil

import pytest

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

SKIPPED = {  # a rule on the command's words -> why it does not run here
    "install": "an install command: .ci/run installs the project and its extras in a fresh venv",
    "placeholder": "`...` stands for the reader's own options",
    "cluster": "configures or starts a Dask cluster on other machines",
    "benchmark": "a benchmark: minutes to an hour of measuring, run by hand",
}
MODULES = {"sweeps": "sweep"}  # python -m nim_evo.<module> -> its subcommand, where they differ


def _rule(words: list[str]) -> str | None:
    if words[0] in ("pip", "python3"):
        return "install"
    if "..." in words:
        return "placeholder"
    if words[0] in ("dask", "mkdir"):
        return "cluster"
    if words[0] == "python" and words[1].startswith("benchmarks/"):
        return "benchmark"
    return None


def _cases(page: Path):
    """(kind, text) in the page's order: ``python`` blocks, ``bash`` lines, ``file`` heredocs."""
    for language, body in re.findall(r"```(python|bash)\n(.*?)```", page.read_text(), re.S):
        if language == "python":
            yield "python", body
            continue
        lines = body.replace("\\\n", " ").splitlines()
        i = 0
        while i < len(lines):
            heredoc = re.fullmatch(r"cat > (\S+) <<'(\w+)'", lines[i].strip())
            if heredoc:
                end = lines.index(heredoc.group(2), i + 1)
                yield "file", "\n".join([heredoc.group(1), *lines[i + 1:end]]) + "\n"
                i = end + 1
                continue
            if lines[i].strip():
                yield "bash", lines[i]
            i += 1


CASES = [(page, i, kind, text) for page in PAGES for i, (kind, text) in enumerate(_cases(page))]


def _argv(words: list[str]) -> list[str]:
    """``nim-evo ARGS`` or ``python -m nim_evo.COMMAND ARGS`` as the arguments of ``python -m nim_evo``."""
    if words[0] == "nim-evo":
        return words[1:]
    assert words[:2] == ["python", "-m"] and words[2].startswith("nim_evo."), f"a command of a new form: {words}"
    module = words[2][len("nim_evo."):]
    return [MODULES.get(module, module), *words[3:]]


def _shortened(argv: list[str]) -> list[str]:
    argv = list(argv)
    for flag, cut in (("--generations", lambda n: n // 100 + 2), ("--games", lambda n: min(n, 2000))):
        if flag in argv:
            i = argv.index(flag) + 1
            argv[i] = str(cut(int(argv[i])))
        elif flag == "--generations" and argv[0] == "run" and not {"--resume", "--list-games"} & set(argv):
            argv += [flag, "2"]
        elif flag == "--games" and argv[0] == "learn":
            argv += [flag, "2000"]
    return argv


def _scratch(tmp_path: Path) -> Path:
    """A page's own folder, with a copy of the shipped genomes/ and of docs/transcripts/ (the
    referee's example files). Shipped: the champions genomes/README.md names; a champion a
    person's own run exported there (the README's first command does) would meet the one a
    page's run exports."""
    listed = (ROOT / "genomes" / "README.md").read_text(encoding="utf-8")
    shutil.copytree(ROOT / "genomes", tmp_path / "genomes",
                    ignore=lambda folder, names: [name for name in names if name.endswith(".json") and name not in listed])
    shutil.copytree(ROOT / "docs" / "transcripts", tmp_path / "docs" / "transcripts")
    return tmp_path


def _environment(scratch: Path) -> dict:
    return {**os.environ, "NIM_EVO_CACHE": str(scratch / "cache"), "MPLBACKEND": "Agg",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def test_the_pages_hold_what_this_test_runs():
    readme = [text for page, _, kind, text in CASES if page.name == "README.md"]
    assert readme[:2] == [line for line in (ROOT / "README.md").read_text().splitlines()
                          if line.startswith("python3 -m venv")], "the README's two commands come first"
    commands = [text for _, _, kind, text in CASES if kind == "bash"]
    rules = [_rule(shlex.split(c, comments=True)) for c in commands]
    assert set(rules) - {None} <= set(SKIPPED), "every example left out is left out by a rule with its reason"
    ran = [c for c, rule in zip(commands, rules) if rule is None]
    assert len(ran) >= 40 and sum(kind == "python" for _, _, kind, _ in CASES) >= 12
    for page in PAGES:
        if page.parent.name in ("tutorials", "how-to"):
            assert any(case[0] == page and case[2] != "bash" or case[0] == page and case[3] in ran for case in CASES), \
                f"{page.name} has no example that runs"


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_a_page_runs_as_written(page, tmp_path):
    """Each page alone (``-k how-to/dask.md``), its examples in its order, in a folder of its own."""
    scratch = _scratch(tmp_path)
    for i, kind, text in ((i, kind, text) for p, i, kind, text in CASES if p == page):
        _run_example(page, i, kind, text, scratch)


def _run_example(page: Path, i: int, kind: str, text: str, scratch: Path) -> None:
    where = f"{page.relative_to(ROOT)}, example {i}:\n{text}"
    if kind == "file":
        name, body = text.split("\n", 1)
        (scratch / name).write_text(body)
        return
    if kind == "python":
        argv, stdin = [sys.executable, "-c", text], ""
    else:
        words = shlex.split(text, comments=True)
        if _rule(words) is not None:  # left out, for the reason SKIPPED gives
            return
        argv = _shortened(_argv(words))
        stdin = "quit\n" if argv[0] == "play" and "--opponents" not in argv else ""
        argv = [sys.executable, "-m", "nim_evo", *argv]
    done = subprocess.run(argv, cwd=scratch, env=_environment(scratch), input=stdin, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"{where}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, where
    if kind == "python":
        assert done.stdout.strip(), f"{where}\nprinted nothing: a block shows what it does"
