"""Leave tables: the count and entry order against brute-force enumeration, the rank and its
inverse, the .leaves file (size, damage, foreign rulesets), CSV and KLV2 import, the CLI."""

from __future__ import annotations

import itertools
import random
import struct
import time
from pathlib import Path

import pytest
from gaddag_solver import _core_api as core
from gaddag_solver.cli import main
from gaddag_solver.formats.leaves import Leaves, LeavesError, default_leaves, resolve_leaves
from gaddag_solver.rules import Rules

ENGLISH = Rules.load("english")


def tiny_rules(name: str = "tiny", letters=(("A", 1, 3), ("B", 3, 2), ("C", 4, 1)), blanks: int = 1) -> Rules:
    data = ENGLISH.to_dict()
    data.update(name=name, letters=[list(entry) for entry in letters], blanks=blanks, rack_size=5)
    data["vowels"] = [vowel for vowel in data["vowels"] if any(vowel == entry[0] for entry in letters)]
    return Rules.from_dict(data)


TINY = tiny_rules()


def brute_leaves(counts: list[int], max_leave: int) -> list[tuple[int, ...]]:
    """Every leave as its codes ascending, in entry order: by size, then as strings."""
    found = []
    for vector in itertools.product(*(range(min(c, max_leave) + 1) for c in counts)):
        if 1 <= sum(vector) <= max_leave:
            found.append(tuple(code for code, n in enumerate(vector) for _ in range(n)))
    return sorted(found, key=lambda codes: (len(codes), codes))


def counts_of(codes: tuple[int, ...]) -> bytes:
    out = bytearray(64)
    for code in codes:
        out[code] += 1
    return bytes(out)


def text_of(codes: tuple[int, ...], rules: Rules) -> str:
    return "".join("?" if code == 0 else rules.alphabet.letters[code - 1] for code in codes)


# ---- count, order, rank --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_count_order_and_rank_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    counts = [rng.randint(0, 4) for _ in range(n + 1)]
    counts[rng.randrange(n + 1)] = max(1, counts[0])
    max_leave = rng.randint(1, 5)
    expected = brute_leaves(counts, max_leave)
    assert core.leaves_count(counts, max_leave) == len(expected)
    values = struct.pack(f"<{len(expected)}h", *(rng.randint(-32767, 32767) for _ in expected))
    opened = core.open_leaves(core.build_leaves(counts, max_leave, b"random", values))
    for index, codes in enumerate(expected):
        tiles = core.leaves_tiles(opened, index)
        assert tiles == counts_of(codes)[: n + 1]
        assert core.leaves_index(opened, counts_of(codes)) == index
        assert core.leaves_value(opened, counts_of(codes)) == struct.unpack_from("<h", values, 2 * index)[0]
    # what is not a leave: nothing, too many tiles, more of a code than the set holds
    assert core.leaves_index(opened, bytes(64)) is None
    assert core.leaves_value(opened, bytes(64)) == 0
    assert core.leaves_index(opened, counts_of((0,) * (max_leave + 1))) is None
    over = counts_of((0,) * (min(counts[0], max_leave) + 1))
    assert core.leaves_index(opened, over) is None


def test_english_count_is_914624_by_generating_function() -> None:
    # coefficients of prod over codes of (1 + x + ... + x^min(count, 6))
    poly = [1]
    for count in [ENGLISH.blanks, *ENGLISH.counts]:
        top = min(count, 6)
        poly = [sum(poly[k - j] for j in range(top + 1) if 0 <= k - j < len(poly)) for k in range(7)]
    assert sum(poly[1:7]) == 914_624
    assert core.leaves_count([ENGLISH.blanks, *ENGLISH.counts], 6) == 914_624


