// The replay panel: a recorded game (GCG) opened from a file (picker or drag-and-drop) or pasted,
// reviewed by the worker (web_api.review_gcg: the loaded lexicon and leave table), and stepped
// through turn by turn (buttons, ← → Home End): the board at that turn (the page's own board,
// with the move made or the best move shown on it), the rack and scores, the move made, the best
// move by equity and the equity lost; the file's warnings with their lines; the game exported
// as GCG, and the game played on this page (its Play history) exported too.

import { points } from "./results.js";

const $ = (id) => document.getElementById(id);

/** True when a key press belongs to a field (or the board, or the move list), not the replay. */
function typingTarget(target) {
  return Boolean(target?.closest?.("input, textarea, select, [contenteditable], .results, .board-wrap"));
}

export class ReplayPanel {
  /**
   * @param {object} hooks request(type, payload) → Promise; context() → {rules, lexicon, leaves};
   *   showPosition(boardRows, rack, tiles): draw a turn on the page's board (tiles: previewed);
   *   position() → {rows, rack}: the board and rack on show, put back by Close (showPosition);
   *   playedGame() → {events, players} (the plays made on the page, the two names); onLoaded(): a game was opened;
   *   canUseLexicon(name), useLexicon(name): switch to the lexicon a file names (then rerun());
   *   findLexicon(name) → the name of a lexicon of the page spelled as `name` is (any case), or null.
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.review = null; // web_api.review_gcg's answer
    this.step = 0; // 0..turns.length (the last: the final position)
    this.showing = "made"; // which move is drawn on the board: "made" or "best"
    this.source = null; // {data, name} or {gcg}: what was opened, to review again
    this.seq = 0;
    this.ms = 0; // how long the last review took, asked to answered
    this.downloadUrl = null;
    this.switchedFrom = null; // the lexicon on the page before a file's #lexicon switched it
    this.before = null; // {rows, rack}: the page's position before the first game was opened
    this.wire();
  }

  wire() {
    $("gcg-file").addEventListener("change", (event) => {
      const file = event.target.files?.[0];
      if (file) this.openFile(file);
      event.target.value = "";
    });
    $("gcg-review").addEventListener("click", () => this.openText($("gcg-text").value));
    $("gcg-export").addEventListener("click", () => this.exportLoaded());
    $("gcg-export-played").addEventListener("click", () => this.exportPlayed());
    $("replay-first").addEventListener("click", () => this.go(0));
    $("replay-prev").addEventListener("click", () => this.go(this.step - 1));
    $("replay-next").addEventListener("click", () => this.go(this.step + 1));
    $("replay-last").addEventListener("click", () => this.go(Infinity));
    $("replay-close").addEventListener("click", () => this.close());
    for (const which of ["made", "best"]) {
      $(`replay-show-${which}`).addEventListener("click", () => {
        this.showing = which;
        this.render();
      });
    }
    document.addEventListener("keydown", (event) => this.onKey(event));
    // a file dropped anywhere on the page is opened here (never navigated to)
    document.addEventListener("dragover", (event) => {
      if ([...(event.dataTransfer?.types || [])].includes("Files")) {
        event.preventDefault();
        $("replay-box").classList.add("dropping");
      }
    });
    document.addEventListener("dragleave", (event) => {
      if (!event.relatedTarget) $("replay-box").classList.remove("dropping");
    });
    document.addEventListener("drop", (event) => {
      const file = event.dataTransfer?.files?.[0];
      $("replay-box").classList.remove("dropping");
      if (!file) return;
      event.preventDefault();
      this.openFile(file);
    });
  }

  // ---- opening --------------------------------------------------------------------------------

  async openFile(file) {
    $("replay-box").open = true;
    if (file.size > 2_000_000) {
      this.showError(`${file.name} is ${Math.round(file.size / 1e3)} kB: too big for a game record.`);
      return;
    }
    const data = await file.arrayBuffer();
    this.source = { data, name: file.name };
    await this.run();
  }

  async openText(text) {
    if (!text.trim()) {
      this.showError("Paste the text of a GCG file first, or open a .gcg file.");
      return;
    }
    this.source = { gcg: text, name: "" };
    await this.run();
  }

  /** Review the game on show again (the lexicon or the leave table changed), at the same turn. */
  rerun() {
    if (this.review && this.source) this.run({ keepStep: true });
  }

