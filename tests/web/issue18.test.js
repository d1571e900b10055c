// @ts-check
// Issue 18 in the browser, without a browser: sequences' progress and "Done" rule (model/sequence.js),
// the tab title (board/tab_title.js), how in step the screens are (board/presence.js), warning
// points as typed (model/fields.js), notifications (board/alerts.js), and the clock's bound told in
// presence (wire/connection/, on a fake socket and clock).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { CLOCK_ERROR_INTERVAL_MS } from "../../web-static/wire/constants.js";
import { Connection } from "../../web-static/wire/connection/connection.js";
import { formatWarnAt, parseWarnAt } from "../../web-static/model/fields.js";
import { progressText } from "../../web-static/model/sentences.js";
import { isSequence, movedOnIds, sequenceProgress } from "../../web-static/model/sequence.js";
import { TimerAlerts } from "../../web-static/board/alerts.js";
import { syncSummary } from "../../web-static/board/presence.js";
import { TabTitle, nearestRunning, tabTitleText } from "../../web-static/board/tab_title.js";
import { FakeDocument } from "./fake_dom.js";

const FIXTURES = new URL("../../Tests/Fixtures/protocol/", import.meta.url);
/** @param {string} path */
const fixture = (path) => JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8"));

const T0 = 1_763_740_802_000;
/** @typedef {import("../../web-static/wire/protocol.js").Run} Run */
/** @param {string} id @param {Run["status"]} status @param {Partial<Run>} [extra] */
const t = (id, status, extra = {}) => ({ id, run: /** @type {Run} */ ({ status, elapsed: 0, ...extra }) });

describe("sequences (sequence.js)", () => {
  test("only a section with sequence true is one (absent: a server or section from before)", () => {
    assert.equal(isSequence({ sequence: true }), true);
    assert.equal(isSequence({ sequence: false }), false);
    assert.equal(isSequence({}), false);
    assert.equal(isSequence(undefined), false);
  });

  test("progress: the running timer, else the paused one, else how far it went", () => {
    assert.deepEqual(sequenceProgress([t("a", "finished"), t("b", "running"), t("c", "idle")]), { state: "running", position: 2, total: 3 });
    assert.deepEqual(sequenceProgress([t("a", "finished"), t("b", "paused"), t("c", "idle")]), { state: "paused", position: 2, total: 3 });
    assert.deepEqual(sequenceProgress([t("a", "finished"), t("b", "finished"), t("c", "finished")]), { state: "ended", position: 3, total: 3 });
    assert.deepEqual(sequenceProgress([t("a", "idle"), t("b", "idle")]), { state: "ready", position: 0, total: 2 });
    assert.deepEqual(sequenceProgress([]), { state: "empty", position: 0, total: 0 });
  });

  test("progress in words", () => {
    assert.equal(progressText({ state: "running", position: 2, total: 5 }), "2 of 5");
    assert.equal(progressText({ state: "paused", position: 2, total: 5 }), "2 of 5, paused");
    assert.equal(progressText({ state: "ended", position: 5, total: 5 }), "5 of 5, done");
    assert.equal(progressText({ state: "ready", position: 0, total: 1 }), "1 timer, ready");
    assert.equal(progressText({ state: "ready", position: 0, total: 4 }), "4 timers, ready");
  });

  test("display rule: a finished timer reads Done when a later one is running, paused or finished; the last to finish shows overtime", () => {
    assert.deepEqual([...movedOnIds([t("a", "finished"), t("b", "running"), t("c", "idle")])], ["a"]);
    assert.deepEqual([...movedOnIds([t("a", "finished"), t("b", "paused")])], ["a"]);
    assert.deepEqual([...movedOnIds([t("a", "finished"), t("b", "finished"), t("c", "finished")])].sort(), ["a", "b"], "c: the sequence ended, it counts overtime");
    assert.deepEqual([...movedOnIds([t("a", "finished"), t("b", "idle")])], [], "nothing after it started: overtime");
    assert.deepEqual([...movedOnIds([t("a", "idle"), t("b", "finished"), t("c", "running")])], ["b"]);
  });
});

