// @ts-check
// model/timer_face.js progressOf: what a display's progress bar shows for each kind of timer.

import assert from "node:assert/strict";
import { test } from "node:test";

import { progressOf } from "../../web-static/model/timer_face.js";

const T0 = 1_763_740_802_000;
const MIN = 60_000;
/** @param {any} fields */
const timer = (fields) => ({ minutes: 10, seconds: 0, run: { status: "idle", elapsed: 0 }, ...fields });
const running = (startedAt = T0, elapsed = 0) => ({ status: "running", startedAt, elapsed });

test("a countdown's bar is the part of its length counted so far", () => {
  assert.equal(progressOf(timer({}), T0), 0);
  assert.equal(progressOf(timer({ run: running() }), T0 + 5 * MIN), 0.5);
  assert.equal(progressOf(timer({ run: { status: "paused", elapsed: 2.5 * MIN } }), T0), 0.25);
  assert.equal(progressOf(timer({ run: running(T0, 0) }), T0 + 30 * MIN), 1, "overtime: full");
  assert.equal(progressOf(timer({ run: { status: "finished", elapsed: 10 * MIN } }), T0), 1);
  assert.equal(progressOf(timer({ minutes: 0, run: running() }), T0), 1, "no length: full");
});

test("a count to a time of day: the part of the time from its run's start to its target", () => {
  // Its length (one minute here) means nothing to it.
  const toTime = (/** @type {any} */ run) => timer({ kind: "toTime", minutes: 1, targetAt: T0 + 100 * MIN, run });
  assert.equal(progressOf(toTime(running()), T0 + 25 * MIN), 0.25);
  assert.equal(progressOf(toTime(running()), T0 + 2 * MIN), 0.02);
  assert.equal(progressOf(toTime(running()), T0 + 200 * MIN), 1);
  // Started after its target: nothing is left.
  assert.equal(progressOf(toTime(running(T0 + 101 * MIN)), T0 + 102 * MIN), 1);
  assert.equal(progressOf(toTime({ status: "finished", elapsed: 0 }), T0), 1);
  // Not running: no start to measure from, so no bar.
  assert.equal(progressOf(toTime({ status: "idle", elapsed: 0 }), T0), null);
  assert.equal(progressOf(toTime({ status: "paused", elapsed: MIN }), T0), null);
});

test("a clock and a stopwatch have no bar: they never end", () => {
  assert.equal(progressOf(timer({ kind: "clock", minutes: 0 }), T0), null);
  assert.equal(progressOf(timer({ kind: "countUp", minutes: 0, run: running() }), T0 + MIN), null);
  assert.equal(progressOf(timer({ kind: "countUp", minutes: 0, run: { status: "finished", elapsed: MIN } }), T0), null);
});
