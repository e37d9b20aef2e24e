"""The C core's units form layers whose includes and calls point down only, with no cycle.

A unit is a file's name without its extension and an `_internal` suffix: `movegen.c` and
`movegen_internal.h` are the unit `movegen`, a header with no .c of its name (`tiles.h`) a unit
of its own. A unit depends on another when one of its files includes one of the other's
(`#include "..."`, read from the source), or when its object file uses a symbol the other's
defines (each csrc/*.c compiled alone, its symbols listed by `nm`): a call hidden behind a header
of a third unit still counts. Each unit has a place in LAYERS, bottom first, and depends only on
units of its own layer or below; a new file fails here until it is given one.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest
from graphs import cycles

CSRC = Path(__file__).resolve().parent.parent / "csrc"

#: Bottom first: the layers of the core (../shared/DESIGN.md) and the units in each.
LAYERS: list[tuple[str, set[str]]] = [
    ("the public header", {"gaddag_solver"}),
    (
        "format and lexicon",
        {
            "build_target",
            "gaddag_format",
            "gaddag",
            "gaddag_build",
            "anagram_filter",
            "word_map",
            "dawg",
            "leaves",
        },
    ),
    ("board and cross-sets", {"rules_check", "tiles", "workspace", "crossset", "score"}),
    ("generation", {"movegen", "movegen_dawg"}),
    ("game", {"rng", "game", "train"}),
    ("look-ahead", {"infer", "sim", "endgame", "endgame_words", "preendgame"}),
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def unit_of(name: str) -> str:
    stem = Path(name).stem
    return stem.removesuffix("_internal")


def source_files() -> list[Path]:
    return sorted([*CSRC.glob("*.c"), *CSRC.glob("*.h")])


def file_includes() -> dict[str, set[str]]:
    """Each csrc file's own includes, by file name."""
    return {path.name: set(INCLUDE.findall(path.read_text(encoding="utf-8"))) for path in source_files()}


def unit_graph(edges: Iterable[tuple[str, str]]) -> dict[str, set[str]]:
    """Unit -> the other units it depends on, for file-level edges (from, to)."""
    graph: dict[str, set[str]] = {unit_of(path.name): set() for path in source_files()}
    for source, target in edges:
        a, b = unit_of(source), unit_of(target)
        graph.setdefault(a, set())
        graph.setdefault(b, set())
        if a != b:
            graph[a].add(b)
    return graph


def include_edges() -> list[tuple[str, str]]:
    return [(source, target) for source, targets in file_includes().items() for target in targets]


