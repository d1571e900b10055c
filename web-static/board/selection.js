// @ts-check
// The selected timer of the board page's run keys (model/run_keys.js): which row the keys act on,
// marked `data-selected` and scrolled into view. The mark is only the user's, never sent. It
// follows a sequence that moves on (model/run_keys.js, followSequence).
//
// Stable selectors: [data-kind=timer][data-selected].

import { followSequence, sequenceCurrent } from "../model/run_keys.js";

/** @typedef {import("../model/board.js").BoardReader} BoardReader */

export class TimerSelection {
  /** @param {Map<string, HTMLElement>} elements the board view's elements by id */
  constructor(elements) {
    this.elements = elements;
    /** @type {string | null} */
    this.id = null;
    /** @type {string | null} the timer the selected one's sequence was on when last looked at */
    this.current = null;
  }

  /** @param {string | null} id @param {BoardReader} board the board as shown */
  select(id, board) {
    const before = this.id === null ? undefined : this.elements.get(this.id);
    if (before && this.id !== id) delete before.dataset.selected;
    this.id = id;
    this.current = sequenceCurrent(board, id);
    const row = id === null ? undefined : this.elements.get(id);
    if (!row) return;
    row.dataset.selected = "true";
    row.scrollIntoView?.({ block: "nearest" });
  }

  /** The board shown changed: a selection on a sequence's timer may go with it. @param {BoardReader} board */
  follow(board) {
    if (this.id === null) return;
    const next = followSequence(board, this.id, this.current);
    if (next !== this.id) this.select(next, board);
    else this.current = sequenceCurrent(board, this.id);
  }
}
