// @ts-check
// The server's clock, as this page estimates it from ping/pong round trips (docs/protocol.md,
// "Timers that run"). Countdowns are drawn with it, so every screen shows the same remaining time
// whatever its own clock says. Pure: no socket, no DOM; the local clock is injectable so tests can
// skew it. The connection's heartbeat feeds it samples; countdowns read `serverNow()`.
//
// A pong's `serverTime` was read somewhere between the ping leaving (local t0) and the pong
// arriving (local t1), so `serverTime - (t0 + t1) / 2` is the offset, wrong by at most half the
// round trip. The tightest sample is kept. A kept sample slowly loses trust (two clocks drift
// apart), so a fresh sample with a slightly longer round trip eventually replaces an old one: the
// heartbeat's pings keep the estimate current. After `resync()` (the page was hidden or
// asleep, or the socket is new) the old sample is not trusted at all: the next sample replaces it.

import { CLOCK_DRIFT_RATE, CLOCK_ERROR_MAX_MS } from "./constants.js";

/**
 * This page's clock in milliseconds since 1970: the page's start time plus a monotonic counter,
 * so setting the computer's clock while the page is open does not move countdowns (a sleep can
 * still pause the counter in some browsers; the page resyncs when it becomes visible again).
 */
export function localNow() {
  return performance.timeOrigin + performance.now();
}

/** @typedef {{offset: number, roundTrip: number, at: number}} ClockSample  offset = server - local; `at` = local receive time */

export class ServerClock {
  /**
   * @param {{now?: () => number, driftRate?: number}} [options]
   *   now: the local clock (ms); driftRate: how fast a kept sample loses trust, in ms per ms of age
   */
  constructor({ now = localNow, driftRate = CLOCK_DRIFT_RATE } = {}) {
    this.now = now;
    this.driftRate = driftRate;
    /** @type {ClockSample | null} the sample in use; null before the first pong */
    this.best = null;
    /** After resync(): the next sample replaces `best` whatever its round trip. */
    this.stale = false;
    /** Called after the offset changed, so countdowns can be redrawn. */
    this.onChange = (/** @type {number} */ _offset) => {};
  }

  /** Server clock minus local clock, in ms; 0 until the first sample (the local clock is the best guess then). */
  get offset() {
    return this.best?.offset ?? 0;
  }

  /** True once a pong has been measured. */
  get synced() {
    return this.best !== null;
  }

  /** The server's clock now, in ms since 1970. */
  serverNow() {
    return this.now() + this.offset;
  }

  /**
   * How far `serverNow()` can be from the truth at local time `at`: half the kept round trip, plus
   * what the clocks may have drifted since. Infinity before the first sample.
   * @param {number} [at]
   */
  uncertainty(at = this.now()) {
    if (!this.best) return Infinity;
    return this.best.roundTrip / 2 + Math.max(0, at - this.best.at) * this.driftRate;
  }

  /**
   * The ± bound this screen tells the others (presence `clockError`): half the kept sample's round
   * trip, rounded up to whole ms and capped; null before the first pong.
   * @returns {number | null}
   */
  errorBound() {
    return this.best ? Math.min(CLOCK_ERROR_MAX_MS, Math.ceil(this.best.roundTrip / 2)) : null;
  }

  /**
   * One round trip: the ping's local send time `t0` (echoed by the pong as `t`), the pong's
   * `serverTime`, and the local receive time `t1`. Returns true if the sample is now the one in use.
   * @param {number} t0 @param {number} serverTime @param {number} [t1]
   */
  addSample(t0, serverTime, t1 = this.now()) {
    const roundTrip = t1 - t0;
    // A negative or absurd round trip is a pong of some other ping (or a clock set back): ignore it.
    if (!Number.isFinite(roundTrip) || !Number.isFinite(serverTime) || roundTrip < 0) return false;
    if (!this.stale && this.best && roundTrip / 2 >= this.uncertainty(t1)) return false;
    const previous = this.offset;
    this.best = { offset: serverTime - (t0 + t1) / 2, roundTrip, at: t1 };
    this.stale = false;
    if (this.best.offset !== previous) this.onChange(this.best.offset);
    return true;
  }

  /**
   * Distrust the kept sample: the next one replaces it. Until then the old offset stays in use, so
   * countdowns do not jump while the new pings are on their way.
   */
  resync() {
    if (this.best) this.stale = true;
  }
}
