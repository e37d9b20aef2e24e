// Two players taking turns at the board: their names, their scores and whose turn it is, from
// the scores of an imported position and the moves played on the page (Play) in order — the
// first player moves first, then they alternate, as in the game exported as GCG. Saved with the
// position.

const DEFAULT_NAMES = ["Player1", "Player2"];

/** Per player: the score so far (from `start`, the scores of an imported position); and whose
 * turn is next (0 or 1). */
export function standings(events, start = [0, 0]) {
  const scores = [Number(start[0]) || 0, Number(start[1]) || 0];
  (events || []).forEach((event, turn) => {
    scores[turn % 2] += Number(event.score) || 0;
  });
  return { scores, next: (events || []).length % 2 };
}

export class PlayersPanel {
  /**
   * @param {object} hooks names() → the two names saved; setNames([a, b]) saves them;
   *   events() → the moves played here; start() → the scores they started from;
   *   leadChanged(points): the player to move's lead over the other changed (a move played or
   *   undone, a position imported, the game reset)
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.inputs = [document.getElementById("player1"), document.getElementById("player2")];
    this.scores = [document.getElementById("player1-score"), document.getElementById("player2-score")];
    this.seats = this.inputs.map((input) => input.closest(".player"));
    this.turn = document.getElementById("players-turn");
    this.inputs.forEach((input, seat) => {
      input.value = hooks.names()[seat] ?? "";
      input.placeholder = DEFAULT_NAMES[seat];
      input.addEventListener("input", () => {
        this.hooks.setNames(this.inputs.map((field) => field.value));
        this.update();
      });
    });
  }

  /** The names as the export takes them (an empty field is the default name). */
  names() {
    return this.inputs.map((input, seat) => input.value.trim() || DEFAULT_NAMES[seat]);
  }

  /** [the score of the player to move, the other's], as a CGP writes them. */
  scoresToMove() {
    const { scores, next } = standings(this.hooks.events(), this.hooks.start?.());
    return [scores[next], scores[1 - next]];
  }

  /** Draw the scores and whose turn it is. */
  update() {
    const { scores, next } = standings(this.hooks.events(), this.hooks.start?.());
    const names = this.names();
    scores.forEach((score, seat) => {
      this.scores[seat].textContent = String(score);
      this.seats[seat].classList.toggle("to-play", seat === next);
      this.seats[seat].setAttribute("aria-current", seat === next ? "true" : "false");
    });
    this.turn.textContent = `${names[next]} to play`;
    const lead = scores[next] - scores[1 - next];
    if (lead !== this.lead) {
      this.lead = lead;
      this.hooks.leadChanged?.(lead);
    }
  }
}
