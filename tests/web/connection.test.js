// @ts-check
// wire/connection/ with a fake WebSocket and a fake clock (no real time passes), driving a real Store.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, mock, test } from "node:test";

import {
  BACKOFF_BASE_MS, BACKOFF_JITTER, BACKOFF_MAX_MS, HANDSHAKE_TIMEOUT_MS, PING_INTERVAL_MS, PONG_TIMEOUT_MS,
  RATE_LIMIT_DEFAULT_RETRY_MS, RATE_LIMIT_JITTER, RATE_LIMIT_WARN_MS,
} from "../../web-static/wire/constants.js";
import * as protocol from "../../web-static/wire/protocol.js";
import { retryDelay } from "../../web-static/wire/connection/pacing.js";
import { backoffDelay } from "../../web-static/wire/connection/socket.js";
import { Connection } from "../../web-static/wire/connection/connection.js";
import { Store } from "../../web-static/model/store.js";

const FIXTURES = new URL("../../Tests/Fixtures/protocol/", import.meta.url);
/** The secret of the fixtures' join (client/join.json). */
const SECRET = "Qm9hcmRTZWNyZXRFZGl0MQ";
/** @param {string} path */
const fixture = (path) => JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8"));

/** A page's session over a fake network; `advance` moves the fake clock and fires due timers. */
/**
 * answerPings: the fake server answers each ping with a pong a millisecond later, as a live one
 * does (for tests that let more than a heartbeat's PING + PONG pass on a live socket).
 */