  /** Review the game opened (keepStep: stay at the turn on show). */
  async run({ keepStep = false } = {}) {
    if (!this.source) return;
    const { rules, lexicon, leaves } = this.hooks.context();
    this.hideError();
    if (!lexicon) {
      this.showError(`No lexicon is built for ${rules.title}: a game cannot be reviewed here.`);
      return;
    }
    const seq = ++this.seq;
    if (!keepStep) {
      this.switchedFrom = null;
      this.step = 0;
    }
    const box = $("replay");
    box.setAttribute("aria-busy", "true");
    $("replay-status").textContent = `Reviewing with ${lexicon}${leaves ? ` and leaves ${leaves}` : ""}…`;
    const payload = { lexicon, rules: rules.name, leaves, name: this.source.name };
    if (this.source.data) payload.data = this.source.data.slice(0); // a copy goes to the worker
    else payload.gcg = this.source.gcg;
    let answer;
    const started = performance.now();
    try {
      answer = await this.hooks.request("review_gcg", payload);
    } catch (error) {
      if (seq !== this.seq) return;
      box.removeAttribute("aria-busy");
      $("replay-status").textContent = "";
      const where = this.source.name ? `${this.source.name}: ` : "";
      this.showError(error.message.startsWith(where) ? error.message : `${where}${error.message}`);
      return;
    }
    if (seq !== this.seq) return;
    // a file whose #lexicon names a lexicon this page has is reviewed with that one (said in
    // the note, with a button back): the review asked for is done again with it
    const wanted = this.wantedLexicon(answer.result);
    if (!keepStep && wanted && wanted !== answer.result.lexicon && this.hooks.canUseLexicon?.(wanted)) {
      this.review = answer.result;
      this.switchedFrom = answer.result.lexicon;
      $("replay-status").textContent = `The file names #lexicon ${answer.result.declared_lexicon}: reviewing with ${wanted}…`;
      this.hooks.useLexicon(wanted);
      return;
    }
    box.removeAttribute("aria-busy");
    this.review = answer.result;
    this.ms = performance.now() - started;
    this.step = keepStep ? Math.min(this.step, this.last) : 0;
    this.showing = "made";
    this.keepPosition(); // before the game's first turn replaces the board
    box.hidden = false;
    document.body.classList.add("replaying");
    this.renderGame();
    this.render();
    // the keys step at once (not while the focus stays in the file picker or the text box)
    const focus = document.activeElement;
    if (!focus || focus === document.body || $("replay-box").contains(focus)) {
      const next = $("replay-next").disabled ? $("replay-prev") : $("replay-next");
      next.focus({ preventScroll: true });
    }
    this.hooks.onLoaded?.();
  }

  /** The lexicon a review's file names, as this page has it: its own name (any case: our files
   * write "twl06", an own word list's name), else the review's guess (CSW19 → sowpods); or null. */
  wantedLexicon(review) {
    if (!review?.declared_lexicon) return null;
    return this.hooks.findLexicon?.(review.declared_lexicon) || review.suggested_lexicon || null;
  }

  /** Remember the page's own position before a game first replaces it (not again while one is
   * open: opening another game keeps what Close will bring back). */
  keepPosition() {
    if (this.before === null && this.hooks.position) this.before = this.hooks.position();
  }

  /** Put the game away and bring back the board and rack as they were before it was opened. */
  close() {
    this.seq++;
    this.switchedFrom = null;
    this.review = null;
    this.source = null;
    $("replay").hidden = true;
    document.body.classList.remove("replaying");
    if (this.before !== null) {
      const { rows, rack } = this.before;
      this.before = null;
      this.hooks.showPosition(rows, rack, null);
    }
  }

  // ---- stepping ---------------------------------------------------------------------------------

  get last() {
    return this.review ? this.review.turns.length : 0;
  }

  go(step) {
    if (!this.review) return;
    const to = Math.max(0, Math.min(this.last, step));
    if (to === this.step) return;
    this.step = to;
    this.showing = "made";
    this.render();
  }

