// @ts-check
// clock.js: estimating the server's clock from ping/pong round trips, with local clocks that are
// skewed on purpose; and the connection feeding it (a burst of pings on join, one after each pong).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { ServerClock } from "../../web-static/wire/clock.js";
import { CLOCK_DRIFT_RATE, CLOCK_SYNC_PINGS, PING_INTERVAL_MS } from "../../web-static/wire/constants.js";
import { Connection } from "../../web-static/wire/connection/connection.js";

const FIXTURES = new URL("../../Tests/Fixtures/protocol/", import.meta.url);
/** @param {string} path */
const fixture = (path) => JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8"));

/**
 * A world with one true time: the server's clock reads it exactly, each client's clock reads it
 * plus its skew. A round trip takes `up` ms to the server and `down` ms back.
 */
function world() {
  let real = 1_763_740_800_000;
  return {
    real: () => real,
    /** @param {number} ms */
    advance(ms) { real += ms; },
    /** A client clock `skew` ms off the truth. @param {number} skew */
    client(skew) {
      return new ServerClock({ now: () => real + skew });
    },
    /**
     * One ping/pong between `clock` and the server.
     * @param {ServerClock} clock @param {number} up @param {number} down
     */
    roundTrip(clock, up, down) {
      const t0 = clock.now();
      real += up;
      const serverTime = real;
      real += down;
      return clock.addSample(t0, serverTime);
    },
  };
}

describe("ServerClock", () => {
  test("before any pong: the local clock is the best guess", () => {
    const clock = new ServerClock({ now: () => 1000 });
    assert.equal(clock.synced, false);
    assert.equal(clock.offset, 0);
    assert.equal(clock.serverNow(), 1000);
    assert.equal(clock.uncertainty(), Infinity);
  });

  test("the pong fixture: offset = serverTime - (t0 + t1) / 2", () => {
    const pong = fixture("server/pong.json");
    const clock = new ServerClock({ now: () => pong.t + 20 });
    assert.equal(clock.addSample(pong.t, pong.serverTime), true);
    assert.equal(clock.offset, pong.serverTime - (pong.t + pong.t + 20) / 2);
    assert.equal(clock.uncertainty(), 10);
  });

  test("the sample with the lowest round trip wins", () => {
    const w = world();
    const clock = w.client(5000);
    assert.equal(w.roundTrip(clock, 30, 10), true, "the first sample is taken");
    const first = clock.offset;
    // 40 ms round trip, asymmetric: the estimate is 10 ms off.
    assert.equal(Math.abs(clock.serverNow() - w.real()), 10);
    assert.equal(w.roundTrip(clock, 2, 2), true, "a shorter round trip replaces it");
    assert.notEqual(clock.offset, first);
    assert.equal(clock.serverNow(), w.real(), "a symmetric 4 ms round trip is exact");
    const best = clock.offset;
    assert.equal(w.roundTrip(clock, 50, 0), false, "a longer one is ignored");
    assert.equal(w.roundTrip(clock, 3, 3), false);
    assert.equal(clock.offset, best);
    assert.equal(clock.best?.roundTrip, 4);
  });

  test("clocks skewed either way agree on the server's time, within half their round trip", () => {
    const w = world();
    const clocks = [-7000, 0, 3, 12_345].map((skew) => w.client(skew));
    const trips = [[8, 2], [1, 5], [4, 4], [3, 1]];
    for (const clock of clocks) for (const [up, down] of trips) w.roundTrip(clock, up, down);
    w.advance(60_000);
    for (const clock of clocks) {
      assert.ok(Math.abs(clock.serverNow() - w.real()) <= clock.uncertainty(), `off by ${clock.serverNow() - w.real()}`);
      assert.ok(Math.abs(clock.serverNow() - w.real()) <= 2, "the best trip (3 up, 1 down) is 1 ms off");
    }
    const readings = clocks.map((c) => c.serverNow());
    assert.ok(Math.max(...readings) - Math.min(...readings) <= 4, `readings ${readings}`);
  });

  test("resync: the next sample replaces the kept one whatever its round trip, then the lowest wins again", () => {
    const w = world();
    const clock = w.client(0);
    w.roundTrip(clock, 1, 1);
    clock.resync();
    // The computer slept and its clock lost 9 s: the old, tight sample is now wrong.
    const slept = w.client(-9000);
    slept.best = clock.best;
    slept.resync();
    assert.equal(slept.offset, clock.offset, "until a new pong, the old offset stays in use");
    assert.equal(w.roundTrip(slept, 20, 20), true, "a looser sample is taken after resync");
    assert.equal(slept.serverNow(), w.real());
    assert.equal(w.roundTrip(slept, 30, 30), false, "then the kept one wins over a looser one");
    assert.equal(w.roundTrip(slept, 5, 5), true, "and a tighter one wins");
    assert.equal(slept.best?.roundTrip, 10);
  });

  test("resync before any sample changes nothing", () => {
    const clock = new ServerClock({ now: () => 0 });
    clock.resync();
    assert.equal(clock.stale, false);
    assert.equal(clock.offset, 0);
  });

  test("a kept sample loses trust with age, so the heartbeat's pings keep the estimate fresh", () => {
    const w = world();
    const clock = w.client(100);
    w.roundTrip(clock, 1, 1);
    assert.equal(w.roundTrip(clock, 3, 3), false, "a 6 ms trip right after a 2 ms one");
    // After long enough, 2 ms more of possible drift makes the 6 ms trip the tighter bound.
    w.advance(2 / CLOCK_DRIFT_RATE + 1);
    assert.equal(w.roundTrip(clock, 3, 3), true);
    assert.equal(clock.best?.roundTrip, 6);
  });

  test("a pong that does not fit (negative round trip, no time) is ignored", () => {
    const clock = new ServerClock({ now: () => 1000 });
    assert.equal(clock.addSample(1010, 5000), false);
    assert.equal(clock.addSample(990, NaN), false);
    assert.equal(clock.synced, false);
  });

  test("onChange is told each new offset", () => {
    const w = world();
    const clock = w.client(250);
    /** @type {number[]} */
    const offsets = [];
    clock.onChange = (offset) => offsets.push(offset);
    w.roundTrip(clock, 2, 2);
    w.roundTrip(clock, 9, 9);
    w.roundTrip(clock, 1, 1);
    assert.deepEqual(offsets, [-250]);
  });
});

