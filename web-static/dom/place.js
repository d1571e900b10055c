// @ts-check
// Putting an element in its place without taking anything from the user: a move detaches the node
// for a moment, which blurs an input inside it, so focus, caret and selection are put back.

/**
 * Puts `element` right before `before` (or last) in `parent`, unless it is there already. If the
 * element holds the focus, focus and caret are put back.
 * @param {HTMLElement} parent
 * @param {HTMLElement} element
 * @param {HTMLElement | null} before
 */
export function placeElement(parent, element, before) {
  if (element.parentElement === parent && element.nextElementSibling === before) return;
  const doc = element.ownerDocument;
  const active = /** @type {HTMLElement | null} */ (doc.activeElement);
  const holdsFocus = active !== null && element.contains(active);
  const selection = holdsFocus && active instanceof HTMLInputElement ? saveSelection(active) : null;
  parent.insertBefore(element, before);
  if (holdsFocus && doc.activeElement !== active) {
    active.focus({ preventScroll: true });
    if (active instanceof HTMLInputElement) restoreSelection(active, selection);
  }
}

/** @param {HTMLInputElement} input @returns {[number, number] | null} */
export function saveSelection(input) {
  // Number inputs have no selection API (selectionStart is null there).
  return input.selectionStart === null || input.selectionEnd === null ? null : [input.selectionStart, input.selectionEnd];
}

/** @param {HTMLInputElement} input @param {[number, number] | null} selection */
export function restoreSelection(input, selection) {
  if (!selection) return;
  const end = input.value.length;
  input.setSelectionRange(Math.min(selection[0], end), Math.min(selection[1], end));
}
