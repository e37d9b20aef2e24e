"""Bad input found by the second adversarial run (issue 28): GCG events that precede or contradict
their pragmas, numbers beyond what a game holds, rulesets the engine cannot use, letters the
formats cannot write, the page's look-ahead sessions crossed, and CLI arguments out of range. Each
gives a clear error (or a warning, for a GCG line) naming what is wrong — never a traceback, an
``OverflowError`` or an answer of kind "internal"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gaddag_solver import Board, Game, Lexicon, Rules, build_gaddag, web_api
from gaddag_solver.alphabet import Alphabet, AlphabetError
from gaddag_solver.formats.cgp import CgpError, parse_cgp
from gaddag_solver.formats.gcg import GcgError, parse_gcg
from gaddag_solver.formats.leaves import LeavesError, entry_keys, leave_count, tile_set
from gaddag_solver.game.play import GameError
from gaddag_solver.game.replay import Replay
from gaddag_solver.game.review import ReviewSpec, review_files
from gaddag_solver.limits import MAX_GAME_SCORE
from gaddag_solver.rules import RulesError
from small_words import WORDS

ENGLISH = Rules.load("english")
EMPTY = "15/" * 14 + "15"
CAT = "15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15"
EVENT_FIRST = ">Bob: EIKORST H7 TAKE +8 8\n#player1 Ann Ann\n>Ann: AEINRST 8H TRAINEES +60 60\n"


@pytest.fixture(scope="module")
def small() -> Lexicon:
    return Lexicon.load(build_gaddag(WORDS, ENGLISH.alphabet, name="small")[0], ENGLISH)


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gaddag_solver", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


# ---- GCG: an event before the pragma that would rename its player --------------------------------


def test_a_player_pragma_after_that_seats_events_is_a_warning_and_keeps_the_seat() -> None:
    game = parse_gcg(EVENT_FIRST)
    assert game.players == [("Bob", "Bob"), ("Ann", "Ann")]
    assert [event.nick for event in game.events] == ["Bob", "Ann"]
    assert [(w.line, w.message) for w in game.warnings] == [
        (2, "#player1 Ann comes after Bob's events in that seat; ignored")
    ]


def test_the_same_nickname_for_both_players_is_a_warning() -> None:
    game = parse_gcg("#player1 a A\n#player2 a B\n>a: AEIRST? 8D RAT +6 6\n")
    assert game.players == [("a", "A")]
    assert [(w.line, w.message) for w in game.warnings] == [(2, "#player2 a: a is already player 1; ignored")]


def test_a_game_whose_events_precede_its_pragmas_replays(small: Lexicon) -> None:
    replay = Replay(parse_gcg(EVENT_FIRST), small, ENGLISH)
    assert [turn.player for turn in replay.turns] == [0, 1]
    assert replay.scores == (8, 60)


def test_a_hand_made_game_with_an_event_of_no_player_is_a_gcg_error(small: Lexicon) -> None:
    game = parse_gcg("#player1 a A\n#player2 b B\n>a: AEIRST? 8D RAT +6 6\n")
    game.players[0] = ("z", "Z")  # changed by hand, as no parse leaves it
    with pytest.raises(GcgError, match="^line 3: 'a' is neither player of the game$"):
        Replay(game, small, ENGLISH)


def test_review_of_such_a_file_prints_its_review_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "event-first.gcg"
    path.write_text(EVENT_FIRST)
    result = run_cli("review", str(path), "--lexicon", "sowpods", "--leaves", "none")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "line 2: #player1 Ann comes after Bob's events in that seat; ignored" in result.stdout


def test_the_page_reviews_such_a_file() -> None:
    assert "error" not in web_api.load_lexicon("small28", build_gaddag(WORDS, ENGLISH.alphabet)[0], "english")
    answer = json.loads(
        web_api.call(
            "review_gcg", json.dumps({"gcg": EVENT_FIRST, "lexicon": "small28", "rules": "english"})
        )[0]
    )
    assert "error" not in answer, answer
    assert [p["nick"] for p in answer["players"]] == ["Bob", "Ann"]
    assert any("#player1 Ann comes after" in w["message"] for w in answer["warnings"])


def test_a_batch_reports_whatever_goes_wrong_with_one_file_and_reviews_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever one file raises (here an error no reader documents), it is that file's failure."""
    from gaddag_solver.game import review

    good = tmp_path / "a-good.gcg"
    good.write_text("#player1 a A\n#player2 b B\n>a: AEINRST 8D NASTIER +64 64\n")
    bad = tmp_path / "b-bad.gcg"
    bad.write_text(good.read_text())
    real = review._Engine.review

    def review_or_fail(self, path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if path.endswith("b-bad.gcg"):
            raise AssertionError("something no reader foresaw")
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(review._Engine, "review", review_or_fail)
    results = review_files([str(good), str(bad)], ReviewSpec(None, "sowpods"), workers=1)
    assert [r.error for r in results] == [
        None,
        f"{bad}: cannot review (AssertionError: something no reader foresaw)",
    ]
    assert [r["type"] for r in results[0].records] == ["turn", "player", "player"]


# ---- numbers beyond what a game holds ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (">a: AEIRST? 8D RAT +6 2147483648", "the total 2147483648 is out of range"),
        (">a: AEIRST? 8D RAT +99999999999 6", "the points 99999999999 is out of range"),
        (">a: AEIRST? 8D RAT +6 -1000001", "the total -1000001 is out of range"),
    ],
)
def test_gcg_numbers_beyond_a_game_are_a_warning_and_the_event_ignored(line: str, message: str) -> None:
    game = parse_gcg(f"#player1 a A\n#player2 b B\n{line}\n")
    assert game.events == []
    assert [(w.line, w.message) for w in game.warnings] == [
        (3, f"{message} (a score is at most {MAX_GAME_SCORE:,} either way); the event is ignored")
    ]