function harness({ random = 0.5, answerPings = false } = {}) {
  /** @type {FakeSocket[]} */
  const sockets = [];
  class FakeSocket {
    static OPEN = 1;
    /** @param {string} url */
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      /** @type {any[]} */
      this.sent = [];
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
      if (answerPings && message.type === "ping") env.setTimeout(() => this.receive({ type: "pong", t: message.t, serverTime: now }), 1);
    }
    close() { this.readyState = 3; }
    open() { this.readyState = 1; this.onopen?.(); }
    /** @param {object} message */
    receive(message) { this.onmessage?.({ data: JSON.stringify(message) }); }
    drop() { this.readyState = 3; this.onclose?.(); }
    /** The server closes the socket with `code`. @param {number} code */
    closeWith(code) { this.readyState = 3; this.onclose?.({ code }); }
  }

  let now = 1_000_000;
  /** @type {{due: number, action: () => void, cancelled: boolean}[]} */
  const timers = [];
  const env = {
    WebSocket: /** @type {any} */ (FakeSocket),
    setTimeout: (/** @type {() => void} */ action, /** @type {number} */ ms) => {
      const timer = { due: now + ms, action, cancelled: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (/** @type {any} */ timer) => { if (timer) timer.cancelled = true; },
    random: () => random,
    now: () => now,
  };
  /** @param {number} ms */
  const advance = (ms) => {
    const until = now + ms;
    for (;;) {
      const due = timers.filter((t) => !t.cancelled && t.due <= until).sort((a, b) => a.due - b.due)[0];
      if (!due) break;
      due.cancelled = true;
      now = due.due;
      due.action();
    }
    now = until;
  };

  const store = new Store();
  /** @type {{state: string, attempt: number, detail?: {reason: string, message?: string}}[]} */
  const statuses = [];
  /** @type {any[]} */
  const presences = [];
  /** @type {any[]} */
  const accesses = [], resumes = [], renames = [];
  /** @type {string[]} */
  const ended = [];
  /** @type {number[]} how long edits had been held back, each time the handler was told */
  const slowed = [];
  const connection = new Connection({
    url: "ws://test/ws",
    board: "kT3vQ9mZ2pXa",
    secret: SECRET,
    clientId: "web-test",
    name: "Ada",
    env,
    handler: {
      welcome() {},
      access: (m) => accesses.push(m),
      since: () => store.rev,
      snapshot: (m) => store.loadSnapshot(m),
      resume: (m) => resumes.push(m),
      renamed: (m) => renames.push(m),
      ended: (reason) => ended.push(reason),
      changes: (m) => store.applyChangeset(m).status,
      ack: (m) => void store.ack(m.opId, m.rev),
      reject: (m) => void store.reject(m.opId),
      slowed: (ms) => slowed.push(ms),
      serverError() {},
      presence: (m) => presences.push(m),
      unackedEdits: () => store.unackedEdits(),
      status: (s) => statuses.push(s),
    },
  });
  const socket = () => sockets[sockets.length - 1];
  /**
   * Opens the current socket and answers hello and join, the server's way: access, then `answer`.
   * @param {object} answer @param {object} access
   */
  const handshake = (answer = fixture("server/snapshot.json"), access = fixture("server/access.json")) => {
    socket().open();
    socket().receive(fixture("server/welcome.json"));
    socket().receive(access);
    socket().receive(answer);
  };
  /** @param {string} opId @param {any[]} ops */
  const edit = (opId, ops) => {
    store.addEdit(opId, ops, now);
    connection.sendEdit({ opId, ops });
  };
  const sentTypes = () => socket().sent.map((m) => m.type);
  /** The edits sent on the current socket, as [opId, ...]. */
  const sentEdits = () => socket().sent.filter((m) => m.type === "edit").map((m) => m.opId);
  return {
    connection, store, sockets, socket, statuses, presences, accesses, resumes, renames, ended, slowed, advance, handshake, edit,
    sentTypes, sentEdits,
  };
}

const rename = (/** @type {string} */ title) => [protocol.updateSection({ id: "sec-prep", title })];

describe("session", () => {
  test("hello, then join without since, then live on the snapshot", () => {
    const h = harness();
    h.connection.start();
    assert.equal(h.connection.state, "connecting");
    h.socket().open();
    assert.deepStrictEqual(h.socket().sent, [{ type: "hello", protocol: 1, clientId: "web-test", name: "Ada" }]);
    h.socket().receive(fixture("server/welcome.json"));
    assert.deepStrictEqual(h.socket().sent[1], { type: "join", board: "kT3vQ9mZ2pXa", secret: SECRET });
    assert.equal(h.connection.isLive, false);
    h.socket().receive(fixture("server/snapshot.json"));
    assert.equal(h.connection.state, "live");
    assert.equal(h.store.rev, 3);
  });

  test("edits go out at once while live, and wait while not", () => {
    const h = harness();
    h.connection.start();
    h.edit("1", rename("Early"));
    h.handshake();
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "edit", opId: "1", ops: rename("Early") }, "queued edit sent after the join");
    h.edit("2", rename("Live"));
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "edit", opId: "2", ops: rename("Live") });
    assert.deepEqual(h.sentTypes(), ["hello", "join", "edit", "edit"]);
  });

  test("after a drop: backoff, rejoin with since, resend unacked edits with the same opIds", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.socket().receive(fixture("server/changes-rename-section.json"));
    h.edit("7", rename("Unacked"));
    h.socket().drop();
    assert.deepEqual(h.statuses.at(-1), { state: "reconnecting", attempt: 1, detail: undefined });
    h.edit("8", rename("Offline edit"));
    assert.equal(h.sockets.length, 1);
    h.advance(backoffDelay(1, 0.5) - 1);
    assert.equal(h.sockets.length, 1, "not before the backoff");
    h.advance(1);
    assert.equal(h.sockets.length, 2);
    h.handshake({ type: "resume", board: "kT3vQ9mZ2pXa", since: 4, rev: 4 });
    assert.deepStrictEqual(h.socket().sent.slice(1), [
      { type: "join", board: "kT3vQ9mZ2pXa", secret: SECRET, since: 4 },
      { type: "edit", opId: "7", ops: rename("Unacked") },
      { type: "edit", opId: "8", ops: rename("Offline edit") },
    ]);
    assert.equal(h.connection.state, "live");
    assert.equal(h.connection.attempt, 0);
    // The server had applied 7 before the drop: a duplicate ack settles it.
    h.socket().receive({ type: "changes", rev: 5, changes: [{ update: "section", id: "sec-prep", title: "Unacked" }] });
    h.socket().receive({ type: "ack", opId: "7", rev: 5, duplicate: true });
    assert.deepEqual(h.store.pending.map((e) => e.opId), ["8"]);
  });

  test("reconnect delays grow, are jittered, and are capped", () => {
    assert.equal(backoffDelay(1, 0), BACKOFF_BASE_MS);
    assert.equal(backoffDelay(2, 0), BACKOFF_BASE_MS * 2);
    assert.equal(backoffDelay(1, 1), Math.round(BACKOFF_BASE_MS * (1 - BACKOFF_JITTER)));
    assert.equal(backoffDelay(50, 0), BACKOFF_MAX_MS);
    const h = harness({ random: 0 });
    h.connection.start();
    h.socket().drop();
    h.advance(BACKOFF_BASE_MS);
    h.socket().drop();
    assert.deepEqual(h.statuses.at(-1), { state: "reconnecting", attempt: 2, detail: undefined });
    h.advance(BACKOFF_BASE_MS * 2 - 1);
    assert.equal(h.sockets.length, 2);
    h.advance(1);
    assert.equal(h.sockets.length, 3);
  });

  test("a gap in revisions: rejoin with since, ignore changes until the answer", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.edit("1", [protocol.updateTimer({ id: "tim-eggs", minutes: 8 })]);
    h.socket().receive(fixture("server/changes-toggle-section.json")); // rev 5 after rev 3
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "join", board: "kT3vQ9mZ2pXa", secret: SECRET, since: 3 });
    assert.equal(h.connection.isLive, false);
    h.socket().receive(fixture("server/changes-rename-section.json")); // rev 4, of the old subscription
    assert.equal(h.store.rev, 3, "changes before the resume are ignored");
    h.socket().receive({ type: "resume", board: "kT3vQ9mZ2pXa", since: 3, rev: 5 });
    h.socket().receive(fixture("server/changes-rename-section.json"));
    h.socket().receive(fixture("server/changes-toggle-section.json"));
    assert.equal(h.store.rev, 5);
    assert.equal(h.store.confirmed.sections.get("sec-prep")?.isExpanded, false);
    assert.deepEqual(h.sentTypes(), ["hello", "join", "edit", "join"], "one rejoin; the edit already sent on this socket is not sent again");
  });

  test("a resume from another revision than asked: rejoin for a snapshot", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.socket().drop();
    h.advance(BACKOFF_MAX_MS);
    h.handshake({ type: "resume", board: "kT3vQ9mZ2pXa", since: 2, rev: 4 });
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "join", board: "kT3vQ9mZ2pXa", secret: SECRET });
  });

  test("a silent network drop is noticed within 10 s: a wall screen must not look live longer", () => {
    assert.ok(PING_INTERVAL_MS + PONG_TIMEOUT_MS <= 10_000, `${PING_INTERVAL_MS} + ${PONG_TIMEOUT_MS} ms`);
  });

  test("heartbeat: a ping every interval; no pong in time means a dead socket", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.advance(PING_INTERVAL_MS);
    const ping = h.socket().sent.at(-1);
    assert.equal(ping.type, "ping");
    h.socket().receive({ type: "pong", t: ping.t, serverTime: ping.t + 1000 });
    h.advance(PONG_TIMEOUT_MS);
    assert.equal(h.connection.state, "live", "answered: still live");
    h.advance(PING_INTERVAL_MS - PONG_TIMEOUT_MS);
    assert.equal(h.socket().sent.at(-1).type, "ping");
    h.advance(PONG_TIMEOUT_MS);
    assert.equal(h.connection.state, "reconnecting");
    assert.equal(h.socket().readyState, 3, "the dead socket was closed");
  });

  test("offline stops retrying; online tries at once", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.connection.goOffline();
    assert.equal(h.connection.state, "offline");
    h.advance(BACKOFF_MAX_MS * 10);
    assert.equal(h.sockets.length, 1);
    h.connection.goOnline();
    assert.equal(h.sockets.length, 2);
    assert.equal(h.connection.state, "reconnecting");
  });

  test("board_not_found is final: a wrong link, offline with a reason, no retry", () => {
    const h = harness();
    h.connection.start();
    h.socket().open();
    h.socket().receive(fixture("server/welcome.json"));
    h.socket().receive({ type: "error", code: "board_not_found", message: "no board kT3vQ9mZ2pXa" });
    assert.equal(h.connection.state, "offline");
    assert.deepEqual(h.statuses.at(-1)?.detail, { reason: "wrong-link" });
    assert.deepEqual(h.ended, ["wrong-link"]);
    h.advance(BACKOFF_MAX_MS * 10);
    h.connection.goOnline();
    assert.equal(h.sockets.length, 1);
  });

  test("a malformed message is skipped without breaking the session", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    const warn = mock.method(console, "warn", () => {});
    try {
      h.socket().onmessage?.({ data: "{not json" });
      h.socket().receive({ type: "changes", rev: 4 });
    } finally {
      warn.mock.restore();
    }
    assert.equal(warn.mock.callCount(), 2, "each skipped message is logged");
    h.socket().receive(fixture("server/changes-rename-section.json"));
    assert.equal(h.store.rev, 4);
  });
});

