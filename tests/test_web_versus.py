"""A game against the computer in the page (web/versus.js, web_api.versus), end to end in Chromium,
held to the native Game (gaddag_solver.game.play) played with the same seed and moves: the
player's moves are the native equity player's, made by the keyboard on the page's board (or the
exchange field and Pass); after each turn the board, the scores, the turns, the rack and the unseen
tiles on screen are the native game's. A reload (offline) plays the game up to where it was; undo
takes back a turn; the end's adjustments are the native game's; the GCG exported is the native
game's to_gcg and opens at once in the review. Other levels (greedy, simulation for a time) and
the layout at desktop and phone sizes."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pytest
import test_web_e2e
from gaddag_solver import Lexicon, Rules
from gaddag_solver.formats.leaves import Leaves
from gaddag_solver.game.endgame import solve_endgame
from gaddag_solver.game.play import Game
from gaddag_solver.game.simulate import Simulation
from gaddag_solver.move import Move
from gaddag_solver.web_api.versus import turn_seed
from test_web_a11y import assert_accessible
from test_web_api_versus import expected_likely
from test_web_e2e import ARTIFACTS, Page, open_position

pytestmark = test_web_e2e.pytestmark

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = Rules.load("english")
LEXICON = "sowpods"  # its own leave table ships with the package: the page picks it by default
EMPTY = ["." * 15] * 15
NAMES = ("player", "computer")


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load(ROOT / "lexicons" / f"{LEXICON}.gaddag", ENGLISH)


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    return Leaves.load(LEXICON, ENGLISH)


class Versus:
    """The page with the game view open, and what a player does in it."""

    def __init__(self, browser: object, server: str, width: int = 1400, height: int = 1000) -> None:
        self.page = Page(browser, server, viewport={"width": width, "height": height}).open()
        open_position(self.page, EMPTY, "", lexicon={"english": LEXICON})
        self.p = self.page.page

    def close(self) -> None:
        self.page.close()

    def start(
        self, seed: int, level: str = "equity", human: int = 0, practice: bool = False, seconds: float = 2
    ):
        if self.p.locator("#versus").is_hidden():
            self.p.click("#versus-toggle")
        assert self.p.inner_text("#versus-toggle") == "Back to the solver"
        if self.p.get_attribute("#vs-new-box", "open") is None:
            self.p.click("#vs-new-box summary")
        self.p.select_option("#vs-level", level)
        if level in ("simulation", "lookahead"):
            self.p.fill("#vs-seconds", str(seconds))
        self.p.select_option("#vs-first", str(human))
        self.p.fill("#vs-seed", str(seed))
        self.p.set_checked("#vs-practice", practice)
        self.p.click("#vs-start")
        return self.idle()

    def idle(self, timeout: float = 60_000) -> dict:
        self.p.wait_for_function(
            "() => window.gaddag.versus() && !document.body.dataset.versusBusy", timeout=timeout
        )
        return self.state()

    def state(self) -> dict:
        return json.loads(self.p.evaluate("JSON.stringify(window.gaddag.versus())"))

    # ---- the player's moves, by the keyboard ------------------------------------------------

    def go_to(self, r: int, c: int, direction: str) -> None:
        """Move the board's selection to (r, c) with the arrow keys and set the direction (Space)."""
        self.p.focus("#vs-board-input")
        sel = self.p.eval_on_selector(
            "#vs-board .sq.selected", "e => [Number(e.dataset.r), Number(e.dataset.c)]"
        )
        dr, dc = r - sel[0], c - sel[1]
        for _ in range(abs(dr)):
            self.p.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
        for _ in range(abs(dc)):
            self.p.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
        if ("Across" in self.p.inner_text("#vs-dir")) != (direction == "across"):
            self.p.keyboard.press("Space")
        assert ("Across" in self.p.inner_text("#vs-dir")) == (direction == "across")

    def make(self, move: Move) -> dict:
        """Make ``move`` as a player does: a play typed on the board and Enter, an exchange typed in
        its field, the pass by its button."""
        turns = len(self.state()["turns"])
        if move.kind == "play":
            self.go_to(move.row, move.col, move.direction)
            for char in move.word:  # through the tiles on the board: the same letter steps over them
                self.p.keyboard.press(f"Shift+{char.upper()}" if char.islower() else char.lower())
            placed = sorted(tuple(t) for t in self.p.evaluate("window.gaddag.versusPending()"))
            assert placed == sorted((r, c, letter, blank) for r, c, letter, blank in move.tiles)
            self.p.keyboard.press("Enter")
        elif move.kind == "exchange":
            self.p.fill("#vs-exchange-tiles", move.exchanged)
            self.p.press("#vs-exchange-tiles", "Enter")
        else:
            self.p.click("#vs-pass")
        self.p.wait_for_function(f"() => window.gaddag.versus().turns.length > {turns}")
        return self.idle()

    # ---- what the page shows ---------------------------------------------------------------

    def shown(self) -> dict:
        return self.p.evaluate(
            """() => {
              const q = (s) => [...document.querySelectorAll(s)];
              const rows = [];
              for (const sq of q('#vs-board .sq')) {
                const r = Number(sq.dataset.r);
                const played = sq.classList.contains('tile') && !sq.classList.contains('pending');
                const letter = played ? sq.querySelector('.letter').textContent : '.';
                rows[r] = (rows[r] || '') + (sq.classList.contains('blank') ? letter.toLowerCase() : letter);
              }
              return {
                rows,
                you: Number(document.querySelector('#vs-score-you').textContent),
                cpu: Number(document.querySelector('#vs-score-cpu').textContent),
                rack: q('#vs-rack .vs-tile').map((t) => t.dataset.tile).sort().join(''),
                turns: q('#vs-turns li').map((li) => [li.querySelector('.vs-who').textContent,
                  li.querySelector('.vs-what').textContent, li.querySelector('.vs-pts').textContent,
                  li.querySelector('.vs-total').textContent]),
                unseen: Object.fromEntries(
                  q('#vs-unseen .u-cell').map((c) => [c.dataset.letter, Number(c.dataset.count)])),
                last: q('#vs-board .sq.last-move').map((s) => [Number(s.dataset.r), Number(s.dataset.c)]),
                message: document.querySelector('#vs-message').textContent,
                likely: document.querySelector('#vs-likely').hidden ? null
                  : document.querySelector('#vs-likely-leaves').textContent,
              };
            }"""
        )


