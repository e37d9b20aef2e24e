"""GCG in and out: the parser on real-world-shaped files (a published game, a hand-made club
game with every kind of event, ISO-8859-1 and CRLF), round trips (file → replay → file, and our
self-played games exported and read back), and malformed files, each giving its warning with
the line number while the rest of the game still loads.

Oracles: the scores a published game records (Quackle v David Boys, 2006 Human vs. Computer
Showdown, round 1 — its first fifteen moves, transcribed), scores worked out by hand from the
board's premiums for the club game, and for self-play the C core's own game (boards, racks,
totals and unseen tiles at every turn)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from gaddag_solver import Game, Lexicon, Rules
from gaddag_solver.formats.gcg import (
    CHALLENGE_BONUS,
    END_PENALTY,
    END_POINTS,
    EXCHANGE,
    PASS,
    PLAY,
    TIME_PENALTY,
    WITHDRAWN,
    GcgError,
    decode_gcg,
    parse_gcg,
    read_gcg,
)
from gaddag_solver.formats.leaves import Leaves
from gaddag_solver.game.replay import Replay, default_review_lexicon, lexicon_for
from gaddag_solver.lexicons import resolve_lexicon

DATA = Path(__file__).resolve().parent / "data" / "gcg"
QUACKLE = DATA / "quackle_boys_2006.gcg"
CLUB = DATA / "club_night.gcg"
RULES = Rules.load("english")


def fields(game_events: list) -> list[tuple]:
    """What a round trip must keep of each event (not its line number)."""
    return [
        (
            e.nick,
            e.kind,
            e.rack,
            e.coord,
            e.word,
            e.exchanged,
            e.exchange_count,
            e.tiles,
            e.score,
            e.total,
            e.note,
        )
        for e in game_events
    ]


# ---- a published game ------------------------------------------------------------------------------

# (line, score) as the file records them: the published game's own figures
QUACKLE_SCORES = [40, 64, 26, 75, 29, 28, 92, 37, 54, 32, 27, 20, 22, 9, 42]


def test_published_game_reads_with_its_pragmata() -> None:
    game = read_gcg(QUACKLE)
    assert game.players == [("Quackle", "Quackle Computer"), ("David", "David Boys")]
    assert game.title == "2006 Human vs. Computer Showdown Round 1"
    assert game.description.startswith("Quackle Computer plays David Boys")
    assert game.incomplete
    assert game.warnings == []
    assert [e.kind for e in game.events] == [PLAY] * 15
    assert [e.score for e in game.events] == QUACKLE_SCORES
    # the annotation after the total (the words formed) is kept as the event's note
    assert game.events[2].note == "BE, ET, DO"
    assert (game.events[1].coord, game.events[1].word, game.events[1].rack) == ("h2", "rEDYEING", "?EDYEIG")


def test_published_game_replays_with_its_own_scores(twl06: Lexicon) -> None:
    replay = Replay.load(QUACKLE, twl06)
    assert replay.warnings == []
    # every score we work out is the one the game recorded, totals included
    assert [t.score for t in replay.turns] == QUACKLE_SCORES
    totals = [0, 0]
    for turn, score in zip(replay.turns, QUACKLE_SCORES, strict=True):
        assert turn.scores == (totals[0], totals[1])
        totals[turn.player] += score
        assert turn.scores_after == (totals[0], totals[1])
    assert replay.scores == (332, 265)
    # letters written over tiles already there: JAUNTY goes down from the J of JETON
    jaunty = replay.turns[9]
    assert jaunty.move is not None and jaunty.move.word == "JAUNTY"
    assert [(r, c) for r, c, _l, _b in jaunty.move.tiles] == [(8, 3), (9, 3), (10, 3), (11, 3), (12, 3)]
    assert jaunty.board[7, 3] == "J"
    # the blank stays a blank on the board
    assert replay.board[1, 7] == "r"


def test_published_game_round_trips(twl06: Lexicon) -> None:
    replay = Replay.load(QUACKLE, twl06)
    again = parse_gcg(replay.to_gcg())
    original = read_gcg(QUACKLE)
    assert fields(again.events) == fields(original.events)
    assert again.players == original.players
    assert (again.title, again.description, again.incomplete) == (
        original.title,
        original.description,
        original.incomplete,
    )
    assert Replay(again, twl06).board == replay.board


# ---- a club game with every kind of event -----------------------------------------------------------


def test_club_game_every_event_kind() -> None:
    game = read_gcg(CLUB)
    assert game.encoding == "iso-8859-1"
    assert game.players == [("José", "José Pérez"), ("Zoë", "Zoë Ångström")]
    assert game.lexicon == "CSW19"
    assert game.id == "cross-tables 4242"
    assert game.description == "A short game to show\nwhat real files hold."
    assert game.final_racks == ["ADETUWY", "IIORSTU"]
    assert game.pragmas == [(7, "foo", "bar baz")]
    assert [str(w) for w in game.warnings] == ["line 7: unknown pragma #foo; kept"]
    kinds = [e.kind for e in game.events]
    assert kinds == [
        PLAY,
        PLAY,
        PLAY,
        WITHDRAWN,
        EXCHANGE,
        PLAY,
        CHALLENGE_BONUS,
        PASS,
        END_PENALTY,
        TIME_PENALTY,
    ]
    assert game.events[0].note == "a quiet start\nkeeping EILN"
    assert (game.events[4].exchanged, game.events[4].exchange_count) == ("", 3)
    assert game.events[8].tiles == "IIORSTU"
    assert game.events[9].rack == ""


def test_club_game_replays_with_hand_worked_scores(sowpods: Lexicon) -> None:
    replay = Replay.load(CLUB, sowpods)
    plays = [t for t in replay.turns if t.kind == PLAY]
    # HAD: (4+1+2) × 2 on the start square; TAKE: 1+1+5+1; TEVL: 1+1+4+1×3 (L on a triple
    # letter); LEVIN: 1+1+4+1×3+1
    assert [t.score for t in plays] == [14, 8, 9, 10]
    assert [t.move.word for t in plays if t.move] == ["HAD", "TAKE", "TEVL", "LEVIN"]
    assert plays[2].withdrawn and plays[2].phonies == ("TEVL",)
    assert [str(w) for w in replay.warnings] == [
        "line 7: unknown pragma #foo; kept",
        "line 14: José: not in sowpods: TEVL",
    ]
    # the withdrawal takes the phony off the board and its points off the score
    assert replay.turns[3].scores_after == (14, 8)
    assert replay.board[9, 6] == "L" and replay.board[9, 8] == "V"
    assert replay.scores == (19, 1)
    assert [t.scores_after for t in replay.turns[-4:]] == [(29, 8), (29, 8), (29, 1), (19, 1)]


def test_club_game_lexicon_from_the_pragma() -> None:
    replay = Replay.load(CLUB)  # #lexicon CSW19: checked with sowpods, and it says so
    assert replay.lexicon is not None and replay.lexicon.name == "sowpods"
    assert str(replay.warnings[0]) == "line 5: #lexicon CSW19 is checked with sowpods"
    assert lexicon_for("TWL06") == ("twl06", None)
    assert lexicon_for("NWL2020")[0] == "twl06"
    assert lexicon_for("", "enable") == ("enable", None)
    assert lexicon_for("FRA20")[0] == "sowpods"
    # our own files name any list we build; a file without #lexicon is checked with the
    # ruleset's own list (SOWPODS for English, which holds the other English lists' words)
    assert lexicon_for("spanish-words") == ("spanish-words", None)
    assert lexicon_for("wngerman") == ("wngerman", None)
    spanish = Rules.load("spanish")
    assert lexicon_for("", None, default_review_lexicon(spanish)) == ("spanish-words", None)
    assert default_review_lexicon(Rules.load("english")) == "sowpods"
    assert default_review_lexicon(Rules.load("wwf")) == "enable"
    mine = Rules.from_dict({**spanish.to_dict(), "name": "mine", "default_lexicon": None})
    assert default_review_lexicon(mine) == "sowpods"


def test_encodings_and_line_ends_read_alike() -> None:
    latin = CLUB.read_bytes()
    text, issues = decode_gcg(latin)
    assert issues == [] and "José Pérez" in text
    utf8 = text.replace("iso-8859-1", "UTF-8").encode("utf-8")
    undeclared = "\n".join(text.splitlines()[1:]).encode("utf-8")  # no pragma: UTF-8 found
    undeclared_latin = "\n".join(text.splitlines()[1:]).encode("latin-1")  # no pragma, not UTF-8
    for data in (utf8, undeclared, undeclared_latin, text.replace("\r\n", "\r").encode("latin-1")):
        decoded, found = decode_gcg(data)
        game = parse_gcg(decoded)
        assert found == []
        assert game.players == [("José", "José Pérez"), ("Zoë", "Zoë Ångström")]
        assert fields(game.events) == fields(parse_gcg(text).events)
    # declared UTF-8 but not: a warning, read as ISO-8859-1
    lying = latin.replace(b"iso-8859-1", b"UTF-8")
    decoded, found = decode_gcg(lying)
    assert "José" in decoded and [str(f) for f in found] == [
        "line 2: not valid UTF-8 although declared so; read as ISO-8859-1"
    ]


def test_club_game_round_trips(sowpods: Lexicon) -> None:
    replay = Replay.load(CLUB, sowpods)
    again = parse_gcg(replay.to_gcg())
    original = read_gcg(CLUB)
    assert fields(again.events) == fields(original.events)
    assert (again.players, again.final_racks, again.lexicon, again.id, again.description) == (
        original.players,
        original.final_racks,
        original.lexicon,
        original.id,
        original.description,
    )
    assert Replay(again, sowpods).scores == replay.scores


# ---- our own games, exported and read back ------------------------------------------------------------


def play_game(
    lexicon: Lexicon, seed: int, leaves: Leaves | None, rules: Rules | None = None
) -> tuple[Game, list[dict]]:
    """A game played by the core's equity player, with what each turn looked like before it."""
    game = Game.new(lexicon, rules, seed=seed)
    seen = []
    while not game.over:
        seen.append(
            {
                "board": game.board,
                "scores": game.scores,
                "rack": sorted(game.rack().tiles),
                "racks": [sorted(game.rack(p).tiles) for p in (0, 1)],
                "bag": game.bag_count,
                "unseen": game.unseen().counts,
            }
        )
        game.play(game.best_move(leaves=leaves))
    return game, seen


