// @ts-check
// A field of a section or timer, edited in place (Figma's rule): a value from the server shows at
// once unless the user is typing in the field; then their text, focus and caret stay, and the new
// value waits (Escape shows it, a quiet mark says it came). Committing (Enter, blur, a spinner)
// sends what the text means, if it differs from the board (model/intents.js decides).
//
// Stable selectors: input[data-field] (a field; data-base holds the latest value, data-shown the
// value last written), input.remote-changed (someone else changed it while you were typing).

import { h, restoreSelection, saveSelection } from "../dom/kit.js";
import { editField } from "../model/intents.js";
import { REMOTE_CHANGED } from "../model/sentences.js";

/** @typedef {HTMLInputElement} FieldInput  an input with data-field, data-base (the value to show) and data-shown (the value last written) */
/** @typedef {import("../model/fields.js").FieldLimits} FieldLimits */

/**
 * A field's input, for a shape (section_element.js, timer_row.js).
 * @param {Document} doc @param {string} className @param {string} label @param {Record<string, string>} [extra]
 */
export function createField(doc, className, label, extra = {}) {
  // dir=auto: an Arabic or Hebrew title reads right to left, whatever the page's direction.
  return h(doc, "input", { class: `field ${className}`, "aria-label": label, autocomplete: "off", dir: "auto", ...extra });
}

/**
 * The input of one field of a section or timer (a section's element also holds its timers'
 * inputs, hence the kind-specific class).
 * @param {HTMLElement} entity @param {"title" | "minutes" | "seconds" | "warnAt"} field
 * @returns {FieldInput | null}
 */
export function fieldOf(entity, field) {
  return entity.querySelector(entity.dataset.kind === "section" ? ".section-title" : `.timer-${field}`);
}

/** @param {EventTarget | null} target @returns {FieldInput | null} the section or timer field an event is about */
export function fieldInput(target) {
  return target instanceof HTMLInputElement && target.dataset.field && target.closest("[data-kind]") ? target : null;
}

/** The user changed this input since we last wrote it: it holds unsent text. @param {FieldInput} input */
export function isDirty(input) {
  return input.value !== input.dataset.shown;
}

/**
 * Shows a new value in a field, unless the user is typing in it: then their text, focus and caret
 * stay, and the new value waits in data-base (Escape shows it; committing sends theirs).
 * @param {FieldInput} input @param {string} text
 */
export function setFieldValue(input, text) {
  input.dataset.base = text;
  const focused = input.ownerDocument.activeElement === input;
  if (focused && isDirty(input)) {
    markRemote(input, input.value !== text);
    return;
  }
  writeField(input, text);
}

/** Escape, or a blur with nothing changed: show the latest value we know. @param {FieldInput} input */
export function revertField(input) {
  writeField(input, input.dataset.base ?? "");
}

/** The user committed what the input holds: it is no longer unsent. @param {FieldInput} input */
export function acceptField(input) {
  input.dataset.shown = input.value;
  markRemote(input, false);
}

/** @param {FieldInput} input @param {string} text */
function writeField(input, text) {
  if (input.value !== text) {
    const focused = input.ownerDocument.activeElement === input;
    const selection = focused ? saveSelection(input) : null;
    input.value = text;
    if (selection) restoreSelection(input, selection);
  }
  input.dataset.shown = text;
  markRemote(input, false);
}

/** @param {FieldInput} input @param {boolean} changed */
function markRemote(input, changed) {
  input.classList.toggle("remote-changed", changed);
  if (changed) input.title = REMOTE_CHANGED;
  else input.removeAttribute("title");
}

/**
 * Sends what the user typed in a field, if it differs from what the board says. A field left
 * unchanged shows the board's latest value (which may have arrived while it had focus).
 * @param {FieldInput} input
 * @param {{
 *   limits: FieldLimits,
 *   displayed: import("../model/board.js").BoardReader,
 *   edit(ops: import("../wire/protocol.js").Op[]): void,
 *   toast(text: string): void,
 * } | null} session the board the field belongs to
 */
export function commitField(input, session) {
  if (!session || !isDirty(input)) return revertField(input);
  const { id = "", kind = "" } = /** @type {HTMLElement} */ (input.closest("[data-kind]")).dataset;
  const intent = editField(session.displayed, { kind, id, field: /** @type {string} */ (input.dataset.field), text: input.value }, session.limits);
  if ("error" in intent) {
    session.toast(intent.error);
    return revertField(input);
  }
  acceptField(input);
  if ("same" in intent) return setFieldValue(input, intent.same);
  if (intent.ops.length) session.edit(intent.ops);
}

/**
 * Whether the user typed into `input` what was not sent: a field of the board changed from what it
 * shows, or a field of an add form (a section's "Add a timer…") that is not empty.
 * @param {HTMLInputElement} input
 */
export function holdsUnsentText(input) {
  if (input.dataset.field) return isDirty(/** @type {FieldInput} */ (input));
  return input.closest("form") !== null && input.value !== "";
}

/**
 * A view link's page shows the board's fields read-only (its edit buttons are hidden by style.css).
 * @param {HTMLElement} root a section, a timer or the whole board @param {boolean} readOnly
 */
export function setFieldsReadOnly(root, readOnly) {
  for (const input of root.querySelectorAll("input[data-field]")) {
    if (/** @type {HTMLInputElement} */ (input).readOnly !== readOnly) /** @type {HTMLInputElement} */ (input).readOnly = readOnly;
  }
}
