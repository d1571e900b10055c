// @ts-check
// Wall-clock times in the board's time zone (docs/protocol.md, "Time of day"), whatever the zone
// of the screen: instants (server epoch ms) to "14:02:11", to an <input type=datetime-local>'s
// value, and such a value back to an instant. Pure: Intl.DateTimeFormat with `timeZone` does the
// zone's rules (daylight saving included); nothing here reads the screen's own zone unless asked.

import { DEFAULT_TIME_ZONE } from "../wire/constants.js";

/** @type {Map<string, Intl.DateTimeFormat>} made once per zone and shape: they are slow to make */
const FORMATS = new Map();

/** @param {string} zone @param {boolean} seconds @param {boolean} date */
function format(zone, seconds, date) {
  const key = `${zone} ${seconds} ${date}`;
  let made = FORMATS.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone, hourCycle: "h23", hour: "2-digit", minute: "2-digit",
      ...(seconds ? { second: "2-digit" } : {}), ...(date ? { year: "numeric", month: "2-digit", day: "2-digit" } : {}),
    });
    FORMATS.set(key, made);
  }
  return made;
}

/** Whether `zone` is an IANA zone this browser knows. @param {unknown} zone */
export function isKnownZone(zone) {
  if (typeof zone !== "string" || zone === "") return false;
  try {
    format(zone, false, false);
    return true;
  } catch {
    return false;
  }
}

/** The board's zone, or UTC when it names none this browser knows. @param {{timeZone?: string}} display */
export function boardZone(display) {
  return isKnownZone(display.timeZone) ? /** @type {string} */ (display.timeZone) : DEFAULT_TIME_ZONE;
}

/** This screen's own zone (the default of a board it creates). */
export function screenZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE;
}

/** "14:02:11" (or "14:02" without seconds) at instant `ms` in `zone`. @param {number} ms @param {string} zone @param {{seconds?: boolean}} [options] */
export function formatWallTime(ms, zone, { seconds = true } = {}) {
  return format(zone, seconds, false).format(ms);
}

/** @param {number} ms @param {string} zone @returns {Record<string, number>} year, month, day, hour, minute, second there */
function partsAt(ms, zone) {
  /** @type {Record<string, number>} */
  const parts = {};
  for (const { type, value } of format(zone, true, true).formatToParts(ms)) if (type !== "literal") parts[type] = Number(value);
  return parts;
}

/** How far `zone`'s wall clock is ahead of UTC at instant `ms`, in ms. @param {number} ms @param {string} zone */
export function zoneOffset(ms, zone) {
  const p = partsAt(ms, zone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** "2026-11-26T09:00": the value of an <input type=datetime-local> for instant `ms` in `zone`. @param {number} ms @param {string} zone */
export function wallInputValue(ms, zone) {
  const p = partsAt(ms, zone);
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${String(p.year).padStart(4, "0")}-${two(p.month)}-${two(p.day)}T${two(p.hour % 24)}:${two(p.minute)}`;
}

/**
 * The instant of a wall-clock time in `zone`: an <input type=datetime-local>'s value
 * ("2026-11-26T09:00"), or null when it is not one. A time that a clock change skips is read with
 * the offset before the change.
 * @param {string} value @param {string} zone @returns {number | null}
 */
export function instantOfWall(value, zone) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((n) => Number(n ?? 0));
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // The offset at a first guess, then at the instant it gives: right across a clock change.
  const guess = wall - zoneOffset(wall, zone);
  return wall - zoneOffset(guess, zone);
}