def test_the_bound_itself_is_a_score() -> None:
    game = parse_gcg(f"#player1 a A\n#player2 b B\n>a: AEIRST? 8D RAT +6 {MAX_GAME_SCORE}\n")
    assert game.events[0].total == MAX_GAME_SCORE


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ("2147483648/0 0", "CGP score of the player to move 2147483648 is out of range"),
        ("0/-2147483649 0", "CGP opponent's score -2147483649 is out of range"),
        (
            "0/0 99999999999",
            "CGP zero-turn count 99999999999: the English Scrabble game ends after 6 scoreless",
        ),
        (
            "0/0 7",
            "CGP zero-turn count 7: the English Scrabble game ends after 6 scoreless turns, so it is 0 to 6",
        ),
    ],
)
def test_cgp_numbers_beyond_a_game_are_refused(fields: str, message: str) -> None:
    with pytest.raises(CgpError) as caught:
        parse_cgp(f"{CAT} AEINRST/ {fields}", ENGLISH)
    assert str(caught.value).startswith(message)


def test_cgp_numbers_within_bounds_read() -> None:
    position = parse_cgp(f"{CAT} AEINRST/ {MAX_GAME_SCORE}/-{MAX_GAME_SCORE} 6", ENGLISH)
    assert position.scores == (MAX_GAME_SCORE, -MAX_GAME_SCORE) and position.zero_turns == 6


def test_a_game_with_scores_beyond_a_game_is_a_game_error(small: Lexicon) -> None:
    board = Board.empty(ENGLISH)
    with pytest.raises(GameError, match="^player 2's score 2147483648 is out of range"):
        Game.from_position(board, ["AB", "CD"], small, (0, 2**31))
    with pytest.raises(GameError, match="^scoreless_turns 99999999999: the game ends after 6"):
        Game.from_board(board, "AB", small, "CD", scoreless_turns=99_999_999_999)
    game = Game.from_position(board, ["AB", "CD"], small, (MAX_GAME_SCORE, -MAX_GAME_SCORE))
    assert game.scores == (MAX_GAME_SCORE, -MAX_GAME_SCORE)


def test_a_replayed_game_with_a_huge_total_still_gives_a_game(small: Lexicon) -> None:
    """The total that once overflowed the core on its way in is a warning; the game goes on."""
    text = "#player1 a A\n#player2 b B\n>a: AEIRST? 8D RAT +6 2147483648\n>b: EEE -EEE +0 0\n"
    replay = Replay(parse_gcg(text), small, ENGLISH)
    assert len(replay.turns) == 1
    assert replay.game_at(0).scores == (0, 0)


@pytest.mark.parametrize("command", ["sim", "endgame", "solve"])
def test_commands_refuse_a_cgp_score_beyond_a_game(command: str) -> None:
    result = run_cli(command, "--lexicon", "sowpods", "--cgp", f"{CAT} AEINRST/ 2147483648/0 0")
    assert result.returncode == 1, (result.stdout, result.stderr)  # as every unreadable position
    assert "Traceback" not in result.stderr and "OverflowError" not in result.stderr
    assert "CGP score of the player to move 2147483648 is out of range" in result.stderr


def test_too_many_tiles_of_a_letter_names_the_letter(small: Lexicon) -> None:
    z = ENGLISH.alphabet.code("Z")
    board = Board(ENGLISH, bytes(7 * 15 + 4) + bytes([z] * 4) + bytes(15 * 15 - 7 * 15 - 8), check=False)
    with pytest.raises(
        GameError, match=r"^the board and racks hold 5 'Z' tiles; the English Scrabble set has 1 \(4 too"
    ):
        Game.from_position(board, ["Z", "AB"], small)
    with pytest.raises(
        GameError, match=r"^the board and racks hold 3 blanks; the English Scrabble set has 2 \(1 too"
    ):
        Game.from_position(Board.empty(ENGLISH), ["??", "?"], small)


