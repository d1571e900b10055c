// @ts-check
// The kit every view builds and touches its elements with: create an element with its attributes
// and children; write an attribute, a text or an icon only when it differs (a page at rest does not
// churn, and Chromium does no style work for a write that changes nothing); put an element in its
// place without taking anything from the user (a move detaches the node for a moment, which blurs
// an input inside it, so focus, caret and selection are put back). Text goes in as text, never as
// HTML.

/**
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string>} [attributes]
 * @param {(Node | string)[]} [children]
 */
export function h(doc, tag, attributes = {}, children = []) {
  const element = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** @param {Element} element @param {string} name @param {string} value */
export function setAttribute(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** @param {Element} element @param {string} text */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/**
 * The icons style.css draws: an element shows one with data-icon (no element of its own).
 * @typedef {"chevron" | "up" | "down" | "delete" | "play" | "pause" | "reset" | "bell"} IconName
 */

/** @param {Element} element @param {IconName} name */
export function setIcon(element, name) {
  setAttribute(element, "data-icon", name);
}

/**
 * A button that shows an icon, named by its label; with `named`, by its label and the title of its
 * section or timer ("Delete timer Eggs"), by reference as labelledButton's, so a rename touches nothing.
 * @param {Document} doc @param {string} className @param {string} label @param {IconName} name
 * @param {{id: string, titleId: string}} [named] the button's id, and the title input's
 */
export function iconButton(doc, className, label, name, named) {
  const reference = named ? { id: named.id, "aria-labelledby": `${named.id} ${named.titleId}` } : {};
  return h(doc, "button", { type: "button", class: `icon-button ${className}`, "aria-label": label, title: label, "data-icon": name, ...reference });
}

/**
 * A button whose name is its own words and the title of its section or timer ("Skip Prep",
 * "+1 min Eggs"), by reference, so a rename touches nothing here and it needs no element more.
 * @param {Document} doc @param {string} className @param {string} id @param {string} titleId
 * @param {string} words @param {string} tip
 * @param {Record<string, string>} [extra]
 */
export function labelledButton(doc, className, id, titleId, words, tip, extra = {}) {
  return h(doc, "button", { type: "button", class: `button ${className}`, id, "aria-labelledby": `${id} ${titleId}`, title: tip, ...extra }, [words]);
}

/**
 * Arms or disarms a button that asks for a second press (a delete): while armed it is named by
 * `confirmLabel`; disarmed (null), by its own label again.
 * @param {HTMLButtonElement} button
 * @param {string | null} confirmLabel
 */
export function armButton(button, confirmLabel) {
  if (confirmLabel) {
    button.dataset.armed = "true";
    button.dataset.label = button.getAttribute("aria-label") ?? "";
    button.setAttribute("aria-label", confirmLabel);
    button.title = confirmLabel;
  } else if (button.dataset.armed) {
    delete button.dataset.armed;
    button.setAttribute("aria-label", button.dataset.label ?? "");
    button.title = button.dataset.label ?? "";
  }
}

// MARK: placing, keeping focus and caret

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
