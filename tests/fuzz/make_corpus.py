"""Write the committed seed corpora (tests/fuzz/corpus/TARGET/): a few valid inputs of each
format and a few damaged ones. Run again after a format changes: ``python tests/fuzz/make_corpus.py``.
The file names say what each seed is."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import REPO, forge  # noqa: E402
from gaddag_solver import Leaves, Rules, build_gaddag  # noqa: E402
from small_words import WORDS  # noqa: E402
from tiny_rules import tiny_rules  # noqa: E402

DATA = REPO / "tests" / "data"


def damaged(data: bytes) -> dict[str, bytes]:
    """Truncated, a flipped bit in the middle, and a byte inserted near the start."""
    middle = len(data) // 2
    return {
        "truncated": data[: max(1, len(data) * 2 // 3)],
        "bitflip": data[:middle] + bytes([data[middle] ^ 0x10]) + data[middle + 1 :],
        "inserted": data[:5] + b"\xff" + data[5:],
    }


def seeds() -> dict[str, dict[str, bytes]]:
    english = Rules.load("english")
    tiny = tiny_rules()
    lexicon = build_gaddag(WORDS, english.alphabet, name="small")[0]
    tiny_lexicon = build_gaddag(["ACE", "ARC", "CAT", "EAT", "ORE", "ROT", "SEA", "TO"], tiny.alphabet)[0]
    leaves = Leaves.from_function(tiny, lambda leave: len(leave) - leave.count("?") * 2.5).to_bytes()
    csv = "?,25\nS,8\nAE,1.5\nCORS,-3\n# a comment\n\nTT,-4.25\n"
    rules_json = (REPO / "pycore/gaddag_solver/rules/english.json").read_bytes()
    cgp_lines = (DATA / "sowpods/positions.cgp").read_text().splitlines()
    blocks = (DATA / "sowpods/positions.txt").read_text().split("\n\n")
    gcg = (DATA / "gcg/club_night.gcg").read_bytes()
    out: dict[str, dict[str, bytes]] = {
        "lexicon": {
            "small": b"\0" + lexicon,
            "tiny": b"\0" + tiny_lexicon,
            "tiny-forged": b"\1" + tiny_lexicon,
        },
        "leaves": {
            "tiny.leaves": b"\0" + leaves,
            "tiny-forged.leaves": b"\3" + leaves,
            "csv": b"\1" + csv.encode(),
        },
        "rules": {"english.json": rules_json, "tiny.json": json.dumps(tiny.to_dict()).encode()},
        "cgp": {f"position{i}": line.encode() for i, line in enumerate(cgp_lines[:3] + cgp_lines[-2:])},
        "board": {
            "board-rack-line": b"\0" + blocks[3].encode(),
            "board-rack-option": b"\1" + blocks[5].encode(),
        },
        "gcg": {
            "club_night.gcg": gcg,
            "quackle_boys_2006.gcg": (DATA / "gcg/quackle_boys_2006.gcg").read_bytes(),
        },
        "web_api": {},
    }
    for name, data in damaged(lexicon).items():
        out["lexicon"][f"small-{name}"] = b"\0" + data
        out["lexicon"][f"small-{name}-forged"] = b"\1" + data
    for name, data in damaged(leaves).items():
        out["leaves"][f"tiny-{name}.leaves"] = b"\0" + data
        out["leaves"][f"tiny-{name}-forged.leaves"] = b"\3" + forge(data)
    out["leaves"]["csv-damaged"] = b"\1" + b"?,25\nQX,abc\nS;8\n"
    out["leaves"]["klv2-damaged"] = b"\2" + (3).to_bytes(4, "little") + b"\0" * 9
    for name, data in damaged(rules_json).items():
        out["rules"][f"english-{name}.json"] = data
    out["rules"]["wrong-type.json"] = rules_json.replace(b'"rows": 15', b'"rows": "15"')
    out["cgp"]["damaged-row"] = cgp_lines[2].replace("7Z7", "7Z9").encode()
    out["cgp"]["damaged-rack"] = cgp_lines[2].replace("AAGLNOS", "AAGL1NOS?????").encode()
    out["board"]["board-short"] = b"\0" + "\n".join(blocks[3].splitlines()[:10]).encode()
    out["board"]["board-bad-letter"] = b"\1" + blocks[3].replace(".", "1", 1).encode()
    for name, data in damaged(gcg).items():
        out["gcg"][f"club_night-{name}.gcg"] = data
    # events that precede or contradict the pragmas, and numbers beyond 32 bits
    out["gcg"]["event-before-pragma.gcg"] = b">Bob: EIKORST H7 TAKE +8 8\n#player1 Ann Ann\n"
    out["gcg"]["same-nick-twice.gcg"] = b"#player1 a A\n#player2 a B\n>a: AEIRST? 8D RAT +6 6\n"
    out["gcg"]["huge-numbers.gcg"] = (
        b"#player1 a A\n#player2 b B\n>a: AEIRST? 8D RAT +6 2147483648\n>b: EEE -99999999999 +0 0\n"
        b">a: IST? (IST?) +2147483647 -9999999999999999999999\n"
    )
    # the web API target reads its input through a FuzzedDataProvider: seeds are byte strings
    # that decode to assorted requests (found by the fuzzer in its first runs)
    for i, data in enumerate([b"", b"\2\5\2\4\0\1" * 8, b"\x08" * 40, bytes(range(64)), b"\x03\x01" * 50]):
        out["web_api"][f"seed{i}"] = data
    out["c_lexicon"] = dict(out["lexicon"])  # tests/fuzz/c/fuzz_lexicon.c reads the same layout
    return out


def main() -> None:
    corpus = HERE / "corpus"
    for target, files in seeds().items():
        folder = corpus / target
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)
        print(f"{target}: {len(files)} seeds")


if __name__ == "__main__":
    main()
