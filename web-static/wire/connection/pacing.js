// @ts-check
// Edits after a rate limit. An edit over the connection's budget is answered `rate_limited` with
// `retryAfterMs`: nothing changed, and the same edit (same opId) is applied when sent again. So it
// stays pending, in its place, and goes out again after the wait (jittered). Order is kept: from
// that reject on, no edit goes out during the wait, and after it edits go out one at a time, each
// once the one before is answered, until none is left unanswered; so no later edit can reach the
// server before an earlier limited one. (Edits already on their way when the first limit came are
// answered by the server as they arrive; a token that refilled meanwhile can let one of them in
// before the limited one: the protocol gives a client no way to prevent that.) The page hears of
// limits only once edits have been held back for RATE_LIMIT_WARN_MS.

import { RATE_LIMIT_DEFAULT_RETRY_MS, RATE_LIMIT_JITTER, RATE_LIMIT_WARN_MS } from "../constants.js";
import { Timers } from "./timers.js";

/**
 * The wait before sending a rate_limited edit again: what the server asked, jittered up, so the
 * edit is never early and pages limited together do not all come back at once.
 * @param {number | undefined} retryAfterMs @param {number} random
 */
export function retryDelay(retryAfterMs, random) {
  const asked = retryAfterMs !== undefined && retryAfterMs >= 0 ? retryAfterMs : RATE_LIMIT_DEFAULT_RETRY_MS;
  return Math.ceil(asked * (1 + RATE_LIMIT_JITTER * random));
}

export class EditPacing {
  /**
   * @param {{
   *   env: import("./timers.js").TimerEnvironment & {now: () => number, random: () => number},
   *   onRetry: () => void,
   *   onSlowed: (heldMs: number) => void,
   * }} options
   *   onRetry: the wait is over, the next edit may go; onSlowed: edits have been held back for
   *   `heldMs` (at least RATE_LIMIT_WARN_MS), once a streak
   */
  constructor({ env, onRetry, onSlowed }) {
    this.env = env;
    this.onRetry = onRetry;
    this.onSlowed = onSlowed;
    this.timers = new Timers(env);
    /** Edits go out one at a time (a limit came on this socket and not everything is answered yet). */
    this.paced = false;
    /** When the current streak of limits began (env.now()), or null: none. */
    this.since = /** @type {number | null} */ (null);
    /** Whether the page was told of this streak. */
    this.told = false;
  }

  /** A limited edit waits out its retryAfterMs: no edit goes out. */
  get waiting() {
    return this.timers.has("retry");
  }

  /** A new socket (a budget of its own on the server), or every edit went out and was answered. */
  reset() {
    this.paced = false;
    this.since = null;
    this.told = false;
  }

  /** The socket is gone. */
  stop() {
    this.timers.clearAll();
  }

  /** @param {number | undefined} retryAfterMs what the server asked of a rate_limited edit */
  limited(retryAfterMs) {
    const now = this.env.now();
    this.paced = true;
    this.since ??= now;
    // The first limit sets the wait; limits of edits sent before it arrive during that wait.
    if (!this.waiting) this.timers.start("retry", retryDelay(retryAfterMs, this.env.random()), this.onRetry);
    if (!this.told && now - this.since >= RATE_LIMIT_WARN_MS) {
      this.told = true;
      this.onSlowed(now - this.since);
    }
  }
}
