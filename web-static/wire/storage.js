// @ts-check
// What this device remembers in localStorage: the user's display name, its settings and the boards
// opened here (whose list model/board_list.js keeps). Storage can be disabled or hold garbage; every
// reader copes.

import { GUEST_NAME_PREFIX, NAME_KEY, NAME_MAX_LENGTH } from "./constants.js";

/** @param {string} key @returns {string | null} */
export function readStorage(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // Storage can be disabled; the name is then a guest name per page load.
  }
}

/** @param {string} key @param {string} value */
export function writeStorage(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // As above.
  }
}

// MARK: the user's name

/** The name others see: the one chosen on this device, else a new guest name (kept for next time). */
export function loadName() {
  const stored = cleanName(readStorage(NAME_KEY) ?? "");
  if (stored) return stored;
  const guest = `${GUEST_NAME_PREFIX}${1 + Math.floor(Math.random() * 999)}`;
  writeStorage(NAME_KEY, guest);
  return guest;
}

/** @param {string} name a cleaned name (cleanName) */
export function saveName(name) {
  writeStorage(NAME_KEY, name);
}

/** @param {string} text @returns {string} trimmed, without control characters, at most NAME_MAX_LENGTH code points */
export function cleanName(text) {
  // eslint-disable-next-line no-control-regex
  return [...text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim()].slice(0, NAME_MAX_LENGTH).join("").trim();
}