def test_english_order_csv_import_and_size() -> None:
    """The whole English table: brute-force leaves (combinations with replacement, filtered by
    the distribution) in entry order, written as CSV with letters reversed and per-entry values,
    imported (timed), exported again: the export must list exactly the brute-force leaves in
    order, and the file must stay under 1.9 MB."""
    limits = [min(c, 6) for c in [ENGLISH.blanks, *ENGLISH.counts]]
    expected = [
        codes
        for size in range(1, 7)
        for codes in itertools.combinations_with_replacement(range(27), size)
        if all(codes.count(code) <= limits[code] for code in set(codes))
    ]
    assert len(expected) == 914_624
    texts = [text_of(codes, ENGLISH) for codes in expected]
    values = [(i * 7919) % 65535 - 32767 for i in range(len(texts))]
    csv = "".join(f"{t[::-1]},{v / 100}\n" for t, v in zip(texts, values, strict=True))
    started = time.perf_counter()
    table = Leaves.from_csv_text(csv, ENGLISH)
    elapsed = time.perf_counter() - started
    assert elapsed < 15, f"CSV import took {elapsed:.1f} s"
    assert len(table) == 914_624 and table.max_leave == 6 and table.ruleset == "english"
    assert len(table.to_bytes()) <= 1_900_000
    exported = table.csv_text().splitlines()
    assert [line.split(",")[0] for line in exported] == texts
    assert [round(float(line.split(",")[1]) * 100) for line in exported] == values
    # the C rank agrees with the brute-force order on a sample
    for index in range(0, len(expected), 997):
        assert core.leaves_index(table._opened, counts_of(expected[index])) == index
    assert table.value("ZYX") == values[texts.index("XYZ")] / 100


# ---- the file --------------------------------------------------------------------------------------


def tiny_table() -> Leaves:
    keys = brute_leaves([TINY.blanks, *TINY.counts], 4)
    return Leaves.from_csv_text(
        "".join(f"{text_of(k, TINY)},{(i % 41 - 20) / 4}\n" for i, k in enumerate(keys)), TINY
    )


def test_save_load_and_zero(tmp_path: Path) -> None:
    table = tiny_table()
    path = tmp_path / "tiny.leaves"
    table.save(path)
    again = Leaves.load(path, TINY)
    assert again.to_bytes() == table.to_bytes()
    assert Leaves.from_bytes(table.to_bytes(), TINY).value("?AB") == table.value("BA?")
    assert table.value("") == 0 and table.value("AAAA") == 0  # four A: the set holds three
    zero = Leaves.zero(ENGLISH)
    assert len(zero) == 914_624 and zero.value("QU") == 0 and zero.stats()["max"] == 0
    assert zero.core.count == 914_624  # the struct the generator takes


def test_every_damaged_byte_and_truncation_is_refused() -> None:
    data = tiny_table().to_bytes()
    for offset in range(len(data)):
        for flip in (0x01, 0x80, 0xFF):
            damaged = bytearray(data)
            damaged[offset] ^= flip
            with pytest.raises(LeavesError, match=r"byte offset \d+"):
                Leaves.from_bytes(bytes(damaged), TINY)
    for size in range(len(data)):
        with pytest.raises(LeavesError, match="truncated|bad magic"):
            Leaves.from_bytes(data[:size], TINY)
    with pytest.raises(LeavesError, match="unexpected bytes"):
        Leaves.from_bytes(data + bytes(4), TINY)


def test_a_table_for_another_ruleset_is_refused() -> None:
    english = Leaves.zero(ENGLISH)
    with pytest.raises(LeavesError, match="for ruleset 'english'.*not for 'wwf'"):
        Leaves.from_bytes(english.to_bytes(), Rules.load("wwf"))
    same_name = tiny_rules(name="english")
    with pytest.raises(LeavesError, match="not for 'english'"):
        Leaves.from_bytes(english.to_bytes(), same_name)
    with pytest.raises(LeavesError, match="'tiny', which is not shipped"):
        Leaves.from_bytes(tiny_table().to_bytes())


def test_resolve_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tiny_table().save(tmp_path / "mine.leaves")
    monkeypatch.setenv("GADDAG_SOLVER_LEXICONS", str(tmp_path))
    assert resolve_leaves("mine") == tmp_path / "mine.leaves"
    assert len(Leaves.load("mine", TINY)) == len(tiny_table())
    with pytest.raises(LeavesError, match="no leave table 'nothing'"):
        resolve_leaves("nothing")


