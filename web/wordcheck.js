// The words on the board checked against the lexicon: after each change of the board (and of
// the lexicon) the worker lists the runs of tiles the lexicon does not hold
// (web_api.check_board); their squares are marked on the board and the words listed under it.
// A warning only: the position is still solved.

export class BoardCheck {
  /**
   * @param {object} parts request(type, payload) → the worker's answer; board (BoardView);
   *   note (the element listing the words); position() → {lexicon, rules, board} or null
   */
  constructor({ request, board, note, position }) {
    this.request = request;
    this.board = board;
    this.note = note;
    this.position = position;
    this.timer = 0;
    this.seq = 0;
  }

  /** Check again shortly (edits come in bursts). */
  schedule() {
    clearTimeout(this.timer);
    const seq = ++this.seq;
    this.timer = setTimeout(() => this.run(seq), 120);
  }

  async run(seq) {
    const position = this.position();
    if (!position || !position.lexicon) {
      this.show(null);
      return;
    }
    let answer;
    try {
      answer = await this.request("check_board", position);
    } catch {
      if (seq === this.seq) this.show(null); // a bad board is reported by the editor, not here
      return;
    }
    if (seq === this.seq) this.show(answer.result.unknown, position.lexicon);
  }

  show(unknown, lexicon = "") {
    const words = unknown || [];
    this.board.markWords(words.flatMap((word) => word.squares));
    this.note.hidden = words.length === 0;
    this.note.dataset.count = String(words.length);
    if (!words.length) {
      this.note.textContent = "";
      return;
    }
    const list = words.map((word) => `${word.word} (${word.coord})`).join(", ");
    this.note.textContent =
      `${words.length === 1 ? "A word" : `${words.length} words`} on the board ` +
      `${words.length === 1 ? "is" : "are"} not in ${lexicon}: ${list}. The position can still be solved.`;
  }
}
