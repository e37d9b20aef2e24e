// The list of moves: a virtual list (only the rows in view exist in the page, so 60,000 moves
// scroll as smoothly as 60), sortable by its column headers, filterable by text. Hovering a
// row or giving it keyboard focus previews the move; Play (or Enter on a row) plays it. With
// moves valued by a leave table, the Equity and Leave value columns show (class "valued").

import { PLAY, SORTS, written } from "./moves.js";

/** A number of points as text: at most two decimals, a true minus sign; `fixed`: always two
 * (so a column of them lines up), and `signed`: a plus sign on a gain. */
export function points(value, { fixed = false, signed = false } = {}) {
  let text = fixed || !Number.isInteger(value) ? value.toFixed(2) : String(value);
  if (!fixed) text = text.replace(/(\.\d)0$/, "$1");
  if (signed && value > 0) text = `+${text}`;
  return text.replace("-", "−");
}

export const ROW_HEIGHT = 34; // px, the same as --row-h in style.css
const OVERSCAN = 8;

export class ResultsView {
  /**
   * @param {HTMLElement} root the table (role=table) holding .results-head and .results-scroll
   * @param {object} hooks onPreview(index|null), onPlay(index), onSort(key, descending),
   *   normalize(text) → the alphabet's upper-case spelling (for the filter)
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    this.scroll = root.querySelector(".results-scroll");
    this.spacer = root.querySelector(".results-spacer");
    this.headers = [...root.querySelectorAll("[data-sort]")];
    this.list = null;
    this.view = new Uint32Array(0); // move indices, in the order shown
    this.known = 0; // > 0: only view[0 … known) is found yet (the first screen; see settle)
    this.sortKey = "score";
    this.descending = true;
    this.filterText = "";
    this.moveTest = null; // (list, i) → bool: the filters beyond the text (filters.js), or null
    this.focusPos = 0;
    this.stale = false;
    this.rows = new Map(); // position in view -> row element
    this.frame = 0;
    this.hovered = -1;
    // rows drawn under a pointer at rest get a mouseover from the browser, not from the player:
    // they are previewed once the pointer moves (a preview in the frame that shows new rows
    // delayed them by a third)
    this.pointerMoved = false;
    this.previewing = false;
    this.root.style.setProperty("--row-h", `${ROW_HEIGHT}px`);
    this.scroll.addEventListener("scroll", () => this.schedule());
    window.addEventListener("resize", () => this.schedule());
    this.scroll.addEventListener("keydown", (event) => this.onKeyDown(event));
    this.scroll.addEventListener("focusin", (event) => this.onFocusIn(event));
    this.scroll.addEventListener("focusout", (event) => {
      if (!this.scroll.contains(event.relatedTarget)) this.previewAt(this.hovered >= 0 ? this.hovered : -1);
    });
    const hover = (event) => {
      const row = event.target.closest(".row[data-pos]");
      if (row) {
        this.hovered = Number(row.dataset.pos);
        if (this.pointerMoved) this.previewAt(this.hovered);
      }
    };
    this.scroll.addEventListener("mouseover", hover);
    this.scroll.addEventListener("mousemove", (event) => {
      if (this.pointerMoved) return;
      this.pointerMoved = true;
      hover(event);
    });
    this.scroll.addEventListener("mouseleave", () => {
      this.hovered = -1;
      const focused = this.scroll.contains(document.activeElement) ? this.focusPos : -1;
      this.previewAt(focused);
    });
    this.scroll.addEventListener("click", (event) => {
      const button = event.target.closest("button.play");
      if (button && !button.disabled) this.hooks.onPlay(Number(button.dataset.index));
    });
    for (const header of this.headers) {
      header.addEventListener("click", () => {
        const key = header.dataset.sort;
        const descending = key === this.sortKey ? !this.descending : SORTS[key].descending;
        this.setSort(key, descending);
        this.hooks.onSort?.(key, descending);
      });
    }
  }

  /** Show a new MoveList (null: none), sorted by `sort` ({key, descending}) when given. */
  show(list, sort = null) {
    this.list = list;
    if (sort) this.markSort(sort.key, sort.descending);
    this.root.classList.toggle("valued", Boolean(list?.byEquity));
    this.stale = false;
    this.focusPos = 0;
    this.hovered = -1;
    this.pointerMoved = false;
    if (this.previewing) this.previewAt(-1); // a move of the list before
    this.scroll.scrollTop = 0;
    this.recompute(true);
    if (this.known) {
      // the rest of the order once the first rows are drawn and the page is idle
      const list = this.list;
      const later = window.requestIdleCallback || ((then) => setTimeout(then, 50));
      later(() => list === this.list && this.settle(), { timeout: 250 });
    }
  }

