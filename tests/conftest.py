"""Fixtures shared by the tests: the small lexicon of the CLI tests, the built SOWPODS and TWL06, the
page's site, server and browser; and how pytest-xdist shares the tests out (scripts/test.sh)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gaddag_solver import Lexicon, Rules, build_gaddag
from gaddag_solver.lexicons import resolve_lexicon
from small_words import WORDS


@pytest.fixture(scope="session")
def lexicon_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The small English lexicon (tests/small_words.py) as a .gaddag file."""
    data, _report = build_gaddag(WORDS, Rules.load("english").alphabet, name="small")
    path = tmp_path_factory.mktemp("lexicon") / "small.gaddag"
    path.write_bytes(data)
    return str(path)


@pytest.fixture(scope="session")
def sowpods() -> Lexicon:
    """The built SOWPODS lexicon (missing, the tests that ask for it fail rather than skip)."""
    return Lexicon.load(resolve_lexicon("sowpods"), Rules.load("english"))


@pytest.fixture(scope="session")
def twl06() -> Lexicon:
    """The built TWL06 lexicon."""
    return Lexicon.load(resolve_lexicon("twl06"), Rules.load("english"))


@pytest.fixture(scope="session")
def ctypes_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """csrc/ built as a plain shared library (-O2), for the ctypes binding natively (the code path
    Pyodide runs, without the browser): built once for every worker of the run."""
    import shutil
    import subprocess

    from build_lock import locked, shared_temp

    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler is not None, "no C compiler"
    folder = shared_temp(tmp_path_factory) / "ctypes-library"
    library = folder / "libgaddag_core.so"
    with locked(folder / "lock"):
        if not library.exists():
            csrc = Path(__file__).resolve().parent.parent / "csrc"
            sources = sorted(str(path) for path in csrc.glob("*.c"))
            partial = folder / "libgaddag_core.so.partial"
            flags = ["-std=c11", "-O2", "-shared", "-fPIC", f"-I{csrc}"]
            subprocess.run([compiler, *flags, *sources, "-o", str(partial), "-lm"], check=True)
            partial.replace(library)
    return library


# ---- the page's tests: one site, server and browser per worker ---------------------------------


@pytest.fixture(scope="session")
def site() -> Path:
    """build/site, built (incrementally) by scripts/build_site.py."""
    from test_web_e2e import SITE, build_site

    return build_site(SITE)


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[str]:
    """The site served on 127.0.0.1 (a free port, this worker's own)."""
    from static_server import static_server

    with static_server(site) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium under Playwright (the test modules skip or fail before asking for it when
    either is missing: tests/test_web_e2e.py)."""
    import playwright.sync_api as playwright_api
    from chromium import launch

    with playwright_api.sync_playwright() as p:
        browser = launch(p)
        try:
            yield browser
        finally:
            browser.close()


# ---- pytest-xdist: which worker runs what --------------------------------------------------------
#
# scripts/test.sh runs `pytest -n auto --dist loadscope`: a worker per core, each given one unit
# of tests at a time. A unit is a module, its tests in their order, so what a module makes once
# (its module fixtures: a page played through test by test, a lexicon built) is made once, and
# session fixtures (the site, its server, a Chromium) once per worker. The modules of SPLIT have
# independent tests and no costly module fixtures: there each test is a unit of its own, so their
# long tests spread over the workers. Units are handed out in collection order, which on the
# workers puts LONGEST_FIRST (prefixes of test ids, the longest units first) at the front: a long
# unit started last would leave the other workers idle at the end.

SPLIT = {
    "tests/test_c_sanitizers.py",
    "tests/test_endgame.py",
    "tests/test_fuzz.py",
    "tests/test_movegen.py",
    "tests/test_preendgame.py",
    "tests/test_signals.py",
}
LONGEST_FIRST = [
    "tests/test_web_page.py",
    "tests/test_c_sanitizers.py::test_python_suites_on_the_sanitized_core",
    "tests/test_web_e2e.py",
    "tests/test_preendgame.py::test_every_candidate_wins_as_often_as_the_brute_force_model_says",
    "tests/test_c_sanitizers.py::test_core_under_sanitizers",
    "tests/test_web_api.py",
    "tests/test_web_replay.py",
    "tests/test_web_a11y.py",
    "tests/test_train_leaves.py",
    "tests/test_oracle.py",
    "tests/test_endgame.py::test_endgame_values_equal_a_brute_force_minimax",
    "tests/test_stream.py",
    "tests/test_wasm_parity.py",
    "tests/test_review.py",
    "tests/test_review_end.py",
    "tests/test_web_own.py",
    "tests/test_web_layout.py",
    "tests/test_web_lookahead.py",
    "tests/test_movegen.py::test_random_games",
    "tests/test_fuzz.py",
]


def unit_of(nodeid: str) -> str:
    module = nodeid.split("::", 1)[0]
    return nodeid if module in SPLIT else module


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return  # a run without workers keeps the files' order

    def rank(item: pytest.Item) -> int:
        ranks = (i for i, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix))
        return next(ranks, len(LONGEST_FIRST))

    items.sort(key=rank)  # stable: a module's tests keep their order


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getoption("dist") != "loadscope":
        return None  # another --dist: xdist's own scheduler

    from xdist.scheduler import LoadScopeScheduling

    class UnitScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    return UnitScheduling(config, log)
