// @ts-check
// Editing a section's or timer's field in place: what the user typed is checked against the
// board's limits (as the server will check it) and, if it differs from the board, becomes one
// update. Parsing is pure; `commitField` touches only the input it is given.

import { DEFAULT_LIMITS, FIELD, KIND } from "../wire/constants.js";
import { lengthMs } from "../model/timer_face.js";
import { acceptField, formatField, isDirty, revertField, setFieldValue } from "./dom_patch.js";
import * as protocol from "../wire/protocol.js";

/** @typedef {import("./dom_patch.js").FieldInput} FieldInput */
/** @typedef {{maxTitleLength: number, maxMinutes: number, maxSeconds: number}} FieldLimits */

/**
 * Checks a typed value against the board's limits, as the server will.
 * @param {string} field @param {string} text @param {FieldLimits} [limits]
 * @returns {{value: string | number} | {error: string}}
 */
export function parseField(field, text, limits = DEFAULT_LIMITS) {
  if (field === "title") return parseTitle(text, limits.maxTitleLength);
  if (field === FIELD.warnAt) return parseWarnAt(text, limits);
  const max = field === "minutes" ? limits.maxMinutes : limits.maxSeconds;
  const value = text.trim() === "" ? NaN : Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max) return { error: `${capitalise(field)} must be a whole number from 0 to ${max}.` };
  return { value };
}

/**
 * A warning point as typed: "m:ss" (1:00, 0:30, 2:5) or whole minutes ("2"); empty means none (0).
 * The value is in ms of time left, as the wire has it.
 * @param {string} text @param {FieldLimits} [limits]
 * @returns {{value: number} | {error: string}}
 */
export function parseWarnAt(text, limits = DEFAULT_LIMITS) {
  const value = text.trim();
  if (value === "") return { value: 0 };
  const match = /^(\d{1,4})(?::(\d{1,2}))?$/.exec(value);
  const minutes = match ? Number(match[1]) : NaN;
  const seconds = match?.[2] === undefined ? 0 : Number(match[2]);
  if (!match || seconds > 59 || minutes > limits.maxMinutes) {
    return { error: `A warning point is minutes:seconds left, such as 1:00 (up to ${limits.maxMinutes}:59), or empty for none.` };
  }
  return { value: (minutes * 60 + seconds) * 1000 };
}

/** @param {string} text @param {number} maxLength @returns {{value: string} | {error: string}} */
export function parseTitle(text, maxLength) {
  const value = text.trim();
  if (!value) return { error: "A title cannot be empty." };
  if ([...value].length > maxLength) return { error: `A title can have at most ${maxLength} characters.` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return { error: "A title cannot contain control characters." };
  return { value };
}

/** @param {string} text */
function capitalise(text) {
  return text[0].toUpperCase() + text.slice(1);
}

/** @param {EventTarget | null} target @returns {FieldInput | null} a section or timer field */
export function fieldInput(target) {
  return target instanceof HTMLInputElement && target.dataset.field && target.closest("[data-kind]") ? target : null;
}

/**
 * Sends what the user typed in a field, if it differs from what the board says. A field left
 * unchanged shows the board's latest value (which may have arrived while it had focus).
 * @param {FieldInput} input
 * @param {{
 *   limits: FieldLimits,
 *   current(kind: string, id: string): Record<string, unknown> | undefined,
 *   edit(ops: protocol.Op[]): void,
 *   toast(text: string): void,
 * } | null} session the board the field belongs to
 */
export function commitField(input, session) {
  const entity = /** @type {HTMLElement} */ (input.closest("[data-kind]"));
  const { id = "", kind = "" } = entity.dataset;
  const field = /** @type {string} */ (input.dataset.field);
  if (!session || !isDirty(input)) return revertField(input);
  const parsed = parseField(field, input.value, session.limits);
  if ("error" in parsed) {
    session.toast(parsed.error);
    return revertField(input);
  }
  acceptField(input);
  const current = session.current(kind, id);
  if (!current) return;
  // A warning point the server never sent is 0, none; one longer than the timer is refused there.
  const now = field === FIELD.warnAt ? current[field] ?? 0 : current[field];
  if (field === FIELD.warnAt && Number(parsed.value) > lengthMs(/** @type {any} */ (current))) {
    session.toast("A warning point cannot be more than the timer's length.");
    return revertField(input);
  }
  if (now === parsed.value) return setFieldValue(input, formatField(field, parsed.value));
  const change = { id, [field]: parsed.value };
  session.edit([kind === KIND.section ? protocol.updateSection(change) : protocol.updateTimer(change)]);
}
