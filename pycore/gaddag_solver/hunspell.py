"""Every word form of a Hunspell dictionary: the stems of its ``.dic`` file with the suffix and
prefix rules of its ``.aff`` file applied, as a word game needs them (spell checkers store a
stem and its rule classes instead of each inflected form).

What is read: ``SET`` (only UTF-8), ``FLAG`` (only the default: one character per flag), and
the ``SFX``/``PFX`` classes (``strip``, ``add``, ``condition``; ``0`` for nothing), with a
class's prefixes and suffixes combined when both allow it (``Y``). Anything that would change
which forms exist and is not handled here — continuation classes (``add/FLAGS``), compounding,
``NEEDAFFIX``, ``AF`` aliases, other flag types — is refused with :class:`HunspellError`
rather than silently giving another word list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

UNSUPPORTED = ("AF", "AM", "COMPOUNDFLAG", "COMPOUNDRULE", "NEEDAFFIX", "CIRCUMFIX", "ONLYINCOMPOUND")


class HunspellError(ValueError):
    """A dictionary this reader cannot expand faithfully; the message names the file and line."""


@dataclass
class AffixRule:
    strip: str
    add: str
    condition: re.Pattern[str]


@dataclass
class AffixClass:
    kind: str  # "SFX" or "PFX"
    cross: bool
    rules: list[AffixRule] = field(default_factory=list)


def parse_affixes(text: str, source: str = "<aff>") -> dict[str, AffixClass]:
    """The affix classes of an ``.aff`` file, by flag."""
    classes: dict[str, AffixClass] = {}
    expected: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        parts = raw.split("#", 1)[0].split() if not raw.startswith("#") else []
        if not parts:
            continue
        key = parts[0]
        where = f"{source}: line {number}"
        if key == "SET" and len(parts) > 1 and parts[1].upper() not in ("UTF-8", "UTF8"):
            raise HunspellError(f"{where}: encoding {parts[1]} (only UTF-8 is read)")
        if key == "FLAG":
            raise HunspellError(f"{where}: FLAG {' '.join(parts[1:])} (only one-character flags are read)")
        if key in UNSUPPORTED:
            raise HunspellError(f"{where}: {key} is not supported")
        if key not in ("SFX", "PFX"):
            continue
        flag = parts[1] if len(parts) > 1 else ""
        if len(flag) != 1:
            raise HunspellError(f"{where}: flag {flag!r} is not one character")
        if flag not in classes:
            if len(parts) < 4 or parts[2] not in ("Y", "N") or not parts[3].isdigit():
                raise HunspellError(f"{where}: expected '{key} FLAG Y|N COUNT'")
            classes[flag] = AffixClass(key, parts[2] == "Y")
            expected[flag] = int(parts[3])
            continue
        if len(parts) < 5 or classes[flag].kind != key:
            raise HunspellError(f"{where}: expected '{key} {flag} STRIP ADD CONDITION'")
        strip, add, condition = parts[2], parts[3], parts[4]
        if "/" in add:
            raise HunspellError(f"{where}: continuation classes ({add}) are not supported")
        strip = "" if strip == "0" else strip
        add = "" if add == "0" else add
        anchored = f"(?:{condition})$" if key == "SFX" else f"^(?:{condition})"
        try:
            pattern = re.compile(anchored)
        except re.error as exc:
            raise HunspellError(f"{where}: condition {condition!r}: {exc}") from None
        classes[flag].rules.append(AffixRule(strip, add, pattern))
    for flag, count in expected.items():
        if len(classes[flag].rules) != count:
            raise HunspellError(
                f"{source}: class {flag} announces {count} rules and has {len(classes[flag].rules)}"
            )
    return classes


def _apply(word: str, affix: AffixClass) -> list[str]:
    forms = []
    for rule in affix.rules:
        if not rule.condition.search(word):
            continue
        if affix.kind == "SFX":
            if rule.strip and not word.endswith(rule.strip):
                continue
            forms.append(word[: len(word) - len(rule.strip)] + rule.add)
        else:
            if rule.strip and not word.startswith(rule.strip):
                continue
            forms.append(rule.add + word[len(rule.strip) :])
    return forms


def expand(dic_text: str, aff_text: str, source: str = "<dic>") -> list[str]:
    """Every form the dictionary accepts, in the order found (duplicates kept)."""
    classes = parse_affixes(aff_text, source.removesuffix(".dic") + ".aff")
    lines = dic_text.splitlines()
    start = 1 if lines and lines[0].strip().isdigit() else 0  # the approximate entry count
    out: list[str] = []
    for number, raw in enumerate(lines[start:], start=start + 1):
        entry = raw.split("\t", 1)[0].strip()  # morphological fields follow a tab
        if not entry:
            continue
        stem, _, flags = entry.partition("/")  # flags of no class (e.g. "forbidden") add nothing
        if not stem:
            raise HunspellError(f"{source}: line {number}: an entry without a word")
        out.append(stem)
        suffixes = [classes[f] for f in flags if f in classes and classes[f].kind == "SFX"]
        prefixes = [classes[f] for f in flags if f in classes and classes[f].kind == "PFX"]
        suffixed = [form for affix in suffixes for form in _apply(stem, affix)]
        out.extend(suffixed)
        for prefix in prefixes:
            out.extend(_apply(stem, prefix))
            if prefix.cross:
                crossing = [form for affix in suffixes if affix.cross for form in _apply(stem, affix)]
                for form in crossing:
                    out.extend(_apply(form, prefix))
    return out
