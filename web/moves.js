// The solver's plays as the page holds them: the C core's gd_move records, read in place.
//
// The worker hands over the records exactly as the core wrote them (gaddag_solver/web_api/,
// "records" format): 48 bytes each, little-endian — int32 score; int32 equity (hundredths of a
// point); uint8 row, col, direction (0 across, 1 down), length, tiles placed, kind (0 play,
// 1 exchange, 2 pass); 2 reserved bytes; uint8 word[32], one letter code
// per square of the main word (code 1..n, | 64 already on the board, | 128 a blank). An exchange
// (kind 1) holds the tiles put back in word[], codes ascending (0 a blank), length = how many;
// the pass (kind 2) holds nothing. Equity is score × 100 + the leave's value when the moves
// were valued (a leave table, or exchanges asked for).
// Nothing is turned into text until a row is shown (or a filter or word sort needs the words),
// so 60,000 plays cost a few typed arrays. No DOM here: Node imports this module in the tests.

export const RECORD_SIZE = 48;
const WORD_OFFSET = 16;
const LETTER_MASK = 63;
const ON_BOARD = 64;
const BLANK = 128;
export const PLAY = 0;
export const EXCHANGE = 1;
export const PASS = 2;
const KIND_NAMES = ["play", "exchange", "pass"];

