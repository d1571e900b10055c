// @ts-check
// The fields a user types in, both ways: how a section's or timer's value reads in its input
// (format), and what typed text means, checked against the board's limits as the server will
// check it (parse). Pure.

import { DEFAULT_LIMITS, FIELD } from "../wire/constants.js";
import { FIELD_ERRORS } from "./sentences.js";

/** @typedef {{maxTitleLength: number, maxMinutes: number, maxSeconds: number}} FieldLimits */
/** @typedef {"title" | "minutes" | "seconds" | "warnAt"} FieldName  the fields a user types in */

// MARK: format

/**
 * How a field's value reads in its input: seconds always with two digits (7:05, not 7:5); a
 * warning point as m:ss, empty when there is none.
 * @param {string} field @param {unknown} value
 */
export function formatField(field, value) {
  if (field === FIELD.warnAt) return formatWarnAt(/** @type {number | undefined} */ (value));
  return field === FIELD.seconds ? String(value).padStart(2, "0") : String(value);
}

/** A warning point (ms left) as its input shows it: "1:00", "0:30", or "" for none. @param {number | undefined} ms */
export function formatWarnAt(ms) {
  if (!ms || ms <= 0) return "";
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// MARK: parse

/**
 * Checks a typed value against the board's limits, as the server will.
 * @param {string} field @param {string} text @param {FieldLimits} [limits]
 * @returns {{value: string | number} | {error: string}}
 */
export function parseField(field, text, limits = DEFAULT_LIMITS) {
  if (field === FIELD.title) return parseTitle(text, limits.maxTitleLength);
  if (field === FIELD.warnAt) return parseWarnAt(text, limits);
  const max = field === FIELD.minutes ? limits.maxMinutes : limits.maxSeconds;
  const value = text.trim() === "" ? NaN : Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max) return { error: FIELD_ERRORS.number(field, max) };
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
  if (!match || seconds > 59 || minutes > limits.maxMinutes) return { error: FIELD_ERRORS.warnAt(limits.maxMinutes) };
  return { value: (minutes * 60 + seconds) * 1000 };
}

/** @param {string} text @param {number} maxLength @returns {{value: string} | {error: string}} */
export function parseTitle(text, maxLength) {
  const value = text.trim();
  if (!value) return { error: FIELD_ERRORS.emptyTitle };
  if ([...value].length > maxLength) return { error: FIELD_ERRORS.longTitle(maxLength) };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return { error: FIELD_ERRORS.controlCharacters };
  return { value };
}