@functools.cache
def built_lexicon(name: str, rules: str) -> Lexicon:
    return Lexicon.load(resolve_lexicon(name), Rules.load(rules))


# English, and Spanish, whose CH, LL and RR tiles are written [CH] in words and racks, and whose
# racks holding L then L (or C then H) must not read back as one LL (or CH) tile
@pytest.mark.parametrize(
    ("name", "rules", "seed"),
    [("sowpods", "english", seed) for seed in (1, 2, 3)]
    + [("spanish-words", "spanish", seed) for seed in (1, 2, 3, 4)],
)
def test_self_played_game_exported_and_replayed(name: str, rules: str, seed: int) -> None:
    lexicon, ruleset = built_lexicon(name, rules), Rules.load(rules)
    leaves = Leaves.for_lexicon(lexicon, ruleset)
    game, seen = play_game(lexicon, seed, leaves, ruleset)
    text = game.to_gcg(("Ann Lee", "Bo"))
    replay = Replay.from_text(text.encode("utf-8"), lexicon, ruleset)
    assert replay.warnings == []
    turns = [t for t in replay.turns if t.kind in (PLAY, EXCHANGE, PASS)]
    assert len(turns) == len(seen) == len(game.history)
    for turn, before, record in zip(turns, seen, game.history, strict=True):
        assert turn.board == before["board"]
        assert turn.scores == before["scores"]
        assert turn.rack is not None and sorted(turn.rack.tiles) == before["rack"]
        assert turn.rack_complete
        assert turn.unseen().counts == before["unseen"]
        assert turn.scores_after[turn.player] == record.total
        if record.move.kind == PLAY:
            assert turn.score == record.move.score
    assert replay.scores == game.scores  # the end-of-game rack points included
    assert any(t.kind in (END_PENALTY, END_POINTS) for t in replay.turns)
    assert replay.board == game.board
    # a Game at any turn: the position as it was, and the move made scores what it did
    for index, turn in list(enumerate(turns))[:: max(1, len(turns) // 6)]:
        before = seen[index]
        at = replay.game_at(turn.index, seed=index)
        assert at.board == before["board"] and at.scores == before["scores"]
        assert at.to_move == turn.player and at.bag_count == before["bag"]
        assert [sorted(at.rack(p).tiles) for p in (0, 1)] == before["racks"]
        assert turn.move is not None
        at.play(turn.move)
        assert at.scores[turn.player] - at.end_adjustments[turn.player] == game.history[index].total
    # and out again: the same events
    assert fields(parse_gcg(replay.to_gcg()).events) == fields(parse_gcg(text).events)


# ---- malformed files -----------------------------------------------------------------------------------


def quackle_lines() -> list[str]:
    return QUACKLE.read_text().splitlines()


def replay_of(lines: list[str], lexicon: Lexicon) -> Replay:
    return Replay.from_text("\n".join(lines) + "\n", lexicon)


def messages(replay: Replay) -> list[str]:
    return [str(w) for w in replay.warnings]


def test_truncated_file_keeps_what_it_has(twl06: Lexicon) -> None:
    lines = quackle_lines()[:13]
    lines[-1] = ">David: AORWAVA  6c   AVOW"  # cut in the middle of line 13
    replay = replay_of(lines, twl06)
    assert messages(replay) == [
        "line 13: a play needs a square, a word, points and a total: '6c AVOW' (truncated?); "
        "the event is ignored"
    ]
    assert len(replay.turns) == 7 and replay.scores == (187, 167)


def test_unknown_pragma_is_kept_with_a_warning(twl06: Lexicon) -> None:
    lines = quackle_lines()
    lines.insert(5, "#annotator Someone Else")
    replay = replay_of(lines, twl06)
    assert messages(replay) == ["line 6: unknown pragma #annotator; kept"]
    assert ("annotator", "Someone Else") in [(name, value) for _l, name, value in replay.gcg.pragmas]
    assert "#annotator Someone Else" in replay.to_gcg()
    assert len(replay.turns) == 15


def test_wrong_score_is_reported_and_the_file_kept(twl06: Lexicon) -> None:
    lines = quackle_lines()
    lines[5] = ">Quackle: DEMJNOT  8d   JETON           +44   44"
    replay = replay_of(lines, twl06)
    assert messages(replay) == [
        "line 6: Quackle: the file scores 8d JETON 44, we score 40",
        "line 8: Quackle: the total 66 is not 44 +26 = 70; the file's total is kept",
    ]
    assert replay.turns[0].score == 40 and replay.turns[0].scores_after == (44, 0)
    assert replay.scores == (332, 265) and len(replay.turns) == 15


def test_bad_coordinates(twl06: Lexicon) -> None:
    lines = quackle_lines()
    lines[5] = ">Quackle: DEMJNOT  88   JETON           +40   40"  # not a square at all
    lines.insert(7, ">Quackle: BEDGMNP  8Z   BED  +10 50")  # off the board
    replay = replay_of(lines, twl06)
    found = messages(replay)
    assert found[0] == "line 6: '88' is not a square: write 8D (across) or D8 (down); the event is ignored"
    assert "line 8: Quackle: square 8Z is off the 15×15 board" in found
    # without JETON the blank bingo puts its own N on the start square: the rack lacks it
    assert found[1] == "line 7: David: the rack ?EDYEIG does not hold the tiles played (?EDYEING)"
    assert (
        found[2].startswith("line 7: David: ") and "places 8 tiles, more than a rack of 7 holds" in found[2]
    )
    assert len(replay.turns) == 15
    assert replay.turns[1].move is None and replay.turns[1].board == replay.turns[2].board


def test_impossible_plays(twl06: Lexicon) -> None:
    lines = quackle_lines()
    lines[6] = ">David: ?EDYEIG   h2  rEDYEIXG        +64   64"  # X over the N of JETON
    lines[5] = ">Quackle: DEMANOT  8d   JETON           +40   40"  # no J on the rack
    lines.append(">David: AADEIRT  15K  ADA  +10 275")  # touches nothing
    replay = replay_of(lines, twl06)
    found = messages(replay)
    assert found[:2] == [
        "line 6: Quackle: the rack DEMANOT does not hold the tiles played (JETON)",
        "line 7: David: h2 rEDYEIXG: H8 holds N, the play writes X",
    ]
    assert "line 21: David: 15K ADA: the play touches no tile on the board" in found
    assert replay.turns[1].move is None  # not placed: the board as it was
    assert replay.turns[1].board == replay.turns[2].board
    assert len(replay.turns) == 16 and replay.scores == (332, 275)


def test_phony_withdrawn_and_a_withdrawal_without_a_play(twl06: Lexicon) -> None:
    lines = quackle_lines()[:7]
    lines.append(">Quackle: BDEGMNP  7e   BEDIM           +26   66")
    lines.append(">David: ADEHLRS  -  +0  64")
    # beside the M of BEDIM (I7) it makes BEDIMB; the S is not on the rack; 26 points, not 12
    lines.append(">Quackle: BDEGMNP  j7   BEDIMS  +12   78")
    lines.append(">Quackle: BDEGMNP  --  -12   66")
    lines.append(">David: ADEHLRS  --  -5   59")  # David's last event is a pass
    replay = replay_of(lines, twl06)
    assert messages(replay) == [
        "line 10: Quackle: the rack BDEGMNP does not hold the tiles played (BEDIMS)",
        "line 10: Quackle: the file scores j7 BEDIMS 12, we score 26",
        "line 10: Quackle: not in twl06: BEDIMB",
        "line 12: David: '--' withdraws a play, but the player's last event is not a play",
    ]
    withdrawn = replay.turns[4]
    assert withdrawn.withdrawn and replay.turns[5].scores_after == (66, 64)
    assert replay.turns[6].board == withdrawn.board  # the play taken off the board
    assert replay.board == withdrawn.board


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"", "no #pragma or >event line"),
        (b"hello\nworld\n", "no #pragma or >event line"),
        (b"\x89PNG\r\n\x1a\n\0\0\0", "binary data"),
        (b"#title only a title\n", "no #player pragma and no >event line"),
    ],
)
def test_not_gcg_at_all(tmp_path: Path, data: bytes, why: str) -> None:
    path = tmp_path / "x.gcg"
    path.write_bytes(data)
    with pytest.raises(GcgError, match=f"x.gcg: not a GCG file \\({why}\\)"):
        read_gcg(path)


