"""Optional packages: imported when an adapter needs them, else one line naming the extra."""

from __future__ import annotations

from importlib import import_module

from nim_evo.validation import UserError

RL = "nim-evo[rl]"  # pettingzoo and gymnasium
OPENSPIEL = "nim-evo[openspiel]"
TEXTARENA = "nim-evo[textarena]"


class MissingExtra(UserError, ImportError):
    """An optional package an adapter needs is not installed (one line: which extra installs it)."""


def need(module: str, extra: str, what: str):
    """The module ``module``, or a :class:`MissingExtra` saying that ``what`` needs ``extra``."""
    try:
        return import_module(module)
    except ImportError as error:
        if error.name is not None and error.name != module and not module.startswith(error.name + "."):
            raise  # the package is there, something inside it is broken: its own error
        raise MissingExtra(f"{what} needs the {module.split('.')[0]} package: pip install '{extra}'") from None