def nm_symbols(objects: Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(defined, used) global symbols of each object in `objects`, by the .c file's name."""
    defined: dict[str, set[str]] = {}
    used: dict[str, set[str]] = {}
    for obj in sorted(objects.glob("*.o")):
        listing = subprocess.run(["nm", "-P", str(obj)], capture_output=True, text=True, check=True).stdout
        name = obj.with_suffix(".c").name
        defined[name], used[name] = set(), set()
        for line in listing.splitlines():
            fields = line.split()
            if len(fields) < 2:
                continue
            symbol, kind = fields[0], fields[1]
            if kind == "U":
                used[name].add(symbol)
            elif kind in "TDBRC":
                defined[name].add(symbol)
    return defined, used


@pytest.fixture(scope="module")
def symbols(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or shutil.which("nm") is None:
        pytest.fail("cc and nm are needed to read the core's calls")
    out = tmp_path_factory.mktemp("c_layering")
    sources = sorted(CSRC.glob("*.c"))
    result = subprocess.run(
        [compiler, "-std=c11", "-O0", "-c", f"-I{CSRC}", *map(str, sources)],
        cwd=out,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    defined, used = nm_symbols(out)
    assert set(defined) == {path.name for path in sources}
    return defined, used


def call_edges(symbols: tuple[dict[str, set[str]], dict[str, set[str]]]) -> list[tuple[str, str, str]]:
    """(file, the file defining a symbol it uses, the symbol), between different files."""
    defined, used = symbols
    owner = {symbol: name for name, names in defined.items() for symbol in names}
    return [
        (name, owner[symbol], symbol)
        for name, names in sorted(used.items())
        for symbol in sorted(names)
        if symbol in owner and owner[symbol] != name
    ]


def layer_of(unit: str) -> int:
    return next(i for i, (_, units) in enumerate(LAYERS) if unit in units)


# ---- the checker on known graphs ---------------------------------------------------------------


def test_cycles_are_found() -> None:
    # the core before the workspace and the rules check had units of their own: crossset.c took
    # the workspace and gd_tile_value from movegen's header, movegen.c gd_check_rules from crossset.c
    before = unit_graph(
        [
            ("crossset.c", "movegen_internal.h"),
            ("movegen.c", "movegen_internal.h"),
            ("movegen.c", "crossset.c"),
            ("score.c", "movegen_internal.h"),
        ]
    )
    assert ["crossset", "movegen"] in cycles(before)
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_units_are_named_by_their_files() -> None:
    assert unit_of("movegen_internal.h") == unit_of("movegen.c") == "movegen"
    assert unit_of("workspace.h") == "workspace" and unit_of("tiles.h") == "tiles"


def test_the_graphs_see_what_they_should(symbols) -> None:
    includes = unit_graph(include_edges())
    assert {"workspace", "tiles", "gaddag_format"} <= includes["crossset"]
    assert "rules_check" in includes["workspace"]
    calls = {(unit_of(a), unit_of(b), symbol) for a, b, symbol in call_edges(symbols)}
    assert ("movegen", "workspace", "gd_check_prepared_rules") in calls
    assert ("workspace", "rules_check", "gd_check_rules") in calls
    assert ("gaddag", "anagram_filter", "gd_build_anagram_filter") in calls
    assert ("endgame", "movegen", "gd_generate_horizon_best") in calls


# ---- the core ------------------------------------------------------------------------------------


def test_every_unit_has_a_layer() -> None:
    units = set(unit_graph(include_edges()))
    placed = [unit for _, members in LAYERS for unit in members]
    assert len(placed) == len(set(placed)), "a unit is in two layers"
    assert units - set(placed) == set(), "give these csrc units a place in LAYERS"
    assert set(placed) - units == set(), "LAYERS names units that csrc/ no longer has"


def test_includes_stay_in_csrc() -> None:
    names = {path.name for path in source_files()}
    missing = {(source, target) for source, target in include_edges() if target not in names}
    assert missing == set()


def test_no_include_cycle() -> None:
    assert cycles(unit_graph(include_edges())) == []


def test_no_call_cycle(symbols) -> None:
    calls = [(a, b) for a, b, _ in call_edges(symbols)]
    assert cycles(unit_graph(calls)) == []
    assert cycles(unit_graph([*calls, *include_edges()])) == []


def test_dependencies_point_down(symbols) -> None:
    edges = [(a, b, "includes") for a, b in include_edges()]
    edges += [(a, b, f"calls {symbol} of") for a, b, symbol in call_edges(symbols)]
    upward = sorted(f"{a} {how} {b}" for a, b, how in edges if layer_of(unit_of(b)) > layer_of(unit_of(a)))
    assert upward == []


def test_every_call_is_declared_by_an_include(symbols) -> None:
    """What a unit uses of another (a function, or data such as gd_dawg_file) is declared by a
    header it includes, itself or through another."""
    includes = file_includes()

    def reached(name: str) -> set[str]:
        seen: set[str] = set()
        pending = list(includes.get(name, ()))
        while pending:
            header = pending.pop()
            if header not in seen:
                seen.add(header)
                pending.extend(includes.get(header, ()))
        return seen

    undeclared = []
    for source, _target, symbol in call_edges(symbols):
        declaration = re.compile(rf"\b{re.escape(symbol)}\s*[(;\[]")
        if not any(
            declaration.search((CSRC / header).read_text(encoding="utf-8")) for header in reached(source)
        ):
            undeclared.append(f"{source}: {symbol}")
    assert undeclared == []