  onKey(event) {
    if (!this.review || $("replay").hidden || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typingTarget(event.target)) return;
    const steps = {
      ArrowLeft: () => this.step - 1,
      ArrowRight: () => this.step + 1,
      Home: () => 0,
      End: () => this.last,
    };
    if (!steps[event.key]) return;
    event.preventDefault();
    this.go(steps[event.key]());
  }

  // ---- drawing ------------------------------------------------------------------------------------

  /** What does not change from turn to turn: the players, the warnings, the summary. */
  renderGame() {
    const review = this.review;
    const names = review.players.map((p) => p.nick).join(" v ") || "?";
    const lexicon = `lexicon ${review.lexicon}, leaves ${review.leaves || "none"}`;
    $("replay-status").textContent =
      `${review.title || names}: ${review.turns.length} events · ${lexicon} · reviewed in ${Math.round(this.ms)} ms`;
    const note = $("replay-lexicon-note");
    note.replaceChildren();
    const wanted = this.wantedLexicon(review);
    const from = this.switchedFrom;
    if (wanted && wanted === review.lexicon && from && from !== wanted) {
      note.append(`The file names #lexicon ${review.declared_lexicon}, so it was reviewed with ${wanted}, not ${from}. `);
      if (this.hooks.canUseLexicon?.(from)) {
        const button = Object.assign(document.createElement("button"), { type: "button", id: "replay-use-lexicon" });
        button.textContent = `Review with ${from}`;
        button.addEventListener("click", () => {
          this.switchedFrom = null;
          this.hooks.useLexicon(from);
        });
        note.append(button);
      }
    } else if (wanted && wanted !== review.lexicon) {
      this.switchedFrom = null;
      note.append(`The file names #lexicon ${review.declared_lexicon} (${wanted} here); it was reviewed with ${review.lexicon}. `);
      if (this.hooks.canUseLexicon?.(wanted)) {
        const button = Object.assign(document.createElement("button"), { type: "button", id: "replay-use-lexicon" });
        button.textContent = `Review with ${wanted}`;
        button.addEventListener("click", () => this.hooks.useLexicon(wanted));
        note.append(button);
      }
    }
    note.hidden = !note.childNodes.length;
    const list = $("replay-warnings");
    list.replaceChildren(
      ...review.warnings.map((warning) => {
        const item = document.createElement("li");
        item.dataset.line = String(warning.line);
        item.textContent = warning.text;
        return item;
      }),
    );
    $("replay-warnings-box").hidden = review.warnings.length === 0;
    $("replay-warnings-box").open = review.warnings.length > 0;
    $("replay-warnings-count").textContent = String(review.warnings.length);
    const rows = review.summary.map((p) => {
      const row = document.createElement("tr");
      for (const value of [p.nick, p.score, p.turns, points(p.equity_lost), p.best_found, p.bingos_played]) {
        const cell = document.createElement("td");
        cell.textContent = String(value);
        row.append(cell);
      }
      return row;
    });
    $("replay-summary-body").replaceChildren(...rows);
  }

