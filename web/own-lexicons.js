// "Your own word lists": a word list (plain text one word per line, gzipped or not, or a JSON
// array) chosen or dropped here is built into a .gaddag by the worker — the same Python builder
// and C core as build_lexicon.py — with a progress bar and the builder's statistics; a .gaddag
// built elsewhere is validated and kept the same way. What is kept lives in the browser
// (web/user-store.js), is offered with the site's lexicons under its name, and can be downloaded
// or removed here. The word list never leaves the machine.

import { getOwn, ownLexiconEntries } from "./user-store.js";

const $ = (id) => document.getElementById(id);
const GADDAG_MAGIC = [0x89, 0x47, 0x41, 0x44, 0x44, 0x41, 0x47, 0x0a]; // docs/gaddag-format.md
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MAX_FILE = 64 << 20; // as the registries' word lists are read (lexicons.MAX_MEMBER_BYTES)
const STEPS = { read: 1, filtered: 2, built: 3, loaded: 4, stored: 5 };

const number = (n) => Number(n).toLocaleString("en");
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** A lexicon name from a file name: "My Words (2).txt.gz" → "My-Words-2". */
export function nameFromFile(fileName) {
  const stem = fileName.replace(/(\.(txt|json|gz|gaddag|dic|lst))+$/i, "");
  const name = stem.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[^A-Za-z0-9]+|-+$/g, "");
  return name.slice(0, 64) || "my-words";
}

// The panel, drawn into #own-panels (index.html).
const PANEL = `
<details id="own-box" class="own">
  <summary>Your own word lists</summary>
  <p class="help">A word list (one word per line, gzipped or not, or a JSON array) is built
    into a lexicon here, in this browser, and kept in it; a <code>.gaddag</code> file built
    elsewhere is checked and kept the same way. Nothing is sent anywhere.</p>
  <div class="own-form">
    <label for="own-file" class="file-button">Choose a file…</label>
    <input id="own-file" class="visually-hidden" type="file"
           accept=".txt,.gz,.json,.gaddag,.dic,.lst,text/plain,application/json,application/gzip">
    <div id="own-drop" class="own-drop" aria-hidden="true">or drop it here</div>
    <span id="own-chosen" class="hint">no file chosen</span>
    <div class="field">
      <label for="own-name">Name</label>
      <input id="own-name" type="text" autocomplete="off" spellcheck="false" maxlength="64">
    </div>
    <div class="field">
      <label for="own-rules">Letters of</label>
      <select id="own-rules"></select>
    </div>
    <button id="own-build" type="button" disabled>Build and keep</button>
  </div>
  <progress id="own-progress" max="5" value="0" hidden aria-label="Building the lexicon"></progress>
  <p id="own-phase" class="note" aria-live="polite"></p>
  <p id="own-error" class="error" role="alert" hidden></p>
  <pre id="own-stats" class="own-stats" hidden></pre>
  <h3 class="own-heading">Kept in this browser</h3>
  <ul id="own-list" class="own-list"></ul>
  <p id="own-empty" class="note">None yet.</p>
</details>
`;

export class OwnLexicons {
  /**
   * options: request(type, payload) → Promise (the page's worker door; build_lexicon's `token` marks
   * its progress messages); worker (to hear build
   * progress); rulesets() → Map name → rules data; currentRules() → rules data; siteNames() →
   * the site's lexicon names (not to be taken); onChange({lexicon, rules}) after a lexicon was
   * kept or removed (lexicon: the one to use now, rules: its ruleset).
   */
  constructor(options) {
    this.options = options;
    $("own-panels").insertAdjacentHTML("beforeend", PANEL);
    this.file = null;
    this.busy = false;
    this.buildId = null;
    options.worker.addEventListener("message", (event) => {
      const message = event.data;
      if (message?.type === "build_progress" && message.request === this.buildId) this.onProgress(message);
    });
    $("own-file").addEventListener("change", (event) => this.choose(event.target.files?.[0] || null));
    const drop = $("own-drop");
    drop.addEventListener("dragover", (event) => {
      event.preventDefault();
      event.stopPropagation();
      drop.classList.add("dropping");
    });
    drop.addEventListener("dragleave", () => drop.classList.remove("dropping"));
    drop.addEventListener("drop", (event) => {
      // ours, not the page's (a file dropped elsewhere opens as a game record)
      event.preventDefault();
      event.stopPropagation();
      drop.classList.remove("dropping");
      this.choose(event.dataTransfer?.files?.[0] || null);
    });
    $("own-build").addEventListener("click", () => this.build());
    $("own-list").addEventListener("click", (event) => this.onListClick(event));
  }

