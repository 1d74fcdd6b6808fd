"""A sweep's summary as a person reads it: a line per setting."""

from __future__ import annotations

from nim_evo.console.text import middle
from nim_evo.validation import printable

NAME_WIDTH = 36  # the longest setting shown whole


def format_summary(result) -> str:
    """Per setting: runs, successes and rate with Wilson's 95% interval, the median (and
    interquartile range) of generations to success, and Koza's computational effort."""
    lines = [f"sweep {printable(result.folder)}: {len(result.runs)} of {result.planned} runs"]
    keys = [k for k in (result.summary[0] if result.summary else {}) if k not in _COLUMNS]
    for row in result.summary:
        setting = middle(printable(", ".join(f"{k}={row[k]}" for k in keys) or "every run"), NAME_WIDTH)
        if row["successes"] == "":
            lines.append(f"  {setting}: {row['runs']} runs (no target: --until says what success is)")
            continue
        rate = f"{row['successes']}/{row['runs']} reached the target ({100 * row['success_rate']:.0f}%, 95% " \
               f"interval {100 * row['ci_low']:.0f}-{100 * row['ci_high']:.0f}%)"
        when = "" if row["generation_median"] == "" else \
            f"; generation {row['generation_median']:g} (IQR {row['generation_q1']:g}-{row['generation_q3']:g})"
        effort = "" if row["effort"] == "" else f"; effort {row['effort']:,} evaluations"
        lines.append(f"  {setting}: {rate}{when}{effort}")
    return "\n".join(lines)


_COLUMNS = {"runs", "planned", "successes", "success_rate", "ci_low", "ci_high", "generation_median", "generation_q1",
            "generation_q3", "seconds_median", "seconds_q1", "seconds_q3", "effort", "effort_generation"}
