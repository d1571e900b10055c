// @ts-check
// How long to wait before trying again: after a lost socket or a failed join (exponential, capped,
// jittered down), and before resending an edit the server refused as rate_limited (what it asked,
// jittered up). Pure.

import { BACKOFF_BASE_MS, BACKOFF_JITTER, BACKOFF_MAX_MS, RATE_LIMIT_DEFAULT_RETRY_MS, RATE_LIMIT_JITTER } from "../constants.js";

/** The delay before reconnect attempt `attempt` (1, 2, …): exponential, capped, jittered down. */
export function backoffDelay(/** @type {number} */ attempt, /** @type {number} */ random) {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  // Random spread, so the clients of a restarted server do not all come back at the same instant.
  return Math.round(ceiling * (1 - BACKOFF_JITTER * random));
}

/**
 * The wait before sending a rate_limited edit again: what the server asked, jittered up, so the
 * edit is never early and pages limited together do not all come back at once.
 * @param {number | undefined} retryAfterMs @param {number} random
 */
export function retryDelay(retryAfterMs, random) {
  const asked = retryAfterMs !== undefined && retryAfterMs >= 0 ? retryAfterMs : RATE_LIMIT_DEFAULT_RETRY_MS;
  return Math.ceil(asked * (1 + RATE_LIMIT_JITTER * random));
}