def native_turns(game: Game, human: int) -> list[list[str]]:
    out = []
    for t in game.history:
        move = t.move
        if move.kind == "play":
            text = f"{move.coord} {move.word}"
        elif move.kind == "exchange":
            text = (
                f"exchange {move.exchanged}"
                if t.player == human or game.over
                else f"exchange {len(move.exchanged)}"
            )
        else:
            text = "pass"
        out.append(["You" if t.player == human else "Computer", text, f"+{move.score}", str(t.total)])
    return out


def native_move(game: Game, made: dict) -> Move:
    """The native Move of a move as the page keeps it (a play's tiles, an exchange's, the pass)."""
    if made["kind"] == "exchange":
        return Move.exchange(made["tiles"])
    if made["kind"] == "pass":
        return Move.pass_turn()
    tiles = sorted(tuple(t) for t in made["tiles"])
    return next(m for m in game.moves() if m.kind == "play" and sorted(m.tiles) == tiles)


def likely_text(game: Game, human: int, seed: int) -> str | None:
    """What the panel should say the computer likely kept: the native inference of its last move."""
    if not _tables:
        _tables.append(Leaves.load("sowpods", ENGLISH))
    expected = expected_likely(game, human, seed, _tables[0])
    if expected is None:
        return None
    percent = [math.floor(100 * x["probability"] + 0.5) for x in expected["leaves"]]  # as Math.round
    shown = [f"{x['tiles'] or 'nothing'} {p}%" for x, p in zip(expected["leaves"], percent, strict=True)]
    return "Likely kept by the computer: " + ", ".join(shown)


_tables: list[Leaves] = []


def check_shown(v: Versus, game: Game, human: int) -> None:
    shown = v.shown()
    assert shown["rows"] == game.board.to_rows()
    assert (shown["you"], shown["cpu"]) == (game.scores[human], game.scores[1 - human])
    assert shown["turns"] == native_turns(game, human)
    assert shown["rack"] == "".join(sorted(str(game.rack(human))))
    assert shown["unseen"] == game.unseen(human).counts
    last = game.history[-1].move if game.history else None
    assert sorted(shown["last"]) == sorted([r, c] for r, c, _l, _b in (last.tiles if last else []))
    assert shown["likely"] == likely_text(game, human, v.state()["seed"])
    # the last move's score on its last tile, and in that square's name (once)
    scored = v.p.eval_on_selector_all(
        "#vs-board .sq[data-score]", "els => els.map((e) => [e.dataset.score, e.getAttribute('aria-label')])"
    )
    if last is not None and last.kind == "play":
        assert len(scored) == 1 and scored[0][0] == f"+{last.score}"
        assert scored[0][1].count("for the last move") == 1
        assert scored[0][1].endswith(f", +{last.score} for the last move")
    else:
        assert scored == []
    if not game.over:
        # the computer's rack is nowhere in what the page holds or shows
        theirs = str(game.rack(1 - human))
        state = v.state()
        assert all("rack" not in t for t in state["turns"] if t["player"] != human)
        if len(theirs) >= 5:  # (the words on the board and in the turns may hold any run of letters)
            assert theirs not in json.dumps({k: x for k, x in state.items() if k not in ("board", "turns")})
            for part in ("#vs-rack", "#vs-message", "#vs-pending", ".vs-scores", "#vs-unseen-summary"):
                assert theirs not in v.p.inner_text(part), part


