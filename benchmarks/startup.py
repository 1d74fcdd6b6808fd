"""Start-up time: ``import nim_evo`` and each command's ``--help``, target < 0.3 s.

Baseline, measured the same way in the same run: a bare interpreter start
(``python -c pass``). Each figure is the fastest of several fresh processes (the first run
of a command also pays for compiling and the disk cache; the fastest is what a person sees
from the second time on).

    python benchmarks/startup.py
"""

import subprocess
import sys
import time

TARGET_SECONDS = 0.3
REPEATS = 7
COMMANDS = ("run", "learn", "plot", "play", "arena")


def fastest(arguments: list[str]) -> float:
    """The fastest wall time of ``python <arguments>`` in a fresh process, in seconds."""
    times = []
    for _ in range(REPEATS):
        began = time.perf_counter()
        subprocess.run([sys.executable, *arguments], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> int:
    bare = fastest(["-c", "pass"])
    print(f"bare interpreter start (the baseline): {bare:.3f} s")
    imported = fastest(["-c", "import nim_evo"])
    print(f"import nim_evo                       : {imported:.3f} s  ({imported / bare:.1f}x the baseline, "
          f"{imported - bare:.3f} s more)")
    helps = {}
    for command in COMMANDS:
        helps[command] = fastest(["-m", f"nim_evo.{command}", "--help"])
        print(f"python -m nim_evo.{command:<5} --help      : {helps[command]:.3f} s  "
              f"({helps[command] / bare:.1f}x the baseline)")
    slowest = max(imported, *helps.values())
    verdict = "met" if slowest < TARGET_SECONDS else "MISSED"
    print(f"target: every figure under {TARGET_SECONDS} s: {verdict} (slowest {slowest:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
