// @ts-check
// model/timer_face.js: what a countdown shows for each run state at a given server time, and when it
// changes by itself.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import {
  countdownText, countedMs, deadlineOf, formatClock, formatOvertime, isWarning, justFinished, lengthMs,
  msUntilChange, overSince, remainingMs, shownSeconds, ticks, timerFace,
} from "../../web-static/model/timer_face.js";
import { parseServerMessage } from "../../web-static/wire/server_messages.js";

const FIXTURES = new URL("../../Tests/Fixtures/protocol/", import.meta.url);
/** @param {string} path */
const fixtureText = (path) => readFileSync(new URL(path, FIXTURES), "utf8");

/** @typedef {import("../../web-static/wire/protocol.js").Run} Run */
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
  test("m:ss under an hour, seconds always two digits", () => {
    assert.equal(formatClock(0), "0:00");
    assert.equal(formatClock(3), "0:03");
    assert.equal(formatClock(59), "0:59");
    assert.equal(formatClock(60), "1:00");
    assert.equal(formatClock(7 * 60 + 30), "7:30");
    assert.equal(formatClock(10 * 60), "10:00");
    assert.equal(formatClock(59 * 60 + 59), "59:59");
  });

  test("h:mm:ss from an hour: a countdown to a time of day hours away reads as a clock does", () => {
    assert.equal(formatClock(3600), "1:00:00");
    assert.equal(formatClock(3 * 3600 + 1 * 60 + 51), "3:01:51");
    assert.equal(formatClock(999 * 60 + 59), "16:39:59");
    assert.equal(formatClock(30 * 3600 + 5), "30:00:05");
    assert.equal(formatOvertime((3600 + 90) * 1000), "+1:01:30");
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
    assert.equal(msUntilChange(t, T0 + 3000), 1000, "at zero: overtime counts up until the server's word");
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

  test("the written values of a 3-second run: one per second, none twice", () => {
    const t = timer(0, 3, running());
    /** @type {string[]} */
    const written = [];
    let shown = countdownText(timer(0, 3, idle), T0);
    let at = T0;
    for (;;) {
      const next = countdownText(t, at);
      if (next !== shown) written.push((shown = next));
      const wait = msUntilChange(t, at);
      // At zero it goes on counting overtime (see "overtime" below); this run ends there.
      if (at >= T0 + 3000) break;
      at += wait;
    }
    assert.deepEqual(written, ["0:02", "0:01", "0:00"]);
  });
});

describe("state", () => {
  test("an alert for a timer that finishes while shown, not for one that was already finished", () => {
    assert.equal(justFinished(running(), finished(3000)), true);
    assert.equal(justFinished(paused(10), finished(3000)), true, "a shorter length can finish a paused timer");
    assert.equal(justFinished(undefined, finished(3000)), false, "first seen finished (a page opened later)");
    assert.equal(justFinished(finished(3000), finished(3000)), false);
    assert.equal(justFinished(running(), paused(10)), false);
  });
});

// MARK: issue 18

/** @param {number} elapsed @param {number} finishedAt */
const overtimeRun = (elapsed, finishedAt) => /** @type {Run} */ ({ status: "finished", elapsed, finishedAt });
/** @param {number} minutes @param {number} seconds @param {Run} run @param {number} warnAt */
const warned = (minutes, seconds, run, warnAt) => ({ minutes, seconds, run, warnAt });

