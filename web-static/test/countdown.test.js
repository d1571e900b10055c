// @ts-check
// countdown.js: what a countdown shows for each run state at a given server time, when it changes
// by itself, and which of its digits change.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import {
  changedDigits, countdownText, countedMs, formatClock, isRunning, justFinished, lengthMs, msUntilChange, nextChangeIn,
  remainingMs, shownSeconds,
} from "../countdown.js";
import { parseServerMessage } from "../protocol.js";

const FIXTURES = new URL("../../Tests/Fixtures/protocol/", import.meta.url);
/** @param {string} path */
const fixtureText = (path) => readFileSync(new URL(path, FIXTURES), "utf8");

/** @typedef {import("../protocol.js").Run} Run */
/** @param {number} minutes @param {number} seconds @param {Run} run */
const timer = (minutes, seconds, run) => ({ minutes, seconds, run });
const T0 = 1_763_740_802_000;
const idle = /** @type {Run} */ ({ status: "idle", elapsed: 0 });
/** @param {number} elapsed */
const running = (elapsed = 0, startedAt = T0) => /** @type {Run} */ ({ status: "running", startedAt, elapsed });
/** @param {number} elapsed */
const paused = (elapsed) => /** @type {Run} */ ({ status: "paused", elapsed });
/** @param {number} elapsed */
const finished = (elapsed) => /** @type {Run} */ ({ status: "finished", elapsed });

describe("formatting", () => {
  test("m:ss, seconds always two digits, minutes as many as needed", () => {
    assert.equal(formatClock(0), "0:00");
    assert.equal(formatClock(3), "0:03");
    assert.equal(formatClock(59), "0:59");
    assert.equal(formatClock(60), "1:00");
    assert.equal(formatClock(7 * 60 + 30), "7:30");
    assert.equal(formatClock(10 * 60), "10:00");
    assert.equal(formatClock(999 * 60 + 59), "999:59");
  });

  test("never negative, never fractional", () => {
    assert.equal(formatClock(-5), "0:00");
    assert.equal(formatClock(61.9), "1:01");
  });

  test("shown seconds round up: a timer reads 0:00 only once it is over", () => {
    assert.equal(shownSeconds(3000), 3);
    assert.equal(shownSeconds(2999.5), 3);
    assert.equal(shownSeconds(2000), 2);
    assert.equal(shownSeconds(1), 1);
    assert.equal(shownSeconds(0.01), 1);
    assert.equal(shownSeconds(0), 0);
    assert.equal(shownSeconds(-10), 0);
  });
});

describe("remaining time for each state", () => {
  const now = T0 + 40_000;

  test("idle: the whole length, whatever the time", () => {
    assert.equal(lengthMs({ minutes: 7, seconds: 30 }), 450_000);
    assert.equal(remainingMs(timer(7, 30, idle), now), 450_000);
    assert.equal(countdownText(timer(7, 30, idle), now), "7:30");
    assert.equal(countedMs(timer(7, 30, idle), now), 0);
  });

  test("running: length - elapsed - (now - startedAt)", () => {
    assert.equal(remainingMs(timer(2, 0, running()), now), 80_000);
    assert.equal(remainingMs(timer(2, 0, running(15_000)), now), 65_000);
    assert.equal(countdownText(timer(2, 0, running(15_000)), now), "1:05");
    assert.equal(countdownText(timer(2, 0, running(15_000)), now + 1), "1:05", "1:04.999 reads 1:05");
    assert.equal(countdownText(timer(2, 0, running(15_000)), now + 1000), "1:04");
  });

  test("running, from the golden changeset", () => {
    const message = parseServerMessage(fixtureText("server/changes-start-timer.json"));
    assert.ok(message?.type === "changes" && message.changes[0].action === "update");
    const run = /** @type {Run} */ (message.changes[0].fields.run);
    // The snapshot fixture's Eggs: 7:30.
    assert.equal(countdownText(timer(7, 30, run), run.startedAt ?? 0), "7:30");
    assert.equal(countdownText(timer(7, 30, run), (run.startedAt ?? 0) + 60_000), "6:30");
  });

  test("running, before startedAt by this clock (a clock estimate slightly ahead): the whole length", () => {
    assert.equal(remainingMs(timer(0, 3, running()), T0 - 5), 3000);
  });

  test("running past the end, before the server says finished: 0:00, never negative", () => {
    assert.equal(remainingMs(timer(0, 3, running()), T0 + 3000), 0);
    assert.equal(remainingMs(timer(0, 3, running()), T0 + 9000), 0);
    assert.equal(countdownText(timer(0, 3, running()), T0 + 9000), "0:00");
  });

  test("paused: length - elapsed, still while time passes", () => {
    assert.equal(remainingMs(timer(1, 0, paused(12_345)), now), 47_655);
    assert.equal(countdownText(timer(1, 0, paused(12_345)), now), "0:48");
    assert.equal(countdownText(timer(1, 0, paused(12_345)), now + 3_600_000), "0:48");
  });

  test("finished: 0:00, from the golden changeset", () => {
    const message = parseServerMessage(fixtureText("server/changes-timer-finished.json"));
    assert.ok(message?.type === "changes" && message.changes[0].action === "update");
    const run = /** @type {Run} */ (message.changes[0].fields.run);
    assert.equal(run.status, "finished");
    assert.equal(remainingMs(timer(7, 30, run), now), 0);
    assert.equal(countdownText(timer(7, 30, run), now), "0:00");
  });

  test("a new length keeps the time counted (docs/protocol.md): 2:00 → 1:30 after 40 s leaves 50 s", () => {
    assert.equal(remainingMs(timer(1, 30, running()), now), 50_000);
    assert.equal(remainingMs(timer(1, 30, paused(40_000)), now), 50_000);
    assert.equal(remainingMs(timer(0, 30, running()), now), 0, "already counted: 0 until the server says finished");
    assert.equal(remainingMs(timer(0, 30, finished(30_000)), now), 0);
  });
});

