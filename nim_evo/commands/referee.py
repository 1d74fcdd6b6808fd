"""``nim-evo referee``: transcripts of other harnesses' games, graded move by move.

    nim-evo referee games.jsonl
    nim-evo referee gtbench-nim.json --convention normal --json
    nim-evo referee textarena-log.json pigbench/full_results.json --picture accuracy.png

Every move is labelled by the exact value of the positions before and after it: winning (from
a winning position into a lost one), blunder (from a winning position into one the opponent
wins), forced (from a lost position), illegal (the rest of that game is not graded). Prints,
per player, the moves graded, the winning-move rate over winning positions with Wilson's 95%
interval, the blunder rate, the first blunder's ply and the illegal moves, over all boards and
per board, the rate by objects left, and each game's labels. The convention (normal or misère
play) is each harness's own and stated; --convention overrides it.
"""

from __future__ import annotations

import json
import sys

from nim_evo.cli.args import Parser, command, picture_path, printable, prog

FORMATS = ("nim-evo", "openspiel", "textarena", "gtbench", "pigbench")  # as nim_evo.transcripts.reading says (not imported: --help answers at once)


def build_parser() -> Parser:
    """The command's argument parser (its flags, their defaults and help)."""
    p = Parser(prog=prog("referee"), description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", metavar="FILE", help="transcript files (each one harness's format)")
    p.add_argument("--format", choices=FORMATS,
                   help="the files' format (default: recognised from each file's first characters)")
    p.add_argument("--game", metavar="NAME",
                   help="the board of transcripts that do not name one (a nim_evo name such as 3-4-5-misere; "
                        "for OpenSpiel histories, an OpenSpiel game string too)")
    p.add_argument("--convention", choices=("normal", "misere"),
                   help="grade every game under this convention instead of each harness's own")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--picture", metavar="FILE",
                   help="also draw each player's winning-move rate by objects left (.png, .svg or .pdf)")
    p.add_argument("--force", action="store_true", help="allow --picture to replace an existing file")
    return p


@command()
def main(argv) -> int:
    """The command on ``argv`` (the process's arguments by default); returns its exit status."""
    args = build_parser().parse_args(argv)
    picture = picture_path(args.picture, args.force) if args.picture else None
    from nim_evo.console.refereeing import format_report  # after parsing: --help answers at once
    from nim_evo.transcripts.grading import referee_transcripts  # after parsing: --help answers at once

    report = referee_transcripts(args.files, args.format, args.game, args.convention)
    print(json.dumps(report.to_json(), indent=2) if args.json else format_report(report))  # (ASCII: any name prints)
    if picture is not None:
        from nim_evo.plots import save_figure  # after parsing: --help answers at once
        from nim_evo.plots.referee import draw_accuracy  # matplotlib only when drawing

        print(printable(save_figure(draw_accuracy(report), picture)), file=sys.stderr)
    return 0
