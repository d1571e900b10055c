// @ts-check
// The selected timer of the board page's run keys (model/run_keys.js): which row the keys act on,
// marked `data-selected` and scrolled into view. The mark is only the user's, never sent. It
// follows a sequence that moves on (model/run_keys.js, followSequence). On a big board the row may
// not be built yet: selecting it builds it (view.js reveal), and a row built again later (its
// section dropped far from the screen, then back) is marked again.
//
// Stable selectors: [data-kind=timer][data-selected].

import { followSequence, sequenceCurrent } from "../model/run_keys.js";

/** @typedef {import("../model/board.js").BoardReader} BoardReader */

export class TimerSelection {
  /** @param {Pick<import("./view.js").BoardView, "elements" | "reveal">} view the board view */
  constructor(view) {
    this.view = view;
    /** @type {string | null} */
    this.id = null;
    /** @type {string | null} the timer the selected one's sequence was on when last looked at */
    this.current = null;
  }

  /** @param {string | null} id @param {BoardReader} board the board as shown */
  select(id, board) {
    const before = this.id === null ? undefined : this.view.elements.get(this.id);
    if (before && this.id !== id) delete before.dataset.selected;
    this.id = id;
    this.current = sequenceCurrent(board, id);
    const row = id === null ? undefined : this.view.reveal(id);
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

  /** Rows were built (a big board's, near the screen): the selected one is marked again. @param {string[]} ids */
  built(ids) {
    const row = this.id !== null && ids.includes(this.id) ? this.view.elements.get(this.id) : undefined;
    if (row) row.dataset.selected = "true";
  }
}