// MARK: the socket feeds the clock

/**
 * A Connection over a fake socket whose server answers pings at once with the true time; the page's
 * clock is `skew` ms off. The network takes `latency` ms each way.
 * @param {number} skew
 */
function session(skew, latency = 3) {
  const w = world();
  /** @type {any[]} */
  const sockets = [];
  class FakeSocket {
    static OPEN = 1;
    constructor() {
      this.readyState = 0;
      /** @type {any[]} */ this.sent = [];
      /** @type {any[]} */ this.pongs = [];
      /** @type {any} */ this.onopen = null;
      /** @type {any} */ this.onmessage = null;
      /** @type {any} */ this.onclose = null;
      /** @type {any} */ this.onerror = null;
      sockets.push(this);
    }
    /** @param {string} text */
    send(text) {
      const message = JSON.parse(text);
      this.sent.push(message);
      // The server reads its clock when the ping arrives; the pong waits in `pongs` until delivered.
      if (message.type === "ping") this.pongs.push({ type: "pong", t: message.t, serverTime: w.real() + latency });
    }
    close() { this.readyState = 3; }
    /** @param {object} message */
    receive(message) { this.onmessage?.({ data: JSON.stringify(message) }); }
    /** Delivers the pongs waiting now (not those of pings they cause), a round trip later. */
    deliverPongs() {
      for (const pong of this.pongs.splice(0)) {
        w.advance(2 * latency);
        this.receive(pong);
      }
    }
  }
  /** @type {{due: number, action: () => void, cancelled: boolean}[]} */
  const timers = [];
  const clock = w.client(skew);
  const connection = new Connection({
    url: "ws://test/ws",
    board: "kT3vQ9mZ2pXa",
    clientId: "web-test",
    clock,
    env: {
      WebSocket: /** @type {any} */ (FakeSocket),
      setTimeout: (action, ms) => {
        const timer = { due: w.real() + ms, action, cancelled: false };
        timers.push(timer);
        return timer;
      },
      clearTimeout: (timer) => { if (timer) timer.cancelled = true; },
      random: () => 0.5,
    },
    handler: {
      welcome() {},
      since: () => null,
      snapshot() {},
      changes: () => "applied",
      ack() {},
      reject() {},
      serverError() {},
      presence() {},
      unackedEdits: () => [],
      status() {},
    },
  });
  /** Runs the timers that are due now. */
  const runDue = () => {
    for (const timer of timers.filter((t) => !t.cancelled && t.due <= w.real())) {
      timer.cancelled = true;
      timer.action();
    }
  };
  const socket = () => sockets[sockets.length - 1];
  const handshake = () => {
    connection.start();
    socket().readyState = 1;
    socket().onopen();
    socket().receive(fixture("server/welcome.json"));
    socket().receive(fixture("server/snapshot.json"));
  };
  const pings = () => socket().sent.filter((/** @type {any} */ m) => m.type === "ping");
  return { w, clock, connection, socket, handshake, runDue, pings };
}

