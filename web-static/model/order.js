// @ts-check
// Fractional order keys (docs/protocol.md, "Changes"): the client computes one for an item it adds
// or moves, so the item shows in place at once; the server computes its own and the server's key
// wins when the change comes back. Pure. Mirrors Sources/BoardCore/OrderKey.swift and the
// server's position rules, so an optimistic position is almost always the final one.

import { ORDER_DIGITS, POSITION } from "../wire/constants.js";

const ZERO = ORDER_DIGITS[0];

const SMALLEST_INTEGER = "A" + ZERO.repeat(26);

/**
 * A key strictly between `lower` and `upper`; null means the start or the end. Keys have the form
 * the server writes (an integer part whose head letter gives its length, then a fraction), so
 * adding at either end stays short. Bounds the server would re-key (not of that form, equal or
 * inverted) give a key after `lower`: the server's own key wins when the change comes back.
 * @param {string | null} lower
 * @param {string | null} upper
 * @returns {string}
 */
export function keyBetween(lower, upper) {
  if (lower !== null && !isCanonical(lower)) return upper !== null && isCanonical(upper) ? keyBetween(null, upper) : lower + "V";
  if (upper !== null && !isCanonical(upper)) upper = null;
  if (lower !== null && upper !== null && lower >= upper) upper = null;
  return generateKeyBetween(lower, upper);
}

/**
 * True for a key of the server's form (docs/protocol.md, "Order keys").
 * @param {string} key
 */
export function isCanonical(key) {
  if (key.length === 0 || key.length > 128 || [...key].some((c) => !ORDER_DIGITS.includes(c))) return false;
  const length = integerLength(key[0]);
  if (length === null || length > key.length) return false;
  if (key.length === length) return key !== SMALLEST_INTEGER;
  return key[key.length - 1] !== ZERO;
}

/** @param {string} head */
function integerLength(head) {
  if (head >= "a" && head <= "z") return head.charCodeAt(0) - 97 + 2;
  if (head >= "A" && head <= "Z") return 90 - head.charCodeAt(0) + 2;
  return null;
}

/**
 * A port of `generateKeyBetween` from the fractional-indexing library (CC0); both bounds canonical.
 * @param {string | null} a
 * @param {string | null} b
 * @returns {string}
 */
function generateKeyBetween(a, b) {
  if (a === null) {
    if (b === null) return "a" + ZERO;
    const ib = b.slice(0, /** @type {number} */ (integerLength(b[0])));
    if (ib === SMALLEST_INTEGER) return ib + midpoint("", b.slice(ib.length));
    if (ib.length < b.length) return ib;
    return /** @type {string} */ (decrementInteger(ib));
  }
  const ia = a.slice(0, /** @type {number} */ (integerLength(a[0])));
  const fa = a.slice(ia.length);
  if (b === null) return incrementInteger(ia) ?? ia + midpoint(fa, null);
  const ib = b.slice(0, /** @type {number} */ (integerLength(b[0])));
  if (ia === ib) return ia + midpoint(fa, b.slice(ib.length));
  const next = incrementInteger(ia);
  return next !== null && next < b ? next : ia + midpoint(fa, null);
}

/** @param {string} x @returns {string | null} */
function incrementInteger(x) {
  const digits = x.slice(1).split("");
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    const value = ORDER_DIGITS.indexOf(digits[i]) + 1;
    if (value < ORDER_DIGITS.length) {
      digits[i] = ORDER_DIGITS[value];
      return x[0] + digits.join("");
    }
    digits[i] = ZERO;
  }
  if (x[0] === "Z") return "a" + ZERO;
  if (x[0] === "z") return null;
  const head = String.fromCharCode(x.charCodeAt(0) + 1);
  if (head > "a") digits.push(ZERO);
  else digits.pop();
  return head + digits.join("");
}

/** @param {string} x @returns {string | null} */
function decrementInteger(x) {
  const top = ORDER_DIGITS[ORDER_DIGITS.length - 1];
  const digits = x.slice(1).split("");
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    const value = ORDER_DIGITS.indexOf(digits[i]) - 1;
    if (value >= 0) {
      digits[i] = ORDER_DIGITS[value];
      return x[0] + digits.join("");
    }
    digits[i] = top;
  }
  if (x[0] === "a") return "Z" + top;
  if (x[0] === "A") return null;
  const head = String.fromCharCode(x.charCodeAt(0) - 1);
  if (head < "Z") digits.push(top);
  else digits.pop();
  return head + digits.join("");
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
 * @param {import("../wire/protocol.js").Position} position
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