/** Column letters as on a real board: A … Z, then AA, AB … */
export function columnName(col) {
  let name = "";
  let n = col + 1;
  while (n > 0) {
    const rest = (n - 1) % 26;
    name = String.fromCharCode(65 + rest) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** A tile as written in a rack or CGP: brackets around a letter of several characters. */
export function written(tile) {
  return tile.length > 1 && tile !== "?" ? `[${tile}]` : tile;
}

/** The sort keys the page offers, with the direction each starts in ("equity" only for moves
 * valued with a leave table) and how each direction reads (descending, ascending). */
export const SORTS = {
  equity: { label: "Equity", descending: true, order: ["highest first", "lowest first"] },
  score: { label: "Score", descending: true, order: ["highest first", "lowest first"] },
  word: { label: "Word", descending: false, order: ["Z to A", "A to Z"] },
  length: { label: "Length", descending: true, order: ["longest first", "shortest first"] },
  position: { label: "Position", descending: false, order: ["from the foot", "from the top"] },
};

/**
 * The indices 0 … count-1 ordered by `keys`, most significant first, each a typed array (one
 * digit per move, below `size`) with its `size`; equal keys keep index order. A comparator
 * called a million times is what made sorting slow (60,000 plays took 30–130 ms), so this is a
 * least-significant-digit radix sort: one counting pass per key, none for a key that is the
 * same for every move.
 */
export function radixOrder(count, keys) {
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let spare = new Uint32Array(count);
  for (let d = keys.length - 1; d >= 0; d--) {
    const { digits, size } = keys[d];
    const starts = new Uint32Array(size + 1);
    for (let i = 0; i < count; i++) starts[digits[i] + 1]++;
    if (starts[digits[0] + 1] === count) continue; // one value: nothing to do
    for (let v = 1; v <= size; v++) starts[v] += starts[v - 1];
    for (let k = 0; k < count; k++) {
      const i = order[k];
      spare[starts[digits[i]]++] = i;
    }
    [order, spare] = [spare, order];
  }
  return order;
}

/**
 * `fields` ({values: typed array indexed by move, descending}, most significant first) as
 * radixOrder keys: each field takes as many bits as its range of values needs; the fields are
 * packed into one number per move (up to 48 bits at a time: exact in a double), which is cut
 * into keys of at most 16 bits, of even widths.
 */
export function fieldKeys(count, fields) {
  const keys = [];
  const packed = new Float64Array(count);
  let group = [];
  let groupWidth = 0;
  const cut = () => {
    if (!groupWidth) return;
    packed.fill(0);
    for (const { values, descending, low, high, width } of group) {
      const size = 2 ** width;
      if (descending) for (let i = 0; i < count; i++) packed[i] = packed[i] * size + (high - values[i]);
      else for (let i = 0; i < count; i++) packed[i] = packed[i] * size + (values[i] - low);
    }
    const parts = Math.ceil(groupWidth / 16);
    const size = 2 ** Math.ceil(groupWidth / parts);
    const cuts = [];
    for (let p = 0; p < parts; p++) {
      const digits = new Uint16Array(count);
      for (let i = 0; i < count; i++) {
        const rest = Math.floor(packed[i] / size);
        digits[i] = packed[i] - rest * size;
        packed[i] = rest;
      }
      cuts.unshift({ digits, size });
    }
    keys.push(...cuts);
    group = [];
    groupWidth = 0;
  };
  for (const { values, descending = false } of fields) {
    let low = Infinity;
    let high = -Infinity;
    for (let i = 0; i < count; i++) {
      const v = values[i];
      if (v < low) low = v;
      if (v > high) high = v;
    }
    const width = count ? Math.ceil(Math.log2(high - low + 1)) : 0;
    if (!width) continue; // the same for every move
    if (groupWidth + width > 48) cut();
    group.push({ values, descending, low, high, width });
    groupWidth += width;
  }
  cut();
  return keys;
}

export class MoveList {
  /**
   * @param {ArrayBuffer} buffer the records (count × RECORD_SIZE bytes)
   * @param {number} count
   * @param {string[]} letters the ruleset's letters; code c is letters[c - 1]
   * @param {string[]} rack the rack's tiles ("?" a blank), as the worker normalized them
   * @param {object} options valued: the records carry equity (the answer's "valued");
   *   byEquity: the solver's order is by equity (the answer's "by_equity": a leave table)
   */
  constructor(buffer, count, letters, rack, { valued = false, byEquity = false } = {}) {
    if (buffer.byteLength < count * RECORD_SIZE) {
      throw new Error(`${count} records need ${count * RECORD_SIZE} bytes, got ${buffer.byteLength}`);
    }
    this.count = count;
    this.letters = letters;
    this.rack = rack;
    this.valued = valued;
    this.byEquity = byEquity;
    this.bytes = new Uint8Array(buffer, 0, count * RECORD_SIZE);
    const view = new DataView(buffer);
    this.score = new Int32Array(count);
    this.equity = new Int32Array(count); // hundredths of a point
    this.row = new Uint8Array(count);
    this.col = new Uint8Array(count);
    this.dir = new Uint8Array(count);
    this.len = new Uint8Array(count);
    this.kind = new Uint8Array(count);
    const bytes = this.bytes;
    for (let i = 0, at = 0; i < count; i++, at += RECORD_SIZE) {
      this.score[i] = view.getInt32(at, true);
      this.equity[i] = view.getInt32(at + 4, true);
      this.row[i] = bytes[at + 8];
      this.col[i] = bytes[at + 9];
      this.dir[i] = bytes[at + 10];
      this.len[i] = bytes[at + 11];
      this.kind[i] = bytes[at + 13];
    }
    this._rankOrder = null;
    this._rankPos = null;
    this._plain = null; // upper-case words, built on first need
    this._orders = new Map();
  }

  // ---- ranking ------------------------------------------------------------------------------

  /** The key the solver ranked these moves by: "equity" with a leave table, else "score". */
  get rankKey() {
    return this.byEquity ? "equity" : "score";
  }

  /** Indices best first, in the solver's order (by equity with a table, else by score): by
   * score (gaddag_solver.solver._rank), higher score, then plays before exchanges before the
   * pass, row, column, across before down, shorter word (fewer tiles for an exchange), then the
   * word's codes (alphabet order, a blank after the tile); by equity (solver._rank_by_equity),
   * higher equity first, then as by score. */
  rankOrder() {
    if (!this._rankOrder) {
      const fields = [
        { values: this.score, descending: true },
        { values: this.kind },
        { values: this.row },
        { values: this.col },
        { values: this.dir },
        { values: this.len },
      ];
      if (this.byEquity) fields.unshift({ values: this.equity, descending: true });
      // then the word's codes, as the core's memcmp compares them (moves that got this far have
      // the same length)
      const order = radixOrder(this.count, [...fieldKeys(this.count, fields), ...this.codeKeys(0xff)]);
      const pos = new Uint32Array(this.count);
      for (let i = 0; i < order.length; i++) pos[order[i]] = i;
      this._rankOrder = order;
      this._rankPos = pos;
    }
    return this._rankOrder;
  }

  /** The first `n` indices of rankOrder(), found without sorting every move (a pass that keeps
   * the best n so far), so the first rows can be drawn before the whole order is known. */
  rankTop(n) {
    if (this._rankOrder) return this._rankOrder.subarray(0, n);
    const best = []; // indices, best first
    const worse = (a, b) => this.compareRank(a, b) > 0; // a after b
    for (let i = 0; i < this.count; i++) {
      if (best.length === n) {
        if (n === 0 || worse(i, best[n - 1])) continue;
        best.pop();
      }
      let at = best.length;
      while (at > 0 && worse(best[at - 1], i)) at--;
      best.splice(at, 0, i);
    }
    return Uint32Array.from(best);
  }

  /** rankOrder's comparison of two moves: < 0 when a comes first. */
  compareRank(a, b) {
    const d =
      (this.byEquity ? this.equity[b] - this.equity[a] : 0) ||
      this.score[b] - this.score[a] ||
      this.kind[a] - this.kind[b] ||
      this.row[a] - this.row[b] ||
      this.col[a] - this.col[b] ||
      this.dir[a] - this.dir[b] ||
      this.len[a] - this.len[b];
    if (d) return d;
    const bytes = this.bytes;
    for (let k = 0, pa = a * RECORD_SIZE + WORD_OFFSET, pb = b * RECORD_SIZE + WORD_OFFSET; k < this.len[a]; k++) {
      const e = bytes[pa + k] - bytes[pb + k];
      if (e) return e;
    }
    return 0;
  }

  /** The radix keys of a sort key (see order). By word, length or position, which only plays
   * have, the exchanges and the pass follow the plays (either way round). */
  keysOf(key, descending) {
    const plays = () => fieldKeys(this.count, [{ values: Uint8Array.from(this.kind, (kind) => (kind === PLAY ? 0 : 1)) }]);
    // letters in alphabet order, blank or not; a word before its extensions
    if (key === "word") return [...plays(), ...this.codeKeys(LETTER_MASK, true, descending)];
    let values;
    if (key === "score") values = [this.score];
    else if (key === "equity") values = [this.equity];
    else if (key === "length") values = [Uint8Array.from(this.len, (n, i) => (this.kind[i] === PLAY ? n : 0))];
    else if (key === "position") values = [this.row, this.col, this.dir];
    else throw new Error(`unknown sort key ${key}`);
    const keys = fieldKeys(
      this.count,
      values.map((v) => ({ values: v, descending })),
    );
    return key === "score" || key === "equity" ? keys : [...plays(), ...keys];
  }

  /** Radix keys of the words' codes (each code & mask), one key per square, 0 past the end
   * of a word; `wordsOnly`: nothing for an exchange or the pass (they have no word). */
  codeKeys(mask, wordsOnly = false, descending = false) {
    const keys = [];
    const bytes = this.bytes;
    let longest = 0;
    for (let i = 0; i < this.count; i++) if (this.len[i] > longest) longest = this.len[i];
    for (let k = 0; k < longest; k++) {
      const digits = new Uint8Array(this.count);
      for (let i = 0, p = WORD_OFFSET + k; i < this.count; i++, p += RECORD_SIZE) {
        const code = k < this.len[i] && (!wordsOnly || this.kind[i] === PLAY) ? bytes[p] & mask : 0;
        digits[i] = descending ? mask - code : code;
      }
      keys.push({ digits, size: mask + 1 });
    }
    return keys;
  }

  /** The order of a sort key is found already. */
  hasOrder(key, descending) {
    return this._orders.has(`${key}:${descending}`) || (key === this.rankKey && descending && this._rankOrder !== null);
  }

  /** Indices in the order of a sort key ("equity", "score", "word", "length", "position");
   * ties are broken by the solver's order. */
  order(key = this.rankKey, descending = SORTS[key]?.descending ?? true) {
    const cacheKey = `${key}:${descending}`;
    const cached = this._orders.get(cacheKey);
    if (cached) return cached;
    const rank = this.rankOrder();
    // the key, then the solver's order (the move's place in it) settles every tie
    const result =
      key === this.rankKey && descending
        ? rank
        : radixOrder(this.count, [...this.keysOf(key, descending), ...fieldKeys(this.count, [{ values: this._rankPos }])]);
    this._orders.set(cacheKey, result);
    return result;
  }

  /** Letters in the main word: 0 for an exchange or the pass. */
  wordLength(i) {
    return this.kind[i] === PLAY ? this.len[i] : 0;
  }

  // ---- filtering ----------------------------------------------------------------------------

  /** Upper-case words, built once (for filtering); "" for an exchange or the pass. */
  plainWords() {
    if (!this._plain) {
      const letters = this.letters;
      const bytes = this.bytes;
      const words = new Array(this.count);
      for (let i = 0; i < this.count; i++) {
        let w = "";
        const p = i * RECORD_SIZE + WORD_OFFSET;
        for (let k = 0, n = this.wordLength(i); k < n; k++) w += letters[(bytes[p + k] & LETTER_MASK) - 1];
        words[i] = w;
      }
      this._plain = words;
    }
    return this._plain;
  }

  /**
   * The indices of `order` whose move matches `text`: every space-separated term must be part
   * of the word (any case; "." stands for any one letter) or be the move's coordinate ("8D",
   * "D8"). `normalize` maps a term to the alphabet's upper-case spelling.
   */
  filter(order, text, normalize = (s) => s.toUpperCase()) {
    const terms = String(text || "").trim().split(/\s+/).filter(Boolean).map(normalize);
    if (!terms.length) return order;
    const words = this.plainWords();
    const tests = terms.map((term) => {
      const coordLike = /^([0-9]+[A-Z]+|[A-Z]+[0-9]+)$/.test(term);
      if (term.includes(".")) {
        const escaped = term.replace(/[\\^$*+?()[\]{}|]/g, "\\$&").replace(/\./g, ".");
        const re = new RegExp(escaped, "u");
        return (i) => re.test(words[i]) || (coordLike && this.coord(i) === term);
      }
      return (i) => words[i].includes(term) || (coordLike && this.coord(i) === term);
    });
    const out = [];
    for (let k = 0; k < order.length; k++) {
      const i = order[k];
      let ok = true;
      for (const test of tests) {
        if (!test(i)) {
          ok = false;
          break;
        }
      }
      if (ok) out.push(i);
    }
    return Uint32Array.from(out);
  }

  // ---- one move as text ---------------------------------------------------------------------

  /** "8D" across, "D8" down; "" for an exchange or the pass. */
  coord(i) {
    if (this.kind[i] !== PLAY) return "";
    return this.dir[i] ? `${columnName(this.col[i])}${this.row[i] + 1}` : `${this.row[i] + 1}${columnName(this.col[i])}`;
  }

  direction(i) {
    return this.dir[i] ? "down" : "across";
  }

  /** The main word's squares: [{letter, blank, onBoard}] (none for an exchange or the pass). */
  parts(i) {
    const out = [];
    const p = i * RECORD_SIZE + WORD_OFFSET;
    for (let k = 0, n = this.wordLength(i); k < n; k++) {
      const code = this.bytes[p + k];
      out.push({
        letter: this.letters[(code & LETTER_MASK) - 1],
        blank: (code & BLANK) !== 0,
        onBoard: (code & ON_BOARD) !== 0,
      });
    }
    return out;
  }

  /** The whole main word, letters a blank stands for in lower case ("" for a non-play). */
  word(i) {
    return this.parts(i)
      .map((p) => (p.blank ? p.letter.toLowerCase() : p.letter))
      .join("");
  }

  /** The tiles placed: [row, col, letter, isBlank] (none for an exchange or the pass). */
  tiles(i) {
    const out = [];
    const dr = this.dir[i] ? 1 : 0;
    const dc = this.dir[i] ? 0 : 1;
    this.parts(i).forEach((p, k) => {
      if (!p.onBoard) out.push([this.row[i] + k * dr, this.col[i] + k * dc, p.letter, p.blank]);
    });
    return out;
  }

  /** The tiles an exchange puts back ("?" a blank), blanks first, then in alphabet order. */
  exchanged(i) {
    if (this.kind[i] !== EXCHANGE) return [];
    const out = [];
    const p = i * RECORD_SIZE + WORD_OFFSET;
    for (let k = 0; k < this.len[i]; k++) {
      const code = this.bytes[p + k];
      out.push(code === 0 ? "?" : this.letters[code - 1]);
    }
    return out;
  }

  /** The rack tiles a play uses, in word order ("?" a blank); none for an exchange or the pass. */
  used(i) {
    return this.tiles(i).map(([, , letter, blank]) => (blank ? "?" : letter));
  }

  tilesUsed(i) {
    return this.used(i).map(written).join("");
  }

  /** The rack tiles that leave it: those played, or those put back by an exchange. */
  spent(i) {
    return this.kind[i] === EXCHANGE ? this.exchanged(i) : this.used(i);
  }

  /** The rack left after the move, in rack order. */
  leave(i) {
    const left = [...this.rack];
    for (const tile of this.spent(i)) {
      const at = left.indexOf(tile);
      if (at >= 0) left.splice(at, 1);
    }
    return left.map(written).join("");
  }

  /** "play", "exchange" or "pass". */
  kindName(i) {
    return KIND_NAMES[this.kind[i]];
  }

  /** How the list names the move: "8D WORD", "exch ABC" or "pass". */
  label(i) {
    if (this.kind[i] === EXCHANGE) return `exch ${this.exchanged(i).map(written).join("")}`;
    if (this.kind[i] === PASS) return "pass";
    return `${this.coord(i)} ${this.word(i)}`;
  }

  /** The move's equity in points (null when the moves were not valued). */
  equityPoints(i) {
    return this.valued ? this.equity[i] / 100 : null;
  }

  /** What the leave adds to the score, in points (null when not valued): exact hundredths. */
  leaveValue(i) {
    return this.valued ? (this.equity[i] - 100 * this.score[i]) / 100 : null;
  }

  /** The move as gaddag_solver's Move.to_dict() writes it (plus the tiles and length, as
   * web_api.move_dict does). */
  toDict(i) {
    const out = {
      row: this.row[i],
      col: this.col[i],
      direction: this.direction(i),
      word: this.word(i),
      score: this.score[i],
      coord: this.coord(i),
      tiles_used: this.tilesUsed(i),
      leave: this.leave(i),
    };
    if (this.kind[i] !== PLAY) out.kind = this.kindName(i);
    if (this.kind[i] === EXCHANGE) out.exchanged = this.exchanged(i).map(written).join("");
    if (this.valued) {
      out.equity = this.equityPoints(i);
      out.leave_value = this.leaveValue(i);
    }
    out.tiles = this.tiles(i);
    out.length = this.wordLength(i);
    return out;
  }
}