describe("Connection and ServerClock", () => {
  test("after the join, a burst of pings, one after each pong, syncs a skewed clock", () => {
    const s = session(-42_000);
    s.handshake();
    assert.equal(s.pings().length, 0, "nothing before what the join replays");
    s.runDue();
    assert.equal(s.pings().length, 1, "one ping at a time");
    assert.equal(s.pings()[0].t, s.clock.now(), "pings carry the clock's local time");
    for (let i = 1; i < CLOCK_SYNC_PINGS; i += 1) {
      s.socket().deliverPongs();
      assert.equal(s.pings().length, i + 1);
    }
    s.socket().deliverPongs();
    assert.equal(s.pings().length, CLOCK_SYNC_PINGS, "the burst ends");
    assert.equal(s.clock.synced, true);
    assert.equal(s.clock.serverNow(), s.w.real(), "symmetric latency: exact, whatever the skew");
    assert.equal(s.connection.clock.offset, 42_000);
  });

  test("two pages with different clocks read the same server time", () => {
    const pages = [session(0), session(9_000, 1), session(-3_500, 7)];
    for (const page of pages) {
      page.handshake();
      page.runDue();
      for (let i = 0; i < CLOCK_SYNC_PINGS; i += 1) page.socket().deliverPongs();
    }
    for (const page of pages) assert.equal(page.clock.serverNow(), page.w.real());
  });

  test("syncClock (page visible again): a new burst whose first pong replaces the old sample", () => {
    const s = session(1000);
    s.handshake();
    s.runDue();
    for (let i = 0; i < CLOCK_SYNC_PINGS; i += 1) s.socket().deliverPongs();
    // The page was hidden and the computer slept: its clock is now 5 s behind where it was.
    s.clock.now = () => s.w.real() + 1000 - 5000;
    assert.notEqual(s.clock.serverNow(), s.w.real());
    s.connection.syncClock();
    assert.equal(s.pings().length, CLOCK_SYNC_PINGS + 1);
    s.socket().deliverPongs();
    assert.equal(s.clock.serverNow(), s.w.real());
  });

  test("the heartbeat's pings feed the clock too", () => {
    const s = session(77);
    s.connection.heartbeat.syncClock = () => {}; // no burst: only the heartbeat pings
    s.handshake();
    s.w.advance(PING_INTERVAL_MS);
    s.runDue();
    assert.equal(s.pings().length, 1);
    assert.equal(s.clock.synced, false);
    s.socket().deliverPongs();
    assert.equal(s.clock.synced, true);
    assert.equal(s.clock.serverNow(), s.w.real());
  });

  test("no ping before the session is live (the server wants hello first)", () => {
    const s = session(0);
    s.connection.start();
    s.connection.syncClock();
    assert.deepEqual(s.socket().sent, []);
  });
});
