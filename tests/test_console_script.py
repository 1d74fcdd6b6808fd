"""The ``nim-evo`` command (console script and ``python -m nim_evo``): subcommands, --version,
the old spelling of run, and one line for anything else."""

import subprocess
import sys

import pytest

import nim_evo
from nim_evo.__main__ import main
from nim_evo.commands import COMMANDS


def test_version_is_the_packages(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"nim-evo {nim_evo.__version__}\n"
    from importlib.metadata import version

    assert version("nim-evo") == nim_evo.__version__  # pyproject reads it from the package


def test_help_lists_every_subcommand_and_no_argument_is_a_usage_error(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(f"  {name}" in out for name in ("run", "learn", "plot", "play", "arena"))
    assert main([]) == 2 and "usage: nim-evo" in capsys.readouterr().err


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_subcommand_is_its_module(name, capsys):
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("usage: ")


def test_an_unknown_subcommand_is_one_line(capsys):
    assert main(["sorcery"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nim_evo: error: no subcommand 'sorcery'") and err.count("\n") == 1


def test_the_old_spelling_runs_run_with_a_note(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["--game", "2-3", "--population", "4", "--offspring", "4", "--generations", "1", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "is `nim-evo run OPTIONS`" in captured.err and captured.out.strip().endswith("-table.json")


def test_the_console_script_and_python_m_name_the_command_as_typed():
    """``nim-evo play --help`` says ``usage: nim-evo play``; ``python -m nim_evo.play`` its own."""
    script = subprocess.run([sys.executable, "-m", "nim_evo", "play", "--help"], capture_output=True, text=True)
    assert script.returncode == 0 and script.stdout.startswith("usage: nim-evo play")
    module = subprocess.run([sys.executable, "-m", "nim_evo.play", "--help"], capture_output=True, text=True)
    assert module.returncode == 0 and module.stdout.startswith("usage: python -m nim_evo.play")


def test_importing_the_command_leaves_ctrl_c_to_the_program_that_imports_it():
    """The command's quiet Ctrl-C during its imports (an exit, status 130) is the command's:
    a program importing ``nim_evo.__main__`` (this suite's modules do) kept it until a command
    ran, and a test's own SIGINT then ended the test process (a crashed xdist worker)."""
    code = ("import signal, nim_evo.__main__; "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout == "True\n"
