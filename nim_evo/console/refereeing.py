"""The referee's report (:mod:`nim_evo.transcripts.summary`) as a person reads it."""

from __future__ import annotations

import math

from nim_evo.console.text import middle, wrapped
from nim_evo.transcripts.summary import Line, Report
from nim_evo.validation import printable

NAME_WIDTH = 24  # the longest player name shown whole
GAMES_SHOWN = 20  # games listed one by one, at most
SHORT = {"winning": "W", "blunder": "B", "forced": "f", "illegal": "X"}


def format_report(report: Report) -> str:
    """The report as text: the boards and their conventions, each player's figures (per board
    where there are several), the winning-move rate by objects left, and the first games."""
    j = report.judgement
    lines = [f"{_count(len(j.records), 'game')}, {_count(report.moves, 'move')} graded "
             "(winning: from a winning position into a lost one; blunder: from a winning position into "
             "one the opponent wins; forced: from a lost position; illegal: ends the game's grading)", "", "boards:"]
    for name, board in report.boards.items():
        lines.append(wrapped(f"  {name}: {board['convention']} play ({board['why']}), "
                             f"{_count(board['games'], 'game')}", indent="    "))
    lines += ["", "players (rate: winning moves over moves from winning positions, Wilson's 95% interval):",
              _header(), *map(_row, report.players)]
    if len(report.per_board) > 1:
        for name, rows in report.per_board.items():
            lines += ["", f"on {name}:", _header(), *map(_row, rows)]
    lines += ["", "winning-move rate by objects left before the move:", *_sizes(report)]
    lines += ["", f"games ({'the first ' + str(GAMES_SHOWN) + ' of ' + format(len(j.records), ',') if len(j.records) > GAMES_SHOWN else 'all'}; "
              "W winning, B blunder, f forced, X illegal):"]
    for index, record in enumerate(j.records[:GAMES_SHOWN]):
        labels = "".join(SHORT[label] for label in j.labels(index))
        winner = j.winner[index]
        result = f"{printable(record.players[int(winner)])} won" if winner >= 0 else "not over"
        illegal = f"; illegal move {printable(j.illegal[index])!r}" if j.illegal[index] is not None else ""
        lines.append(wrapped(f"  {record.source}: {record.game.name}, {printable(record.players[0])} first: "
                             f"{labels or '(no move)'} ({result}{illegal})", indent="    "))
    return "\n".join(lines)


def _count(n: int, thing: str) -> str:
    return f"{n:,} {thing}{'s' * (n != 1)}"


def _header() -> str:
    return (f"  {'player':<{NAME_WIDTH}} {'games':>6} {'moves':>7} {'rate':>7} {'interval':>15} {'blunders':>9} "
            f"{'forced':>7} {'illegal':>7}  first blunder")


def _row(line: Line) -> str:
    low, high = line.interval
    rate = "-" if math.isnan(line.rate) else f"{100 * line.rate:.1f}%"
    interval = "" if math.isnan(low) else f"{100 * low:.1f}-{100 * high:.1f}%"
    first = (f"ply {line.first_blunder:g} (median of {len(line.first_blunders)})" if line.first_blunders
             else "none")
    return (f"  {middle(printable(line.player), NAME_WIDTH):<{NAME_WIDTH}} {line.games:>6,} {line.moves:>7,} "
            f"{rate:>7} {interval:>15} {line.blunders:>9,} {line.forced:>7,} {line.illegal:>7,}  {first}")


def _sizes(report: Report) -> list[str]:
    players = [name for name, sizes in report.by_size.items() if sizes]
    if not players:
        return ["  (no move from a winning position)"]
    sizes = sorted({size for name in players for size in report.by_size[name]})
    width = max(12, *(len(middle(printable(name), NAME_WIDTH)) for name in players))
    lines = ["  " + f"{'objects':>8}" + "".join(f" {middle(printable(name), NAME_WIDTH):>{width}}" for name in players)]
    for size in sizes:
        cells = []
        for name in players:
            n, k = report.by_size[name].get(size, (0, 0))
            cells.append(f" {f'{100 * k / n:.0f}% of {n:,}' if n else '-':>{width}}")
        lines.append("  " + f"{size:>8,}" + "".join(cells))
    return lines