describe("tab title (tab_title.js)", () => {
  const eggs = { id: "t1", title: "Eggs", minutes: 5, seconds: 0, run: /** @type {Run} */ ({ status: "running", startedAt: T0, elapsed: 0 }) };
  const rice = { id: "t2", title: "Rice", minutes: 20, seconds: 0, run: /** @type {Run} */ ({ status: "running", startedAt: T0 - 60_000, elapsed: 0 }) };
  const idle = { id: "t0", title: "Tea", minutes: 1, seconds: 0, run: /** @type {Run} */ ({ status: "idle", elapsed: 0 }) };

  test("the nearest running timer is the one whose end comes first, whatever the time now", () => {
    assert.equal(nearestRunning([idle, rice, eggs])?.title, "Eggs");
    assert.equal(nearestRunning([idle]), null);
    const twin = { ...eggs, id: "t0", title: "Twin" };
    assert.equal(nearestRunning([eggs, twin])?.title, "Twin", "a tie: the smaller id, the same on every screen");
  });

  test("what finished while hidden, else the nearest timer's countdown, else the board", () => {
    assert.equal(tabTitleText({ board: "Kitchen", finished: [], nearest: eggs, now: T0 + 1000 }), "4:59 Eggs — TimerBoard");
    assert.equal(tabTitleText({ board: "Kitchen", finished: ["Eggs"], nearest: rice, now: T0 }), "⏰ Eggs done — TimerBoard");
    assert.equal(tabTitleText({ board: "Kitchen", finished: ["Eggs", "Rice"], nearest: null, now: T0 }), "⏰ Eggs, Rice done — TimerBoard");
    assert.equal(tabTitleText({ board: "Kitchen", finished: [], nearest: null, now: T0 }), "Kitchen — TimerBoard");
  });

  test("TabTitle writes the document's title only when it changes, and forgets what finished once seen", () => {
    /** @type {string[]} */
    const writes = [];
    let title = "";
    const doc = { get title() { return title; }, set title(value) { title = value; writes.push(value); } };
    const tab = new TabTitle(doc);
    tab.setBoard("Kitchen");
    tab.update(eggs, T0 + 1000);
    tab.update(eggs, T0 + 1500);
    tab.finishedWhileHidden("Eggs");
    tab.finishedWhileHidden("Eggs");
    tab.seen();
    tab.update(null, T0 + 2000);
    assert.deepEqual(writes, ["Kitchen — TimerBoard", "4:59 Eggs — TimerBoard", "⏰ Eggs done — TimerBoard", "4:59 Eggs — TimerBoard", "Kitchen — TimerBoard"]);
    // The board ended: its page's title stays, whatever still ticks.
    tab.freeze();
    doc.title = "This board was deleted — TimerBoard";
    tab.update(eggs, T0 + 3000);
    tab.finishedWhileHidden("Eggs");
    assert.equal(doc.title, "This board was deleted — TimerBoard");
  });
});

describe("screens in step (board/presence.js syncSummary)", () => {
  const ada = { userId: "u-ada", name: "Ada", clockError: 12 };
  const bob = { userId: "u-bob", name: "Bob", clockError: 180 };
  const cyd = { userId: "u-cyd", name: "Cyd", clockError: 20 };
  const script = { userId: "u-bot", name: "Script" };

  test("N screens within the largest bound; the ones above ±50 ms by name, this one as 'Your'", () => {
    assert.deepEqual(syncSummary([ada, cyd, script], "u-ada"), { text: "2 screens within ±20 ms", off: [], state: "ok" });
    assert.deepEqual(syncSummary([ada, bob, cyd], "u-ada"), {
      text: "3 screens within ±180 ms", off: ["Bob's screen is off by up to ±180 ms"], state: "off",
    });
    assert.deepEqual(syncSummary([ada, bob], "u-bob").off, ["Your screen is off by up to ±180 ms"]);
    assert.deepEqual(syncSummary([{ ...ada, clockError: 51 }, bob], null).off,
      ["Bob's screen is off by up to ±180 ms", "Ada's screen is off by up to ±51 ms"], "worst first");
    assert.deepEqual(syncSummary([{ ...ada, clockError: 50 }], null), { text: "1 screen within ±50 ms", off: [], state: "ok" }, "±50 is in step");
  });

  test("nobody reported: nothing to show", () => {
    assert.deepEqual(syncSummary([script], null), { text: "", off: [], state: "none" });
  });
});

