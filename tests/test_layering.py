"""The package's imports point down only (../shared/DESIGN.md: page/CLI → API → game/strategy
→ solver → core), with no cycle among its modules.

Read from the source with `ast`, imports inside functions included: a cycle hidden in a
function is still a cycle a newcomer has to untangle. `from . import x` counts as an import of
the submodule `x`, not of the package's `__init__`, which gathers the public names and so
imports nearly everything.
"""

from __future__ import annotations

import ast
from pathlib import Path

import gaddag_solver
from graphs import cycles

PACKAGE = Path(gaddag_solver.__file__).parent
NAME = "gaddag_solver"
INTERFACES = (f"{NAME}.cli", f"{NAME}.web_api")  # the top layer: packages of one module a command
GAME = f"{NAME}.game"
CORE_API = f"{NAME}._core_api"


def interface_of(name: str) -> str | None:
    """The interface package (the CLI, the page's API) that module `name` belongs to, if any."""
    return next((i for i in INTERFACES if name == i or name.startswith(i + ".")), None)


def is_entry_point(name: str) -> bool:
    return name in (NAME, f"{NAME}.__main__") or interface_of(name) is not None


def module_files() -> dict[str, Path]:
    files = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[".".join(parts)] = path
    return files


def from_imports(name: str, path: Path) -> list[tuple[ast.ImportFrom, str]]:
    """Each `from X import ...` of module `name` (at `path`), anywhere in its source, with X
    resolved to an absolute module name."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found.append((node, source))
    return found


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules that `name` (at `path`) imports, anywhere in its source."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
    for node, source in from_imports(name, path):
        submodules = {f"{source}.{alias.name}" for alias in node.names} & modules
        found |= submodules
        if len(submodules) < len(node.names) and source in modules:
            found.add(source)
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imports_of(name, path, set(files)) for name, path in files.items()}


def test_the_graph_sees_the_imports_it_should() -> None:
    graph = import_graph()
    assert len(graph) > 30 and f"{GAME}.play" in graph
    # relative imports at one and two levels, and a submodule imported from its package
    assert f"{NAME}.board" in graph[f"{NAME}.formats.cgp"]  # from ..board import Board, ...
    assert CORE_API in graph[f"{NAME}.solver"]  # from . import _core_api as core
    assert f"{GAME}.play" in graph[f"{NAME}.web_api.lookahead"]
    # a package's modules importing each other (from . import solve; from ._common import ...)
    assert f"{NAME}.cli.solve" in graph[f"{NAME}.cli"]
    assert f"{NAME}.cli._common" in graph[f"{NAME}.cli.solve"]
    assert f"{CORE_API}.lexicon" in graph[f"{CORE_API}.movegen"]
    # and the package's __init__ is not taken for its submodules
    assert NAME not in graph[f"{NAME}.solver"]


def test_every_import_within_the_package_finds_its_module() -> None:
    """A relative import one level short (`from .game import x` in a module of cli/) names a
    module that does not exist, and fails only once the function holding it runs."""
    import importlib.util

    missing = []
    for name, path in module_files().items():
        for node, source in from_imports(name, path):
            if (node.level or source.startswith(NAME + ".")) and importlib.util.find_spec(source) is None:
                missing.append(f"{name}:{node.lineno}: {source}")
    assert missing == []


def test_cycles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_imports_point_down() -> None:
    graph = import_graph()
    upward = []
    for name, targets in graph.items():
        for target in targets:
            if is_entry_point(target) and name != f"{NAME}.__main__":
                # only `python -m` runs the CLI; an interface's modules import only each other
                if interface_of(target) is None or interface_of(target) != interface_of(name):
                    upward.append((name, target))
            in_game = name == GAME or name.startswith(GAME + ".")
            if target.startswith(GAME) and not in_game and not is_entry_point(name):
                upward.append((name, target))  # the solver and formats know nothing of games
    assert upward == []


def test_the_checks_see_upward_imports() -> None:
    assert interface_of(f"{NAME}.cli.solve") == f"{NAME}.cli" and interface_of(f"{NAME}.solver") is None
    assert is_entry_point(f"{NAME}.web_api.moves") and not is_entry_point(f"{NAME}.web")


def test_the_core_api_package_has_every_name_of_its_modules() -> None:
    """``from gaddag_solver import _core_api as core; core.X`` reaches every X its modules define
    (the package's __init__ imports each by name)."""
    import importlib

    package = importlib.import_module(CORE_API)
    missing = []
    for name, path in module_files().items():
        if not name.startswith(CORE_API + "."):
            continue
        module = importlib.import_module(name)
        for node in ast.parse(path.read_text(), str(path)).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                defined = [node.name]
            elif isinstance(node, ast.Assign):
                defined = [target.id for target in node.targets if isinstance(target, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                defined = [node.target.id]
            else:
                continue
            missing += [f"{name}.{x}" for x in defined if getattr(package, x, None) is not getattr(module, x)]
    assert missing == []
    assert package.lib is importlib.import_module(f"{NAME}._binding").lib
