// The page's keys, so that the moves are reached without Tab-ing through every option: from the
// rack, ↓ goes to the moves, and the "Moves ↓" link right after Solve does the same for Tab;
// "?" outside a text field opens a dialog listing every key. No letter is a shortcut: the board
// and the rack take letters as tiles.

const $ = (id) => document.getElementById(id);

const KEYS = [
  ["Enter (in the rack)", "solve"],
  ["↓ (in the rack), or Tab twice and Enter", "to the moves"],
  ["↑ ↓ Home End (in the moves)", "from move to move, each previewed on the board"],
  ["Enter (on a move)", "play it"],
  ["Letters (on the board)", "place tiles; Space turns the typing direction"],
  ["← → Home End (a game open, outside the fields)", "step through the game's turns"],
  ["?", "this list"],
  ["Esc", "close this list"],
];

function typing(target) {
  return Boolean(target?.closest?.("input, textarea, select, [contenteditable], .board-wrap"));
}

/**
 * hooks: hasMoves() → whether moves are on show; focusMoves(): focus the move on show.
 */
export function wireKeys(hooks) {
  const toMoves = (event) => {
    if (!hooks.hasMoves()) return false;
    event.preventDefault();
    hooks.focusMoves();
    return true;
  };
  $("rack").addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" && !event.altKey && !event.ctrlKey && !event.metaKey) toMoves(event);
  });
  $("to-moves").addEventListener("click", (event) => {
    if (!toMoves(event)) {
      event.preventDefault();
      $("rack").focus();
    }
  });
  const dialog = $("keys-dialog");
  const list = $("keys-list");
  list.replaceChildren(
    ...KEYS.flatMap(([keys, what]) => {
      const dt = document.createElement("dt");
      dt.textContent = keys;
      const dd = document.createElement("dd");
      dd.textContent = what;
      return [dt, dd];
    }),
  );
  $("keys-close").addEventListener("click", () => dialog.close());
  $("keys-open").addEventListener("click", () => dialog.showModal());
  document.addEventListener("keydown", (event) => {
    if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (dialog.open) return;
    event.preventDefault();
    dialog.showModal(); // Esc closes it and the focus goes back where it was
  });
}