def test_a_seeded_game_is_the_native_game(
    browser: object, server: str, lexicon: Lexicon, leaves: Leaves
) -> None:
    seed = 2027
    human = 0
    game = Game.new(lexicon, ENGLISH, seed)
    v = Versus(browser, server)
    try:
        v.start(seed, "equity", human, practice=True)
        check_shown(v, game, human)
        assert "Your turn" in v.shown()["message"]
        undone = False
        reloaded = False
        while not game.over:
            move = game.best_move("equity", leaves)
            v.make(move)
            game.play(move)
            if not game.over:
                game.play(game.best_move("equity", leaves))
            check_shown(v, game, human)
            turns = len(game.history)
            if turns >= 6 and not undone:
                # practice: the player's move and the reply taken back, then made again
                undone = True
                assert v.p.locator("#vs-undo").is_enabled()
                v.p.focus("#vs-board-input")
                v.p.keyboard.press("Control+z")  # as Undo turn: never the hidden solver's undo
                v.p.wait_for_function(f"() => window.gaddag.versus().turns.length === {turns - 2}")
                game.undo()
                game.undo()
                check_shown(v, game, human)
                assert "taken back" in v.shown()["message"]
                assert v.p.evaluate("window.gaddag.boardRows()") == EMPTY
            if turns >= 12 and not reloaded:
                # a reload, offline: the game comes back as it was, from the seed and the moves kept
                reloaded = True
                v.p.wait_for_function(
                    """async () => { const k = (await window.gaddag.offline()).kept || [];
                       return k.includes('lexicons/sowpods.gaddag')
                         && k.includes('lexicons/sowpods.leaves'); }""",
                    timeout=60_000,
                )
                before = v.state()
                v.page.context.set_offline(True)
                try:
                    v.p.reload()
                    v.p.wait_for_selector("#versus:not([hidden])", timeout=10_000)
                    after = v.idle()
                finally:
                    v.page.context.set_offline(False)
                assert {k: x for k, x in after.items() if k != "search"} == {
                    k: x for k, x in before.items() if k != "search"
                }
                check_shown(v, game, human)
        assert undone and reloaded
        # the end, scored by the rules: the native game's adjustments, on show
        state = v.state()
        assert state["end"]["adjustments"] == list(game.end_adjustments)
        assert v.p.locator("#vs-end").is_visible()
        lines = v.p.eval_on_selector_all("#vs-end-lines li", "els => els.map((e) => e.textContent)")
        for p, who in ((human, "You"), (1 - human, "The computer")):
            adjustment = game.end_adjustments[p]
            assert any(
                line.startswith(f"{who}: {'+' if adjustment >= 0 else '−'}{abs(adjustment)}")
                for line in lines
            )
        mine, theirs = game.scores[human], game.scores[1 - human]
        result = v.p.inner_text("#vs-end-result")
        assert f"Final score: you {mine}, the computer {theirs}." in result
        assert (
            f"You won by {mine - theirs}." if mine > theirs else f"The computer won by {theirs - mine}."
        ) in result
        assert v.p.locator("#vs-play").is_disabled()
        v.page.shot("versus-over.png")
        # GCG: the native game's, naming its lexicon; reviewed at once
        v.p.click("#vs-export")
        v.p.wait_for_function("() => document.querySelector('#vs-gcg').value.length > 0")
        gcg = v.p.input_value("#vs-gcg")
        assert gcg == game.to_gcg(NAMES, None, LEXICON)
        assert "#lexicon sowpods" in gcg
        v.p.click("#vs-review")
        v.p.wait_for_function(
            "() => window.gaddag.replay() && !document.querySelector('#replay').hidden", timeout=60_000
        )
        review = v.p.evaluate("window.gaddag.replay()")
        # every turn, then the end's adjustments (the points each player's rack gave or cost)
        moves = [t for t in review["turns"] if t["kind"] in ("play", "exchange", "pass")]
        assert [t["score"] for t in moves] == [t.move.score for t in game.history]
        ends = [t["score"] for t in review["turns"][len(moves) :]]
        assert sorted(ends) == sorted(game.end_adjustments)
        assert review["final"]["scores"] == list(game.scores)
        assert v.p.locator("#versus").is_hidden() and v.p.locator("#replay").is_visible()
        assert not v.page.errors, v.page.errors
        assert all(url.startswith(v.page.url.rstrip("/")) for url in v.page.requests)
    finally:
        v.close()


