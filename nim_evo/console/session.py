"""A console session on two streams: lines out, answers in (what ``play`` talks through)."""

from __future__ import annotations

from nim_evo.validation import printable


class EndOfInput(Exception):
    """The input ended at a prompt."""


class Console:
    """The session's streams: :meth:`say` writes a line, :meth:`ask` prompts and reads one (echoed
    when the input is not a terminal, so a piped session reads like a played one; echoed
    printable, :func:`~nim_evo.validation.printable`: piped input sends no escape sequence on)."""

    def __init__(self, stdin, stdout):
        self.stdin, self.stdout = stdin, stdout
        isatty = getattr(stdin, "isatty", None)
        self.echo = not (isatty and isatty())

    def say(self, text: str = "") -> None:
        """Print one line (``text``) to the session's output at once."""
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """The answer to ``prompt``, stripped; raises :class:`EndOfInput` at the end of input."""
        self.stdout.write(prompt + " ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EndOfInput
        line = line.rstrip("\r\n")
        if self.echo:
            self.say(printable(line))
        return line.strip()
