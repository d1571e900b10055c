// @ts-check
// What this page tells the others through presence: what the user edits (a section or timer id,
// or null), at once when it changed, and this screen's clock bound (`clockError`) when it first has
// one and whenever it moved by more than CLOCK_ERROR_STEP_MS, at most once per
// CLOCK_ERROR_INTERVAL_MS (a bound alone waits out the rest of the interval). Both ride in one
// presence message; `editing` is always sent, as it is. The server forgets both at each join.

import { CLOCK_ERROR_INTERVAL_MS, CLOCK_ERROR_STEP_MS } from "../constants.js";
import { presenceMessage } from "../protocol.js";
import { Timers } from "./timers.js";

export class PresenceTeller {
  /**
   * @param {{
   *   env: import("./timers.js").TimerEnvironment & {now: () => number},
   *   send: (message: object) => boolean,
   *   live: () => boolean,
   *   viewer: () => boolean,
   *   bound: () => number | null,
   * }} options
   *   live: whether the board is joined; viewer: a view link tells its clock only (editing null);
   *   bound: the clock's ± bound now, in whole ms (null before the first pong)
   */
  constructor({ env, send, live, viewer, bound }) {
    this.env = env;
    this.send = send;
    this.live = live;
    this.viewer = viewer;
    this.bound = bound;
    this.timers = new Timers(env);
    /** The section or timer the user edits. */
    this.editing = /** @type {string | null} */ (null);
    /** What the server was last told the user edits, on this join. */
    this.toldEditing = /** @type {string | null} */ (null);
    /** The bound last told on this join (null: not yet), and when (env.now()). */
    this.toldClockError = /** @type {number | null} */ (null);
    this.clockErrorAt = -Infinity;
  }

  /** A bound waits for the interval to pass. */
  get waiting() {
    return this.timers.has("clock");
  }

  /** @param {string | null} id what the user edits now */
  setEditing(id) {
    this.editing = id;
    this.tell();
  }

  /** A join: the server forgot what we told it. */
  forget() {
    this.toldEditing = null;
    this.toldClockError = null;
  }

  /** The socket is gone. */
  stop() {
    this.timers.clearAll();
  }

  /** Tells what is due now; a bound that must wait goes out when the interval is over (or with an editing change before). */
  tell() {
    if (!this.live()) return;
    // A view link edits nothing: it may only tell its clock, with `editing` null (anything else is `forbidden`).
    const editing = this.viewer() ? null : this.editing;
    const bound = this.bound();
    const clockDue = bound !== null && (this.toldClockError === null || Math.abs(bound - this.toldClockError) > CLOCK_ERROR_STEP_MS);
    const now = this.env.now();
    const clockWait = clockDue ? this.clockErrorAt + CLOCK_ERROR_INTERVAL_MS - now : Infinity;
    const clockError = clockDue && clockWait <= 0 ? /** @type {number} */ (bound) : undefined;
    if (editing !== this.toldEditing || clockError !== undefined) {
      if (!this.send(presenceMessage(editing, clockError))) return;
      this.toldEditing = editing;
      if (clockError !== undefined) {
        this.toldClockError = clockError;
        this.clockErrorAt = now;
        this.timers.clear("clock");
      }
    }
    if (clockDue && clockError === undefined && !this.waiting) this.timers.start("clock", clockWait, () => this.tell());
  }
}