describe("a join that fails (issue 12)", () => {
  /** A live session that then sees a gap (rev 5 after rev 3) and rejoins on the same socket. */
  function rejoining() {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.socket().receive(fixture("server/changes-toggle-section.json"));
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "join", board: "kT3vQ9mZ2pXa", secret: SECRET, since: 3 });
    return h;
  }
  const loading = { type: "error", code: "internal", message: "the board is loading" };

  test("a rejoin on a live socket is not shown as live", () => {
    const h = rejoining();
    assert.equal(h.connection.state, "joining");
    assert.deepEqual(h.statuses.at(-1), { state: "joining", attempt: 0, detail: undefined });
    h.socket().receive({ type: "resume", board: "kT3vQ9mZ2pXa", since: 3, rev: 3 });
    assert.equal(h.connection.state, "live");
  });

  test("a rejoin on a live socket that gets no answer: a new socket after the handshake timeout", () => {
    const h = rejoining();
    h.advance(HANDSHAKE_TIMEOUT_MS - 1);
    assert.equal(h.sockets.length, 1);
    assert.notEqual(h.connection.state, "live");
    h.advance(1);
    assert.equal(h.connection.state, "reconnecting");
    assert.equal(h.sockets[0].readyState, 3, "the silent socket was closed");
    h.advance(backoffDelay(1, 0.5));
    assert.equal(h.sockets.length, 2);
    h.handshake({ type: "resume", board: "kT3vQ9mZ2pXa", since: 3, rev: 3 });
    assert.deepStrictEqual(h.socket().sent[1], { type: "join", board: "kT3vQ9mZ2pXa", secret: SECRET, since: 3 });
    assert.equal(h.connection.state, "live");
  });

  test("an error answer to a rejoin: shown, retried after a growing jittered backoff, then live", () => {
    const h = rejoining();
    h.edit("1", rename("While joining"));
    h.socket().receive(loading);
    assert.equal(h.connection.state, "joining");
    assert.equal(h.statuses.at(-1)?.attempt, 1);
    assert.match(h.statuses.at(-1)?.detail?.message ?? "", /the board is loading/);
    assert.equal(h.statuses.at(-1)?.detail?.reason, "join-failed");
    assert.equal(h.connection.isLive, false);
    h.advance(backoffDelay(1, 0.5) - 1);
    assert.deepEqual(h.sentTypes(), ["hello", "join", "join"], "not before the backoff");
    h.advance(1);
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "join", board: "kT3vQ9mZ2pXa", secret: SECRET, since: 3 });
    h.socket().receive(loading);
    assert.equal(h.statuses.at(-1)?.attempt, 2);
    h.advance(backoffDelay(2, 0.5) - 1);
    assert.deepEqual(h.sentTypes(), ["hello", "join", "join", "join"], "the second wait is longer");
    h.advance(1);
    h.socket().receive({ type: "resume", board: "kT3vQ9mZ2pXa", since: 3, rev: 3 });
    assert.equal(h.connection.state, "live");
    assert.equal(h.connection.attempt, 0);
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "edit", opId: "1", ops: rename("While joining") }, "the waiting edit goes out");
    assert.equal(h.sockets.length, 1, "all on the same socket");
  });

  test("pings answered during a failing rejoin do not make the page live", () => {
    const h = rejoining();
    // The server refuses every join until the heartbeat's ping is out.
    let answered = 0;
    while (!h.socket().sent.some((m) => m.type === "ping")) {
      const joins = h.sentTypes().filter((t) => t === "join").length;
      if (joins - 1 > answered) {
        answered += 1;
        h.socket().receive(loading);
      }
      h.advance(500);
    }
    assert.equal(h.sockets.length, 1);
    const ping = h.socket().sent.findLast((m) => m.type === "ping");
    h.socket().receive({ type: "pong", t: ping.t, serverTime: ping.t });
    assert.notEqual(h.connection.state, "live");
  });

  test("an error answer to the first join is retried too", () => {
    const h = harness();
    h.connection.start();
    h.socket().open();
    h.socket().receive(fixture("server/welcome.json"));
    h.socket().receive(loading);
    assert.equal(h.connection.state, "joining");
    assert.equal(h.statuses.at(-1)?.attempt, 1);
    h.advance(backoffDelay(1, 0.5));
    assert.deepEqual(h.sentTypes(), ["hello", "join", "join"]);
    h.socket().receive(fixture("server/snapshot.json"));
    assert.equal(h.connection.state, "live");
  });

  test("an error while live is not taken for a failed join", () => {
    const h = harness({ answerPings: true });
    h.connection.start();
    h.handshake();
    h.socket().receive({ type: "error", code: "bad_message", message: "x" });
    assert.equal(h.connection.state, "live");
    h.advance(BACKOFF_MAX_MS);
    assert.deepEqual(h.sentTypes().filter((t) => t === "join"), ["join"]);
  });
});

