"""A one-line progress bar for a run on the terminal (a line every few generations when piped)."""

from __future__ import annotations

import sys
import time


class Progress:
    """Shows generation, best and mean fitness, the champion's win rates, elapsed time and ETA."""

    def __init__(self, total: int, done: int = 0, quiet: bool = False, stream=None, width: int = 20):
        self.total, self.first, self.quiet, self.width = total, done, quiet, width
        self.stream = stream or sys.stderr
        self.began = time.perf_counter()
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.every = max(1, (total - done) // 10)

    def update(self, record: dict, opponents) -> None:
        if self.quiet:
            return
        gen = record["gen"]
        elapsed = time.perf_counter() - self.began
        rate = elapsed / max(gen - self.first, 1)
        eta = rate * (self.total - gen)
        filled = int(self.width * gen / max(self.total, 1))
        bar = "#" * filled + "." * (self.width - filled)
        wins = " ".join(f"{name} {record[name]:.3f}" for name in opponents)
        accuracy = record.get("accuracy")
        acc = "" if accuracy is None or accuracy != accuracy else f"  acc {100 * accuracy:.1f}%"
        line = (f"[{bar}] gen {gen}/{self.total}  best {record['max']:.4f} mean {record['mean']:.4f}  "
                f"{wins}{acc}  {_clock(elapsed)} ETA {_clock(eta)}")
        if self.tty:
            self.stream.write("\r" + line + "\033[K")
            if gen >= self.total:
                self.stream.write("\n")
        elif gen % self.every == 0 or gen >= self.total or gen == self.first:
            self.stream.write(line + "\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds < 3600 else f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
