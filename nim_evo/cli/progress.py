"""One-line progress bars on the terminal (a line every tenth of the way when piped)."""

from __future__ import annotations

import sys
import time


class _Bar:
    def __init__(self, total: int, done: int = 0, quiet: bool = False, stream=None, width: int = 20):
        self.total, self.first, self.quiet, self.width = total, done, quiet, width
        self.stream = stream or sys.stderr
        self.began = time.perf_counter()
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.every = max(1, (total - done) // 10)
        self._next = done

    def elapsed(self) -> float:
        return time.perf_counter() - self.began

    def show(self, done: int, text: str) -> None:
        """Draw the bar at ``done`` of ``total`` followed by ``text``, elapsed time and ETA."""
        elapsed = self.elapsed()
        eta = elapsed / max(done - self.first, 1) * (self.total - done)
        filled = int(self.width * done / max(self.total, 1))
        line = f"[{'#' * filled}{'.' * (self.width - filled)}] {text}  {_clock(elapsed)} ETA {_clock(eta)}"
        if self.tty:
            self.stream.write("\r" + line + "\033[K" + ("\n" if done >= self.total else ""))
        elif done >= self._next or done >= self.total or done == self.first:
            self.stream.write(line + "\n")
            self._next = done - done % self.every + self.every
        self.stream.flush()


class Progress(_Bar):
    """Evolution: generation, best and mean fitness, the champion's win rates, elapsed time and ETA."""

    def update(self, record: dict, opponents) -> None:
        if self.quiet:
            return
        gen = record["gen"]
        wins = " ".join(f"{name} {record[name]:.3f}" for name in opponents)
        accuracy = record.get("accuracy")
        acc = "" if accuracy is None or accuracy != accuracy else f"  acc {100 * accuracy:.1f}%"
        self.show(gen, f"gen {gen}/{self.total}  best {record['max']:.4f} mean {record['mean']:.4f}  {wins}{acc}")


class TrainingProgress(_Bar):
    """Training: games played, games per second, elapsed time and ETA; call it with games done."""

    def __call__(self, done: int) -> None:
        if self.quiet:
            return
        rate = (done - self.first) / max(self.elapsed(), 1e-9)
        self.show(done, f"game {done:,}/{self.total:,}  {rate:,.0f} games/s")


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds < 3600 else f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
