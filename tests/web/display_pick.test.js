// @ts-check
// model/display_pick.js: which timer a display shows, and which comes next.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Board } from "../../web-static/model/board.js";
import { pickDisplayed } from "../../web-static/model/display_pick.js";

const idle = { status: "idle", elapsed: 0 };
const running = { status: "running", startedAt: 1000, elapsed: 0 };
const paused = { status: "paused", elapsed: 5000 };
/** @param {number} at */
const finished = (at) => ({ status: "finished", elapsed: 0, finishedAt: at });

/**
 * @param {{sequence?: boolean, loop?: boolean, kinds?: Record<string, string>}} options kinds: a
 *   timer's kind by its id, when not a countdown
 * @param {Record<string, any>[]} runs each timer's run, in display order, in one section
 */
function board(runs, { sequence = false, loop = false, kinds = {} } = {}) {
  const b = new Board();
  b.putSection({ id: "s1", title: "Rounds", isExpanded: true, createdDate: 0, order: "a0", sequence, loop });
  runs.forEach((run, index) => b.putTimer({
    id: `t${index + 1}`, sectionID: "s1", title: `Round ${index + 1}`, minutes: 1, seconds: 0, createdDate: 0, order: `a${index}`, run: /** @type {any} */ (run),
    ...(kinds[`t${index + 1}`] ? { kind: /** @type {any} */ (kinds[`t${index + 1}`]) } : {}),
  }));
  return b;
}

/** @param {ReturnType<typeof pickDisplayed>} pick */
const ids = (pick) => [pick.timer?.id ?? null, pick.next?.id ?? null];

describe("which timer a display shows", () => {
  test("the running one, before a paused one; next is the following idle one", () => {
    assert.deepEqual(ids(pickDisplayed(board([paused, idle, running, idle]))), ["t3", "t4"]);
  });

  test("a clock is never next: it shows the time of day and never runs", () => {
    assert.deepEqual(ids(pickDisplayed(board([running, idle, idle], { kinds: { t2: "clock" } }))), ["t1", "t3"]);
    assert.deepEqual(ids(pickDisplayed(board([running, idle], { kinds: { t2: "clock" } }))), ["t1", null]);
  });

  test("no running: the paused one", () => {
    assert.deepEqual(ids(pickDisplayed(board([idle, paused, idle]))), ["t2", "t3"]);
  });

  test("nothing ran: the first idle one, next the second", () => {
    assert.deepEqual(ids(pickDisplayed(board([idle, idle, idle]))), ["t1", "t2"]);
  });

  test("the timer that finished last counts overtime before an idle one is shown", () => {
    assert.deepEqual(ids(pickDisplayed(board([finished(10), finished(20), idle]))), ["t2", "t3"]);
  });

  test("a sequence: the current timer, next in the section; looping, the first after the last", () => {
    assert.deepEqual(ids(pickDisplayed(board([finished(10), running, idle], { sequence: true }))), ["t2", "t3"]);
    assert.deepEqual(ids(pickDisplayed(board([finished(10), finished(20), running], { sequence: true, loop: true }))), ["t3", "t1"]);
    assert.deepEqual(ids(pickDisplayed(board([finished(10), finished(20), running], { sequence: true }))), ["t3", null]);
  });

  test("a sequence: the shown timer's place in it (a named one too); none outside a sequence", () => {
    assert.deepEqual(pickDisplayed(board([finished(10), running, idle], { sequence: true })).place, { position: 2, total: 3 });
    assert.deepEqual(pickDisplayed(board([running, idle, idle], { sequence: true }), "t3").place, { position: 3, total: 3 });
    assert.equal(pickDisplayed(board([finished(10), running, idle])).place, null);
    assert.equal(pickDisplayed(board([running]), "gone").place, null);
  });

  test("a sequence that ended shows its last timer's overtime, not a timer it moved on from", () => {
    const pick = pickDisplayed(board([finished(10), finished(20)], { sequence: true }));
    assert.deepEqual(ids(pick), ["t2", null]);
    assert.equal(pick.movedOn, false);
  });

  test("the address names the timer: shown whatever runs; a timer that is gone is missing", () => {
    const b = board([running, idle]);
    assert.deepEqual(ids(pickDisplayed(b, "t2")), ["t2", null]);
    const gone = pickDisplayed(b, "t9");
    assert.equal(gone.timer, null);
    assert.equal(gone.missing, true);
  });

  test("an empty board shows no timer", () => {
    const pick = pickDisplayed(new Board());
    assert.equal(pick.timer, null);
    assert.equal(pick.missing, false);
  });
});
