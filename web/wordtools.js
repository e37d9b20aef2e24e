// Word tools (web_api.word_tools, in the same worker as the solver): check words, anagrams of
// tiles (? a blank), words buildable from some of them, patterns (? one letter, * any run) and
// words containing letters. The answer is counted and listed (the first 500); each word listed
// is a button that shows it found in the lexicon, with its front and back hooks.

const LIMIT = 500;
const $ = (id) => document.getElementById(id);

export class WordTools {
  /** @param {object} hooks request(type, payload) → the worker's answer; lexicon() → {lexicon, rules} */
  constructor(hooks) {
    this.hooks = hooks;
    this.seq = 0;
    $("words-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.run();
    });
    $("words-list").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-word]");
      if (button) this.showWord(button.dataset.word);
    });
  }

  async ask(payload) {
    const { lexicon, rules } = this.hooks.lexicon();
    if (!lexicon) throw new Error("no lexicon is built for these rules");
    return (await this.hooks.request("word_tools", { lexicon, rules, ...payload })).result;
  }

  showError(text) {
    const error = $("words-error");
    error.textContent = text || "";
    error.hidden = !text;
    $("words-query").toggleAttribute("aria-invalid", Boolean(text));
  }

  async run() {
    const seq = ++this.seq;
    const tool = $("words-tool").value;
    const query = $("words-query").value;
    this.showError("");
    $("words-word").hidden = true;
    let answer;
    try {
      answer = await this.ask({ tool, query, limit: LIMIT });
    } catch (error) {
      if (seq === this.seq) this.showError(error.message);
      return;
    }
    if (seq !== this.seq) return;
    const { lexicon } = this.hooks.lexicon();
    const list = $("words-list");
    const items = answer.words.map((word, k) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "word";
      button.dataset.word = word;
      button.textContent = word;
      if (answer.valid) {
        const ok = answer.valid[k];
        button.classList.add(ok ? "valid" : "invalid");
        button.setAttribute("aria-label", `${word}: ${ok ? "valid" : "not in the lexicon"}`);
        button.textContent = `${word} ${ok ? "✓" : "✗"}`;
      }
      item.append(button);
      return item;
    });
    list.replaceChildren(...items);
    const count = answer.count;
    const summary = $("words-summary");
    if (answer.valid) {
      const good = answer.valid.filter(Boolean).length;
      summary.textContent = `${good} of ${count} valid in ${lexicon}`;
    } else {
      const shown = count > answer.words.length ? ` (the first ${answer.words.length} shown)` : "";
      summary.textContent = `${count.toLocaleString("en")} word${count === 1 ? "" : "s"} in ${lexicon}${shown}`;
    }
    summary.dataset.count = String(count);
    summary.dataset.seq = String(seq); // a new answer, even with the same count
  }

  /** A word of the list as the lexicon has it: in it or not, and its hooks. */
  async showWord(word) {
    let answer;
    try {
      answer = await this.ask({ hooks: word });
    } catch (error) {
      this.showError(error.message);
      return;
    }
    const { lexicon } = this.hooks.lexicon();
    const box = $("words-word");
    const front = answer.front.join(" ") || "none";
    const back = answer.back.join(" ") || "none";
    box.textContent = answer.in_lexicon
      ? `${answer.word} is in ${lexicon}. Front hooks: ${front}. Back hooks: ${back}.`
      : `${answer.word} is not in ${lexicon}.`;
    box.dataset.word = answer.word;
    box.hidden = false;
  }
}