def test_events_by_a_third_player_and_stray_lines(twl06: Lexicon) -> None:
    lines = quackle_lines()
    lines.insert(6, ">Carol: AEIOUXZ  a1  ZOA +30 30")
    lines.insert(6, "just some words")
    replay = replay_of(lines, twl06)
    assert messages(replay) == [
        "line 7: not a GCG line (neither #pragma nor >event): 'just some words'; ignored",
        "line 8: 'Carol' is neither player (Quackle and David); the event is ignored",
    ]
    assert replay.scores == (332, 265)


def test_too_many_tiles_and_a_missing_turn(twl06: Lexicon) -> None:
    lines = quackle_lines()
    lines[7] = ">Quackle: BEDGMZZ  7e   BEDIM           +26   66  BE, ET, DO"  # a second Z
    del lines[8]  # David's HEALERS: Quackle then moves twice in a row
    replay = replay_of(lines, twl06)
    found = messages(replay)
    assert found[0] == (
        "line 8: Quackle: the board and rack hold 2 Z tiles, but the English Scrabble bag has only 1"
    )
    assert "line 9: Quackle: moves twice in a row (a turn of the opponent missing?)" in found
    assert sum("2 Z tiles" in m for m in found) == 1  # said once, not on every turn after


def test_notes_go_on_over_lines() -> None:
    game = parse_gcg(
        "#player1 a Ann\n#player2 b Bo\n#description two\nlines\n"
        ">a: AB 8G AB +8 8\n#note first\n#- second\nthird\n\n"
        ">b: CD - +0 0\n#note alone\n"
    )
    assert game.description == "two\nlines"
    assert [e.note for e in game.events] == ["first\nsecond\nthird", "alone"]
    assert game.warnings == []
    assert game.lines == {"player1": 1, "player2": 2, "description": 3, "note": 11}
