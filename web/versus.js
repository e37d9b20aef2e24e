// A game against the computer (docs/versus.md): the page's player against one of the engine's
// players — greedy, static equity, a simulation for a time per move, or the look-ahead (the
// simulation, then the pre-endgame and the exact endgame near the end) — held by the worker
// (web_api.versus, a Python Game). The player places tiles on this view's own board (as on the
// solver's: click a square and type, or click the rack's tiles) and presses Play or Enter; the
// computer answers at once, its move marked on the board with its score. Only the player's rack
// is shown; the unseen tiles are the bag and the computer's rack together. The seed and the moves
// are kept in localStorage, so a reload (online or not) plays the game up to where it was. The
// game exports as GCG and opens at once in the page's review.

import { BoardView } from "./board.js";

const $ = (id) => document.getElementById(id);
const STORE_KEY = "gaddag-solver/v1/versus";
const NAMES = ["player", "computer"]; // the GCG's nicknames
const LEVELS = {
  greedy: "greedy (highest score)",
  equity: "static equity",
  simulation: "simulation",
  lookahead: "look-ahead",
};
const TIMED = new Set(["simulation", "lookahead"]); // the levels given a time per move

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch {
    return {};
  }
}

function newSeed() {
  const words = crypto.getRandomValues(new Uint32Array(1));
  return words[0];
}

export class VersusPanel {
  /**
   * @param {object} hooks request(type, payload) → Promise; context() → {rules, lexicon, leaves}
   *   (the page's ruleset data, its lexicon and the lexicon's own leave table, or null);
   *   rulesData(name) → a ruleset's data; review(gcg): open a game in the page's review.
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.saved = load(); // {open, game: {seed, level, sim_ms, human, practice, lexicon, rules, leaves, moves}}
    this.state = null; // web_api.versus's last answer
    this.rules = null;
    this.busy = false;
    this.order = null; // the rack's tiles in the order shown (Shuffle)
    this.judgeSeq = 0;
    this.downloadUrl = null;
    this.fixed = []; // the game's tiles on the board (cells), which typing cannot change
    this.board = new BoardView($("vs-board"), $("vs-board-input"), {
      onChange: () => this.placed(),
      onSolve: () => this.play(),
      onMessage: (text) => this.showError(text),
      onDirection: (dir) => ($("vs-dir").textContent = dir === "across" ? "Across →" : "Down ↓"),
      onBlankMode: (on) => $("vs-blank").setAttribute("aria-pressed", String(on)),
    });
    this.wire();
  }

  wire() {
    $("versus-toggle").addEventListener("click", () => this.open(!this.isOpen()));
    $("vs-back").addEventListener("click", () => this.open(false));
    $("vs-new-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.start();
    });
    $("vs-level").addEventListener("change", () => this.levelShown());
    $("vs-play").addEventListener("click", () => this.play());
    $("vs-recall").addEventListener("click", () => this.recall());
    $("vs-shuffle").addEventListener("click", () => this.shuffle());
    $("vs-dir").addEventListener("click", () => {
      this.board.toggleDirection();
      this.board.focus();
    });
    $("vs-blank").addEventListener("click", () => {
      this.board.blankMode = !this.board.blankMode;
      $("vs-blank").setAttribute("aria-pressed", String(this.board.blankMode));
      this.board.focus();
    });
    $("vs-exchange-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.move("exchange", { tiles: $("vs-exchange-tiles").value.trim() });
    });
    $("vs-pass").addEventListener("click", () => this.move("pass"));
    $("vs-hint").addEventListener("click", () => this.hint());
    $("vs-undo").addEventListener("click", () => this.move("undo"));
    $("vs-practice").addEventListener("change", () => {
      if (this.saved.game) this.saved.game.practice = $("vs-practice").checked;
      this.save();
      this.render();
    });
    $("vs-export").addEventListener("click", () => this.exportGcg());
    $("vs-review").addEventListener("click", () => this.review());
    $("vs-rack").addEventListener("click", (event) => {
      const tile = event.target.closest(".vs-tile");
      if (tile && !tile.disabled) this.typeTile(tile.dataset.tile);
    });
    // The solver's keys stay with the solver: in this view Ctrl+Z takes back a turn (practice) and
    // never undoes an edit of the hidden solver's board, and ← → Home End do not step a review.
    window.addEventListener(
      "keydown",
      (event) => {
        if (!this.isOpen()) return;
        const field = event.target.closest?.("input, textarea, select") && event.target.id !== "vs-board-input";
        const key = event.key.toLowerCase();
        if ((event.ctrlKey || event.metaKey) && !event.altKey && (key === "z" || key === "y") && !field) {
          event.preventDefault();
          event.stopImmediatePropagation();
          if (key === "z" && !event.shiftKey && this.saved.game?.practice && this.state?.can_undo) this.move("undo");
        } else if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key) && !event.target.closest?.("input, textarea, select")) {
          event.stopImmediatePropagation();
        }
      },
      { capture: true },
    );
    this.levelShown();
  }

  // ---- the view -------------------------------------------------------------------------------

  isOpen() {
    return !$("versus").hidden;
  }

  /** Show the game (on) or the solver; kept for the next visit. */
  open(on) {
    $("versus").hidden = !on;
    document.querySelector("main.layout").hidden = on;
    document.body.classList.toggle("versus-mode", on);
    // a button that names where it goes (its name changes, so it is not also a toggle's state)
    $("versus-toggle").textContent = on ? "Back to the solver" : "Play the computer";
    this.saved.open = on;
    this.save();
    if (on && !this.state && !this.busy) {
      if (this.saved.game) this.resume();
      else $("vs-new-box").open = true;
    }
    if (on && this.rules) this.board.renderSelection();
  }