  setSort(key, descending) {
    this.markSort(key, descending);
    if (this.list) this.recompute();
  }

  /** Take a sort and show it on the column headers (without sorting yet). */
  markSort(key, descending) {
    this.sortKey = key;
    this.descending = descending;
    for (const header of this.headers) {
      const cell = header.closest("[role=columnheader]");
      if (header.dataset.sort === key) cell.setAttribute("aria-sort", descending ? "descending" : "ascending");
      else cell.removeAttribute("aria-sort");
      header.dataset.dir = header.dataset.sort === key ? (descending ? "desc" : "asc") : "";
    }
  }

  setFilter(text) {
    this.filterText = text;
    if (this.list) this.recompute();
  }

  /** Keep only the moves for which test(list, i) holds (null: all). */
  setMoveTest(test) {
    this.moveTest = test;
    if (this.list) this.recompute();
  }

  setStale(stale) {
    this.stale = stale;
    this.root.classList.toggle("stale", stale);
    for (const row of this.rows.values()) {
      row.querySelector("button.play").disabled = stale;
    }
  }

  /** Find the moves to show, in order, and draw the rows in view. `firstScreen`: a new list in
   * the solver's own order, unfiltered, needs only its first screen now (a pass over the moves,
   * not a sort of them all); settle() finds the rest, after the rows are on screen. */
  recompute(firstScreen = false) {
    const list = this.list;
    this.known = 0;
    if (!list) {
      this.view = new Uint32Array(0);
    } else if (firstScreen && this.showsRank() && !list.hasOrder(this.sortKey, this.descending)) {
      const wanted = Math.min(list.count, this.lastInView()); // the overscan too: found for scrolling
      this.view = new Uint32Array(list.count);
      this.view.set(list.rankTop(wanted));
      this.known = wanted;
    } else {
      const ordered = list.order(this.sortKey, this.descending);
      const matching = list.filter(ordered, this.filterText, this.hooks.normalize);
      const test = this.moveTest;
      this.view = test ? matching.filter((i) => test(list, i)) : matching;
    }
    this.root.classList.toggle("empty", !list || list.count === 0);
    this.focusPos = Math.min(this.focusPos, Math.max(0, this.view.length - 1));
    this.root.setAttribute("aria-rowcount", String(this.view.length + 1));
    this.spacer.style.height = `${this.view.length * ROW_HEIGHT}px`;
    for (const row of this.rows.values()) row.remove();
    this.rows.clear();
    // the rows in view first, for the frame that shows them; the overscan once it is drawn
    this.render(0);
    requestAnimationFrame(() => setTimeout(() => this.render(), 0));
  }

  /** The list shows the solver's order, every move. */
  showsRank() {
    return (
      this.sortKey === this.list.rankKey && this.descending && !this.filterText.trim() && !this.moveTest
    );
  }

  /** Find the whole order when only the first screen is known (soon after a new list is drawn,
   * or as soon as a row beyond the first screen is wanted). */
  settle() {
    if (!this.known) return;
    this.known = 0;
    this.view = this.list.order(this.sortKey, this.descending);
    performance.mark("results:ordered");
  }

  /** Position past the last row the scroll area shows (with the overscan). */
  lastInView(overscan = OVERSCAN) {
    const height = this.scroll.clientHeight || 400;
    return Math.ceil((this.scroll.scrollTop + height) / ROW_HEIGHT) + overscan;
  }