describe("presence", () => {
  test("what the user edits goes out when live, once per change, and again after a reconnect", () => {
    const h = harness();
    h.connection.start();
    h.connection.setEditing("sec-prep");
    assert.deepEqual(h.sockets.length, 1);
    h.handshake();
    assert.deepStrictEqual(h.socket().sent.at(-1), fixture("client/presence.json"), "told after the join");
    h.connection.setEditing("sec-prep");
    h.connection.setEditing(null);
    assert.deepStrictEqual(h.socket().sent.filter((m) => m.type === "presence").map((m) => m.editing), ["sec-prep", null]);
    h.connection.setEditing("tim-eggs");
    h.socket().drop();
    h.advance(BACKOFF_MAX_MS);
    h.handshake();
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "presence", editing: "tim-eggs" }, "the new session is told again");
  });

  test("nothing is told after a join when the user edits nothing", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    assert.deepEqual(h.sentTypes(), ["hello", "join"]);
  });

  test("presence lists reach the handler, except while joining", () => {
    const h = harness();
    h.connection.start();
    h.socket().open();
    h.socket().receive(fixture("server/welcome.json"));
    h.socket().receive(fixture("server/presence.json"));
    assert.equal(h.presences.length, 0, "a list of the previous subscription is ignored");
    h.socket().receive(fixture("server/snapshot.json"));
    h.socket().receive(fixture("server/presence.json"));
    assert.deepEqual(h.presences.map((m) => m.users.map((/** @type {any} */ u) => u.name)), [["Ada", "Kitchen script"]]);
  });

  test("a new name starts a fresh session whose hello carries it", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.edit("1", rename("Unacked"));
    h.connection.rename("Grace");
    assert.equal(h.sockets.length, 2, "a new socket at once, no backoff");
    h.handshake();
    assert.deepStrictEqual(h.socket().sent[0], { type: "hello", protocol: 1, clientId: "web-test", name: "Grace" });
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "edit", opId: "1", ops: rename("Unacked") }, "unacked edit resent");
    h.connection.rename("Grace");
    assert.equal(h.sockets.length, 2, "the same name changes nothing");
  });
});