def test_greedy_computer_first_and_bad_moves(browser: object, server: str, lexicon: Lexicon) -> None:
    seed = 77
    human = 1
    game = Game.new(lexicon, ENGLISH, seed)
    v = Versus(browser, server)
    try:
        v.start(seed, "greedy", human)
        game.play(game.best_move("greedy"))
        check_shown(v, game, human)
        first = game.history[0].move
        assert f"The computer played {first.coord} {first.word} for {first.score}" in v.shown()["message"]
        assert v.p.locator("#vs-hint").is_hidden() and v.p.locator("#vs-undo").is_hidden()
        # an exchange of tiles the rack does not hold, and tiles placed that make no word: said, not made
        rack = str(game.rack(human))
        missing = next(letter for letter in "QZXJKVWY" if letter not in rack)
        v.p.fill("#vs-exchange-tiles", missing)
        v.p.click("#vs-exchange")
        v.p.locator("#vs-error").wait_for(state="visible")
        assert f"rack {rack} does not hold those tiles" in v.p.inner_text("#vs-error")
        v.go_to(0, 0, "across")
        v.p.keyboard.press(rack[0].lower())
        v.p.wait_for_function("() => document.querySelector('#vs-pending').dataset.legal === 'false'")
        assert "touches no tile" in v.p.inner_text("#vs-pending")
        v.p.keyboard.press("Enter")
        v.p.wait_for_function(
            "() => document.querySelector('#vs-error').textContent.includes('touches no tile')"
        )
        assert len(v.state()["turns"]) == 1
        v.p.click("#vs-recall")
        assert v.p.evaluate("window.gaddag.versusPending()") == []
        for _ in range(4):
            move = game.best_move("equity")
            v.make(move)
            game.play(move)
            game.play(game.best_move("greedy"))
            check_shown(v, game, human)
        assert not v.page.errors, v.page.errors
    finally:
        v.close()


def test_simulating_computer_takes_its_time(
    browser: object, server: str, lexicon: Lexicon, leaves: Leaves
) -> None:
    seed = 5
    human = 1
    game = Game.new(lexicon, ENGLISH, seed)
    v = Versus(browser, server)
    try:
        started = time.monotonic()
        state = v.start(seed, "simulation", human, seconds=0.5)
        took = time.monotonic() - started
        search = v.p.evaluate("window.gaddag.versus().search") or {}
        # the move made is the simulation's best, one of the candidates the native simulation of the
        # same position and seed considers; its time the time asked for (a simulation decided early
        # takes less)
        candidates = {str(m): m for m in Simulation(game, leaves=leaves, seed=turn_seed(seed, 0)).moves}
        made = state["turns"][0]
        assert (
            search["best"]["move"] == f"{made['text']} {made['score']}"
            and search["best"]["move"] in candidates
        )
        assert search["elapsed_ms"] <= 500 + 500 and took < 30  # the last batch may overrun
        assert search["iterations"] > 0
        assert "simulation, 0.5 s a move" in v.p.inner_text("#vs-level-name")
        game.play(candidates[search["best"]["move"]])
        check_shown(v, game, human)
        move = game.best_move("equity", leaves)
        v.make(move)
        game.play(move)
        game.play(native_move(game, v.state()["moves"][-1]))
        check_shown(v, game, human)
    finally:
        v.close()