  schedule() {
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.render();
      });
    }
  }

  /** Create the rows in view (and the focused one), drop the others. */
  render(overscan = OVERSCAN) {
    const total = this.view.length;
    const first = Math.max(0, Math.floor(this.scroll.scrollTop / ROW_HEIGHT) - overscan);
    const last = Math.min(total, this.lastInView(overscan));
    if (this.known && (last > this.known || this.focusPos >= this.known)) this.settle();
    const wanted = new Set();
    for (let k = first; k < last; k++) wanted.add(k);
    if (total) wanted.add(this.focusPos);
    for (const [k, row] of this.rows) {
      if (!wanted.has(k) && row !== document.activeElement && !row.contains(document.activeElement)) {
        row.remove();
        this.rows.delete(k);
      }
    }
    for (const k of wanted) {
      if (!this.rows.has(k)) {
        const row = this.makeRow(k);
        this.rows.set(k, row);
        this.spacer.append(row);
      }
    }
    for (const [k, row] of this.rows) row.tabIndex = k === this.focusPos ? 0 : -1;
  }

  makeRow(k) {
    const list = this.list;
    const i = this.view[k];
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    row.setAttribute("aria-rowindex", String(k + 2));
    row.dataset.pos = k;
    row.dataset.index = i;
    row.style.top = `${k * ROW_HEIGHT}px`;
    const cell = (cls, text) => {
      const div = document.createElement("div");
      div.className = cls;
      div.setAttribute("role", "cell");
      if (text !== undefined) div.textContent = text;
      row.append(div);
      return div;
    };
    const kind = list.kind[i];
    const coord = list.coord(i);
    cell("c-pos", coord || "–");
    const word = cell("c-word");
    let plain = "";
    if (kind === PLAY) {
      for (const part of list.parts(i)) {
        const span = document.createElement("span");
        span.textContent = part.blank ? part.letter.toLowerCase() : part.letter;
        plain += span.textContent;
        if (part.blank) span.className = "bl";
        else if (part.onBoard) span.className = "ob";
        word.append(span);
      }
    } else {
      plain = list.label(i);
      word.textContent = plain;
      word.classList.add("other");
    }
    const score = list.score[i];
    cell("c-len", kind === PLAY ? String(list.len[i]) : "");
    cell("c-score", String(score));
    const valued = list.byEquity;
    if (valued) cell("c-eq", points(list.equityPoints(i), { fixed: true }));
    cell("c-tiles", list.spent(i).map(written).join("") || "–");
    cell("c-leave", list.leave(i) || "–");
    if (valued) {
      const value = list.leaveValue(i);
      const lv = cell("c-lv", points(value, { fixed: true, signed: true }));
      if (value < 0) lv.classList.add("neg");
    }
    const action = cell("c-play");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "play";
    button.textContent = "Play";
    button.tabIndex = -1;
    button.dataset.index = i;
    button.disabled = this.stale;
    const what = kind === PLAY ? `${coord} ${plain} for ${score}` : plain;
    const equity = valued ? `, equity ${points(list.equityPoints(i))}` : "";
    button.setAttribute("aria-label", `Play ${what}${equity}`);
    row.setAttribute("aria-label", `${what}${equity}, leave ${list.leave(i) || "none"}`); // said on focus
    action.append(button);
    return row;
  }

  previewAt(k) {
    if (k >= this.known) this.settle();
    const index = k >= 0 && k < this.view.length ? this.view[k] : null;
    this.previewing = index !== null;
    this.hooks.onPreview(index);
  }

  onFocusIn(event) {
    const row = event.target.closest(".row[data-pos]");
    if (!row) return;
    this.focusPos = Number(row.dataset.pos);
    for (const [k, other] of this.rows) other.tabIndex = k === this.focusPos ? 0 : -1;
    this.previewAt(this.focusPos);
  }

  /** Move keyboard focus to the row at position k (scrolling it into view). */
  focusRow(k) {
    if (!this.view.length) return;
    k = Math.max(0, Math.min(this.view.length - 1, k));
    this.focusPos = k;
    const top = k * ROW_HEIGHT;
    const height = this.scroll.clientHeight;
    if (top < this.scroll.scrollTop) this.scroll.scrollTop = top;
    else if (top + ROW_HEIGHT > this.scroll.scrollTop + height) this.scroll.scrollTop = top + ROW_HEIGHT - height;
    this.render();
    this.rows.get(k)?.focus({ preventScroll: true });
  }

  onKeyDown(event) {
    const row = event.target.closest(".row[data-pos]");
    if (!row || event.target !== row) return;
    const k = Number(row.dataset.pos);
    const page = Math.max(1, Math.floor(this.scroll.clientHeight / ROW_HEIGHT) - 1);
    const to = {
      ArrowDown: k + 1,
      ArrowUp: k - 1,
      PageDown: k + page,
      PageUp: k - page,
      Home: 0,
      End: this.view.length - 1,
    }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      this.focusRow(to);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (!this.stale) this.hooks.onPlay(this.view[k]);
    }
  }

  /** The shown moves as dicts (in the order shown), for tests and tools. */
  shownMoves(limit = Infinity) {
    const out = [];
    if (!this.list) return out;
    this.settle();
    const n = Math.min(limit, this.view.length);
    for (let k = 0; k < n; k++) out.push(this.list.toDict(this.view[k]));
    return out;
  }
}
