"""printable(): what nim_evo shows of a name or a line from a file or from input; plain(): the
same name as a picture's label, drawn as written (never as mathtext)."""

import io
from pathlib import Path

import pytest

from nim_evo.console.session import Console
from nim_evo.console.text import middle
from nim_evo.validation import printable


@pytest.mark.parametrize("raw,shown", [
    ("\x1b]0;pwned\x07\x1b[2J", "\\x1b]0;pwned\\x07\\x1b[2J"),  # an OSC title and a clear-screen sequence
    ("a\x00b\x1fc", "a\\x00b\\x1fc"),                             # C0
    ("del\x7f", "del\\x7f"),                                      # DEL
    ("c1\x85\x9b31m", "c1\\x85\\x9b31m"),                         # C1: NEL, and CSI, which opens a sequence alone
    ("two\nlines\r\t", "two\\nlines\\r\\t"),
    ("evil\u202eright", "evil\\u202eright"),                      # a bidirectional override
    ("\u2066isolate\u2069", "\\u2066isolate\\u2069"),
    ("zero\u200bwidth\ufeff", "zero\\u200bwidth\\ufeff"),
    ("line\u2028sep", "line\\u2028sep"),
    ("not utf-8 \udcff", "not utf-8 \\udcff"),                    # a file name's undecodable byte
    ("tag\U000e0041", "tag\\U000e0041"),
])
def test_control_and_format_characters_are_shown_escaped(raw, shown):
    assert printable(raw) == shown
    assert printable(raw).isprintable()
    assert "\x1b" not in printable(raw) and "\n" not in printable(raw)


@pytest.mark.parametrize("text", ["genomes/7-5-3-seed1-rules.json", "misère 2-3-4", "a$^$b", "C:\\runs\\x",
                                  "日本語 ☃ 🎲", "' \" ` ~", ""])
def test_printable_text_is_left_as_it_is(text):
    assert printable(text) == text


def test_printable_is_idempotent_and_takes_any_object():
    once = printable("\x1b[31mred\u202e")
    assert printable(once) == once
    assert printable(Path("runs") / "a\x1bb") == "runs/a\\x1bb"
    assert printable(5) == "5"


def test_middle_shows_names_printable_before_cutting_them():
    assert middle("ev\x1b[2Jil", 40) == "ev\\x1b[2Jil"
    cut = middle("\x1b" * 30, 10)
    assert len(cut) == 10 and "\x1b" not in cut and "~" in cut


def test_piped_input_is_echoed_printable():
    out = io.StringIO()
    console = Console(io.StringIO("\x1b]0;pwned\x07 2 3\n"), out)
    assert console.echo
    assert console.ask("Your move:") == "\x1b]0;pwned\x07 2 3"  # read as typed: the move reader judges it
    assert "\x1b" not in out.getvalue() and "\x07" not in out.getvalue()
    assert out.getvalue() == "Your move: \\x1b]0;pwned\\x07 2 3\n"


@pytest.mark.parametrize("name", ["a$^$b", "run$\\frac$", "x$\\alpha$y", "$", "a\\$b", "$$", "price $5"])
def test_plain_labels_are_drawn_as_written_not_as_mathtext(name):
    from matplotlib.text import Text

    from nim_evo.plots import plain

    text = Text(0, 0, plain(name))
    assert text._preprocess_math(text.get_text()) == (name, False)  # matplotlib's reading: plain text, the name


def test_plain_labels_are_printable():
    from nim_evo.plots import plain

    assert plain("a\x1b[2J$b") == "a\\x1b[2J\\$b"