def test_lookahead_computer_plays_the_endgame_exactly(
    browser: object, server: str, lexicon: Lexicon, leaves: Leaves
) -> None:
    """The look-ahead level to the end of a game: the player's moves the native equity player's,
    the computer's replayed natively; with the bag empty its move is the native endgame search's.

    The computer's pre-endgame is timed, so which endgame it reaches (and whether it finishes in
    0.5 s on a loaded machine) can vary: up to three games are played until one endgame solved in
    the page has been held to the native search."""
    human = 0
    endgames = 0
    for seed in (4, 5, 6):
        game = Game.new(lexicon, ENGLISH, seed)
        v = Versus(browser, server)
        try:
            v.start(seed, "lookahead", human, seconds=0.5)
            assert "look-ahead, 0.5 s a move" in v.p.inner_text("#vs-level-name")
            while not game.over:
                move = game.best_move("equity", leaves)
                state = v.make(move)
                game.play(move)
                if game.over:
                    break
                search = state.get("search") or {}
                if game.bag_count == 0:
                    assert search["kind"] == "endgame"
                    if search["complete"]:  # solved within its time: exact
                        native = solve_endgame(game)
                        assert native.complete
                        assert (search["value"], search["line"][0]) == (native.value, str(native.best))
                        endgames += 1
                    else:
                        assert search["reason"] == "time"
                game.play(native_move(game, state["moves"][-1]))
                check_shown(v, game, human)
            assert v.state()["end"]["adjustments"] == list(game.end_adjustments)
            assert not v.page.errors, v.page.errors
        finally:
            v.close()
        if endgames:
            break
    assert endgames >= 1


@pytest.mark.parametrize(("width", "height"), [(1400, 1000), (1920, 1080), (390, 844)])
def test_layout(
    browser: object, server: str, lexicon: Lexicon, leaves: Leaves, width: int, height: int
) -> None:
    v = Versus(browser, server, width, height)
    game = Game.new(lexicon, ENGLISH, 31)
    try:
        v.start(31, "equity", 0, practice=True)
        # a move made with the pointer: its first square clicked (twice to turn down), its tiles
        # clicked on the rack, then Play
        move = game.best_move("equity", leaves)
        assert move.kind == "play" and not any(blank for *_rest, blank in move.tiles)
        square = v.p.locator(f"#vs-board .sq[data-r='{move.row}'][data-c='{move.col}']")
        square.click()
        if ("Across" in v.p.inner_text("#vs-dir")) != (move.direction == "across"):
            square.click()
        for letter in move.word:
            v.p.click(f"#vs-rack .vs-tile[data-tile='{letter}']:not(.placed)")
        v.p.wait_for_function("() => document.querySelector('#vs-pending').dataset.legal === 'true'")
        assert v.p.inner_text("#vs-pending").startswith(f"{move.coord} {move.word}: {move.score} points")
        v.p.click("#vs-play")
        v.p.wait_for_function("() => window.gaddag.versus().turns.length === 2")
        v.idle()
        game.play(move)
        game.play(game.best_move("equity", leaves))
        check_shown(v, game, 0)
        v.p.click("#vs-hint")
        v.p.wait_for_function("() => window.gaddag.versusPending().length > 0")
        v.p.evaluate("window.scrollTo(0, 0)")
        # the board, the rack and Play in sight at once, none covered
        for selector in ("#vs-board", "#vs-rack", "#vs-play", "#vs-score-you", "#vs-score-cpu"):
            box = v.p.locator(selector).bounding_box()
            assert box is not None, selector
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, selector
            on_screen = box["y"] + min(box["height"], 40) <= height
            assert on_screen, (selector, box)
        for selector in ("#vs-play", "#vs-rack .vs-tile", "#vs-board .sq[data-r='7'][data-c='7']"):
            covered = v.p.eval_on_selector(
                selector,
                """(el) => { const b = el.getBoundingClientRect();
                   const y = Math.min(b.y + b.height / 2, innerHeight - 2);
                   const top = document.elementFromPoint(b.x + b.width / 2, y);
                   return !(top === el || el.contains(top) || top.contains(el)); }""",
            )
            assert not covered, selector
        if width >= 1400:
            # beside the board: the unseen tiles and the turns
            board = v.p.locator("#vs-board").bounding_box()
            side = v.p.locator("#vs-unseen").bounding_box()
            assert side["x"] >= board["x"] + board["width"] and side["y"] < height
        assert v.p.evaluate("document.documentElement.scrollWidth") <= width
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        v.p.screenshot(path=str(ARTIFACTS / f"versus-{width}x{height}.png"))
        # WCAG 2 A/AA (axe-core), with the game under way and with the new game's form open
        assert_accessible(v.page, f"in a game at {width}x{height}")
        v.p.click("#vs-new-box summary")
        v.p.select_option("#vs-level", "simulation")
        assert v.p.locator("#vs-seconds").is_visible()
        assert_accessible(v.page, f"with the new game's form at {width}x{height}")
        assert not v.page.errors, v.page.errors
    finally:
        v.close()