  /** The ruleset choices (every ruleset, shipped or own); the current one is chosen. */
  fillRules() {
    const select = $("own-rules");
    const before = select.value || this.options.currentRules()?.name;
    select.replaceChildren();
    for (const ruleset of this.options.rulesets().values()) {
      const option = document.createElement("option");
      option.value = ruleset.name;
      option.textContent = `${ruleset.title} (${ruleset.letters.length} letters, words up to ${Math.max(ruleset.rows, ruleset.cols)})`;
      select.append(option);
    }
    if ([...select.options].some((option) => option.value === before)) select.value = before;
  }

  choose(file) {
    this.hideError();
    this.file = file;
    $("own-chosen").textContent = file ? `${file.name} (${number(file.size)} bytes)` : "no file chosen";
    if (file) {
      $("own-name").value = nameFromFile(file.name);
      $("own-box").open = true;
    }
    $("own-build").disabled = !file;
  }

  showError(text) {
    const el = $("own-error");
    el.textContent = text;
    el.hidden = false;
  }

  hideError() {
    $("own-error").hidden = true;
    $("own-error").textContent = "";
  }

  setPhase(text, step = null) {
    $("own-phase").textContent = text;
    const bar = $("own-progress");
    bar.hidden = step === null;
    if (step !== null) bar.value = step;
  }

  /** Check the name and the file before the worker sees them. */
  checkChoice(name) {
    if (!this.file) return "Choose a word list or a .gaddag file first.";
    if (!NAME.test(name)) {
      return `'${name}' cannot name a lexicon: use letters, digits, '-', '_' or '.', starting with a letter or digit (64 at most).`;
    }
    if (this.options.siteNames().includes(name)) {
      return `'${name}' is the name of a lexicon of this site: give yours another name.`;
    }
    if (this.file.size === 0) return `${this.file.name} is empty: there is no word in it.`;
    if (this.file.size > MAX_FILE) return `${this.file.name} is ${number(this.file.size)} bytes: more than a word list's 64 MB.`;
    return null;
  }

  async build() {
    if (this.busy) return;
    this.hideError();
    const name = $("own-name").value.trim();
    const problem = this.checkChoice(name);
    if (problem) {
      this.showError(problem);
      return;
    }
    const rules = $("own-rules").value;
    const file = this.file;
    this.busy = true;
    $("own-build").disabled = true;
    $("own-box").setAttribute("aria-busy", "true");
    $("own-stats").hidden = true;
    const started = performance.now();
    try {
      const data = await file.arrayBuffer();
      const head = new Uint8Array(data, 0, Math.min(8, data.byteLength));
      const isGaddag = GADDAG_MAGIC.every((byte, i) => head[i] === byte);
      let result;
      if (isGaddag) {
        this.setPhase(`Checking ${file.name}…`, 3);
        ({ result } = await this.options.request("add_lexicon", { name, rules, file: file.name, data }));
      } else if (/\.gaddag$/i.test(file.name)) {
        throw Object.assign(new Error(`${file.name} is not a .gaddag file: it does not start with the GADDAG signature.`), {
          field: "lexicon",
        });
      } else {
        this.setPhase(`Reading ${file.name}…`, 0);
        this.buildId = `${name}:${performance.now()}`;
        $("own-progress").dataset.phases = "";
        ({ result } = await this.options.request("build_lexicon", { name, rules, file: file.name, data, token: this.buildId }));
      }
      this.showStats(result, isGaddag, performance.now() - started);
      await this.options.onChange({ lexicon: name, rules });
      await this.renderList();
      document.body.dataset.ownBuilt = name; // listed and chosen (the tests wait for it)
    } catch (error) {
      this.setPhase("");
      this.showError(error.message);
    } finally {
      this.buildId = null;
      this.busy = false;
      $("own-build").disabled = !this.file;
      $("own-box").removeAttribute("aria-busy");
    }
  }

