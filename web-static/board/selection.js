// @ts-check
// The selected timer of the board page's run keys (model/run_keys.js): which row the keys act on,
// marked `data-selected` and scrolled into view. The mark is only the user's, never sent.
//
// Stable selectors: [data-kind=timer][data-selected].

export class TimerSelection {
  /** @param {Map<string, HTMLElement>} elements the board view's elements by id */
  constructor(elements) {
    this.elements = elements;
    /** @type {string | null} */
    this.id = null;
  }

  /** @param {string | null} id */
  select(id) {
    const before = this.id === null ? undefined : this.elements.get(this.id);
    if (before && this.id !== id) delete before.dataset.selected;
    this.id = id;
    const row = id === null ? undefined : this.elements.get(id);
    if (!row) return;
    row.dataset.selected = "true";
    row.scrollIntoView?.({ block: "nearest" });
  }
}