describe("links (issue 13)", () => {
  test("every join carries the link's secret: the first exactly as client/join.json, a rejoin as client/join-since.json", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    assert.deepStrictEqual(h.socket().sent[1], fixture("client/join.json"));
    h.socket().receive(fixture("server/changes-rename-section.json"));
    h.socket().drop();
    h.advance(BACKOFF_MAX_MS);
    h.socket().open();
    h.socket().receive(fixture("server/welcome.json"));
    assert.deepStrictEqual(h.socket().sent[1], { ...fixture("client/join.json"), since: 4 });
    // A gap on a live socket: the rejoin there carries it too.
    h.socket().receive(fixture("server/access.json"));
    h.socket().receive({ ...fixture("server/resume.json"), since: 4, rev: 4 });
    h.socket().receive(fixture("server/changes-toggle-section.json"));
    assert.deepStrictEqual(h.socket().sent.at(-1), { ...fixture("client/join-since.json"), since: 4 });
  });

  test("the secret goes in joins only: never in the socket's URL, hello, edits or presence", () => {
    const h = harness();
    h.connection.start();
    h.connection.setEditing("sec-prep");
    h.handshake();
    h.edit("1", rename("Secretless"));
    assert.ok(!h.socket().url.includes(SECRET));
    const carrying = h.socket().sent.filter((m) => JSON.stringify(m).includes(SECRET)).map((m) => m.type);
    assert.deepEqual(carrying, ["join"]);
    assert.deepEqual(h.sentTypes(), ["hello", "join", "presence", "edit"]);
  });

  test("access: the role and userId reach the handler, before the snapshot", () => {
    const h = harness();
    h.connection.start();
    h.socket().open();
    h.socket().receive(fixture("server/welcome.json"));
    h.socket().receive(fixture("server/access.json"));
    assert.deepStrictEqual(h.accesses, [fixture("server/access.json")]);
    assert.equal(h.connection.role, "edit");
    assert.equal(h.connection.isLive, false, "access alone is not the board");
    h.socket().receive(fixture("server/snapshot.json"));
    assert.equal(h.connection.state, "live");
    // One for another board, or outside a join, is not ours.
    h.socket().receive({ ...fixture("server/access.json"), role: "view" });
    assert.equal(h.accesses.length, 1);
  });

  test("view role: what the user edits is never sent, on the first join or after a reconnect", () => {
    const h = harness();
    const view = { ...fixture("server/access.json"), role: "view" };
    h.connection.start();
    h.connection.setEditing("sec-prep");
    h.handshake(fixture("server/snapshot.json"), view);
    h.connection.setEditing("tim-eggs");
    h.connection.setEditing(null);
    assert.deepEqual(h.sentTypes(), ["hello", "join"]);
    h.socket().drop();
    h.advance(BACKOFF_MAX_MS);
    h.handshake({ ...fixture("server/resume.json"), since: 3, rev: 3 }, view);
    assert.deepEqual(h.sentTypes(), ["hello", "join"]);
  });

  test("view role: the clock's bound is told, with editing null (a wall screen's clock matters too)", () => {
    const h = harness();
    const view = { ...fixture("server/access.json"), role: "view" };
    h.connection.start();
    h.handshake(fixture("server/snapshot.json"), view);
    h.connection.setEditing("tim-eggs");
    h.advance(0);
    const ping = h.socket().sent.filter((m) => m.type === "ping").at(-1);
    h.advance(24);
    h.socket().receive({ type: "pong", t: ping.t, serverTime: ping.t + 5 });
    assert.deepStrictEqual(h.socket().sent.filter((m) => m.type === "presence"), [fixture("client/presence-clock-error.json")]);
  });

  test("resume and renamed bring the board's title to the handler", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.socket().drop();
    h.advance(BACKOFF_MAX_MS);
    h.handshake({ ...fixture("server/resume.json"), since: 3, rev: 3 });
    assert.deepEqual(h.resumes.map((m) => m.title), ["Kitchen"]);
    h.socket().receive(fixture("server/renamed.json"));
    assert.deepStrictEqual(h.renames, [fixture("server/renamed.json")]);
    assert.equal(h.connection.state, "live");
  });

  for (const [code, reason] of [[4403, "replaced"], [4410, "deleted"]]) {
    test(`close ${code}: ${reason}, final, no reconnect`, () => {
      const h = harness();
      h.connection.start();
      h.handshake();
      h.edit("1", rename("Never sent"));
      h.socket().closeWith(/** @type {number} */ (code));
      assert.equal(h.connection.state, "offline");
      assert.deepEqual(h.statuses.at(-1)?.detail, { reason });
      assert.deepEqual(h.ended, [reason]);
      h.advance(BACKOFF_MAX_MS * 10);
      h.connection.goOnline();
      h.connection.rename("Grace");
      assert.equal(h.sockets.length, 1, "never again");
    });
  }

  test("any other close code is a dropped connection: reconnect", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.socket().closeWith(1001);
    assert.equal(h.connection.state, "reconnecting");
    assert.deepEqual(h.ended, []);
    h.advance(backoffDelay(1, 0.5));
    assert.equal(h.sockets.length, 2);
  });
});