  onProgress(message) {
    const step = STEPS[message.phase] ?? 0;
    const bar = $("own-progress");
    bar.dataset.phases = bar.dataset.phases ? `${bar.dataset.phases} ${message.phase}` : message.phase;
    const at = `(${seconds(message.ms)})`;
    if (message.phase === "read") this.setPhase(`${number(message.entries)} lines read ${at}; sorting out the words…`, step);
    else if (message.phase === "filtered") {
      const skipped = [];
      if (message.bad_letters) skipped.push(`${number(message.bad_letters)} with letters outside the alphabet`);
      if (message.too_long) skipped.push(`${number(message.too_long)} too long`);
      this.setPhase(
        `${number(message.kept)} words kept${skipped.length ? ` (skipped ${skipped.join(", ")})` : ""} ${at}; ` +
          "building the GADDAG: expanding, sorting, minimizing, laying out…",
        step,
      );
    } else if (message.phase === "built") this.setPhase(`${number(message.bytes)} bytes built ${at}; checking them…`, step);
    else if (message.phase === "loaded") this.setPhase(`Checked ${at}; storing in this browser…`, step);
    else if (message.phase === "stored") this.setPhase("", null);
  }

  showStats(result, loaded, ms) {
    const lines = loaded
      ? [`checked ${result.file ?? "the file"}: a valid .gaddag`, `words ${number(result.words)}  bytes ${number(result.bytes)}  longest ${result.max_word_length}`]
      : [...result.summary];
    lines.push(
      loaded
        ? `checked and loaded in ${seconds(ms)} in this page`
        : `built in ${seconds(result.ms.total)} in this page's worker (read ${seconds(result.ms.read)}, ` +
            `build ${seconds(result.ms.build)}, check ${seconds(result.ms.load)}); ${seconds(ms)} from the click`,
    );
    lines.push(
      result.stored
        ? `kept in this browser as '${result.name}'`
        : `not kept (${result.store_error}): usable until the page is closed`,
    );
    const stats = $("own-stats");
    stats.textContent = lines.join("\n");
    stats.hidden = false;
    stats.dataset.words = String(result.words);
    stats.dataset.ms = String(loaded ? ms : result.ms.total);
    this.setPhase(`${result.name} is ready: ${number(result.words)} words.`, null);
  }

  async renderList() {
    const entries = (await ownLexiconEntries()).sort((a, b) => a.name.localeCompare(b.name));
    const rulesets = this.options.rulesets();
    const items = entries.map((entry) => {
      const item = document.createElement("li");
      item.dataset.name = entry.name;
      const title = rulesets.get(entry.built_for)?.title ?? entry.built_for;
      const label = document.createElement("span");
      label.className = "own-label";
      label.textContent = `${entry.name} — ${number(entry.info.words)} words, ${number(entry.size)} bytes (${title} letters)`;
      const buttons = [
        ["use", "Use"],
        ["download", "Download .gaddag"],
        ["remove", "Remove"],
      ].map(([action, text]) => {
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.action = action;
        button.textContent = text;
        button.setAttribute("aria-label", `${text} ${entry.name}`);
        return button;
      });
      item.append(label, ...buttons);
      return item;
    });
    $("own-list").replaceChildren(...items);
    $("own-empty").hidden = entries.length > 0;
  }

  async onListClick(event) {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const name = button.closest("li").dataset.name;
    this.hideError();
    if (button.dataset.action === "use") {
      const record = await getOwn("lexicons", name);
      if (record) await this.options.onChange({ lexicon: name, rules: this.rulesFor(record) });
    } else if (button.dataset.action === "download") {
      const record = await getOwn("lexicons", name);
      if (!record) return this.showError(`${name} is no longer kept in this browser.`);
      const url = URL.createObjectURL(new Blob([record.bytes], { type: "application/octet-stream" }));
      const link = Object.assign(document.createElement("a"), { href: url, download: `${name}.gaddag` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } else if (button.dataset.action === "remove") {
      try {
        await this.options.request("remove_lexicon", { name });
      } catch (error) {
        this.showError(error.message);
        return;
      }
      this.setPhase(`${name} removed.`, null);
      await this.options.onChange({});
      await this.renderList();
    }
  }

  /** The current ruleset if the lexicon spells it, else the one it was made for. */
  rulesFor(record) {
    const current = this.options.currentRules();
    return current && current.letters.join("\u0000") === record.letters.join("\u0000") ? current.name : record.built_for;
  }
}