  /** The turn at this step: the board before it, with the move shown; or the final position. */
  render() {
    const review = this.review;
    if (!review) return;
    const at = this.step;
    const turn = review.turns[at] || null;
    $("replay-first").disabled = $("replay-prev").disabled = at === 0;
    $("replay-next").disabled = $("replay-last").disabled = at === this.last;
    const pos = $("replay-pos");
    pos.textContent = turn ? `Turn ${at + 1} of ${this.last}` : `End (${this.last} events)`;
    const info = $("replay-turn");
    info.dataset.step = String(at);
    const scores = turn ? turn.scores : review.final.scores;
    const nicks = review.players.map((p) => p.nick);
    const line = (label, text, key) => {
      const row = document.createElement("div");
      row.className = "replay-line";
      if (key) row.dataset.key = key;
      row.append(Object.assign(document.createElement("span"), { className: "replay-label", textContent: label }));
      row.append(Object.assign(document.createElement("span"), { className: "replay-value", textContent: text }));
      return row;
    };
    const parts = [line("Score", nicks.map((nick, i) => `${nick} ${scores[i]}`).join(" · "), "scores")];
    const reviewed = turn?.review || null;
    if (turn) {
      parts.push(line("To move", `${turn.nick}${turn.rack ? ` with ${turn.rack}` : ""}`, "rack"));
      parts.push(line(`Line ${turn.line}`, `${turn.what} ${turn.score >= 0 ? "+" : ""}${turn.score} → ${turn.total}`, "played"));
      if (reviewed) {
        parts.push(line("Equity", points(reviewed.played_equity, { fixed: true }), "equity"));
        parts.push(
          line("Best", `${reviewed.best} (${reviewed.best_score}, equity ${points(reviewed.best_equity, { fixed: true })})`, "best"),
        );
        const lost = line("Equity lost", points(reviewed.equity_lost, { fixed: true }), "lost");
        lost.classList.toggle("mistake", reviewed.equity_lost > 0);
        parts.push(lost);
        parts.push(line("Rank", `${reviewed.rank} of ${reviewed.moves.toLocaleString("en")}`, "rank"));
        if (reviewed.bingo_missed) parts.push(line("Bingo missed", reviewed.best_bingo, "bingo"));
        if (reviewed.note) parts.push(line("Note", reviewed.note, "review-note"));
      } else if (turn.skipped) {
        parts.push(line("Not reviewed", turn.skipped, "skipped"));
      }
      for (const problem of turn.problems) {
        const row = line("Warning", `line ${turn.line}: ${problem}`, "problem");
        row.classList.add("mistake");
        parts.push(row);
      }
      if (turn.note) parts.push(line("Note", turn.note, "note"));
    } else {
      const winner = scores[0] === scores[1] ? "a tie" : `${nicks[scores[0] > scores[1] ? 0 : 1]} wins`;
      parts.push(line("Final", winner, "final"));
    }
    info.replaceChildren(...parts);
    info.dataset.lost = reviewed ? String(reviewed.equity_lost) : "";
    info.dataset.best = reviewed ? reviewed.best : "";
    const choose = $("replay-show");
    choose.hidden = !(reviewed && reviewed.best_tiles.length && reviewed.best !== reviewed.played);
    if (choose.hidden) this.showing = "made";
    for (const which of ["made", "best"]) $(`replay-show-${which}`).setAttribute("aria-pressed", String(this.showing === which));
    const board = turn ? turn.board : review.final.board;
    const tiles = !turn ? null : this.showing === "best" && reviewed ? reviewed.best_tiles : turn.tiles;
    this.hooks.showPosition(board, turn ? turn.rack : "", tiles && tiles.length ? tiles : null);
  }

  // ---- export -----------------------------------------------------------------------------------

  exportLoaded() {
    this.hideError();
    if (!this.review) {
      this.showError("Open a game first (or use “Export the game played here”).");
      return;
    }
    this.offer(this.review.gcg, this.source?.name || "game.gcg", "Exported the game reviewed.");
  }

  async exportPlayed() {
    this.hideError();
    const { rules, lexicon } = this.hooks.context();
    const { events, players } = this.hooks.playedGame();
    try {
      const { result } = await this.hooks.request("export_gcg", { rules: rules.name, lexicon, events, players });
      const warnings = result.warnings.map((w) => w.text);
      const said = `Exported the ${events.length} moves played on this page.`;
      this.offer(result.gcg, "played.gcg", warnings.length ? `${said} Its replay warns: ${warnings.join("; ")}` : said);
    } catch (error) {
      this.showError(error.message);
    }
  }

  /** Put GCG text in the box, offer it as a download and copy it. */
  offer(text, name, message) {
    $("replay-box").open = true;
    const box = $("gcg-text");
    box.value = text;
    if (this.downloadUrl) URL.revokeObjectURL(this.downloadUrl);
    this.downloadUrl = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = $("gcg-download");
    link.href = this.downloadUrl;
    link.download = name.replace(/(\.gcg)?$/i, ".gcg");
    link.hidden = false;
    const note = $("gcg-note");
    note.textContent = message;
    note.hidden = false;
    navigator.clipboard?.writeText(text).catch(() => {});
  }

  showError(text) {
    const el = $("gcg-error");
    el.textContent = text;
    el.hidden = false;
    $("gcg-text").setAttribute("aria-invalid", "true");
  }

  hideError() {
    $("gcg-error").hidden = true;
    $("gcg-error").textContent = "";
    $("gcg-note").hidden = true;
    $("gcg-text").removeAttribute("aria-invalid");
  }
}
