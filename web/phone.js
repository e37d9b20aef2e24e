// On a phone the board is pinned at the top of the screen (style.css); after a solve the page
// scrolls the list of moves up to just under the board, so the moves, the board (for their
// previews) and the rack all show at once.

const PHONE = window.matchMedia("(max-width: 30rem)");

/** Scroll `panel` to just under the pinned `pinned` element (phones only). */
export function showUnder(panel, pinned) {
  if (!PHONE.matches) return;
  const top = panel.getBoundingClientRect().top;
  const under = pinned.getBoundingClientRect().bottom;
  if (Math.abs(top - under) > 2) window.scrollBy({ top: top - under - 2, behavior: "instant" });
}