describe("overtime", () => {
  test("formatted as a stopwatch counts: 0:00 for the first second, then +m:ss, rounded down", () => {
    assert.equal(formatOvertime(0), "0:00");
    assert.equal(formatOvertime(999), "0:00");
    assert.equal(formatOvertime(1000), "+0:01");
    assert.equal(formatOvertime(42_500), "+0:42");
    assert.equal(formatOvertime(90_000), "+1:30");
    assert.equal(formatOvertime(-250), "0:00", "a clock estimate a little behind the server's: still at zero");
  });

  test("a finished timer counts up from finishedAt, with the server's clock", () => {
    const eggs = timer(0, 3, overtimeRun(3000, T0));
    assert.deepEqual(timerFace(eggs, T0), { text: "0:00", phase: "over", word: "Time's up" });
    assert.deepEqual(timerFace(eggs, T0 + 42_000), { text: "+0:42", phase: "over", word: "Time's up" });
    assert.equal(overSince(eggs, T0 + 5), T0);
  });

  test("overtime from the golden changeset (finishedAt)", () => {
    const message = parseServerMessage(fixtureText("server/changes-timer-finished-at.json"));
    assert.ok(message?.type === "changes" && message.changes[0].action === "update");
    const run = /** @type {Run} */ (message.changes[0].fields.run);
    assert.deepEqual(timerFace(timer(7, 30, run), /** @type {number} */ (run.finishedAt) + 65_400), { text: "+1:05", phase: "over", word: "Time's up" });
  });

  test("a running timer past its deadline already counts overtime from the deadline (the server's word is on its way)", () => {
    const t = timer(0, 3, running(0, T0));
    assert.equal(deadlineOf(t), T0 + 3000);
    assert.equal(overSince(t, T0 + 2999), null);
    assert.deepEqual(timerFace(t, T0 + 4500), { text: "+0:01", phase: "over", word: "Time's up" });
    // The deadline it counts from is the finishedAt the server will send: the text does not jump.
    assert.equal(timerFace(t, T0 + 4500).text, timerFace(timer(0, 3, overtimeRun(3000, T0 + 3000)), T0 + 4500).text);
  });

  test("a finished timer from a server without finishedAt reads 0:00 and does not tick (as before overtime)", () => {
    const old = timer(7, 30, finished(450_000));
    assert.deepEqual(timerFace(old, T0), { text: "0:00", phase: "over", word: "Time's up" });
    assert.equal(ticks(old), false);
    assert.equal(msUntilChange(old, T0), Infinity);
  });

  test("a finished timer of a sequence that moved on reads Done: no overtime, no ticking", () => {
    const t = timer(0, 3, overtimeRun(3000, T0));
    assert.deepEqual(timerFace(t, T0 + 60_000, true), { text: "0:00", phase: "done", word: "Done" });
    assert.equal(ticks(t, true), false);
    assert.equal(msUntilChange(t, T0 + 60_000, true), Infinity);
  });

  test("overtime wakes once per whole second past the deadline, and each wake-up shows a new text", () => {
    const t = timer(0, 3, overtimeRun(3000, T0));
    assert.equal(msUntilChange(t, T0), 1000);
    assert.equal(msUntilChange(t, T0 + 1250), 750);
    /** @type {string[]} */
    const written = [];
    let shown = "";
    for (let at = T0 + 300; at < T0 + 4000; at += msUntilChange(t, at)) {
      const next = timerFace(t, at).text;
      if (next !== shown) written.push((shown = next));
    }
    assert.deepEqual(written, ["0:00", "+0:01", "+0:02", "+0:03"]);
  });

  test("adjustments: a negative elapsed leaves more than the length, and the countdown shows it", () => {
    const t = timer(1, 0, running(-60_000, T0));
    assert.equal(remainingMs(t, T0), 120_000);
    assert.equal(countdownText(t, T0 + 500), "2:00");
    assert.equal(deadlineOf(t), T0 + 120_000);
  });
});

describe("warning colours", () => {
  test("amber from warnAt to zero (running or paused), red at zero and in overtime, none without warnAt", () => {
    const at = (/** @type {number} */ left) => T0 + 120_000 - left; // a 2:00 timer started at T0
    const t = warned(2, 0, running(0, T0), 60_000);
    assert.equal(timerFace(t, at(60_001)).phase, "", "1:01 left: not yet");
    assert.deepEqual(timerFace(t, at(60_000)), { text: "1:00", phase: "warn", word: "Warning" });
    assert.equal(timerFace(t, at(1)).phase, "warn");
    assert.deepEqual(timerFace(t, at(0)), { text: "0:00", phase: "over", word: "Time's up" });
    assert.equal(timerFace(warned(2, 0, running(0, T0), 0), at(10)).phase, "", "warnAt 0: no warning");
    assert.equal(timerFace(timer(2, 0, running(0, T0)), at(10)).phase, "", "no warnAt: no warning");
    assert.equal(timerFace(warned(2, 0, paused(90_000), 60_000), T0).phase, "warn", "paused with 0:30 left");
    assert.equal(timerFace(warned(0, 30, idle, 60_000), T0).phase, "", "an idle timer is never amber");
  });

  test("isWarning needs time left", () => {
    assert.equal(isWarning(warned(1, 0, running(), 30_000), 0), false);
    assert.equal(isWarning(warned(1, 0, running(), 30_000), 30_000), true);
  });

  test("the colour turns at the warning point: the view wakes up there, even between whole seconds", () => {
    // A warning point that is not a whole second: 10.5 s left on a timer with 12.2 s left.
    const t = warned(0, 20, running(7_800, T0), 10_500);
    assert.equal(remainingMs(t, T0), 12_200);
    assert.equal(msUntilChange(t, T0), 200, "0:13 → 0:12 first");
    assert.equal(msUntilChange(t, T0 + 200), 1000, "12.0 s left: 0:12 → 0:11 comes before the warning point");
    assert.equal(msUntilChange(t, T0 + 1200), 500, "11.0 s left: the warning point in 0.5 s, before 0:10");
    assert.equal(timerFace(t, T0 + 1700).phase, "warn");
    assert.equal(timerFace(t, T0 + 1699).phase, "");
  });
});
