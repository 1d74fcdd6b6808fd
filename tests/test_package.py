"""The package's face: every public name works, and importing it loads nothing heavy."""

import subprocess
import sys

import pytest

import nim_evo


def test_every_public_name_resolves():
    for name in nim_evo.__all__:
        assert getattr(nim_evo, name) is not None, name
    assert set(nim_evo.__all__) <= set(dir(nim_evo))
    assert nim_evo.Rules((1, 2)).name == "1-2"


def test_type_checkers_and_the_docs_see_the_same_names_where_they_are_imported_from():
    """The public names load lazily; a type checker (and the docs, which read the code) sees them
    through the root's ``if TYPE_CHECKING:`` imports, which must name each one from its module."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(nim_evo))
    block = next(node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING")
    seen = {alias.name: node.module for node in block.body for alias in node.names}
    assert seen == nim_evo._EXPORTS


def test_an_unknown_name_is_an_attribute_error():
    try:
        nim_evo.no_such_thing
    except AttributeError as error:
        assert "no_such_thing" in str(error)
    else:
        raise AssertionError("no AttributeError")


def test_import_nim_evo_and_its_main_commands_load_no_numpy_scipy_matplotlib_or_deap():
    """What makes ``import nim_evo`` and every ``--help`` answer at once (timed in
    benchmarks/startup.py): the heavy libraries load on first use, not with the package."""
    heavy = ("numpy", "scipy", "matplotlib", "deap", "joblib")
    code = f"import sys, nim_evo; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"
    code = f"import sys, nim_evo.commands.run, nim_evo.commands.plot; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"


def _deferred_imports(tree) -> list:
    """The ``import`` statements inside a function or method body, at any depth (the
    ``if TYPE_CHECKING:`` blocks are not imports that run, and are left out)."""
    import ast

    found = []

    def visit(node, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit_one(other, in_function)
                continue
            visit_one(child, in_function)

    def visit_one(child, in_function: bool) -> None:
        if isinstance(child, (ast.Import, ast.ImportFrom)) and in_function:
            found.append(child)
        visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(tree, False)
    return found


def test_every_deferred_import_says_why():
    """An import inside a function guards something (``--help`` and ``import nim_evo`` loading no
    numpy, an optional extra, matplotlib only when drawing, an import circle), and its comment,
    on its line or the line above, says what; an import that guards nothing is at the top."""
    import ast
    from pathlib import Path

    root = Path(nim_evo.__file__).parent
    silent = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in _deferred_imports(ast.parse(source)):
            line, above = lines[node.lineno - 1], lines[node.lineno - 2] if node.lineno > 1 else ""
            if "#" not in line and not above.strip().startswith("#"):
                silent.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert not silent, f"deferred imports that do not say why ({len(silent)}): " + ", ".join(silent)



def _help(module) -> None:
    with pytest.raises(SystemExit):
        module.main(["--help"])


def test_every_commands_help_states_its_limits(capsys):
    """Issue 17: the limits on boards, workers and budgets are in --help, before anything is tried."""
    from nim_evo.commands import arena, learn, play, run

    limits = {run: ("--jobs", "the machine's cores", "2 to 10,000", "at most 1,000,000"),
              learn: ("at most 100,000,000",), arena: ("the machine's cores", "at most 1,000,000"),
              play: ("at most 1,000,000",)}
    for module, phrases in limits.items():
        _help(module)
        text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")  # argparse wraps after hyphens
        for phrase in ("at most 10^15", "2,000,000 multisets", "20,000,000 position-move", *phrases):
            assert phrase in text, (module.__name__, phrase)
        assert "``" not in text, module.__name__  # plain text, not the docstring's reST
    _help(learn)
    usage = capsys.readouterr().out.split("\n\n")[0]
    assert " --learner" in usage and "[--learner" not in usage  # its usage line says it is required


def test_the_installed_package_says_it_is_typed_and_the_project_says_its_licence():
    """PEP 561's marker is installed with the package (CI installs it from a wheel), so a
    user's type checker reads nim_evo's annotations; the licence pyproject names is there."""
    from importlib import resources
    from pathlib import Path

    assert resources.files("nim_evo").joinpath("py.typed").is_file()
    root = Path(__file__).parents[1]
    assert "MIT License" in (root / "LICENSE").read_text()
    assert "cff-version: 1.2.0" in (root / "CITATION.cff").read_text()


def _undocumented() -> list[str]:
    """The package's public names without a docstring: modules, their functions and classes, and
    the classes' public methods and properties (a method that overrides a documented one has
    its docstring, as ``inspect.getdoc`` and ``help()`` give it)."""
    import importlib
    import inspect
    import pkgutil

    missing = []
    for info in pkgutil.walk_packages(nim_evo.__path__, "nim_evo."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        if not inspect.getdoc(module):
            missing.append(info.name)
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", None) != info.name:
                continue
            if not (inspect.isfunction(value) or inspect.isclass(value)):
                continue
            if not inspect.getdoc(value):
                missing.append(f"{info.name}.{name}")
            if inspect.isclass(value):
                for attribute, member in vars(value).items():
                    function = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                    if attribute.startswith("_") or not inspect.isfunction(function):
                        continue
                    if not inspect.getdoc(member if isinstance(member, property) else getattr(value, attribute)):
                        missing.append(f"{info.name}.{name}.{attribute}")
    return missing


def test_every_public_name_is_documented():
    """What ``help()`` and the manual's reference show of each public name says something
    (a quarter of them said nothing)."""
    assert _undocumented() == []
