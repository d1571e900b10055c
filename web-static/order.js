// @ts-check
// Fractional order keys (docs/protocol.md, "Changes"): the client computes one for an item it adds
// or moves, so the item shows in place at once; the server computes its own and the server's key
// wins when the change comes back. Pure. Mirrors Sources/BoardCore/OrderKey.swift and the
// server's position rules, so an optimistic position is almost always the final one.

import { ORDER_DIGITS, POSITION } from "./constants.js";

const ZERO = ORDER_DIGITS[0];

/**
 * A key strictly between `lower` and `upper`; null means the start or the end.
 * Like the server, equal or inverted bounds (a hand-made board) give a key just after `lower`.
 * @param {string | null} lower
 * @param {string | null} upper
 */
export function keyBetween(lower, upper) {
  if (lower !== null && upper !== null && lower >= upper) return midpoint(lower, null);
  return midpoint(lower ?? "", upper);
}

/**
 * A port of `midpoint` from the fractional-indexing library (CC0). `low` may be "" (zero) and
 * `high` null (one); neither ends in the zero digit, and neither does the result.
 * @param {string} low
 * @param {string | null} high
 * @returns {string}
 */
export function midpoint(low, high) {
  if (high !== null) {
    // Drop the common prefix, padding `low` with zeros as we go.
    let n = 0;
    while (n < high.length && (low[n] ?? ZERO) === high[n]) n += 1;
    if (n > 0) return high.slice(0, n) + midpoint(low.slice(n), high.slice(n));
  }
  const digitLow = low ? ORDER_DIGITS.indexOf(low[0]) : 0;
  const digitHigh = high !== null ? (high ? ORDER_DIGITS.indexOf(high[0]) : 0) : ORDER_DIGITS.length;
  if (digitHigh - digitLow > 1) return ORDER_DIGITS[Math.floor((digitLow + digitHigh + 1) / 2)];
  if (high !== null && high.length > 1) return high[0];
  return ORDER_DIGITS[digitLow] + midpoint(low.slice(1), null);
}

/**
 * Display order of siblings: by order key, then by id, both compared as bytes (both are ASCII,
 * so JavaScript's UTF-16 comparison gives the same answer).
 * @param {{id: string, order: string}} a
 * @param {{id: string, order: string}} b
 */
export function compareByOrder(a, b) {
  if (a.order !== b.order) return a.order < b.order ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/**
 * The key for `position` among `siblings` (in display order), ignoring the item being moved,
 * as the server computes it. Null when the position names no sibling or the item itself: the
 * operation does not apply.
 * @param {import("./protocol.js").Position} position
 * @param {{id: string, order: string}[]} siblings in display order
 * @param {string} movingId
 * @returns {string | null}
 */
export function keyForPosition(position, siblings, movingId) {
  const others = siblings.filter((s) => s.id !== movingId);
  /** Between others[index] and others[index + 1]; index -1 is the start. */
  const keyAfter = (/** @type {number} */ index) =>
    keyBetween(index >= 0 ? others[index].order : null, index + 1 < others.length ? others[index + 1].order : null);
  if (position === POSITION.first) return keyAfter(-1);
  if (position === POSITION.last) return keyAfter(others.length - 1);
  if (typeof position !== "object" || position === null) return null;
  const isAfter = Object.hasOwn(position, POSITION.after);
  const anchor = isAfter ? /** @type {{after: string}} */ (position).after : /** @type {{before: string}} */ (position).before;
  if (anchor === movingId) return null;
  const index = others.findIndex((s) => s.id === anchor);
  if (index < 0) return null;
  return keyAfter(isAfter ? index : index - 1);
}