describe("rate limits (rate_limited with retryAfterMs)", () => {
  /** The server's answer to an edit over the budget (server/reject-rate-limited.json, for `opId`). */
  const limited = (/** @type {string} */ opId, retryAfterMs = fixture("server/reject-rate-limited.json").retryAfterMs) =>
    ({ ...fixture("server/reject-rate-limited.json"), opId, retryAfterMs });
  const ack = (/** @type {string} */ opId, /** @type {number} */ rev) => ({ type: "ack", opId, rev });
  /** The changes of an accepted rename of sec-prep, at `rev`. */
  const renamed = (/** @type {string} */ title, /** @type {number} */ rev) =>
    ({ type: "changes", rev, changes: [{ update: "section", id: "sec-prep", title }] });
  const shownTitle = (/** @type {ReturnType<typeof harness>} */ h) => h.store.displayed.sections.get("sec-prep")?.title;

  test("the limited edit stays shown and pending, and goes out again with its opId after retryAfterMs, jittered up", () => {
    const h = harness({ random: 0.5 });
    h.connection.start();
    h.handshake();
    h.edit("19", rename("Mise en place"));
    h.socket().receive(fixture("server/reject-rate-limited.json")); // opId 19, retryAfterMs 40
    assert.equal(shownTitle(h), "Mise en place", "not rolled back");
    assert.deepEqual(h.store.pending.map((e) => e.opId), ["19"]);
    const wait = retryDelay(40, 0.5);
    assert.ok(wait > 40 && wait <= Math.ceil(40 * (1 + RATE_LIMIT_JITTER)), `jittered, never early: ${wait}`);
    h.advance(wait - 1);
    assert.deepEqual(h.sentEdits(), ["19"], "not before the wait");
    h.advance(1);
    assert.deepStrictEqual(h.socket().sent.at(-1), { type: "edit", opId: "19", ops: rename("Mise en place") }, "the same edit, same opId");
    h.socket().receive(renamed("Mise en place", 4));
    h.socket().receive(ack("19", 4));
    assert.deepEqual(h.store.pending, []);
    assert.equal(h.store.confirmed.sections.get("sec-prep")?.title, "Mise en place");
    assert.deepEqual(h.slowed, [], "a short limit is not the user's business");
    assert.equal(h.sockets.length, 1, "the connection stays");
  });

  test("the jitter spreads retries between retryAfterMs and (1 + RATE_LIMIT_JITTER) times it; no retryAfterMs: the default", () => {
    assert.equal(retryDelay(40, 0), 40);
    assert.equal(retryDelay(40, 1), Math.ceil(40 * (1 + RATE_LIMIT_JITTER)));
    assert.equal(retryDelay(undefined, 0), RATE_LIMIT_DEFAULT_RETRY_MS);
  });

  test("later edits never overtake a limited one: none goes out during the wait, then one at a time, each after the previous answer", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.edit("1", rename("A"));
    h.edit("2", rename("AB"));
    assert.deepEqual(h.sentEdits(), ["1", "2"], "edits go out as they come while nothing is limited");
    h.socket().receive(limited("1", 40));
    h.edit("3", rename("ABC"));
    assert.deepEqual(h.sentEdits(), ["1", "2"], "a new edit waits behind the limited one");
    h.socket().receive(limited("2", 30)); // it was on its way already, and limited too
    assert.equal(shownTitle(h), "ABC");
    assert.deepEqual(h.store.pending.map((e) => e.opId), ["1", "2", "3"], "all kept, in order");
    h.advance(retryDelay(40, 0.5));
    assert.deepEqual(h.sentEdits(), ["1", "2", "1"], "only the first goes out after the wait");
    h.edit("4", rename("ABCD"));
    assert.deepEqual(h.sentEdits(), ["1", "2", "1"], "and only it, until it is answered");
    h.socket().receive(renamed("A", 4));
    h.socket().receive(ack("1", 4));
    assert.deepEqual(h.sentEdits(), ["1", "2", "1", "2"]);
    h.socket().receive(limited("2", 50)); // limited again: the same wait, the same order
    h.advance(retryDelay(50, 0.5) - 1);
    assert.deepEqual(h.sentEdits(), ["1", "2", "1", "2"]);
    h.advance(1);
    assert.deepEqual(h.sentEdits(), ["1", "2", "1", "2", "2"]);
    h.socket().receive(renamed("AB", 5));
    h.socket().receive(ack("2", 5));
    h.socket().receive(renamed("ABC", 6));
    h.socket().receive(ack("3", 6));
    assert.deepEqual(h.sentEdits(), ["1", "2", "1", "2", "2", "3", "4"]);
    h.socket().receive(renamed("ABCD", 7));
    h.socket().receive(ack("4", 7));
    assert.deepEqual(h.store.pending, []);
    assert.equal(h.store.confirmed.sections.get("sec-prep")?.title, "ABCD", "the server applied them in the user's order");
    h.edit("5", rename("E"));
    h.edit("6", rename("EF"));
    assert.deepEqual(h.sentEdits().slice(-2), ["5", "6"], "once all are in, edits go out as they come again");
  });

  test("the wait ends while a later edit is still on its way: the limited one goes out only once that is answered", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.edit("1", rename("A"));
    h.edit("2", rename("AB"));
    h.socket().receive(limited("1", 40));
    h.advance(retryDelay(40, 0.5));
    assert.deepEqual(h.sentEdits(), ["1", "2"], "one edit unanswered at a time after a limit");
    // The server had a token again when 2 arrived (the one case the client cannot prevent).
    h.socket().receive(renamed("AB", 4));
    h.socket().receive(ack("2", 4));
    assert.deepEqual(h.sentEdits(), ["1", "2", "1"]);
    assert.deepEqual(h.store.pending.map((e) => e.opId), ["1"]);
  });

  test("a reconnect during the wait: every unacked edit goes out on the new socket, in order, with its opId, and the old wait is gone", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.edit("1", rename("A"));
    h.edit("2", rename("AB"));
    h.socket().receive(limited("1", 5000));
    h.socket().drop();
    h.advance(backoffDelay(1, 0.5));
    h.handshake({ type: "resume", board: "kT3vQ9mZ2pXa", since: 3, rev: 3 });
    assert.deepEqual(h.sentEdits(), ["1", "2"], "a new socket has a budget of its own: all at once");
    h.advance(retryDelay(5000, 0.5));
    assert.deepEqual(h.sentEdits(), ["1", "2"], "the wait of the old socket sends nothing twice");
  });

  test("a rejoin on the socket during the wait: the limited edit goes out after the wait, not with the join's answer", () => {
    const h = harness();
    h.connection.start();
    h.handshake();
    h.edit("1", rename("A"));
    h.socket().receive(limited("1", 200));
    h.socket().receive(fixture("server/changes-toggle-section.json")); // a gap: rejoin with since
    h.socket().receive({ type: "resume", board: "kT3vQ9mZ2pXa", since: 3, rev: 3 });
    assert.deepEqual(h.sentEdits(), ["1"]);
    h.advance(retryDelay(200, 0.5));
    assert.deepEqual(h.sentEdits(), ["1", "1"]);
  });

  test("the handler hears of limits only once edits have been held back for RATE_LIMIT_WARN_MS, once per streak", () => {
    const h = harness({ answerPings: true });
    h.connection.start();
    h.handshake();
    h.edit("1", rename("A"));
    let answered = 0;
    // The server keeps limiting edit 1, 1 s each time.
    while (h.slowed.length === 0 && answered < 100) {
      h.socket().receive(limited("1", 1000));
      answered += 1;
      if (h.slowed.length === 0) h.advance(retryDelay(1000, 0.5));
    }
    assert.equal(answered, Math.ceil(RATE_LIMIT_WARN_MS / retryDelay(1000, 0.5)) + 1, "told at the first limit RATE_LIMIT_WARN_MS after the first");
    assert.ok(h.slowed[0] >= RATE_LIMIT_WARN_MS);
    assert.deepEqual(h.store.pending.map((e) => e.opId), ["1"], "still kept");
    h.advance(retryDelay(1000, 0.5));
    h.socket().receive(limited("1", 1000));
    assert.equal(h.slowed.length, 1, "once per streak");
    h.advance(retryDelay(1000, 0.5));
    h.socket().receive(renamed("A", 4));
    h.socket().receive(ack("1", 4));
    // A new streak, later: short, so nothing is said.
    h.edit("2", rename("B"));
    h.socket().receive(limited("2", 40));
    h.advance(retryDelay(40, 0.5));
    h.socket().receive(renamed("B", 5));
    h.socket().receive(ack("2", 5));
    assert.equal(h.slowed.length, 1);
    assert.deepEqual(h.store.pending, []);
  });

  test("other rejects still reach the handler, which drops the edit", () => {
    const h = harness({ answerPings: true });
    h.connection.start();
    h.handshake();
    h.edit("19", rename("Gone"));
    h.socket().receive({ ...fixture("server/reject-not-found.json"), opId: "19" });
    assert.deepEqual(h.store.pending, []);
    h.advance(BACKOFF_MAX_MS);
    assert.deepEqual(h.sentEdits(), ["19"], "never sent again");
  });
});
