"""Progress bars on stderr, drawn by tqdm: one line redrawn in place on a terminal, clipped
to its width; a plain line every tenth of the way when piped (a log file stays readable);
nothing when ``quiet``.

A bar is a context manager: leaving it (at the end, or on an error or Ctrl-C) closes it,
which ends its line, so whatever is printed next starts on a fresh one. It also closes
itself when it reaches its total.
"""

from __future__ import annotations

import os
import shutil
import sys
import time

from tqdm import tqdm

from nim_evo.validation import printable


class _Bar:
    """``total`` steps, ``done`` of them before this session (a resumed run starts there);
    ``width``: the bar's, in characters (default: the class's); ``ncols``: the whole line's
    on a terminal, clipped at its end (default: the terminal's width, followed as it changes)."""

    label = ""  # what a step is, before "n/total"
    number = ""  # the format spec of n and total ("," separates thousands)
    width = 20

    def __init__(self, total: int, done: int = 0, quiet: bool = False, stream=None, width: int | None = None,
                 ncols: int | None = None):
        quiet = quiet or total == 0  # nothing to do: no bar "0/0"
        self.total, self.first, self.quiet = total, done, quiet
        self.stream = stream or sys.stderr
        tty = getattr(self.stream, "isatty", lambda: False)()
        self.log = not quiet and not tty  # plain lines, not a bar redrawn with carriage returns
        self.every = max(1, (total - done) // 10)
        self._next = done
        self.began = time.perf_counter()
        dynamic = ncols is None and _sized(self.stream)
        if ncols is None and not dynamic:  # a guess: on a terminal that says its size is 0 x 0, tqdm would
            ncols = shutil.get_terminal_size().columns - 1  # hide the bar (rows 0) or cut its last character
        self.bar = tqdm(total=total, initial=done, file=self.stream, disable=quiet or not tty, leave=True,
                        ncols=ncols, nrows=None if dynamic else 24, dynamic_ncols=dynamic, smoothing=0,
                        mininterval=0.1, miniters=1, bar_format=self._format(f" |{{bar:{width or self.width}}}| "))
        self._shown = False

    def elapsed(self) -> float:
        return time.perf_counter() - self.began

    def show(self, done: int, text: str) -> None:
        """Move the bar to ``done`` of ``total``, with ``text`` after elapsed time and ETA;
        at ``total`` the bar closes."""
        if self.quiet:
            return
        if self.log:
            if done >= self._next or done >= self.total or done == self.first:
                line = tqdm.format_meter(done, self.total, self.elapsed(), postfix=text, initial=self.first,
                                         bar_format=self._format("  "))
                self.stream.write(line + "\n")
                self.stream.flush()
                self._next = done - done % self.every + self.every
            return
        self.bar.set_postfix_str(text, refresh=False)
        self.bar.update(done - self.bar.n)  # drawn at most ten times a second
        if not self._shown:  # but the first figures at once
            self.bar.refresh()
            self._shown = True
        if done >= self.total:
            self.close()

    def close(self) -> None:
        """Draw the bar as it stands and end its line (again: nothing)."""
        self.bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _format(self, middle: str) -> str:
        """tqdm's ``bar_format``: "gen 3/30", ``middle`` (the bar, or a space), elapsed<ETA,
        then the text given to :meth:`show`."""
        return f"{self.label} {{n{self.number}}}/{{total{self.number}}}{middle}{{elapsed}}<{{remaining}}{{postfix}}"


class Progress(_Bar):
    """Evolution: generation, best and mean fitness, the champion's win rates, accuracy,
    elapsed time and ETA."""

    label, width = "gen", 10  # a short bar: the figures need the room (a narrow terminal clips the last)
    ceiling: float | None = None  # the most possible against the panel, shown beside the best

    def update(self, record: dict, opponents) -> None:
        """Show one generation's ``record``: its fitness and its win rates against ``opponents``."""
        wins = " ".join(f"{printable(name)} {record[name]:.3f}" for name in opponents)  # names from files too
        accuracy = record.get("accuracy")
        acc = "" if accuracy is None or accuracy != accuracy else f", acc {100 * accuracy:.1f}%"
        of = "" if self.ceiling is None else f" of ≤{self.ceiling:.4f}"
        stage = f"stage {int(record['stage'])}, " if "stage" in record else ""
        # a new population (a restart, or a new stage) explains a best that falls back
        restart = ", restarted" if record.get("restart") else ""
        self.show(record["gen"], f"{stage}best {record['max']:.4f}{of} mean {record['mean']:.4f}{acc}, {wins}{restart}")


class TrainingProgress(_Bar):
    """Training: games played, games per second, elapsed time and ETA; call it with games done."""

    label, number = "game", ":,"

    def __call__(self, done: int) -> None:
        rate = (done - self.first) / max(self.elapsed(), 1e-9)
        self.show(done, f"{rate:,.0f} games/s")


def _sized(stream) -> bool:
    """Whether ``stream`` is a terminal that tells its size (a pseudo-terminal may say 0 x 0:
    ``script``, some containers), which tqdm's ``dynamic_ncols`` then follows."""
    try:
        columns, lines = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):  # no file descriptor (a StringIO), or not a terminal
        return False
    return columns > 1 and lines > 1