def test_csv_of_tiles_of_two_letters_reads_back() -> None:
    """Spanish-like tiles: the leave of R, R and the leave of RR are both "RR" in plain letters;
    the CSV writes them apart ([R]R and [RR]), so every value reads back where it was, and the
    values said by leave text are the table's."""
    rules = tiny_rules(
        "tinyes", (("A", 1, 2), ("C", 3, 2), ("CH", 5, 1), ("H", 4, 1), ("R", 1, 2), ("RR", 8, 1)), blanks=1
    )
    rng = random.Random(7)
    table = Leaves.from_function(rules, lambda leave: round(rng.uniform(-30, 30), 2))
    text = table.csv_text()
    leaves = [line.split(",")[0] for line in text.splitlines()]
    assert len(leaves) == len(set(leaves)) == len(table)
    assert {"[R]R", "[RR]", "[C]H", "[CH]", "?A[RR]"} <= set(leaves)  # blanks first, as the CSV writes them
    back = Leaves.from_csv_text(text, rules)
    assert back.to_bytes() == table.to_bytes()
    for line in text.splitlines()[:: max(1, len(leaves) // 40)]:
        leave, value = line.split(",")
        assert back.value(leave) == pytest.approx(float(value))


def test_default_table_by_lexicon_and_ruleset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table made for the lexicon and ruleset (LEXICON-RULES) first, the lexicon's own only
    when its stamp is that ruleset's, and none rather than a table of another tile set."""
    wwf, super_rules = Rules.load("wwf"), Rules.load("super")
    Leaves.zero(ENGLISH).save(tmp_path / "mylex.leaves")
    Leaves.zero(wwf).save(tmp_path / "mylex-wwf.leaves")
    monkeypatch.setenv("GADDAG_SOLVER_LEXICONS", str(tmp_path))
    assert default_leaves("mylex") == "mylex"
    assert default_leaves("MyLex", "english") == "mylex"
    assert default_leaves("mylex", "wwf") == "mylex-wwf"
    assert default_leaves("mylex", "super") is None
    assert Leaves.for_lexicon("mylex", wwf).ruleset == "wwf"
    assert Leaves.for_lexicon("mylex", super_rules) is None
    # a shared table is found under the sharing lexicon's name too (enable plays with twl06's)
    Leaves.zero(super_rules).save(tmp_path / "twl06-super.leaves")
    assert default_leaves("enable", "super") in ("enable-super", "twl06-super")
    assert Leaves.for_lexicon("enable", super_rules).ruleset == "super"
    assert Leaves.for_lexicon("enable", ENGLISH).ruleset == "english"


# ---- CSV ---------------------------------------------------------------------------------------------


def test_csv_round_trip_with_missing_leaves(tmp_path: Path) -> None:
    rng = random.Random(5)
    keys = brute_leaves([TINY.blanks, *TINY.counts], 4)
    listed = {k: round(rng.uniform(-327.67, 327.67), 2) for k in keys if rng.random() < 0.7}
    lines = []
    for codes, value in listed.items():
        tiles = list(text_of(codes, TINY).lower())
        rng.shuffle(tiles)
        lines.append(f"{''.join(tiles)},{value}")
    path = tmp_path / "in.csv"
    path.write_text("\n".join(lines) + "\n")
    table = Leaves.from_csv(path, TINY)
    for codes in keys:
        assert table.value(text_of(codes, TINY)) == listed.get(codes, 0)
    table.to_csv(tmp_path / "out.csv")
    out = (tmp_path / "out.csv").read_text().splitlines()
    assert [line.split(",")[0] for line in out] == [text_of(k, TINY) for k in keys]  # sorted, blank first
    assert all(len(line.split(",")[1].partition(".")[2]) <= 2 for line in out)
    assert Leaves.from_csv(tmp_path / "out.csv", TINY).to_bytes() == table.to_bytes()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("AX,1", "'X'.*not a letter"),
        ("BA,2", r"listed twice \(first on line 1\)"),
        ("AAAAB,1", "has 5 tiles.*at most 4"),
        ("CC,1", r"holds 2 × 'C'.*has 1"),
        ("??,1", r"holds 2 × '\?'.*has 1"),
        ("AB,abc", "'abc' is not a number"),
        ("AB,1,2", "expected LEAVE,VALUE"),
        ("AB", "expected LEAVE,VALUE"),
        ("AB,327.68", "outside"),
        ("AB,-400", "outside"),
        ("AB,nan", "not a finite number"),
        (",3", "no leave"),
    ],
)
def test_csv_errors_name_the_line(line: str, message: str) -> None:
    text = f"AB,1\n# a comment\n\n{line}\n"
    with pytest.raises(LeavesError, match=f"<CSV text>: line 4: .*{message}"):
        Leaves.from_csv_text(text, TINY)