# ---- rulesets the engine cannot use, letters the formats cannot write ---------------------------


def english_with(**changes: object) -> dict:
    data = ENGLISH.to_dict()
    data.update(changes)
    return data


def test_a_ruleset_with_no_tiles_is_refused_when_it_loads() -> None:
    letters = [[letter, value, 0] for letter, value, _count in ENGLISH.to_dict()["letters"]]
    with pytest.raises(RulesError, match="letters, blanks: the set has no tiles"):
        Rules.from_dict(english_with(letters=letters, blanks=0))


def test_a_leave_table_too_big_to_build_is_refused_before_any_memory_is_spent(tmp_path: Path) -> None:
    big = Rules.from_dict(english_with(name="rack16", rack_size=16))
    with pytest.raises(LeavesError, match=r"its leave table would hold [\d,]+ leaves \(racks of 16"):
        tile_set(big)
    rules_file = tmp_path / "rack16.json"
    rules_file.write_text(json.dumps(big.to_dict()))
    for command in (
        ["leaves", "import", "/dev/null", "--rules", str(rules_file), "-o", str(tmp_path / "x.leaves")],
        ["train-leaves", "--rules", str(rules_file), "--lexicon", "sowpods", "-o", str(tmp_path / "t")],
    ):
        result = run_cli(*command)
        assert result.returncode == 2, result.stderr
        assert result.stderr.startswith("error: ruleset 'rack16': its leave table would hold "), result.stderr
        assert not (tmp_path / "t").exists()


def test_the_leave_count_is_the_number_of_multisets() -> None:
    """Against a brute-force count: every multiset of 1..k tiles drawn from small sets."""
    from itertools import combinations_with_replacement

    for counts, k in ([(1, 2, 0, 3)], 3), ([(2, 2, 2)], 4), ([(0, 1, 1, 1, 4)], 5):
        counts = counts[0]
        codes = [c for c, n in enumerate(counts) if n]
        brute = sum(
            1
            for size in range(1, k + 1)
            for leave in combinations_with_replacement(codes, size)
            if all(leave.count(c) <= counts[c] for c in codes)
        )
        assert leave_count(list(counts), k) == brute
    assert leave_count([ENGLISH.blanks, *ENGLISH.counts], 6) == len(entry_keys(ENGLISH))


@pytest.mark.parametrize("letter", ["1", "A/", "#", ",", "[", "("])
def test_letters_holding_a_format_character_are_refused(letter: str) -> None:
    with pytest.raises(AlphabetError, match="has a meaning of its own"):
        Alphabet(["A", letter])


@pytest.mark.parametrize("letter", ["א", "中", "ก"])
def test_letters_with_no_lower_case_are_refused(letter: str) -> None:
    """A blank is written in lower case: a letter without one could not be told from its blank."""
    with pytest.raises(AlphabetError, match="it has no lower case of its own"):
        Alphabet(["A", letter])
    letters = [*ENGLISH.to_dict()["letters"][:-1], [letter, 10, 1]]
    with pytest.raises(RulesError, match="it has no lower case"):
        Rules.from_dict(english_with(letters=letters))


def test_letters_of_every_shipped_ruleset_pass() -> None:
    for name in ("english", "polish", "russian", "erudit", "super"):
        assert Rules.load(name).alphabet.letters
    assert Alphabet(["CH", "LL", "RR", "Ñ", "L·L"]).letters == ("CH", "LL", "RR", "Ñ", "L·L")


# ---- the page's look-ahead sessions, and file data of the wrong type ---------------------------------


@pytest.fixture(scope="module")
def page_endgame() -> tuple[list[str], str]:
    """A position with the bag empty (rows, rack), and sowpods loaded for the page as "sowpods28"."""
    from gaddag_solver.lexicons import resolve_lexicon
    from test_endgame import short_endgame

    path = resolve_lexicon("sowpods")
    game = short_endgame(Lexicon.load(path, ENGLISH), 3)
    assert "error" not in web_api.load_lexicon("sowpods28", Path(path).read_bytes(), "english")
    return game.board.to_rows(), str(game.rack())


@pytest.fixture(scope="module")
def page_lexicon() -> str:
    assert "error" not in web_api.load_lexicon(
        "small28p", build_gaddag(WORDS, ENGLISH.alphabet)[0], "english"
    )
    return "small28p"


def page_call(kind: str, request: dict, data: object = None) -> dict:
    return json.loads(web_api.call(kind, json.dumps(request), data)[0])


