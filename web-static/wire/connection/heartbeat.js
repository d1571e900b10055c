// @ts-check
// Keeping a joined socket alive and the server's clock measured: a ping every PING_INTERVAL_MS
// (proxies then keep an idle socket, and a dead one is noticed: no pong within PONG_TIMEOUT_MS),
// and after each join, or when asked, a clock sync: CLOCK_SYNC_PINGS pings one after another, each
// sent when the previous one's pong came, so none waits behind another. Every pong is a sample of
// the server's clock (clock.js).

import { CLOCK_SYNC_PINGS, PING_INTERVAL_MS, PONG_TIMEOUT_MS } from "../constants.js";
import { pingMessage } from "../protocol.js";
import { Timers } from "./timers.js";

export class Heartbeat {
  /**
   * @param {{
   *   env: import("./timers.js").TimerEnvironment,
   *   clock: import("../clock.js").ServerClock,
   *   send: (message: object) => boolean,
   *   live: () => boolean,
   *   onDead: () => void,
   * }} options
   *   onDead: a ping went unanswered: the socket is dead even if the browser has not noticed
   */
  constructor({ env, clock, send, live, onDead }) {
    this.clock = clock;
    this.send = send;
    this.live = live;
    this.onDead = onDead;
    this.timers = new Timers(env);
    /** Pings of the current clock sync still to send, one after each pong. */
    this.syncPings = 0;
  }

  /** The board is live: beat, and (after what the join replays has gone out) measure the clock. */
  joined() {
    if (!this.timers.has("ping")) this.#schedulePing();
    this.timers.start("sync", 0, () => this.syncClock());
  }

  /**
   * Measures the server's clock again, with a few pings one after another: on each join, and when
   * the page becomes visible again (its clock may have been paused while the computer slept).
   * Until a new pong arrives, the old estimate stays in use. Not live: the next join does it.
   */
  syncClock() {
    this.clock.resync();
    this.syncPings = CLOCK_SYNC_PINGS;
    this.#syncPing();
  }

  /** @param {{t: number, serverTime: number}} pong */
  pong({ t, serverTime }) {
    this.timers.clear("pong");
    this.clock.addSample(t, serverTime);
    this.#syncPing();
  }

  /** The socket is gone. */
  stop() {
    this.timers.clearAll();
  }

  #schedulePing() {
    this.timers.start("ping", PING_INTERVAL_MS, () => {
      if (!this.send(pingMessage(this.clock.now()))) return;
      this.timers.start("pong", PONG_TIMEOUT_MS, this.onDead);
      this.#schedulePing();
    });
  }

  /** The next ping of a clock sync, if any. */
  #syncPing() {
    if (this.syncPings <= 0 || !this.live()) return;
    if (this.send(pingMessage(this.clock.now()))) this.syncPings -= 1;
  }
}