# ---- KLV2 ----------------------------------------------------------------------------------------------


def write_klv2(leaves: list[tuple[int, ...]], values: list[float]) -> bytes:
    """A minimal KLV2 writer: a plain trie (each node's children in one contiguous sibling run,
    in tile order) is a valid KWG. `leaves` must be sorted; values go in the same order."""
    trie: dict = {}
    for leave in leaves:
        node = trie
        for tile in leave[:-1]:
            node = node.setdefault(tile, [False, {}])[1]
        node.setdefault(leave[-1], [False, {}])[0] = True
    nodes = [0]  # node 0: points at the root list

    def place(children: dict) -> int:
        start = len(nodes)
        tiles = sorted(children)
        nodes.extend([0] * len(tiles))
        for offset, tile in enumerate(tiles):
            accepts, grandchildren = children[tile]
            arc = place(grandchildren) if grandchildren else 0
            last = offset == len(tiles) - 1
            nodes[start + offset] = tile << 24 | accepts << 23 | last << 22 | arc
        return start

    nodes[0] = place(trie) | 1 << 22
    return struct.pack(f"<I{len(nodes)}I", len(nodes), *nodes) + struct.pack(
        f"<I{len(values)}f", len(values), *values
    )


def test_klv2_import_matches_the_writer() -> None:
    rng = random.Random(9)
    all_english = brute_leaves([2, 9, 2, 2, 4], 3)  # blank, A..D of English (codes 0..4), up to 3
    chosen = sorted(rng.sample(all_english, 30) + [(0,), (1, 1, 1)])
    chosen = sorted(set(chosen))
    values = [rng.uniform(-60, 60) for _ in chosen]
    table = Leaves.from_klv2(write_klv2(chosen, values), ENGLISH)
    for codes, value in zip(chosen, values, strict=True):
        as_float32 = struct.unpack("<f", struct.pack("<f", value))[0]
        assert table.value(text_of(codes, ENGLISH)) == round(as_float32 * 100) / 100
    assert table.value("ZZ") == 0 and table.value("EE") == 0
    tiny_keys = brute_leaves([TINY.blanks, *TINY.counts], 4)  # entry order
    spelled = sorted(tiny_keys)  # the order a DAWG spells them: ?, ??, ??A, ...
    tiny = Leaves.from_klv2(write_klv2(spelled, [i / 8 for i in range(len(spelled))]), TINY)
    position = {codes: i for i, codes in enumerate(spelled)}
    assert [value for _, value in tiny.items()] == [round(position[k] / 8 * 100) / 100 for k in tiny_keys]