def test_a_session_of_another_kind_is_a_request_error(page_endgame: tuple[list[str], str]) -> None:
    rows, rack = page_endgame
    position = {"lexicon": "sowpods28", "rules": "english", "board": rows, "rack": rack}
    sim = page_call("simulate", {**position, "action": "start", "candidates": 2, "plies": 1})
    assert "error" not in sim, sim
    end = page_call("endgame", {**position, "action": "start"})
    assert "error" not in end, end
    crossed = page_call("endgame", {"action": "step", "session": sim["session"], "ms": 5})
    assert crossed == {
        "error": f"session {sim['session']} is a simulation search, not a endgame one",
        "field": "request",
    }
    crossed = page_call("simulate", {"action": "step", "session": end["session"], "ms": 5})
    assert crossed["field"] == "request" and "is a endgame search, not a simulation one" in crossed["error"]
    for number in ([1], {"a": 1}, True, "1", 2.5):
        for action in ("step", "stop"):
            answer = page_call("simulate", {"action": action, "session": number})
            assert answer == {
                "error": f"session must be the number a start answered, not {number!r}",
                "field": "request",
            }
    assert (
        page_call("simulate", {"action": "step", "session": sim["session"], "ms": 5})["session"]
        == sim["session"]
    )


@pytest.mark.parametrize("data", ["not bytes", 12, ["a"], {"to_bytes": 1}])
def test_file_data_of_the_wrong_type_is_a_request_error(data: object) -> None:
    answer = page_call("add_lexicon", {"name": "x", "rules": "english"}, data)
    assert answer == {
        "error": f"the lexicon file must come as bytes, not {type(data).__name__}",
        "field": "request",
    }


@pytest.mark.parametrize("key", ["seed", "candidates", "iterations"])
def test_counts_beyond_32_bits_are_a_request_error(page_lexicon: str, key: str) -> None:
    request = {"lexicon": page_lexicon, "rules": "english", "board": ["." * 15] * 15, "rack": "CAT"}
    huge = {key: 2**40}
    if key == "iterations":  # read by each step
        started = page_call("simulate", {**request, "action": "start", "candidates": 2})
        answer = page_call("simulate", {"action": "step", "session": started["session"], "ms": 5, **huge})
    else:
        answer = page_call("simulate", {**request, "action": "start", **huge})
    assert answer == {"error": f"{key} must be at most {2**31 - 1}, not {2**40}", "field": "request"}


# ---- CLI arguments out of range ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sim", "--time", "-1"], "argument --time: must be a number of seconds, 0 or more, not -1"),
        (["sim", "--time", "nan"], "argument --time: must be a number of seconds, 0 or more, not nan"),
        (["endgame", "--time", "-0.5"], "argument --time: must be a number of seconds, 0 or more, not -0.5"),
        (["sim", "--candidates", "-1"], "argument --candidates: must be at least 1, not -1"),
        (["sim", "--candidates", "0"], "argument --candidates: must be at least 1, not 0"),
    ],
)
def test_arguments_out_of_range_are_usage_errors(args: list[str], message: str) -> None:
    result = run_cli(*args, "--cgp", f"{EMPTY} AEINRST/ 0/0 0")
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_autoplay_help_says_95_percent_once() -> None:
    result = run_cli("autoplay", "--help")
    assert "95% confidence" in result.stdout.replace("\n", " ") and "95%%" not in result.stdout


@pytest.mark.parametrize(
    ("option", "value"), [("-o", "out.jsonl"), ("--workers", "2"), ("--scheduler", "tcp://h:1")]
)
def test_batch_options_without_batch_are_usage_errors(option: str, value: str, tmp_path: Path) -> None:
    game = tmp_path / "g.gcg"
    game.write_text("#player1 a A\n#player2 b B\n>a: AEINRST 8D NASTIER +64 64\n")
    result = run_cli("review", str(game), option, value)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"error: {option} is an option of --batch (one game's review is printed)\n"


@pytest.mark.parametrize("kind", ["simulate", "preendgame", "endgame"])
def test_a_lead_that_is_no_score_is_refused(page_lexicon: str, kind: str) -> None:
    request = {"lexicon": page_lexicon, "rules": "english", "board": ["." * 15] * 15, "rack": "CAT"}
    for spread, said in (
        ("12", "the lead must be a whole number of points, not '12'"),
        (True, "the lead must be a whole number of points, not True"),
        (2.5, "the lead must be a whole number of points, not 2.5"),
        (-(10**7), "the lead -10000000 is out of range"),
    ):
        answer = page_call(kind, {**request, "action": "start", "spread": spread})
        assert answer["field"] == "spread" and answer["error"].startswith(said), answer
