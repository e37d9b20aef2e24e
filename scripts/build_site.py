#!/usr/bin/env python3
"""Assemble the static site in build/site/: the page, Pyodide, our wheel, lexicons and data.

    python scripts/build_site.py [--out build/site] [--force] [--lexicons DIR ...]

What goes in (every URL in the page is relative, so the folder works from any static host):

| path | from |
| --- | --- |
| index.html, style.css, *.js | web/ (the page, its modules and the solver's Web Worker); index.html with |
| | rules.json and lexicons.json written into it and a modulepreload link for every module app.js |
| | imports, directly or not (page_html), so the board is drawn without waiting for a fetch |
| pyodide/ | node_modules/pyodide (`npm ci`): the five runtime files of PYODIDE_FILES |
| wheels/gaddag_solver-*.whl | scripts/build_wasm.py (built when missing or older than its sources), with |
| | its modules' bytecode for Pyodide's Python added (scripts/compile_wheel.mjs, under Node) |
| python-snapshot.gz | Python's memory once started, which the page boots from (scripts/python_snapshot.mjs, |
| | under Node; made when missing or older than the script or Pyodide; left out without Node) |
| lexicons/NAME.gaddag | lexicons/*.gaddag |
| lexicons/NAME.leaves | lexicons/*.leaves, then the package's trained tables |
| | (pycore/gaddag_solver/leaves/), whose ruleset is shipped (others, and damaged ones, are left out) |
| lexicons.json | per lexicon: name, the rulesets it fits, words, bytes, its leave table (``leaves``: the |
| | table named after it, or the one it shares, when shipped; read with Lexicon.load); |
| | per leave table (``leaves``): name, its ruleset, entries, bytes (read with Leaves.load) |
| rules.json | every shipped ruleset as the page draws it (Rules.load; gaddag_solver.web_api.rules_data) |
| site.json | the wheel's path, the Python snapshot's (null when there is none), the versions, the |
| | site's version (a hash of every file shipped) and its shell: the files the service worker |
| | stores on the first visit (all but lexicons and tables) |
| sw.js | web/sw.js with the site's version written in (a rebuilt site is a new version) |

Files already up to date are left alone; files that no longer belong are removed.
``--lexicons DIR`` (repeatable) takes lexicons and leave tables from those folders instead of
lexicons/ (a name found in an earlier folder wins): how the tests ship a small leave table.
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
PYODIDE = ROOT / "node_modules" / "pyodide"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
LEXICONS = ROOT / "lexicons"
WASM_OUT = ROOT / "build" / "wasm"
DEFAULT_OUT = ROOT / "build" / "site"
SERVICE_WORKER = WEB / "sw.js"
INDEX = WEB / "index.html"
SITE_DATA = '<script type="application/json" id="site-data"></script>'
PRELOADS = "<!-- modulepreload links: written by scripts/build_site.py -->"
IMPORT_RE = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s+["']\./([\w.-]+\.js)["']""", re.MULTILINE)

sys.path.insert(0, str(ROOT / "scripts"))
try:
    import gaddag_solver  # noqa: F401
except ImportError:  # run without the package installed: use the checkout
    sys.path.insert(0, str(ROOT / "pycore"))


def service_worker(source: str, version: str) -> str:
    """web/sw.js with its ``VERSION`` set to the site's."""
    marker = 'const VERSION = "dev";'
    if marker not in source:
        raise SystemExit(f"{SERVICE_WORKER} has no line `{marker}` for the site's version")
    return source.replace(marker, f"const VERSION = {json.dumps(version)};", 1)


def module_graph(entry: str) -> list[str]:
    """Every module ``entry`` (a file of web/) imports, directly or through others, in the order
    first met (static imports of ``./NAME.js`` only; dynamic ``import()`` is left to load late)."""
    found: list[str] = []
    pending = [entry]
    while pending:
        text = (WEB / pending.pop(0)).read_text(encoding="utf-8")
        for name in IMPORT_RE.findall(text):
            if name not in found and name != entry:
                found.append(name)
                pending.append(name)
    return found


def page_html(rules: object, lexicons: object) -> str:
    """web/index.html with the page's data written in (no fetch before the board is drawn) and a
    modulepreload link per module (fetched in parallel, not one import after another)."""
    text = INDEX.read_text(encoding="utf-8")
    for marker in (SITE_DATA, PRELOADS):
        if text.count(marker) != 1:
            raise SystemExit(f"{INDEX}: expected {marker!r} once")
    data = json.dumps({"rules": rules, "lexicons": lexicons}, ensure_ascii=False, separators=(",", ":"))
    data = data.replace("</", "<\\/")  # nothing in it may end the script element
    links = "\n  ".join(f'<link rel="modulepreload" href="{name}">' for name in module_graph("app.js"))
    return text.replace(SITE_DATA, SITE_DATA.replace("></", f">{data}</")).replace(PRELOADS, links)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build_wheel(force: bool = False) -> Path:
    """The browser wheel, built by scripts/build_wasm.py when missing or stale. Without emcc an
    existing wheel is used as it is (with a warning)."""
    import build_wasm

    existing = sorted(WASM_OUT.glob("gaddag_solver-*-py3-none-any.whl"))
    if not shutil.which("emcc") and existing and not force:
        log(f"warning: emcc not found; using the existing {existing[-1].name} (it may be out of date)")
        return existing[-1]
    return build_wasm.build(WASM_OUT, force)


