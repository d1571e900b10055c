// @ts-check
// Ids this page makes: a section's or timer's (the client chooses them, so an added item shows at
// once and the server's insert matches it), and the client id that keys idempotent resends.

import { BASE62, ID_PATTERN, ID_PREFIX, ID_RANDOM_LENGTH, KIND } from "./constants.js";

/** @typedef {import("./protocol.js").Kind} Kind */

/**
 * A random id: prefix + ID_RANDOM_LENGTH base62 characters from the platform's CSPRNG, so ids
 * chosen by different browsers do not collide (the server would refuse a duplicate).
 * @param {string} prefix
 */
export function randomId(prefix) {
  let text = prefix;
  while (text.length < prefix.length + ID_RANDOM_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(ID_RANDOM_LENGTH))) {
      // 248 = 4 × 62: dropping the bytes above it keeps every character equally likely.
      if (byte < 248 && text.length < prefix.length + ID_RANDOM_LENGTH) text += BASE62[byte % 62];
    }
  }
  return text;
}

/** @param {Kind} kind */
export function newEntityId(kind) {
  return randomId(kind === KIND.section ? ID_PREFIX.section : ID_PREFIX.timer);
}

/** A fresh client id per page load: the server deduplicates resent edits by (clientId, opId). */
export function newClientId() {
  return randomId(ID_PREFIX.client);
}

/** @param {unknown} id */
export function isValidId(id) {
  return typeof id === "string" && ID_PATTERN.test(id);
}