describe("warning points as typed (model/fields.js)", () => {
  test("m:ss or whole minutes, in ms of time left; empty is none", () => {
    assert.deepEqual(parseWarnAt("1:00"), { value: 60_000 });
    assert.deepEqual(parseWarnAt(" 0:30 "), { value: 30_000 });
    assert.deepEqual(parseWarnAt("2:5"), { value: 125_000 });
    assert.deepEqual(parseWarnAt("2"), { value: 120_000 });
    assert.deepEqual(parseWarnAt(""), { value: 0 });
    for (const bad of ["1:60", "abc", "-1", "1:00:00", "1000"]) assert.ok("error" in parseWarnAt(bad), bad);
  });

  test("shown as m:ss, empty when none", () => {
    assert.equal(formatWarnAt(60_000), "1:00");
    assert.equal(formatWarnAt(125_000), "2:05");
    assert.equal(formatWarnAt(0), "");
    assert.equal(formatWarnAt(undefined), "");
  });
});

describe("notifications (board/alerts.js)", () => {
  /** A Notification class that records what was made, with the permission the browser would give. */
  function fakeNotification(permission = "default", answer = "granted") {
    /** @type {{title: string, options: any}[]} */
    const made = [];
    let asked = 0;
    class FakeNotification {
      static permission = permission;
      static async requestPermission() {
        asked += 1;
        FakeNotification.permission = answer;
        return answer;
      }
      /** @param {string} title @param {any} options */
      constructor(title, options) {
        made.push({ title, options });
        this.onclick = null;
      }
      close() {}
    }
    return { N: /** @type {any} */ (FakeNotification), made, asked: () => asked };
  }
  const eggs = /** @type {any} */ ({ id: "t1", title: "Eggs" });
  const area = () => /** @type {any} */ (new FakeDocument().createElement("div"));

  test("nothing is asked until the button is pressed; then a timer that finishes while hidden makes one", async () => {
    const { N, made, asked } = fakeNotification();
    let hidden = true;
    /** @type {string[]} */
    const titles = [];
    const alerts = new TimerAlerts(area(), { Notification: N, hidden: () => hidden });
    alerts.onHiddenFinish = (title) => titles.push(title);
    assert.equal(alerts.notifyState(), "default");
    alerts.show(eggs);
    assert.equal(asked(), 0, "never asked by itself");
    assert.equal(made.length, 0, "no permission yet");
    assert.deepEqual(titles, ["Eggs"], "the tab title still says so");
    assert.equal(await alerts.toggleNotify("default"), "on");
    assert.equal(asked(), 1);
    alerts.show(eggs);
    assert.deepEqual(made.map((n) => n.title), ["“Eggs” is done"]);
    hidden = false;
    alerts.show(eggs);
    assert.equal(made.length, 1, "a visible tab shows the alert on the page only");
    assert.equal(titles.length, 2);
  });

  test("several finished timers make one alert, named by the latest; OK dismisses it for all", () => {
    const box = area();
    const alerts = new TimerAlerts(box, { Notification: undefined, hidden: () => false });
    alerts.show(eggs);
    alerts.show(/** @type {any} */ ({ id: "t2", title: "Rice" }));
    alerts.show(/** @type {any} */ ({ id: "t3", title: "Tea" }));
    const shown = () => box.querySelectorAll(".timer-alert");
    assert.equal(shown().length, 1);
    assert.equal(shown()[0].dataset.timerId, "t3");
    assert.equal(shown()[0].querySelector(".timer-alert-text").textContent, "“Tea” and 2 other timers are done");
    alerts.hide("t3");
    assert.equal(shown()[0].querySelector(".timer-alert-text").textContent, "“Rice” and 1 other timer are done");
    alerts.dismiss();
    assert.equal(shown().length, 0);
  });

  test("granted already: on unless turned off on this device; denied: never", async () => {
    const granted = fakeNotification("granted");
    const alerts = new TimerAlerts(area(), { Notification: granted.N, hidden: () => true });
    assert.equal(alerts.notifyState(), "on");
    assert.equal(await alerts.toggleNotify("on"), "off");
    assert.equal(await alerts.toggleNotify("off"), "on");
    assert.equal(await alerts.toggleNotify("default"), "on", "granted since the button was drawn: pressing it means on");
    assert.equal(await alerts.toggleNotify("on"), "off");
    alerts.show(eggs);
    assert.equal(granted.made.length, 0);
    const denied = fakeNotification("denied");
    const blocked = new TimerAlerts(area(), { Notification: denied.N, hidden: () => true });
    assert.equal(await blocked.toggleNotify("denied"), "denied");
    blocked.show(eggs);
    assert.equal(denied.made.length + denied.asked(), 0);
    assert.equal(new TimerAlerts(area(), { Notification: undefined, hidden: () => true }).notifyState(), "unsupported");
  });
});

