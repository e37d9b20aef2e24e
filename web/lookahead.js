// Look-ahead: simulation of the best candidates, the pre-endgame and the exact endgame, run in the
// worker a step at a time (web_api.simulate / web_api.preendgame / web_api.endgame). Each step returns within about 150 ms with the
// standing, which is drawn at once; the page asks for the next step only while the search runs,
// so Stop takes effect within a step and the page stays responsive throughout.

const $ = (id) => document.getElementById(id);
const STEP_MS = 150;
const SIM_ITERATIONS = 2000; // the most a simulation runs (web_api's DEFAULT_ITERATIONS)
const MAX_ROUND = 4096; // iterations dealt at once when shared among workers
const SHARE_AFTER_MS = 300; // a pre-endgame is shared once it has taken this long alone
const MAX_LENT = 256; // pre-endgame candidates a helper holds at most (preendgame_lent.py's MAX_LENT)

function percent(x) {
  return `${(100 * x).toFixed(1)}%`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function signed(x) {
  return `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;
}

export class LookAheadPanel {
  /**
   * @param {object} hooks request(type, payload) → Promise; position() → the solve request of the
   *   position on the page (lexicon, rules, board, rack, leaves); preview(tiles): show a move's
   *   tiles on the board (null: none); unseenCount() → the tiles unseen (bag + opponent's rack);
   *   helpers: a HelperPool (helpers.js), for a simulation or a pre-endgame on several workers.
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.kind = null; // "simulate", "preendgame" or "endgame" while one runs
    this.session = null;
    this.run = 0; // bumped by every start and stop, so a late answer of an old run is dropped
    this.standing = null; // the last answer, for the tests and the table
    this.workers = 1; // the workers the running simulation is shared among
    $("sim-start").addEventListener("click", () => this.start("simulate"));
    $("endgame-start").addEventListener("click", () => this.start("endgame"));
    $("peg-start").addEventListener("click", () => this.start("preendgame"));
    $("lookahead-stop").addEventListener("click", () => this.stop("stopped"));
    $("lookahead-rows").addEventListener("click", (event) => {
      const row = event.target.closest("tr[data-index]");
      if (row) this.previewRow(Number(row.dataset.index));
    });
  }

  /** The position changed: a running search no longer applies. */
  positionChanged() {
    if (this.kind) this.stop("the position changed");
  }

  setStatus(text, failed = false) {
    const status = $("lookahead-status");
    status.textContent = text;
    status.classList.toggle("error", failed);
  }

  running(on) {
    $("sim-start").disabled = on;
    $("endgame-start").disabled = on;
    $("peg-start").disabled = on;
    $("lookahead-stop").hidden = !on;
    $("lookahead").toggleAttribute("aria-busy", on);
  }

  async start(kind) {
    if (this.kind) return;
    const run = ++this.run;
    const lead = Math.trunc(Number($("lookahead-lead").value) || 0);
    this.lead = lead; // what the endgame's outcome is told with
    const position = { ...this.hooks.position(), spread: lead };
    const settings =
      kind === "simulate"
        ? {
            candidates: Number($("sim-candidates").value) || 15,
            plies: $("sim-plies").value === "" ? 2 : Number($("sim-plies").value),
            confidence: Number($("sim-confidence").value),
            seed: 1,
            // what the opponent likely kept, when their last move is written and read (app.js)
            ...(!$("likely").hidden && $("last-move").value.trim() ? { last_move: $("last-move").value.trim() } : {}),
          }
        : {};
    this.kind = kind;
    this.standing = null;
    this.running(true);
    $("lookahead-rows").replaceChildren();
    const doing = { simulate: "Simulating…", preendgame: "Solving the pre-endgame…", endgame: "Solving the endgame…" };
    this.setStatus(doing[kind]);
    const shareable = (kind === "simulate" || kind === "preendgame") && this.hooks.helpers;
    const workers = shareable ? Math.max(1, Number($("sim-workers").value) || 1) : 1;
    try {
      if (workers > 1 && kind === "simulate") {
        await this.runShared(run, { ...position, ...settings }, workers);
        return;
      }
      this.workers = 1;
      let answer = (await this.hooks.request(kind, { ...position, ...settings, action: "start" })).result;
      this.session = answer.session;
      // the exact pre-endgame (1 or 2 in the bag) and its estimate from 3 are shared alike
      if (workers > 1 && kind === "preendgame") {
        await this.runSharedPreendgame(run, { ...position, ...settings }, workers);
        return;
      }
      while (run === this.run) {
        answer = (await this.hooks.request(kind, { action: "step", session: this.session, ms: STEP_MS })).result;
        if (run !== this.run) return;
        this.standing = answer;
        this.draw(kind, answer);
        if (answer.done) {
          this.finish(kind === "simulate" ? "simulation finished" : "solved");
          return;
        }
      }
    } catch (error) {
      if (run !== this.run) return;
      this.stopHelpers();
      this.kind = null;
      this.running(false);
      this.setStatus(error.message || String(error), true);
    }
  }

  /**
   * A simulation shared among `workers` workers (the page's and helpers): each starts the same
   * simulation; in each round the page's worker deals the iterations, every worker plays its share,
   * and the page's worker merges them in order — the standing one worker alone reaches after the
   * same iterations. Rounds are sized to take about STEP_MS.
   */
  async runShared(run, request, workers) {
    const main = (payload) => this.hooks.request("simulate", payload).then((answer) => answer.result);
    const started = await main({ ...request, action: "start" });
    this.session = started.session;
    const helpers = await this.startHelpers(run, "simulate", request, workers);
    let round = 4 * this.workers;
    let done = 0;
    while (run === this.run) {
      const began = performance.now();
      const dealt = await main({ action: "deal", session: this.session, iterations: Math.min(round, SIM_ITERATIONS - done) });
      const shares = split(dealt.seeds, this.workers);
      const rows = await Promise.all(
        shares.map((seeds, j) =>
          j === 0
            ? main({ action: "play", session: this.session, seeds, dropped: dealt.dropped })
            : helpers[j - 1].helper
                .request("simulate", { action: "play", session: helpers[j - 1].session, seeds, dropped: dealt.dropped })
                .then((answer) => answer.result),
        ),
      );
      const took = performance.now() - began;
      const answer = await main({ action: "merge", session: this.session, rows: rows.map((r) => r.rows), ms: took, iterations: SIM_ITERATIONS });
      if (run !== this.run) return;
      done = answer.iterations;
      this.standing = answer;
      this.draw("simulate", answer);
      if (answer.done) {
        this.finish("simulation finished");
        return;
      }
      round = Math.max(this.workers, Math.min(MAX_ROUND, Math.round((round * STEP_MS) / Math.max(1, took))));
    }
  }

  /**
   * The pre-endgame shared among `workers` workers (docs/preendgame.md, "Workers"): each helper
   * starts the same search; in each round the page's worker lends root candidates (or, for the
   * estimate from 3 in the bag, worlds of the round) to the helpers, runs its own step while they
   * value what they hold, then takes their values back and answers the standing. The best and
   * every exact figure (every estimate, once done) are one worker's.
   */
  async runSharedPreendgame(run, request, workers) {
    const main = (payload) => this.hooks.request("preendgame", { ...payload, session: this.session }).then((answer) => answer.result);
    // the page's worker steps alone while the helpers boot, and for SHARE_AFTER_MS: most
    // positions are solved within it, where lending would cost more than it gives
    const alone = performance.now() + SHARE_AFTER_MS;
    let helpers = null;
    const booting = this.startHelpers(run, "preendgame", request, workers).then((booted) => (helpers = booted));
    booting.catch(() => {});
    do {
      const answer = await main({ action: "step", ms: STEP_MS });
      if (run !== this.run) return;
      this.standing = answer;
      this.draw("preendgame", answer);
      if (answer.done) {
        this.finish("solved"); // helpers that boot later see the run over and stop
        return;
      }
    } while (helpers === null || performance.now() < alone);
    // candidates each helper should hold: twice what it finished in its last round (so it is
    // not left idle, nor holds back the end of a pass for long), more while it runs out
    const wants = helpers.map(() => 8);
    while (run === this.run) {
      const { shares } = await main({ action: "lend", wants });
      const [, ...answers] = await Promise.all([
        main({ action: "step", ms: STEP_MS }),
        ...helpers.map(({ helper, session }, j) =>
          helper.request("preendgame", { action: "work", session, ...shares[j], ms: STEP_MS }).then((answer) => answer.result),
        ),
      ]);
      answers.forEach((answer, j) => {
        const starved = answer.held === 0 && shares[j].jobs.length > 0;
        wants[j] = Math.min(MAX_LENT, Math.max(4, 2 * answer.finished, starved ? 2 * wants[j] : 0));
      });
      const answer = await main({ action: "take_back", answers });
      if (run !== this.run) return;
      this.standing = answer;
      this.draw("preendgame", answer);
      if (answer.done) {
        this.finish("solved");
        return;
      }
    }
  }

  /** Helpers started on the same search as the page's worker (each boots its own Python the first
   * time); one that cannot start is left out, and the others share the work. None when the run
   * was stopped meanwhile (their sessions are stopped too). */
  async startHelpers(run, kind, request, workers) {
    const taken = this.hooks.helpers.take(workers - 1);
    const booted = await Promise.allSettled(taken.map((helper) => helper.request(kind, { ...request, action: "start" })));
    const helpers = taken
      .map((helper, j) => ({ helper, answer: booted[j] }))
      .filter(({ answer }) => answer.status === "fulfilled")
      .map(({ helper, answer }) => ({ helper, session: answer.value.result.session }));
    if (run !== this.run) {
      stopSessions(kind, helpers);
      return [];
    }
    this.workers = 1 + helpers.length;
    this.helperSessions = { kind, helpers };
    return helpers;
  }

  stopHelpers() {
    const { kind, helpers } = this.helperSessions || { helpers: [] };
    stopSessions(kind, helpers);
    this.helperSessions = null;
  }

  finish(why) {
    this.stopHelpers();
    if (this.session !== null) this.hooks.request(this.kind, { action: "stop", session: this.session }).catch(() => {});
    this.run++;
    this.kind = null;
    this.session = null;
    this.running(false);
    const shown = this.standing ? this.summary(this.standing) : "";
    this.setStatus(`${shown}${shown ? " — " : ""}${why}`);
  }

  stop(why) {
    if (!this.kind) return;
    this.finish(why);
  }

  summary(answer) {
    if (answer.worlds !== undefined && answer.method === "halving") {
      const best = answer.candidates.find((c) => c.best);
      const lead = best ? `best ${best.move} wins about ${percent(best.estimate)} (estimated from ${best.worlds_valued} of ${answer.worlds} racks the opponent may hold)` : "no move valued yet";
      const shared = this.workers > 1 ? ` on ${this.workers} workers` : "";
      return `${lead}; ${answer.bag} in the bag: an estimate by successive halving, later moves by equity while the bag holds tiles${shared}`;
    }
    if (answer.worlds !== undefined) {
      const best = answer.candidates.find((c) => c.best);
      const lead = best ? `best ${best.move} wins ${percent(best.win)}` : "no move valued in every case yet";
      const shared = this.workers > 1 ? ` on ${this.workers} workers` : "";
      return `${lead}${answer.complete ? " (exact)" : ""}; ${answer.bag} in the bag, ${answer.worlds} racks the opponent may hold, ${answer.ruled_out} of ${answer.count} moves ruled out${shared}`;
    }
    if (answer.candidates) {
      const left = answer.candidates.filter((c) => !c.dropped).length;
      const ranked = answer.ranked_by === "win" ? ", ranked by win %" : "";
      const shared = this.workers > 1 ? ` on ${this.workers} workers` : "";
      return `${plural(answer.iterations, "iteration")}, ${plural(left, "candidate")} left${ranked}${shared}`;
    }
    if (!answer.depth) return "";
    const how = answer.complete ? "exact" : `depth ${answer.depth}, not proven yet`;
    const points = (x) => `${x >= 0 ? "+" : ""}${x}`;
    const found = `value ${points(answer.value)} (${how}), ${answer.nodes.toLocaleString("en")} positions`;
    if (!answer.complete) return found;
    const end = (this.lead || 0) + answer.value;
    const outcome = end > 0 ? "a win" : end < 0 ? "a loss" : "a tie";
    return `${found}; with a lead of ${points(this.lead || 0)} the game ends ${points(end)}: ${outcome}`;
  }

  draw(kind, answer) {
    const body = $("lookahead-rows");
    const rows = [];
    if (kind === "simulate") {
      const headers = ["Move", "Value", "±95%", "Win", "Opp. bingo", "Iter."].map((text) => th(text));
      $("lookahead-head").replaceChildren(...headers, th("State", true));
      answer.candidates.forEach((c, i) => {
        const tr = document.createElement("tr");
        tr.dataset.index = String(i);
        tr.classList.toggle("dropped", c.dropped);
        const err = c.stderr === null ? "–" : (1.96 * c.stderr).toFixed(1);
        tr.append(
          moveCell(c.move, c.placed),
          td(c.iterations ? signed(c.mean) : "–", "num"),
          td(err, "num"),
          td(c.iterations ? percent(c.win_rate) : "–", "num"),
          td(c.iterations ? percent(c.opponent_bingo_rate) : "–", "num"),
          td(String(c.iterations), "num"),
          td(c.dropped ? "dropped" : i === 0 ? "best" : ""),
        );
        rows.push(tr);
      });
    } else if (kind === "preendgame" && answer.method === "halving") {
      $("lookahead-head").replaceChildren(...["Move", "Win (estimate)", "Racks valued"].map((t) => th(t)), th("State", true));
      answer.candidates.forEach((c, i) => {
        const tr = document.createElement("tr");
        tr.dataset.index = String(i);
        tr.classList.toggle("dropped", c.status === "dropped");
        tr.append(
          moveCell(c.move, c.placed),
          td(`~${percent(c.estimate)}`, "num"),
          td(`${c.worlds_valued} of ${answer.worlds}`, "num"),
          td(c.best ? "best" : c.status === "dropped" ? "dropped" : "valuing…"),
        );
        rows.push(tr);
      });
    } else if (kind === "preendgame") {
      $("lookahead-head").replaceChildren(...["Move", "Win", "Wins when the bag holds", "Loses when it holds"].map((t) => th(t)), th("State", true));
      answer.candidates.forEach((c, i) => {
        const tr = document.createElement("tr");
        tr.dataset.index = String(i);
        const win = c.win === null ? `${percent(c.win_low)}–${percent(c.win_high)}` : percent(c.win);
        tr.append(
          moveCell(c.move, c.placed),
          td(win, "num"),
          td(c.wins_with.join(" ")),
          td(c.loses_with.join(" ")),
          td(c.best ? "best" : c.status === "exact" ? "" : "valuing…"),
        );
        rows.push(tr);
      });
    } else {
      $("lookahead-head").replaceChildren(...["#", "Who", "Move"].map((t) => th(t)));
      (answer.line || []).forEach((m, i) => {
        const tr = document.createElement("tr");
        tr.dataset.index = String(i);
        tr.append(td(String(i + 1), "num"), td(i % 2 ? "opponent" : "you"), moveCell(m.move, i === 0 && m.placed));
        rows.push(tr);
      });
    }
    // the rows are drawn anew at each update: a move's button that had the focus keeps it
    const focused = body.contains(document.activeElement) ? document.activeElement.textContent : null;
    body.replaceChildren(...rows);
    if (focused !== null) [...body.querySelectorAll("button.show-move")].find((b) => b.textContent === focused)?.focus();
    this.setStatus(`${this.summary(answer)}…`);
  }

  previewRow(index) {
    const answer = this.standing;
    if (!answer) return;
    const item = answer.candidates ? answer.candidates[index] : index === 0 ? answer.line?.[0] : null;
    this.hooks.preview(item && item.placed && item.placed.length ? item.placed : null);
  }
}

/** Stop helpers' sessions of a look-ahead of `kind`, not waiting for their answers. */
function stopSessions(kind, helpers) {
  for (const { helper, session } of helpers) helper.request(kind, { action: "stop", session }).catch(() => {});
}

/** `items` cut into `parts` runs in order, as even as can be (the first ones one longer). */
function split(items, parts) {
  const out = [];
  let at = 0;
  for (let j = 0; j < parts; j++) {
    const size = Math.floor(items.length / parts) + (j < items.length % parts ? 1 : 0);
    out.push(items.slice(at, at + size));
    at += size;
  }
  return out;
}

function th(text, hidden = false) {
  const cell = document.createElement("th");
  cell.scope = "col";
  if (hidden) cell.append(Object.assign(document.createElement("span"), { className: "visually-hidden", textContent: text }));
  else cell.textContent = text;
  return cell;
}

/** A move's cell: a button that shows it on the board where it has tiles to show, so the
 * keyboard previews it as a click on the row does. */
function moveCell(move, placed) {
  if (!placed || !placed.length) return td(move);
  const cell = document.createElement("td");
  const button = Object.assign(document.createElement("button"), { type: "button", className: "show-move", textContent: move });
  button.setAttribute("aria-label", `Show ${move} on the board`);
  cell.append(button);
  return cell;
}

function td(text, cls = "") {
  const cell = document.createElement("td");
  cell.textContent = text;
  if (cls) cell.className = cls;
  return cell;
}
