"""wrapped(): lines fit the terminal they are printed on, and text that goes to a pipe or a file
is the same whatever terminal the command was started from."""

import subprocess
import sys

import pytest

from nim_evo.console.text import NARROWEST, WIDTH, width, wrapped

TEXT = " ".join(f"word{i}" for i in range(80))


@pytest.mark.parametrize("columns", [60, 100, 160])
def test_lines_fit_the_terminal_width(monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = wrapped(TEXT).splitlines()
    assert width() == columns
    assert max(map(len, lines)) <= columns
    assert max(map(len, lines)) > columns - 10  # filled, not merely short
    assert all(line.startswith("  ") for line in lines[1:])


def test_a_very_narrow_terminal_is_wrapped_at_the_narrowest(monkeypatch):
    monkeypatch.setenv("COLUMNS", "12")
    assert width() == NARROWEST
    assert max(map(len, wrapped(TEXT).splitlines())) <= NARROWEST


def test_output_that_is_no_terminal_keeps_the_fixed_width(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code = "from nim_evo.console.text import wrapped; print(wrapped(' '.join(['word'] * 100)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert max(map(len, lines)) <= WIDTH < max(map(len, lines)) + 6


def test_text_for_a_terminal_is_wrapped_to_that_terminal_s_width(monkeypatch):
    """stderr a terminal 72 columns wide while stdout goes to a file: text for stderr fits 72."""
    import fcntl
    import os
    import struct
    import termios

    monkeypatch.delenv("COLUMNS", raising=False)
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 72, 0, 0))
    with os.fdopen(follower, "w") as terminal:
        assert width(terminal) == 72
        assert max(map(len, wrapped(TEXT, stream=terminal).splitlines())) <= 72
    os.close(leader)
    assert width() == WIDTH  # pytest's captured stdout is no terminal
