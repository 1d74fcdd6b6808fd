"""``python -m nim_evo.export``: a champion as a web page that plays it in any browser.

    python -m nim_evo.export --html champion.html genomes/1-3-5-7-9-seed0-table.json
    python -m nim_evo.export --html champion.html genomes/1-3-5-7-9-seed0-table.json --run runs/1-3-5-7-9-seed0-table

One self-contained HTML file: open it in a browser, offline, and play the champion. A table
genome or a learner brings its moves for every position of its board; a rules, thresholds
or program genome is translated to JavaScript and plays any board of its family, piles the
person sets included (and with --game, a board of another of its families). With --run, the
page also shows the run's fitness history.
"""

from __future__ import annotations

import copy
from pathlib import Path

from nim_evo.cli.args import Parser, UsageError, check_folder, command, printable, prog
from nim_evo.console.text import middle
from nim_evo.engine.rules import Rules
from nim_evo.io import read_json

NAME_WIDTH = 60  # the most of a champion's name (its file's own words) the closing line shows


def build_parser() -> Parser:
    """The command's argument parser (its flags, their defaults and help)."""
    p = Parser(prog=prog("export"), description=__doc__.splitlines()[0])
    p.add_argument("strategy", metavar="STRATEGY_FILE", help="an exported genome (genomes/*.json) or a learner file")
    p.add_argument("--html", required=True, metavar="PAGE", help="the web page it makes (an .html file)")
    p.add_argument("--run", metavar="RUN_DIR", help="the run the champion comes from: the page shows its fitness "
                                                    "history and settings")
    p.add_argument("--game", metavar="NAME", help="the board the page starts on, for a genome that plays any board "
                                                   "of its family or families (e.g. 2-4-6-cap3-misere; default its own)")
    p.add_argument("--force", action="store_true", help="allow replacing an existing PAGE")
    return p


@command()
def main(argv) -> int:
    """The command on ``argv`` (the process's arguments by default); returns its exit status."""
    args = build_parser().parse_args(argv)
    page = Path(args.html)
    if page.suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"--html names the page to write; its name must end in .html, got {args.html!r}")
    check_folder(page, "--html must name a page in a folder")
    if page.exists() and not args.force:
        raise UsageError(f"{page} exists; use --force to replace it, or name another --html page")
    if page.is_dir():
        raise UsageError(f"{page} is a directory; --html names the page file to write")
    # after parsing: --help answers at once
    from nim_evo.evaluation.strategy import check_metadata, check_run_config, load_strategy
    from nim_evo.evolution.rundir import read_config_fields  # after parsing: --help answers at once
    from nim_evo.atomic import atomic_write_text  # after parsing: --help answers at once
    from nim_evo.web.page import build_page, champion_facts, history_svg  # after parsing: --help answers at once

    agent = load_strategy(args.strategy, None if args.game is None else Rules.parse(args.game))
    if not str(getattr(agent, "name", "")).isprintable():  # a genome's name is its file's: the page shows it too
        agent = copy.copy(agent)
        agent.name = printable(agent.name)
    data = check_metadata(args.strategy, read_json(args.strategy))  # what the page says of it, checked as read
    run_config = history = None
    if args.run is not None:
        history = history_svg(args.run)
        config_path = Path(args.run) / "config.json"
        run_config = check_run_config(config_path, read_config_fields(config_path))
        _check_same_run(args.strategy, data.get("run_config"), args.run, run_config)
    facts = {key: printable(value) for key, value in champion_facts(args.strategy, data, agent, run_config).items()}
    text = build_page(agent, facts, history)
    atomic_write_text(page, text, replace=args.force, flag="--html")
    name = getattr(agent, "name", None) or "the champion"
    print(f"{printable(page)}: open it in a browser to play {agent.rules.name} against {middle(name, NAME_WIDTH)} "
          f"({len(text.encode()) // 1024:,} KiB, no network needed)")
    return 0


def _check_same_run(strategy, recorded, run_dir, config) -> None:
    """Refuse a run that did not make the strategy: its settings (all but the generations, which
    a resume raises) must be those the file records. A file that records no run (a learner, a
    genome exported before files did) cannot be checked: its page shows the run given."""
    from nim_evo.evolution.rundir import run_settings  # after parsing: --help answers at once

    if not isinstance(recorded, dict):
        return  # a learner, or a genome exported before files recorded their run: nothing to compare
    settled, config = run_settings(recorded), run_settings(config) or {}
    assert settled is not None  # the settings of a dict are a dict
    differ = [key for key, value in settled.items() if config.get(key) != value]
    if differ:
        raise UsageError(f"{strategy} was not evolved by the run in {run_dir}: its {differ[0]} differs "
                         f"({settled[differ[0]]!r} in the file, {config.get(differ[0])!r} in the run)")
