// @ts-check
// model/run_keys.js: the board page's run keys.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Board } from "../../web-static/model/board.js";
import { followSequence, runKey, sequenceCurrent, visibleTimerIds } from "../../web-static/model/run_keys.js";

function board({ sequence = false } = {}) {
  const b = new Board();
  b.putSection({ id: "s1", title: "A", isExpanded: true, createdDate: 0, order: "a0", sequence });
  b.putSection({ id: "s2", title: "Hidden", isExpanded: false, createdDate: 0, order: "a1" });
  const run = (/** @type {string} */ status) => /** @type {any} */ (status === "running" ? { status, startedAt: 1, elapsed: 0 } : { status, elapsed: 0 });
  b.putTimer({ id: "t1", sectionID: "s1", title: "One", minutes: 1, seconds: 0, createdDate: 0, order: "a0", run: run("running") });
  b.putTimer({ id: "t2", sectionID: "s1", title: "Two", minutes: 1, seconds: 0, createdDate: 0, order: "a1", run: run("idle") });
  b.putTimer({ id: "t3", sectionID: "s2", title: "Three", minutes: 1, seconds: 0, createdDate: 0, order: "a0", run: run("idle") });
  return b;
}

test("arrows move through the timers on screen, not into a collapsed section", () => {
  const b = board();
  assert.deepEqual(visibleTimerIds(b), ["t1", "t2"]);
  assert.deepEqual(runKey(b, null, "ArrowDown"), { selected: "t1", ops: [] });
  assert.deepEqual(runKey(b, "t1", "ArrowDown"), { selected: "t2", ops: [] });
  assert.deepEqual(runKey(b, "t2", "ArrowDown"), { selected: "t2", ops: [] });
  assert.deepEqual(runKey(b, null, "ArrowUp"), { selected: "t2", ops: [] });
});

test("space starts or pauses; + and − a minute on a running timer only; other keys are not ours", () => {
  const b = board();
  assert.deepEqual(runKey(b, "t1", " ")?.ops, [{ op: "pauseTimer", id: "t1" }]);
  assert.deepEqual(runKey(b, "t2", " ")?.ops, [{ op: "startTimer", id: "t2" }]);
  assert.deepEqual(runKey(b, "t1", "+")?.ops, [{ op: "adjustTimer", id: "t1", by: 60000 }]);
  assert.deepEqual(runKey(b, "t1", "-")?.ops, [{ op: "adjustTimer", id: "t1", by: -60000 }]);
  assert.deepEqual(runKey(b, "t2", "+")?.ops, [], "an idle timer has nothing to adjust");
  assert.deepEqual(runKey(b, null, " "), { selected: null, ops: [] });
  assert.equal(runKey(b, "t1", "x"), null);
});

test("N skips to the next timer of a sequence, and does nothing elsewhere", () => {
  assert.deepEqual(runKey(board({ sequence: true }), "t1", "n")?.ops, [{ op: "skipSection", id: "s1" }]);
  assert.deepEqual(runKey(board(), "t1", "N")?.ops, []);
});

test("a selection on the timer a sequence is on follows the sequence when it moves on", () => {
  const b = board({ sequence: true });
  assert.equal(sequenceCurrent(b, "t2"), "t1", "the sequence is on its running timer");
  assert.equal(sequenceCurrent(board(), "t1"), null, "not a sequence");
  // N: t1 finished, t2 runs.
  b.putTimer({ .../** @type {any} */ (b.timers.get("t1")), run: { status: "finished", elapsed: 60000, finishedAt: 2 } });
  b.putTimer({ .../** @type {any} */ (b.timers.get("t2")), run: { status: "running", startedAt: 2, elapsed: 0 } });
  assert.equal(followSequence(b, "t1", "t1"), "t2");
  assert.equal(followSequence(b, "t1", null), "t1", "a selection that was not on the current timer stays");
  assert.equal(followSequence(b, "t2", "t1"), "t2");
  assert.equal(followSequence(b, null, null), null);
});
