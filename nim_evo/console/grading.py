"""A player's grade (:mod:`nim_evo.evaluation.grading`) as a person reads it: piles counted from 1."""

from __future__ import annotations

from nim_evo.console.text import middle, wrapped
from nim_evo.evaluation.gradereport import Report
from nim_evo.evaluation.grading import GAME_MOVES
from nim_evo.games.base import Game
from nim_evo.games.takeaway import TakeAway
from nim_evo.validation import printable, shown

NAME_WIDTH = 40  # the longest player name shown whole


def format_report(report: Report) -> str:
    """The report as text: accuracy, win rates, the first positions it gets wrong."""
    name = middle(printable(report.player), NAME_WIDTH)
    board = "the ordered board (it reads the order of the piles)" if report.ordered else "every arrangement of the piles"
    if report.accuracy is None:
        how = "exact" if report.exact else f"sampled: {report.sampled_because}"
        accuracy = None
    elif report.exact:
        how = f"exact, over {board}"
        accuracy = f"{100 * report.accuracy:.2f}%"
    else:
        how = f"sampled: {report.sampled_because}"
        accuracy = f"{100 * report.accuracy:.1f}% ± {100 * report.margin:.1f} (95%)"
    lines = [wrapped(f"{name} on {report.rules.name} ({report.convention}); {how}"),
             "accuracy: none to measure, the board has no winning position" if accuracy is None else
             wrapped(f"accuracy: a winning move in {accuracy} of the {report.positions:,} winning positions"
                     + ("" if report.exact else " sampled") + f"; wrong in {report.wrong_positions:,}"
                     + (f" ({report.illegal_moves:,} of them illegal moves)" if report.illegal_moves else "")),
             "win rates from the start" + ("" if report.exact else
                                           f" ({report.games:,} games a seat, each ± {report.rates_margin:.3f})") + ":"]
    if not report.exact and not report.games:
        lines[-1] = "win rates from the start: none, no game played within the budget"
    else:
        for opponent, seats in report.win_rates.items():
            lines.append(f"  against {opponent:<7} moving first {_rate(seats['first'])}, "
                         f"moving second {_rate(seats['second'])}")
    if report.unfinished:
        lines.append(f"  ({report.unfinished:,} game{'s' if report.unfinished > 1 else ''} not over after {GAME_MOVES:,} moves "
                     f"{'are' if report.unfinished > 1 else 'is'} not counted)")
    if report.cut_short:
        lines.append(wrapped(f"({report.cut_short})"))
    if report.wrong:
        lines.append(f"the first positions it gets wrong (fewest objects first; of {report.wrong_positions:,}):")
        lines += [wrapped(f"  {_position(w.position)}: {_played(w, report.rules)}; {_move(w.winning, report.rules)} wins",
                          indent="    ") for w in report.wrong]
    return "\n".join(lines)


def _rate(rate) -> str:
    return "unfinished" if rate is None else f"{rate:.3f}"


def _position(piles) -> str:
    return "-".join(map(str, piles))


def _move(move, rules: Game) -> str:
    if not isinstance(rules, TakeAway):  # a move of several heaps, or a split: its label
        return rules.action_label(rules.action_of(move))
    pile, count = move
    return f"take {count:,} from pile {pile + 1}"


def _played(wrong, rules: Game) -> str:
    if wrong.illegal is not None:
        return f"it answers the illegal move {printable(shown(wrong.illegal))}"
    if len(wrong.played) == 1:
        return f"it plays {_move(wrong.played[0][0], rules)}"
    return "it plays " + ", ".join(f"{_move(move, rules)} ({p:.2f})" for move, p in wrong.played[:3]) + \
        (f" and {len(wrong.played) - 3} more" if len(wrong.played) > 3 else "")
