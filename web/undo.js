// Undo and redo of the position being edited: the board, the rack and the moves played here,
// as one list of states. The page commits the state after each change (a tile typed or erased,
// a move played, the board cleared, a position imported); letters typed into the rack one after
// another are one change, and so are the turns of a game stepped through. Undo steps back, redo forward; a new change drops what was undone.

const LIMIT = 500; // states kept; the oldest go first
const MERGED = new Set(["rack", "replay"]); // kinds of change whose runs are one step

export class History {
  /**
   * @param {object} hooks snapshot() → the current state (plain data); restore(state);
   *   onChange(history) after every commit, undo and redo (to update the buttons)
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.states = [];
    this.at = -1;
  }

  /** Start again from the current state (nothing to undo). */
  reset() {
    this.states = [{ state: this.hooks.snapshot(), what: "start", kind: "start" }];
    this.at = 0;
    this.hooks.onChange?.(this);
  }

  /** Record the current state after a change of `kind` ("board", "rack", "play", ...), told
   * as `what` when undone. Consecutive rack edits merge; a state equal to the last is skipped. */
  commit(kind, what = kind) {
    const state = this.hooks.snapshot();
    const key = JSON.stringify(state);
    const top = this.states[this.at];
    if (top && JSON.stringify(top.state) === key) return;
    this.states.length = this.at + 1; // what was undone is dropped
    if (MERGED.has(kind) && top?.kind === kind && this.at > 0) this.states[this.at] = { state, what, kind };
    else this.states.push({ state, what, kind });
    if (this.states.length > LIMIT) this.states.splice(0, this.states.length - LIMIT);
    this.at = this.states.length - 1;
    this.hooks.onChange?.(this);
  }

  get canUndo() {
    return this.at > 0;
  }

  get canRedo() {
    return this.at < this.states.length - 1;
  }

  /** Step back; returns what was undone (text), or null. */
  undo() {
    if (!this.canUndo) return null;
    const undone = this.states[this.at];
    this.at -= 1;
    this.hooks.restore(structuredClone(this.states[this.at].state));
    this.hooks.onChange?.(this);
    return undone.what;
  }

  /** Step forward; returns what was redone (text), or null. */
  redo() {
    if (!this.canRedo) return null;
    this.at += 1;
    const redone = this.states[this.at];
    this.hooks.restore(structuredClone(redone.state));
    this.hooks.onChange?.(this);
    return redone.what;
  }
}

/** Ctrl+Z / Cmd+Z undo and Ctrl+Shift+Z / Ctrl+Y redo anywhere but in text boxes that keep
 * their own undo (every text field except the rack, which is part of the position). */
export function undoKeys(history, { positionFields, onUndo, onRedo }) {
  document.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = event.key.toLowerCase();
    const redo = (key === "z" && event.shiftKey) || (key === "y" && !event.shiftKey);
    if (key !== "z" && !redo) return;
    const target = event.target;
    const textField = target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement;
    if (textField && !positionFields.includes(target)) return;
    event.preventDefault();
    if (redo) onRedo(history.redo());
    else onUndo(history.undo());
  });
}