def test_klv2_damage_is_refused_with_a_message() -> None:
    data = write_klv2([(0,), (1,), (1, 2), (2, 3)], [1.0, 2.0, 3.0, 4.0])
    for size in range(len(data)):
        with pytest.raises(LeavesError, match="KLV2|byte offset"):
            Leaves.from_klv2(data[:size], TINY)
    with pytest.raises(LeavesError, match="needs a file of"):
        Leaves.from_klv2(data + b"\0", TINY)
    nodes = list(struct.unpack_from("<6I", data, 4))
    for change, message in [
        (lambda n: n.__setitem__(1, n[1] | 9 << 24), "tile 9 is outside 0..3"),
        (lambda n: n.__setitem__(2, (n[2] & ~0x3FFFFF) | 40), "leads to node 40"),
        (lambda n: n.__setitem__(1, n[1] & ~0x800000), "spells 3 leaves but the file has 4 values"),
    ]:
        damaged = list(nodes)
        change(damaged)
        bad = data[:4] + struct.pack("<6I", *damaged) + data[28:]
        with pytest.raises(LeavesError, match=message):
            Leaves.from_klv2(bad, TINY)
    too_long = write_klv2([(1, 1, 1, 2, 2)], [1.0])
    with pytest.raises(LeavesError, match="more than 4 tiles"):
        Leaves.from_klv2(too_long, TINY)
    over = write_klv2([(3, 3)], [1.0])
    with pytest.raises(LeavesError, match=r"holds 2 × 'C'"):
        Leaves.from_klv2(over, TINY)
    big = write_klv2([(1,)], [400.0])
    with pytest.raises(LeavesError, match="outside"):
        Leaves.from_klv2(big, TINY)


# ---- CLI -------------------------------------------------------------------------------------------------


def test_cli_import_export_info(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "in.csv").write_text("EA,3.5\n?,25\nQ,-7.25\n")
    out = tmp_path / "out.leaves"
    assert main(["leaves", "import", str(tmp_path / "in.csv"), "-o", str(out), "--rules", "english"]) == 0
    assert main(["leaves", "info", str(out)]) == 0
    info = capsys.readouterr().out
    assert "entries\t914,624" in info and "max\t25.0" in info and "min\t-7.25" in info
    assert main(["leaves", "export", str(out), "-o", str(tmp_path / "out.csv")]) == 0
    lines = (tmp_path / "out.csv").read_text().splitlines()
    assert "?,25" in lines and "AE,3.5" in lines and "Q,-7.25" in lines and "B,0" in lines
    klv = tmp_path / "in.klv2"
    klv.write_bytes(write_klv2([(0,), (1, 5)], [25.0, 3.5]))
    assert main(["leaves", "import", str(klv), "-o", str(out)]) == 0
    assert Leaves.load(out).value("AE") == 3.5
    (tmp_path / "bad.csv").write_text("EA,3.5\nÉ,1\n")
    assert main(["leaves", "import", str(tmp_path / "bad.csv"), "-o", str(out)]) == 2
    assert "bad.csv: line 2" in capsys.readouterr().err
    assert main(["leaves", "info", str(tmp_path / "in.csv")]) == 2
    assert "not a .leaves file" in capsys.readouterr().err


def test_every_shipped_table_fits_its_ruleset_beats_greedy_and_is_found_by_default() -> None:
    """Each table in the package loads with the ruleset it is stamped with, keeps its training log
    and its match against greedy beside it (the same ruleset, at least 10,000 games, won with
    95% confidence), and is what its lexicon and ruleset get by default."""
    import json

    from gaddag_solver.formats.leaves import SHIPPED_DIR

    shipped = sorted(SHIPPED_DIR.glob("*.leaves"))
    assert {"enable-super", "enable-wwf", "sjp", "sowpods", "twl06"} <= {path.stem for path in shipped}
    for path in shipped:
        table = Leaves.load(path)
        rules = Rules.load(table.ruleset)
        run = json.loads(path.with_suffix(".run.json").read_text())
        assert run["config"]["rules"] == table.ruleset, path
        match = json.loads(path.with_suffix(".vs-greedy.json").read_text())
        assert match["rules"] == table.ruleset and match["games"] >= 10_000, path
        ours = match["players"][0]
        assert ours["name"] == f"equity:{path.stem}" and ours["win_rate"]["low"] > 0.5, (path, ours)
        lexicon = Path(run["config"]["lexicon"]).name.removesuffix(".gaddag")
        assert default_leaves(lexicon, rules.name) == path.stem, path