  /** After the page's data is in: the view as it was left, the game played up to where it was. */
  restore() {
    if (this.saved.game) {
      $("vs-level").value = this.saved.game.level;
      $("vs-seconds").value = String(this.saved.game.sim_ms / 1000);
      $("vs-first").value = String(this.saved.game.human);
      $("vs-practice").checked = Boolean(this.saved.game.practice);
      this.levelShown();
    }
    if (this.saved.open) this.open(true);
  }

  levelShown() {
    $("vs-seconds-field").hidden = !TIMED.has($("vs-level").value);
  }

  save() {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify(this.saved));
    } catch {
      /* private mode or full: the game lasts the page */
    }
  }

  setStatus(text) {
    $("vs-message").textContent = text;
  }

  showError(text) {
    $("vs-error").textContent = text || "";
    $("vs-error").hidden = !text;
  }

  // ---- a game ---------------------------------------------------------------------------------

  /** A new game with the form's level, seed and first player, on the page's rules and lexicon. */
  async start() {
    if (this.busy) {
      this.showError("Wait for the computer's move before starting a new game.");
      return;
    }
    const { rules, lexicon, leaves } = this.hooks.context();
    if (!lexicon) {
      this.showError(`No lexicon is built for ${rules.title}: a game cannot be played here.`);
      return;
    }
    const seedText = $("vs-seed").value.trim();
    if (seedText && !/^\d{1,15}$/.test(seedText)) {
      this.showError(`The seed is a whole number (or left empty for a new one), not '${seedText}'.`);
      $("vs-seed").setAttribute("aria-invalid", "true");
      return;
    }
    $("vs-seed").removeAttribute("aria-invalid");
    const seconds = Number($("vs-seconds").value);
    const level = $("vs-level").value;
    if (TIMED.has(level) && !(seconds >= 0.1 && seconds <= 60)) {
      this.showError("The time per move is from 0.1 to 60 seconds.");
      $("vs-seconds").setAttribute("aria-invalid", "true");
      return;
    }
    $("vs-seconds").removeAttribute("aria-invalid");
    this.saved.game = {
      seed: seedText ? Number(seedText) : newSeed(),
      level,
      sim_ms: Math.round((seconds || 2) * 1000),
      human: Number($("vs-first").value),
      practice: $("vs-practice").checked,
      lexicon,
      rules: rules.name,
      leaves,
      moves: [],
    };
    $("vs-seed").value = "";
    this.save();
    $("vs-new-box").open = false;
    await this.resume();
    if (this.state) this.board.focus();
  }

  /** Start the saved game in the worker from its seed and replay its moves. */
  async resume() {
    const game = this.saved.game;
    const { moves, practice: _practice, ...settings } = game;
    this.setStatus(moves.length ? `Resuming the game (${moves.length} turns)…` : "Dealing the tiles…");
    await this.ask({ action: "new", ...settings, moves }, { fresh: true });
  }

  /** One request to the worker's game; the answer is drawn, and the computer moves when it is its turn. */
  async ask(payload, { fresh = false } = {}) {
    if (this.busy) return null;
    this.busy = true;
    this.showError("");
    document.body.dataset.versusBusy = "1";
    let answer;
    try {
      ({ result: answer } = await this.hooks.request("versus", payload));
    } catch (error) {
      this.busy = false;
      delete document.body.dataset.versusBusy;
      this.showError(error.message);
      if (fresh) {
        this.setStatus("");
        $("vs-new-box").open = true; // a saved game that cannot be played again: a new one can
      }
      return null;
    }
    this.busy = false;
    if (fresh) {
      this.rules = this.hooks.rulesData(answer.rules);
      this.board.setRules(this.rules, null);
      this.order = null;
    }
    this.show(answer);
    if (!answer.over && answer.to_move !== answer.human) await this.computer();
    delete document.body.dataset.versusBusy;
    return answer;
  }

  async computer() {
    const game = this.saved.game;
    const state = this.state;
    const searching = game.level === "lookahead" && state && state.bag <= 6 ? "searching" : "simulating";
    const thinking = TIMED.has(game.level) ? ` (${searching} for up to ${game.sim_ms / 1000} s)` : "";
    this.setStatus(`The computer is thinking${thinking}…`);
    $("versus").setAttribute("aria-busy", "true");
    this.busy = true;
    try {
      const { result } = await this.hooks.request("versus", { action: "computer" });
      this.busy = false;
      this.show(result);
    } catch (error) {
      this.busy = false;
      this.showError(error.message);
    } finally {
      $("versus").removeAttribute("aria-busy");
    }
  }

  /** The player's move (play, exchange, pass) or undo; then the computer's reply. */
  async move(action, payload = {}) {
    if (!this.state || this.busy) return;
    const answer = await this.ask({ action, ...payload });
    if (answer && action === "exchange") $("vs-exchange-tiles").value = "";
    if (answer && action === "undo") this.setStatus("Your last move was taken back.");
  }

  play() {
    const tiles = this.pending();
    if (!tiles.length) {
      this.showError("Place tiles on the board first: click a square and type, or click the rack's tiles.");
      return;
    }
    this.move("play", { tiles });
  }

  async hint() {
    if (!this.state || this.busy) return;
    const { result } = await this.hooks.request("versus", { action: "hint" }).catch((error) => {
      this.showError(error.message);
      return { result: null };
    });
    if (!result) return;
    const { hint } = result;
    this.recall();
    if (hint.kind === "play") {
      for (const [r, c, letter, blank] of hint.tiles) this.board.cells[this.board.index(r, c)] = { letter, blank };
      this.board.renderAll();
      this.placed();
      this.board.focus(); // Enter plays it
    } else if (hint.kind === "exchange") {
      $("vs-exchange-tiles").value = hint.tiles;
      $("vs-exchange-tiles").focus();
    }
    this.setStatus(`Hint: ${hint.text}${hint.kind === "play" ? " (placed on the board)" : ""}, equity ${hint.equity.toFixed(1)}.`);
  }

  // ---- tiles placed on the board ----------------------------------------------------------------

  /** The tiles the player has placed: [[r, c, letter, blank], ...]. */
  pending() {
    if (!this.state) return [];
    const out = [];
    const { cols } = this.rules;
    this.board.cells.forEach((cell, i) => {
      if (cell && !this.fixed[i]) out.push([Math.floor(i / cols), i % cols, cell.letter, cell.blank]);
    });
    return out;
  }

  /** After the board changed: the game's tiles stay as they are, the placed ones are marked and judged. */
  placed() {
    if (!this.state) return;
    let restored = false;
    this.fixed.forEach((cell, i) => {
      const now = this.board.cells[i];
      if (cell && (!now || now.letter !== cell.letter || now.blank !== cell.blank)) {
        this.board.cells[i] = cell;
        restored = true;
      }
    });
    if (restored) this.board.renderAll();
    this.markPending();
    this.drawRack();
    this.judge();
  }

  /** The tiles placed marked as such, and the last move's score on its last tile. */
  markPending() {
    this.board.squares.forEach((sq, i) => sq.classList.toggle("pending", Boolean(this.board.cells[i] && !this.fixed[i])));
    for (const sq of this.board.grid.querySelectorAll("[data-score]")) {
      sq.classList.remove("by-you", "by-cpu");
      sq.setAttribute("aria-label", sq.getAttribute("aria-label").replace(/, \+\d+ for the last move$/, ""));
      delete sq.dataset.score;
    }
    const last = this.state?.turns.at(-1);
    if (!last?.tiles?.length) return;
    const [r, c] = last.tiles.reduce((a, b) => (a[0] + a[1] >= b[0] + b[1] ? a : b));
    // drawn by CSS (::before, from data-score) and said in the square's name, which the board
    // writes afresh at each drawing
    const square = this.board.squares[this.board.index(r, c)];
    square.dataset.score = `+${last.score}`;
    square.classList.add(last.player === this.state.human ? "by-you" : "by-cpu");
    square.setAttribute("aria-label", `${square.getAttribute("aria-label")}, +${last.score} for the last move`);
  }

  recall() {
    if (!this.state) return;
    this.board.cells = this.fixed.map((cell) => cell && { ...cell });
    this.board.renderAll();
    this.placed();
  }

  /** What the tiles placed would score, or why they cannot be played (the worker's judge). */
  async judge() {
    const tiles = this.pending();
    const seq = ++this.judgeSeq;
    const line = $("vs-pending");
    if (!tiles.length) {
      line.textContent = "";
      line.dataset.legal = "";
      return;
    }
    const game = this.saved.game;
    try {
      const { result } = await this.hooks.request("judge", {
        lexicon: game.lexicon,
        rules: game.rules,
        board: this.state.board,
        rack: this.state.rack,
        tiles,
      });
      if (seq !== this.judgeSeq) return;
      line.dataset.legal = String(result.legal);
      line.textContent = result.legal
        ? `${result.play}: ${result.score} points${result.bingo ? ` (bingo +${result.bingo})` : ""} — Enter or Play to play it`
        : result.reasons.join("; ");
    } catch (error) {
      if (seq === this.judgeSeq) line.textContent = error.message;
    }
  }

  typeTile(tile) {
    if (tile === "?") {
      this.board.blankMode = true;
      $("vs-blank").setAttribute("aria-pressed", "true");
      this.board.focus();
      this.setStatus("Type the letter the blank stands for.");
      return;
    }
    this.board.type(tile, false);
    this.board.focus();
  }

  shuffle() {
    const tiles = [...(this.order || [])];
    for (let i = tiles.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
    }
    this.order = tiles;
    this.drawRack();
  }

  // ---- drawing --------------------------------------------------------------------------------

  show(state) {
    this.state = state;
    this.saved.game.moves = state.moves;
    this.save();
    this.board.setRows(state.board);
    this.fixed = this.board.cells.map((cell) => cell && { ...cell });
    const last = state.turns.at(-1);
    this.board.markLast(last?.tiles ? last.tiles.map(([r, c]) => [r, c]) : []);
    const tiles = tokens(state.rack);
    const kept = [...(this.order || [])].filter((t) => {
      const at = tiles.indexOf(t);
      if (at < 0) return false;
      tiles.splice(at, 1);
      return true;
    });
    this.order = [...kept, ...tiles];
    this.placed();
    this.render();
  }

  render() {
    const state = this.state;
    if (!state) return;
    const game = this.saved.game;
    const you = state.human;
    const cpu = 1 - you;
    $("vs-score-you").textContent = String(state.scores[you]);
    $("vs-score-cpu").textContent = String(state.scores[cpu]);
    const level = LEVELS[state.level] + (TIMED.has(state.level) ? `, ${state.sim_ms / 1000} s a move` : "");
    $("vs-level-name").textContent = level;
    const yourTurn = !state.over && state.to_move === you;
    $("vs-you").classList.toggle("to-move", yourTurn);
    $("vs-cpu").classList.toggle("to-move", !state.over && !yourTurn);
    $("vs-bag").textContent = `${state.bag} in the bag`;
    $("vs-game-info").textContent = `Game ${state.seed} · ${state.lexicon}${state.leaves ? ` · leaves ${state.leaves}` : ""}`;
    for (const id of ["vs-play", "vs-recall", "vs-pass", "vs-exchange", "vs-dir", "vs-blank", "vs-shuffle"]) {
      $(id).disabled = !yourTurn;
    }
    $("vs-exchange").disabled = !yourTurn || !state.can_exchange;
    $("vs-exchange").title = state.can_exchange ? "" : `Fewer than ${this.rules.exchange_minimum} tiles in the bag: no exchanges`;
    $("vs-exchange-tiles").disabled = !yourTurn || !state.can_exchange;
    const practice = Boolean(game.practice);
    $("vs-hint").hidden = !practice;
    $("vs-undo").hidden = !practice;
    $("vs-hint").disabled = !yourTurn;
    $("vs-undo").disabled = !state.can_undo;
    $("versus").dataset.turn = state.over ? "over" : yourTurn ? "you" : "computer";
    this.drawRack();
    this.drawUnseen();
    this.drawTurns();
    this.drawEnd();
    if (!this.busy) {
      if (state.over) this.setStatus(this.result());
      else if (yourTurn) {
        const theirs = state.turns.filter((t) => t.player === cpu).at(-1);
        const lastIsTheirs = state.turns.at(-1)?.player === cpu;
        this.setStatus(`${lastIsTheirs && theirs ? `The computer ${said(theirs)}. ` : ""}Your turn.`);
      }
    }
  }

  drawRack() {
    if (!this.state) return;
    const used = this.pending().map(([, , letter, blank]) => (blank ? "?" : letter));
    const rack = $("vs-rack");
    const values = new Map(this.rules.letters.map((letter, i) => [letter, this.rules.values[i]]));
    const cells = (this.order || []).map((tile) => {
      const at = used.indexOf(tile);
      const placed = at >= 0;
      if (placed) used.splice(at, 1);
      const button = document.createElement("button");
      button.type = "button";
      button.className = `vs-tile${tile === "?" ? " blank" : ""}${placed ? " placed" : ""}`;
      button.dataset.tile = tile;
      button.disabled = placed || this.state.over || this.state.to_move !== this.state.human;
      button.setAttribute("role", "listitem");
      const value = tile === "?" ? 0 : values.get(tile);
      button.setAttribute("aria-label", `${tile === "?" ? "blank" : tile}, ${value} ${value === 1 ? "point" : "points"}${placed ? ", on the board" : ""}`);
      button.append(Object.assign(document.createElement("span"), { className: "letter", textContent: tile === "?" ? "" : tile }));
      if (tile !== "?") button.append(Object.assign(document.createElement("span"), { className: "value", textContent: String(value) }));
      return button;
    });
    rack.replaceChildren(...cells);
  }

  drawUnseen() {
    const { unseen } = this.state;
    const cells = Object.entries(unseen.counts).map(([letter, count]) => {
      const cell = document.createElement("div");
      cell.className = count ? "u-cell" : "u-cell none";
      cell.setAttribute("role", "listitem");
      cell.dataset.letter = letter;
      cell.dataset.count = count;
      cell.setAttribute("aria-label", `${letter === "?" ? "blanks" : letter}: ${count}`);
      cell.append(
        Object.assign(document.createElement("span"), { className: "u-letter", textContent: letter }),
        Object.assign(document.createElement("span"), { className: "u-count", textContent: String(count) }),
      );
      return cell;
    });
    $("vs-unseen").replaceChildren(...cells);
    $("vs-unseen-summary").textContent =
      `${unseen.total} unseen: ${unseen.bag} in the bag, ${unseen.total - unseen.bag} on the computer's rack · ` +
      `${unseen.vowels} vowels, ${unseen.consonants} consonants, ${unseen.blanks} blanks`;
    this.drawLikelyKept();
  }

  /** What the computer likely kept with its last move (inferred from it, docs/inference.md). */
  drawLikelyKept() {
    const likely = this.state.likely_kept;
    const box = $("vs-likely");
    box.hidden = !likely;
    if (!likely) return;
    const percent = (p) => `${Math.round(100 * p)}%`;
    const leaves = likely.leaves.map((x) => `${x.tiles || "nothing"} ${percent(x.probability)}`).join(", ");
    const holds = Object.entries(likely.holds).map(([letter, p]) => `${letter === "?" ? "a blank" : letter} ${percent(p)}`);
    $("vs-likely-leaves").textContent = `Likely kept by the computer: ${leaves}`;
    $("vs-likely-holds").textContent = holds.length
      ? `Likely on its rack now: ${holds.join(", ")}`
      : "No letter is more likely than not on its rack.";
    $("vs-likely-how").textContent = likely.exhaustive
      ? `From its last move, every one of ${likely.racks.toLocaleString("en")} racks it could have held valued.`
      : `From its last move, ${likely.racks.toLocaleString("en")} of the racks it could have held sampled.`;
  }

  drawTurns() {
    const { turns, human } = this.state;
    const items = turns.map((turn, i) => {
      const li = document.createElement("li");
      li.className = turn.player === human ? "you" : "cpu";
      li.dataset.turn = String(i);
      const who = Object.assign(document.createElement("span"), { className: "vs-who", textContent: turn.player === human ? "You" : "Computer" });
      const what = Object.assign(document.createElement("span"), { className: "vs-what", textContent: turn.text });
      const score = Object.assign(document.createElement("span"), { className: "vs-pts", textContent: `+${turn.score}` });
      const total = Object.assign(document.createElement("span"), { className: "vs-total", textContent: String(turn.total) });
      li.append(who, what, score, total);
      if (turn.rack) li.title = `rack ${turn.rack}`;
      return li;
    });
    const list = $("vs-turns");
    list.replaceChildren(...items);
    list.scrollTop = list.scrollHeight;
    $("vs-turns-empty").hidden = items.length > 0;
  }

  drawEnd() {
    const box = $("vs-end");
    const { over, end, human, scores } = this.state;
    box.hidden = !over;
    if (!over) return;
    const name = (p) => (p === human ? "You" : "The computer");
    const lines = [];
    const other = (p) => 1 - p;
    if (end.went_out !== null) {
      const out = end.went_out;
      lines.push(`${name(out)} went out with the bag empty.`);
    } else {
      lines.push(`The game ended after ${this.state.scoreless_turns} scoreless turns in a row.`);
    }
    const pts = (n) => `${n} ${n === 1 ? "point" : "points"}`;
    const whose = (p) => (p === human ? "your" : "the computer's");
    for (const p of [human, other(human)]) {
      const adj = end.adjustments[p];
      const sign = `${adj >= 0 ? "+" : "−"}${Math.abs(adj)}`;
      const why =
        end.racks[p] === ""
          ? `for the tiles left on ${whose(other(p))} rack (${end.racks[other(p)]}, ${pts(end.rack_values[other(p)])})`
          : `rack left ${end.racks[p]} (${pts(end.rack_values[p])})`;
      lines.push(`${name(p)}: ${sign} ${why}`);
    }
    $("vs-end-lines").replaceChildren(
      ...lines.map((text) => Object.assign(document.createElement("li"), { textContent: text })),
    );
    $("vs-end-result").textContent = `${this.result()} Final score: you ${scores[human]}, the computer ${scores[other(human)]}.`;
  }

  result() {
    const { scores, human } = this.state;
    const mine = scores[human];
    const theirs = scores[1 - human];
    if (mine === theirs) return "A draw.";
    return mine > theirs ? `You won by ${mine - theirs}.` : `The computer won by ${theirs - mine}.`;
  }

  // ---- export and review ----------------------------------------------------------------------

  async gcg() {
    const { result } = await this.hooks.request("versus", { action: "gcg", names: NAMES });
    return result.gcg;
  }

  async exportGcg() {
    if (!this.state) return;
    let text;
    try {
      text = await this.gcg();
    } catch (error) {
      this.showError(error.message);
      return;
    }
    const box = $("vs-gcg");
    box.value = text;
    box.hidden = false;
    if (this.downloadUrl) URL.revokeObjectURL(this.downloadUrl);
    this.downloadUrl = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = $("vs-download");
    link.href = this.downloadUrl;
    link.download = `game-${this.state.seed}.gcg`;
    link.hidden = false;
    try {
      await navigator.clipboard?.writeText(text);
      this.setStatus("The game is exported as GCG (and copied to the clipboard).");
    } catch {
      this.setStatus("The game is exported as GCG.");
    }
  }

  async review() {
    if (!this.state) return;
    try {
      const text = await this.gcg();
      this.open(false);
      this.hooks.review(text);
    } catch (error) {
      this.showError(error.message);
    }
  }
}

/** A rack's text as tiles ("[CH]" one tile). */
function tokens(text) {
  return (String(text).match(/\[[^\]]+\]|\S/gu) || []).map((t) => t.replace(/^\[|\]$/g, ""));
}

/** "played 8D QUIXOTE for 90", "exchanged 3 tiles", "passed". */
function said(turn) {
  if (turn.kind === "play") return `played ${turn.text} for ${turn.score}`;
  if (turn.kind === "exchange") return `exchanged ${turn.count} ${turn.count === 1 ? "tile" : "tiles"}`;
  return "passed";
}
