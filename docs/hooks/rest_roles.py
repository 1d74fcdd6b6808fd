"""Griffe extension: the package's docstrings are written for Sphinx's roles
(``:func:`~nim_evo.api.evolve```); the site renders them as Markdown code spans (``evolve``),
the object's last name where the role's target starts with ``~``, as Sphinx shows it."""

from __future__ import annotations

import re

from griffe import Extension, Object

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj):`(~?)([^`]+)`")


def markdown(text: str) -> str:
    """``text`` with each Sphinx role as a code span."""
    return ROLE.sub(lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`", text)


class RestRoles(Extension):
    def on_instance(self, *, obj: Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