def by_node(script: Path, target: Path, inputs: list[Path], arguments: list[str], missing: str) -> bool:
    """Make ``target`` with ``node SCRIPT ARGUMENTS... TARGET`` (written to a partial file first)
    unless it is newer than the script and ``inputs``. False, with a warning ending in
    ``missing``, without Node or when the script fails."""
    if target.exists() and target.stat().st_mtime >= max(path.stat().st_mtime for path in [script, *inputs]):
        return True
    node = shutil.which("node")
    if not node:
        log(f"warning: node not found; {missing}")
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    done = subprocess.run(
        [node, str(script), *arguments, str(partial)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0 or not partial.exists():
        why = done.stderr.strip() or f"exit code {done.returncode}"
        log(f"warning: {script.name} failed ({why}); {missing}")
        return False
    partial.replace(target)
    log(f"{target.name}: {done.stdout.strip()}")
    return True


def compiled_wheel(wheel: Path) -> Path:
    """The wheel with bytecode compiled by Pyodide's own Python (scripts/compile_wheel.mjs), so
    the page does not compile our modules at every start; made again when the wheel or the
    script is newer. Without Node, or if it fails, the wheel as it is (with a warning)."""
    target = WASM_OUT / "compiled" / wheel.name
    script = ROOT / "scripts" / "compile_wheel.mjs"
    missing = "the site's wheel has no compiled bytecode (slower starts)"
    return target if by_node(script, target, [wheel], [str(wheel)], missing) else wheel


def python_snapshot() -> Path | None:
    """Python's memory snapshot for the page (scripts/python_snapshot.mjs), made again when the
    script or Pyodide is newer. Without Node, or if it fails, None (with a warning): the page
    then starts Python from scratch, slower."""
    target = WASM_OUT / "python-snapshot.gz"
    script = ROOT / "scripts" / "python_snapshot.mjs"
    inputs = [PYODIDE / "package.json", *(PYODIDE / name for name in PYODIDE_FILES)]
    missing = "the site has no Python snapshot (the page starts Python from scratch, slower)"
    return target if by_node(script, target, inputs, [], missing) else None


def pyodide_version() -> str:
    try:
        return json.loads((PYODIDE / "package.json").read_text())["version"]
    except (OSError, KeyError, ValueError):
        return "unknown"


def named_files(folders: list[Path], suffix: str) -> list[Path]:
    """``*suffix`` files of the folders, by name; a name in an earlier folder wins."""
    found: dict[str, Path] = {}
    for folder in folders:
        for path in sorted(folder.glob(f"*{suffix}")):
            if path.is_file():
                found.setdefault(path.name, path)
    return [found[name] for name in sorted(found)]


def leaves_manifest(paths: list[Path]) -> tuple[list[Path], list[dict[str, object]]]:
    """The leave tables worth shipping (valid, for a shipped ruleset) and their entries."""
    from gaddag_solver.formats.leaves import Leaves, LeavesError
    from gaddag_solver.web_api import leaves_info

    kept: list[Path] = []
    entries = []
    for path in paths:
        try:
            table = Leaves.load(path)  # refuses a table whose ruleset is not shipped
        except LeavesError as error:
            log(f"warning: {path.name} is left out: {error}")
            continue
        entry = leaves_info(path.name.removesuffix(".leaves"), table)
        entry["file"] = f"lexicons/{path.name}"
        kept.append(path)
        entries.append(entry)
    return kept, entries


def lexicon_manifest(paths: list[Path], leaves: list[dict[str, object]]) -> list[dict[str, object]]:
    from gaddag_solver import Lexicon
    from gaddag_solver.formats.leaves import SHARED_TABLES
    from gaddag_solver.web_api import lexicon_info

    shipped = {entry["name"] for entry in leaves}
    entries = []
    for path in paths:
        name = path.name.removesuffix(".gaddag")
        lexicon = Lexicon.load(path)
        entry = lexicon_info(name, lexicon)
        entry["file"] = f"lexicons/{path.name}"
        table = SHARED_TABLES.get(name, name)
        if table in shipped:
            entry["leaves"] = table
        entries.append(entry)
    return entries


class Sync:
    """Copy files into the output folder, skipping those already identical."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.wanted: set[Path] = set()
        self.copied = 0
        self.kept = 0

    def copy(self, source: Path, relative: str) -> None:
        target = self.out / relative
        self.wanted.add(target)
        if target.exists() and target.stat().st_size == source.stat().st_size:
            if target.stat().st_mtime >= source.stat().st_mtime or filecmp.cmp(source, target, shallow=False):
                self.kept += 1
                return
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        shutil.copy2(source, partial)
        partial.replace(target)
        self.copied += 1

    def version(self, *texts: str) -> str:
        """A hash of every file copied so far (name and bytes) and of ``texts``."""
        digest = hashlib.sha256()
        for target in sorted(self.wanted):
            digest.update(target.relative_to(self.out).as_posix().encode() + b"\0")
            digest.update(target.read_bytes())
        for text in texts:
            digest.update(text.encode())
        return digest.hexdigest()[:16]

    def write(self, relative: str, text: str) -> None:
        target = self.out / relative
        self.wanted.add(target)
        if target.exists() and target.read_text(encoding="utf-8") == text:
            self.kept += 1
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        self.copied += 1

    def prune(self) -> int:
        removed = 0
        for path in sorted(self.out.rglob("*"), reverse=True):
            if path.is_file() and path not in self.wanted:
                path.unlink()
                removed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
        return removed


def build(out: Path = DEFAULT_OUT, force: bool = False, lexicon_dirs: list[Path] | None = None) -> Path:
    """Assemble the site in ``out`` with the lexicons and leave tables of ``lexicon_dirs``
    (default: lexicons/); returns ``out``."""
    from gaddag_solver.web_api import all_rules_data

    started = time.perf_counter()
    missing = [name for name in PYODIDE_FILES if not (PYODIDE / name).is_file()]
    if missing:
        raise SystemExit(
            f"Pyodide is missing from {PYODIDE} ({', '.join(missing)}): run `npm ci` in {ROOT} "
            "(scripts/setup_env.sh does)"
        )
    wheel = compiled_wheel(build_wheel(force))
    folders = list(lexicon_dirs) if lexicon_dirs else [LEXICONS]
    lexicon_paths = named_files(folders, ".gaddag")
    from gaddag_solver.formats.leaves import SHIPPED_DIR

    leaves_paths, leaves_entries = leaves_manifest(named_files([*folders, SHIPPED_DIR], ".leaves"))
    if not lexicon_paths:
        log(
            f"warning: no lexicons in {', '.join(map(str, folders))}: the page can draw boards but not solve "
            "(python scripts/build_default_lexicons.py builds the default ones)"
        )

    out.mkdir(parents=True, exist_ok=True)
    sync = Sync(out)
    for path in sorted(WEB.rglob("*")):
        if path in (SERVICE_WORKER, INDEX):
            continue  # written below: the service worker last, with the version of everything else
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(WEB).parts):
            sync.copy(path, path.relative_to(WEB).as_posix())
    for name in PYODIDE_FILES:
        sync.copy(PYODIDE / name, f"pyodide/{name}")
    sync.copy(wheel, f"wheels/{wheel.name}")
    snapshot = python_snapshot()
    if snapshot:
        sync.copy(snapshot, "python-snapshot.gz")
    for path in lexicon_paths + leaves_paths:
        sync.copy(path, f"lexicons/{path.name}")

    manifest = {"lexicons": lexicon_manifest(lexicon_paths, leaves_entries), "leaves": leaves_entries}
    rules_data = all_rules_data()
    sync.write("lexicons.json", json.dumps(manifest, indent=1) + "\n")
    sync.write("rules.json", json.dumps(rules_data, ensure_ascii=False, indent=1) + "\n")
    sync.write("index.html", page_html(rules_data, manifest))
    shell = sorted(
        target.relative_to(out).as_posix()
        for target in sync.wanted
        if not target.relative_to(out).as_posix().startswith("lexicons/")
    )
    shell = [*shell, "site.json"]
    worker_source = SERVICE_WORKER.read_text(encoding="utf-8")
    version = sync.version(worker_source)
    site = {
        "wheel": f"wheels/{wheel.name}",
        "pyodide": pyodide_version(),
        "pyodide_dir": "pyodide/",
        "python_snapshot": "python-snapshot.gz" if snapshot else None,
        "version": version,
        "shell": shell,
    }
    sync.write("site.json", json.dumps(site, indent=1) + "\n")
    sync.write("sw.js", service_worker(worker_source, version))
    removed = sync.prune()
    log(
        f"site {out}: {sync.copied} files written, {sync.kept} up to date, {removed} removed "
        f"({len(lexicon_paths)} lexicons, {len(leaves_paths)} leave tables) in "
        f"{time.perf_counter() - started:.2f} s"
    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default build/site)")
    parser.add_argument("--force", action="store_true", help="rebuild the wheel even when up to date")
    parser.add_argument(
        "--lexicons",
        type=Path,
        action="append",
        metavar="DIR",
        help="take lexicons and leave tables from DIR (repeatable; default lexicons/)",
    )
    args = parser.parse_args()
    build(args.out.resolve(), args.force, [folder.resolve() for folder in args.lexicons or []])
    return 0


if __name__ == "__main__":
    sys.exit(main())
