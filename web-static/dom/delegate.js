// @ts-check
// One delegated listener per event type, at the document: a page says what its elements mean, and
// nothing listens on an element of its own (elements come and go with every patch). Clicks and
// submits go by the button's or the form's class to the page's action for it.

/** The event types the pages handle. */
export const EVENT_TYPES = /** @type {const} */ (["click", "submit", "keydown", "focusin", "focusout", "change"]);

/** @typedef {Partial<Record<(typeof EVENT_TYPES)[number], (event: any) => void>>} Handlers  a page's, by event type */

/**
 * Listens once per event type on `doc` and hands each event to the page's handler for its type.
 * @param {Document} doc @param {Handlers} handlers
 */
export function listen(doc, handlers) {
  for (const type of EVENT_TYPES) doc.addEventListener(type, (event) => handlers[type]?.(event));
}

/**
 * A click handler: a button (not a form's submit) with one of the actions' class names runs that
 * action, with the id of the section or timer it is in ("" outside one).
 * @param {Record<string, (id: string, button: HTMLButtonElement) => void>} actions
 * @returns {(event: MouseEvent) => void}
 */
export function buttonActions(actions) {
  const names = Object.keys(actions);
  return (event) => {
    const button = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest("button"));
    if (!button || button.type === "submit") return;
    const id = /** @type {HTMLElement | null} */ (button.closest("[data-kind]"))?.dataset.id ?? "";
    const action = names.find((name) => button.classList.contains(name));
    if (action) actions[action](id, button);
  };
}

/**
 * A submit handler: a form with one of the actions' class names runs that action instead of
 * submitting.
 * @param {Record<string, (form: HTMLFormElement) => void>} actions
 * @returns {(event: SubmitEvent) => void}
 */
export function formActions(actions) {
  const names = Object.keys(actions);
  return (event) => {
    const form = /** @type {HTMLFormElement} */ (event.target);
    const action = names.find((name) => form.classList.contains(name));
    if (!action) return;
    event.preventDefault();
    actions[action](form);
  };
}
