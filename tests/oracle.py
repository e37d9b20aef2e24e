"""A brute-force Scrabble move generator: the test oracle for the C GADDAG generator.

Deliberately independent of the package under test: no GADDAG, DAWG or trie, only a Python
set of words, and every score is worked out from the rules of the game.

How it works:

* ``generate`` only *proposes* candidate plays. For every row and column it tries every span of
  squares that could hold a main word (the squares just before and after the span are empty or
  off the board), takes the words of that length that have the board's letters where the span
  already has tiles and, on the empty squares, letters allowed by the cross-checks (every
  letter is tried against the word set) and the rack, then every way of taking those letters
  from the rack (including which copies are blanks).
* ``legal_score`` is the authority: for one set of placed tiles it checks every rule from
  scratch (one line, no gaps, connected or covering the start, every word formed of two or more
  letters is in the word set) and scores it. ``generate`` keeps only the candidates it accepts,
  so the pruning in ``generate`` can only lose plays, never invent or misscore one.
* A single tile that forms words both ways is proposed from both directions; results are a set
  of ``(placements, score)``, so it appears once.

Board: a list of rows, each a list of ``None`` or a one-character string; upper case is a real
tile, lower case a blank standing for that letter. Letters are single characters (they may be
non-ASCII, e.g. ``Ą`` or ``Ж``); words in the word set are upper case strings.

Run ``python tests/oracle.py [SOWPODS.txt]`` to compare against every reference position in
``tests/data/sowpods`` and print timings.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

Board = list[list[str | None]]
Placement = tuple[int, int, str, bool]  # (row, col, letter, is_blank); letter upper case
Play = tuple[frozenset[Placement], int]

BLANK = "?"

# premium character -> (letter multiplier, word multiplier)
PREMIUMS: dict[str, tuple[int, int]] = {
    ".": (1, 1),
    "d": (2, 1),
    "t": (3, 1),
    "q": (4, 1),
    "D": (1, 2),
    "T": (1, 3),
    "Q": (1, 4),
}

_ENGLISH_QUADRANT = (  # rows 0..7, columns 0..7 of the standard board; the rest is mirrored
    "T..d...T",
    ".D...t..",
    "..D...d.",
    "d..D...d",
    "....D...",
    ".t...t..",
    "..d...d.",
    "T..d...D",
)

ENGLISH_VALUES: dict[str, int] = {
    "A": 1, "B": 3, "C": 3, "D": 2, "E": 1, "F": 4, "G": 2, "H": 4, "I": 1, "J": 8, "K": 5,
    "L": 1, "M": 3, "N": 1, "O": 1, "P": 3, "Q": 10, "R": 1, "S": 1, "T": 1, "U": 1, "V": 4,
    "W": 4, "X": 8, "Y": 4, "Z": 10,
}  # fmt: skip


def _english_premiums() -> tuple[str, ...]:
    top = [row + row[-2::-1] for row in _ENGLISH_QUADRANT]  # columns 0..14
    return tuple(top + top[-2::-1])  # rows 0..14


@dataclass(frozen=True)
class OracleRules:
    rows: int
    cols: int
    premiums: tuple[str, ...]  # one string per row, one premium character per square
    start: tuple[int, int]
    start_doubles: bool  # False: the start square multiplies nothing, whatever premiums says
    rack_size: int
    bingo_bonus: int
    values: dict[str, int] = field(hash=False)  # letter -> tile value; its keys are the alphabet
    blank_value: int = 0

    def __post_init__(self) -> None:
        if len(self.premiums) != self.rows or any(len(row) != self.cols for row in self.premiums):
            raise ValueError(f"premiums must be {self.rows} strings of {self.cols} characters")
        bad = {ch for row in self.premiums for ch in row} - PREMIUMS.keys()
        if bad:
            raise ValueError(f"unknown premium characters {sorted(bad)}")
        if not (0 <= self.start[0] < self.rows and 0 <= self.start[1] < self.cols):
            raise ValueError(f"start {self.start} is off the board")
        for letter in self.values:
            if len(letter) != 1 or letter != letter.upper() or letter in (BLANK, "."):
                raise ValueError(f"letter {letter!r}: the oracle handles single upper-case characters")

    @classmethod
    def english(cls) -> OracleRules:
        """Standard 15x15 English Scrabble."""
        return cls(
            rows=15,
            cols=15,
            premiums=_english_premiums(),
            start=(7, 7),
            start_doubles=True,
            rack_size=7,
            bingo_bonus=50,
            values=dict(ENGLISH_VALUES),
            blank_value=0,
        )

    @classmethod
    def from_rules(cls, rules: object) -> OracleRules:
        """Convert a ``gaddag_solver.rules.Rules``-like object (duck typed)."""
        letters = tuple(getattr(getattr(rules, "alphabet"), "letters"))  # noqa: B009
        values = tuple(getattr(rules, "values"))  # noqa: B009
        if len(values) != len(letters):
            raise ValueError(f"{len(letters)} letters but {len(values)} values")
        premiums = tuple("".join(row) for row in getattr(rules, "premiums"))  # noqa: B009
        start = getattr(rules, "start")  # noqa: B009
        return cls(
            rows=int(getattr(rules, "rows")),  # noqa: B009
            cols=int(getattr(rules, "cols")),  # noqa: B009
            premiums=premiums,
            start=(int(start[0]), int(start[1])),
            start_doubles=bool(getattr(rules, "start_doubles")),  # noqa: B009
            rack_size=int(getattr(rules, "rack_size")),  # noqa: B009
            bingo_bonus=int(getattr(rules, "bingo_bonus")),  # noqa: B009
            values={letter: int(value) for letter, value in zip(letters, values, strict=True)},
            blank_value=int(getattr(rules, "blank_value", 0)),
        )

    def multipliers(self, row: int, col: int) -> tuple[int, int]:
        """(letter multiplier, word multiplier) of a square, for a tile newly placed on it."""
        if (row, col) == self.start and not self.start_doubles:
            return (1, 1)
        return PREMIUMS[self.premiums[row][col]]


# ---------------------------------------------------------------------------------------------
# Boards


def empty_board(rules: OracleRules) -> Board:
    return [[None] * rules.cols for _ in range(rules.rows)]


def board_from_lines(lines: Sequence[str]) -> Board:
    """``'.'`` empty, upper case a tile, lower case a blank."""
    return [[None if ch == "." else ch for ch in line] for line in lines]


def board_to_lines(board: Board) -> list[str]:
    return ["".join("." if cell is None else cell for cell in row) for row in board]


def _check_board(board: Board, rules: OracleRules) -> None:
    if len(board) != rules.rows or any(len(row) != rules.cols for row in board):
        raise ValueError(f"the board must be {rules.rows} rows of {rules.cols} squares")
    for row in board:
        for cell in row:
            if cell is not None and cell.upper() not in rules.values:
                raise ValueError(f"board square {cell!r} is not a letter of the alphabet")


# ---------------------------------------------------------------------------------------------
# The rules of a single play: legality and score, from first principles


def words_formed(board: Board, placements: Iterable[Placement], rules: OracleRules) -> list[list[tuple]]:
    """Every word of two or more letters the placements form (assumed to be on empty squares).

    A word is a maximal run of occupied squares, across or down, containing at least one newly
    placed tile. Each word is a list of ``(row, col, letter, is_blank, is_new)``.
    """
    new = {(r, c): (letter, blank) for r, c, letter, blank in placements}

    def occupied(r: int, c: int) -> bool:
        return 0 <= r < rules.rows and 0 <= c < rules.cols and ((r, c) in new or board[r][c] is not None)

    words = []
    for dr, dc in ((0, 1), (1, 0)):
        starts = set()
        for r, c in new:
            while occupied(r - dr, c - dc):
                r, c = r - dr, c - dc
            if (r, c) in starts:
                continue
            starts.add((r, c))
            word = []
            while occupied(r, c):
                if (r, c) in new:
                    letter, blank = new[(r, c)]
                    word.append((r, c, letter, blank, True))
                else:
                    cell = board[r][c]
                    assert cell is not None
                    word.append((r, c, cell.upper(), cell != cell.upper(), False))
                r, c = r + dr, c + dc
            if len(word) >= 2:
                words.append(word)
    return words


def score_word(word: list[tuple], rules: OracleRules) -> int:
    total = 0
    word_multiplier = 1
    for r, c, letter, blank, is_new in word:
        value = rules.blank_value if blank else rules.values[letter]
        if is_new:
            letter_mult, word_mult = rules.multipliers(r, c)
            value *= letter_mult
            word_multiplier *= word_mult
        total += value
    return total * word_multiplier


def score_play(board: Board, placements: Iterable[Placement], rules: OracleRules) -> int:
    """The score of a play, without checking that it is legal."""
    placements = list(placements)
    total = sum(score_word(word, rules) for word in words_formed(board, placements, rules))
    if len(placements) == rules.rack_size:
        total += rules.bingo_bonus
    return total


def legal_score(
    board: Board, placements: Iterable[Placement], words: set[str] | frozenset[str], rules: OracleRules
) -> int | None:
    """The score of a play if it is legal on this board (rack aside), else None."""
    placements = list(placements)
    squares = [(r, c) for r, c, _letter, _blank in placements]
    if not placements or len(set(squares)) != len(squares):
        return None
    for r, c, letter, blank in placements:
        if not (0 <= r < rules.rows and 0 <= c < rules.cols) or board[r][c] is not None:
            return None
        if letter not in rules.values or not isinstance(blank, bool):
            return None
    rows = {r for r, _ in squares}
    cols = {c for _, c in squares}
    if len(rows) == 1:
        (r,) = rows
        line = [(r, c) for c in range(min(cols), max(cols) + 1)]
    elif len(cols) == 1:
        (c,) = cols
        line = [(r, c) for r in range(min(rows), max(rows) + 1)]
    else:
        return None  # not in one row or column
    placed = set(squares)
    if any(sq not in placed and board[sq[0]][sq[1]] is None for sq in line):
        return None  # a gap
    board_empty = all(cell is None for row in board for cell in row)
    if board_empty:
        if rules.start not in placed or len(placements) < 2:
            return None
    else:
        neighbours = ((r + dr, c + dc) for r, c in squares for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
        if not any(
            0 <= r < rules.rows and 0 <= c < rules.cols and board[r][c] is not None for r, c in neighbours
        ):
            return None  # not connected to the tiles on the board
    formed = words_formed(board, placements, rules)
    if not formed:
        return None  # a lone tile forming no word
    for word in formed:
        if "".join(letter for _r, _c, letter, _b, _n in word) not in words:
            return None
    return score_play(board, placements, rules)


# ---------------------------------------------------------------------------------------------
# Generation


class _LengthIndex:
    """The words of each length, joined as ``"\\nWORD1\\nWORD2..."`` for regular-expression scans."""

    def __init__(self, words: set[str] | frozenset[str]) -> None:
        self.words = words  # keeps the set alive, so its id is not reused while cached
        self.size = len(words)
        by_length: dict[int, list[str]] = {}
        for word in words:
            if len(word) >= 2 and "\n" not in word:
                by_length.setdefault(len(word), []).append(word)
        self.text = {length: "".join("\n" + w for w in sorted(ws)) for length, ws in by_length.items()}


_index_cache: list[_LengthIndex] = []


def _length_index(words: set[str] | frozenset[str]) -> _LengthIndex:
    for index in _index_cache:
        if index.words is words and index.size == len(words):
            return index
    index = _LengthIndex(words)
    _index_cache[:] = [index]
    return index


def _cross_checks(
    board: Board, words: set[str] | frozenset[str], rules: OracleRules, dr: int, dc: int
) -> list[list[frozenset[str] | None]]:
    """For each empty square, the letters that form a valid word in direction (dr, dc) through it.

    ``None`` where the square has no tile next to it in that direction (no word is formed there,
    so any letter goes). Every letter of the alphabet is tried against the word set.
    """
    checks: list[list[frozenset[str] | None]] = [[None] * rules.cols for _ in range(rules.rows)]
    for r in range(rules.rows):
        for c in range(rules.cols):
            if board[r][c] is not None:
                continue
            before = []
            rr, cc = r - dr, c - dc
            while 0 <= rr < rules.rows and 0 <= cc < rules.cols and board[rr][cc] is not None:
                before.append(board[rr][cc].upper())
                rr, cc = rr - dr, cc - dc
            after = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < rules.rows and 0 <= cc < rules.cols and board[rr][cc] is not None:
                after.append(board[rr][cc].upper())
                rr, cc = rr + dr, cc + dc
            if not before and not after:
                continue
            prefix = "".join(reversed(before))
            suffix = "".join(after)
            checks[r][c] = frozenset(letter for letter in rules.values if prefix + letter + suffix in words)
    return checks


def _rack_assignments(
    empties: Sequence[tuple[int, int]], letters: str, have: Counter[str], blanks: int
) -> Iterator[frozenset[Placement]]:
    """Every way to put ``letters`` (one per square of ``empties``) down from the rack.

    A letter can be a real tile (if the rack still has one) or a blank; when both are possible,
    each choice of which squares get the blanks is a different play.
    """
    positions: dict[str, list[int]] = {}
    for i, letter in enumerate(letters):
        positions.setdefault(letter, []).append(i)
    groups = list(positions.items())

    def recurse(g: int, blanks_left: int, chosen: list[Placement]) -> Iterator[frozenset[Placement]]:
        if g == len(groups):
            yield frozenset(chosen)
            return
        letter, idxs = groups[g]
        need = len(idxs)
        least = max(0, need - have[letter])  # blanks that must stand in for this letter
        for n_blank in range(least, min(need, blanks_left) + 1):
            for blank_idxs in combinations(idxs, n_blank):
                as_blank = set(blank_idxs)
                extra = [(*empties[i], letter, i in as_blank) for i in idxs]
                yield from recurse(g + 1, blanks_left - n_blank, chosen + extra)

    yield from recurse(0, blanks, [])


def generate(board: Board, rack: str, words: set[str] | frozenset[str], rules: OracleRules) -> set[Play]:
    """Every legal play as ``(frozenset of (row, col, letter, is_blank), score)``.

    ``rack``: upper-case letters, ``'?'`` for a blank. Only newly placed tiles are in the set.
    """
    _check_board(board, rules)
    for ch in rack:
        if ch != BLANK and ch not in rules.values:
            raise ValueError(f"rack tile {ch!r} is not a letter of the alphabet or '?'")
    if not rack:
        return set()
    index = _length_index(words)
    have = Counter(ch for ch in rack if ch != BLANK)
    blanks = rack.count(BLANK)
    n_tiles = len(rack)
    usable = frozenset(rules.values) if blanks else frozenset(have)  # letters a rack tile can be
    board_empty = all(cell is None for row in board for cell in row)
    plays: set[Play] = set()

    # Main word across (lines are rows, cross-words go down), then main word down.
    for dr, dc in ((0, 1), (1, 0)):
        cross = _cross_checks(board, words, rules, dc, dr)
        n_lines, line_len = (rules.rows, rules.cols) if dc else (rules.cols, rules.rows)
        for line_no in range(n_lines):
            line = [(line_no, i) if dc else (i, line_no) for i in range(line_len)]
            cells = [board[r][c] for r, c in line]
            # Per square: the fixed letter, or the regex class of letters that may be placed there.
            parts: list[str | None] = []
            for (r, c), cell in zip(line, cells, strict=True):
                if cell is not None:
                    parts.append(re.escape(cell.upper()))
                else:
                    allowed = usable if cross[r][c] is None else usable & cross[r][c]
                    parts.append(
                        "[" + "".join(re.escape(ch) for ch in sorted(allowed)) + "]" if allowed else None
                    )
            for a in range(line_len):
                if a > 0 and cells[a - 1] is not None:
                    continue  # the word would extend further back
                n_empty = 0
                connected = False
                for b in range(a, line_len):
                    (r, c) = line[b]
                    if cells[b] is None:
                        n_empty += 1
                        if n_empty > n_tiles or parts[b] is None:
                            break  # not enough tiles, or nothing can go on this square
                        if board_empty:
                            connected = connected or (r, c) == rules.start
                        else:
                            connected = connected or cross[r][c] is not None
                    else:
                        connected = True
                    if b + 1 < line_len and cells[b + 1] is not None:
                        continue  # the word would extend further forward
                    length = b - a + 1
                    if length < 2 or n_empty == 0 or not connected or length not in index.text:
                        continue
                    pattern = "\n" + "".join(parts[a : b + 1])  # type: ignore[arg-type]
                    empties = [line[i] for i in range(a, b + 1) if cells[i] is None]
                    offsets = [i - a for i in range(a, b + 1) if cells[i] is None]
                    for match in re.finditer(pattern, index.text[length]):
                        word = match.group()[1:]
                        letters = "".join(word[i] for i in offsets)
                        need = Counter(letters)
                        short = sum(max(0, k - have[letter]) for letter, k in need.items())
                        if short > blanks:
                            continue
                        for placements in _rack_assignments(empties, letters, have, blanks):
                            score = legal_score(board, placements, words, rules)
                            if score is not None:
                                plays.add((placements, score))
    return plays


# ---------------------------------------------------------------------------------------------
# Reference files (tests/data/sowpods)


def parse_positions_txt(path: str | Path) -> list[tuple[Board, str]]:
    """Blocks of board lines then a rack line (``'?'`` blank, ``'-'`` empty rack)."""
    blocks: list[list[str]] = [[]]
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line:
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    positions = []
    for block in blocks:
        if not block:
            continue
        *board_lines, rack_line = block
        if len({len(line) for line in board_lines}) != 1:
            raise ValueError(f"{path}: ragged board {board_lines}")
        rack = "" if rack_line == "-" else rack_line
        positions.append((board_from_lines(board_lines), rack))
    return positions


ExpectedMove = tuple[int, int, str, str, int]  # row, col, 'H'/'V', word, score


def parse_expected(path: str | Path) -> list[list[ExpectedMove]]:
    """Lines ``ROW COL DIR WORD SCORE``; each position ends with ``COUNT n``."""
    result: list[list[ExpectedMove]] = []
    current: list[ExpectedMove] = []
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        fields = raw.split()
        if not fields:
            continue
        if fields[0] == "COUNT":
            if int(fields[1]) != len(current):
                raise ValueError(f"{path}:{number}: COUNT {fields[1]} but {len(current)} moves")
            result.append(current)
            current = []
            continue
        row, col, direction, word, score = fields
        if direction not in ("H", "V"):
            raise ValueError(f"{path}:{number}: direction {direction!r}")
        current.append((int(row), int(col), direction, word, int(score)))
    if current:
        raise ValueError(f"{path}: moves after the last COUNT line")
    return result


def expected_to_placements(
    board: Board, row: int, col: int, direction: str, word: str
) -> frozenset[Placement]:
    """The newly placed tiles of a reference move (its squares that are empty on the board)."""
    if direction not in ("H", "V"):
        raise ValueError(f"direction {direction!r}")
    dr, dc = (0, 1) if direction == "H" else (1, 0)
    placed = []
    for i, ch in enumerate(word):
        r, c = row + i * dr, col + i * dc
        cell = board[r][c]
        if cell is None:
            placed.append((r, c, ch.upper(), ch != ch.upper()))
        elif cell != ch:
            raise ValueError(f"move {row} {col} {direction} {word}: square ({r}, {c}) holds {cell!r}")
    return frozenset(placed)


def expected_plays(board: Board, moves: Iterable[ExpectedMove]) -> set[Play]:
    return {(expected_to_placements(board, r, c, d, w), score) for r, c, d, w, score in moves}


def load_words(path: str | Path) -> set[str]:
    return {
        line.strip().upper() for line in Path(path).read_text(encoding="utf-8").split("\n") if line.strip()
    }


def describe_play(play: Play) -> str:
    placements, score = play
    tiles = " ".join(
        f"{r},{c}={letter.lower() if blank else letter}" for r, c, letter, blank in sorted(placements)
    )
    return f"[{tiles}] {score}"


def play_differences(want: set[Play], got: set[Play], shown: int = 10) -> str:
    """What a failed comparison reports: counts of missing and extra plays, and the first
    `shown` of each. Empty when the sets are equal."""
    if got == want:
        return ""
    missing = sorted(want - got, key=describe_play)[:shown]
    extra = sorted(got - want, key=describe_play)[:shown]
    return (
        f"{len(want - got)} missing, {len(got - want)} extra\n"
        + "".join(f"  missing {describe_play(p)}\n" for p in missing)
        + "".join(f"  extra   {describe_play(p)}\n" for p in extra)
    )


def _main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    data = here / "data" / "sowpods"
    words_path = Path(argv[1]) if len(argv) > 1 else here.parent / "lexicons" / "sources" / "sowpods.txt"
    words = load_words(words_path)
    rules = OracleRules.english()
    failures = 0
    grand = time.perf_counter()
    for name in ("positions", "examples"):
        positions = parse_positions_txt(data / f"{name}.txt")
        expected = parse_expected(data / ("expected.txt" if name == "positions" else "examples.expected.txt"))
        for number, ((board, rack), moves) in enumerate(zip(positions, expected, strict=True)):
            t0 = time.perf_counter()
            got = generate(board, rack, words, rules)
            elapsed = time.perf_counter() - t0
            want = expected_plays(board, moves)
            status = "ok" if got == want else "MISMATCH"
            failures += got != want
            print(f"{name} {number:2d} rack {rack or '-':7s} {len(want):6d} plays {elapsed:7.2f}s {status}")
            for play in sorted(want - got, key=describe_play)[:5]:
                print("   missing", describe_play(play))
            for play in sorted(got - want, key=describe_play)[:5]:
                print("   extra  ", describe_play(play))
    print(f"total {time.perf_counter() - grand:.1f}s, {failures} mismatching positions")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