describe("clockError in presence (wire/connection/)", () => {
  /** A live connection on a fake socket and clock; `pong(roundTrip)` answers a ping after `roundTrip` ms. */
  function live() {
    let now = 5_000_000;
    /** @type {{due: number, action: () => void, cancelled: boolean}[]} */
    const timers = [];
    /** @type {any[]} */
    const sent = [];
    class FakeSocket {
      static OPEN = 1;
      readyState = 1;
      /** @type {any} */ onopen = null;
      /** @type {any} */ onmessage = null;
      /** @param {string} text */
      send(text) { sent.push(JSON.parse(text)); }
      close() {}
      /** @param {object} m */
      receive(m) { this.onmessage?.({ data: JSON.stringify(m) }); }
    }
    /** @type {FakeSocket | null} */
    let socket = null;
    const env = {
      WebSocket: /** @type {any} */ (class extends FakeSocket { constructor() { super(); socket = this; } }),
      setTimeout: (/** @type {() => void} */ action, /** @type {number} */ ms) => {
        const timer = { due: now + ms, action, cancelled: false };
        timers.push(timer);
        return timer;
      },
      clearTimeout: (/** @type {any} */ timer) => { if (timer) timer.cancelled = true; },
      random: () => 0.5,
      now: () => now,
    };
    /** @param {number} ms */
    const advance = (ms) => {
      const until = now + ms;
      for (;;) {
        const due = timers.filter((x) => !x.cancelled && x.due <= until).sort((a, b) => a.due - b.due)[0];
        if (!due) break;
        due.cancelled = true;
        now = due.due;
        due.action();
      }
      now = until;
    };
    const noop = () => {};
    const connection = new Connection({
      url: "ws://test/ws", board: "kT3vQ9mZ2pXa", secret: "Qm9hcmRTZWNyZXRFZGl0MQ", clientId: "web-test", env,
      handler: /** @type {any} */ ({
        welcome: noop, access: noop, since: () => null, snapshot: noop, resume: noop, renamed: noop, ended: noop, changes: () => "applied",
        ack: noop, reject: noop, slowed: noop, serverError: noop, presence: noop, unackedEdits: () => [], status: noop,
      }),
    });
    connection.start();
    const s = /** @type {FakeSocket} */ (/** @type {unknown} */ (socket));
    s.onopen?.();
    s.receive(fixture("server/welcome.json"));
    s.receive(fixture("server/access.json"));
    s.receive(fixture("server/snapshot.json"));
    /** Answers the latest unanswered ping `roundTrip` ms after it left. @param {number} roundTrip */
    const pong = (roundTrip) => {
      const ping = [...sent].reverse().find((m) => m.type === "ping");
      advance(roundTrip);
      s.receive({ type: "pong", t: ping.t, serverTime: ping.t + 10_000 });
    };
    const told = () => sent.filter((m) => m.type === "presence").map((m) => m.clockError);
    return { connection, sent, advance, pong, told };
  }

  test("sent with the first sample (half the round trip, rounded up), with editing as it is", () => {
    const h = live();
    h.advance(0);
    h.pong(23);
    assert.deepEqual(h.sent.filter((m) => m.type === "presence").at(-1), { type: "presence", editing: null, clockError: 12 });
  });

  test("again only when the bound moved by more than 5 ms, and at most once a second", () => {
    const h = live();
    h.advance(0);
    h.pong(40); // ±20
    h.pong(34); // ±17: within 5 ms, not told
    h.pong(20); // ±10: told, but not within a second of the last one
    assert.deepEqual(h.told(), [20]);
    h.advance(CLOCK_ERROR_INTERVAL_MS);
    assert.deepEqual(h.told(), [20, 10], "told when the second is over, without another pong");
  });

  test("an editing change goes at once; the bound rides along only once its second is over", () => {
    const h = live();
    h.advance(0);
    h.pong(40);
    h.pong(4); // ±2: due, but waits
    h.connection.setEditing("sec-prep");
    assert.deepEqual(h.sent.filter((m) => m.type === "presence").at(-1), { type: "presence", editing: "sec-prep" });
    h.advance(CLOCK_ERROR_INTERVAL_MS);
    assert.deepEqual(h.sent.filter((m) => m.type === "presence").at(-1), { type: "presence", editing: "sec-prep", clockError: 2 });
  });
});
