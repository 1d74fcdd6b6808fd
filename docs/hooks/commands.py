"""MkDocs hook: the command reference's options, generated from each command's own parser.

A page holding ``<!-- commands -->`` gets, in its place, a section per subcommand of
``nim-evo`` (in the order ``nim-evo --help`` lists them): what it does and its ``--help``, as
argparse formats it at 100 columns. The options can therefore never drift from the code.
"""

from __future__ import annotations

import os

MARKER = "<!-- commands -->"
COLUMNS = "100"


def command_sections() -> str:
    """Markdown: a section per subcommand, its purpose and its parser's help."""
    from nim_evo.commands import COMMANDS, command

    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = COLUMNS  # argparse wraps to the terminal: the page is the same everywhere
    try:
        sections = []
        for name, what in COMMANDS.items():
            parser = command(name).build_parser()
            parser.prog = f"nim-evo {name}"
            sections.append(f"## nim-evo {name}\n\n{what[:1].upper()}{what[1:]}.\n\n"
                            f"```text\n{parser.format_help().rstrip()}\n```\n")
        return "\n".join(sections)
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Put the commands' sections where the page asks for them."""
    return markdown.replace(MARKER, command_sections()) if MARKER in markdown else markdown