describe("when the text changes", () => {
  test("a running timer changes at each whole second of remaining time", () => {
    const t = timer(0, 3, running());
    assert.equal(msUntilChange(t, T0), 1000, "3.000 s left: 0:03 until 2.000");
    assert.equal(msUntilChange(t, T0 + 250), 750);
    assert.equal(msUntilChange(t, T0 + 999), 1);
    assert.equal(msUntilChange(t, T0 + 1000), 1000);
    assert.equal(msUntilChange(t, T0 + 2500), 500, "0:01 until the end, then 0:00");
    assert.equal(msUntilChange(t, T0 + 3000), Infinity, "over: nothing more to draw until the server's word");
    // Waking up exactly then shows the next text.
    for (const at of [T0, T0 + 250, T0 + 999, T0 + 2500]) {
      assert.notEqual(countdownText(t, at + msUntilChange(t, at)), countdownText(t, at));
      assert.equal(countdownText(t, at + msUntilChange(t, at) - 0.5), countdownText(t, at));
    }
  });

  test("idle, paused and finished timers never change by themselves", () => {
    assert.equal(msUntilChange(timer(1, 0, idle), T0), Infinity);
    assert.equal(msUntilChange(timer(1, 0, paused(500)), T0), Infinity);
    assert.equal(msUntilChange(timer(1, 0, finished(60_000)), T0), Infinity);
  });

  test("one wake-up for many timers: the soonest change", () => {
    const timers = [timer(1, 0, idle), timer(0, 10, running(0, T0 - 300)), timer(0, 10, running(0, T0 - 800)), timer(5, 0, paused(10))];
    assert.equal(nextChangeIn(timers, T0), 200);
    assert.equal(nextChangeIn([timer(1, 0, idle)], T0), Infinity);
    assert.equal(nextChangeIn([], T0), Infinity);
  });

  test("the written values of a 3-second run: one per second, none twice", () => {
    const t = timer(0, 3, running());
    /** @type {string[]} */
    const written = [];
    let shown = countdownText(timer(0, 3, idle), T0);
    let at = T0;
    for (;;) {
      const next = countdownText(t, at);
      if (changedDigits(shown, next).length) written.push((shown = next));
      const wait = msUntilChange(t, at);
      if (wait === Infinity) break;
      at += wait;
    }
    assert.deepEqual(written, ["0:02", "0:01", "0:00"]);
  });
});

describe("digit changes", () => {
  test("the same text: nothing to write", () => {
    assert.deepEqual(changedDigits("7:30", "7:30"), []);
  });

  test("positions from the right: 0 is the last seconds digit", () => {
    assert.deepEqual(changedDigits("0:03", "0:02"), [0]);
    assert.deepEqual(changedDigits("1:00", "0:59"), [0, 1, 3]);
    assert.deepEqual(changedDigits("0:10", "0:09"), [0, 1]);
  });

  test("a text that gets shorter or longer: the extra digits changed", () => {
    assert.deepEqual(changedDigits("10:00", "9:59"), [0, 1, 3, 4]);
    assert.deepEqual(changedDigits("9:59", "10:00"), [0, 1, 3, 4]);
    assert.deepEqual(changedDigits("", "0:03"), [0, 1, 2, 3]);
  });
});

describe("state", () => {
  test("only a running timer pauses", () => {
    assert.equal(isRunning(timer(1, 0, running())), true);
    for (const run of [idle, paused(1), finished(60_000)]) assert.equal(isRunning(timer(1, 0, run)), false);
  });

  test("an alert for a timer that finishes while shown, not for one that was already finished", () => {
    assert.equal(justFinished(running(), finished(3000)), true);
    assert.equal(justFinished(paused(10), finished(3000)), true, "a shorter length can finish a paused timer");
    assert.equal(justFinished(undefined, finished(3000)), false, "first seen finished (a page opened later)");
    assert.equal(justFinished(finished(3000), finished(3000)), false);
    assert.equal(justFinished(running(), paused(10)), false);
  });
});
