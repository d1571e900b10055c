// @ts-check
// Time of day (issue 30) without a browser: wall-clock times in the board's zone
// (model/wall_clock.js), the faces of each kind and of a scheduled start (model/timer_face.js),
// and a section's totals and a sequence's ahead/behind (model/section_times.js).

import assert from "node:assert/strict";
import { test } from "node:test";

import { formatWallTime, instantOfWall, wallInputValue, boardZone } from "../../web-static/model/wall_clock.js";
import { msUntilChange, ticks, timerFace } from "../../web-static/model/timer_face.js";
import { behindPlan, sectionTimesText, sectionTotals } from "../../web-static/model/section_times.js";

const NINE_PARIS = Date.UTC(2026, 10, 26, 8, 0); // 09:00 in Paris (UTC+1 in November)
const idle = { status: "idle", elapsed: 0 };
/** @param {Record<string, any>} fields */
const timer = (fields) => /** @type {any} */ ({ id: "t", sectionID: "s", title: "T", minutes: 1, seconds: 0, createdDate: 0, order: "a0", run: idle, ...fields });

test("an instant reads the same wall clock in the board's zone on every screen, and back", () => {
  assert.equal(formatWallTime(NINE_PARIS, "Europe/Paris"), "09:00:00");
  assert.equal(formatWallTime(NINE_PARIS, "Asia/Tokyo", { seconds: false }), "17:00");
  assert.equal(wallInputValue(NINE_PARIS, "Europe/Paris"), "2026-11-26T09:00");
  assert.equal(instantOfWall("2026-11-26T09:00", "Europe/Paris"), NINE_PARIS);
  // Summer time: New York is UTC-4 in July.
  assert.equal(instantOfWall("2026-07-01T09:00", "America/New_York"), Date.UTC(2026, 6, 1, 13, 0));
  assert.equal(instantOfWall("9:00", "UTC"), null);
  assert.equal(boardZone({ timeZone: "Not/AZone" }), "UTC");
});

test("a count-up timer counts up from zero and never ends", () => {
  const running = timer({ kind: "countUp", run: { status: "running", startedAt: 1000, elapsed: 5000 } });
  assert.equal(timerFace(running, 1000 + 70_500).text, "1:15");
  assert.equal(ticks(running), true);
  assert.equal(msUntilChange(running, 1000 + 70_500), 500);
  assert.equal(timerFace(timer({ kind: "countUp", run: { status: "paused", elapsed: 12000 } }), 0).text, "0:12");
});

test("a timer to a time of day counts down to its target, and a clock shows the time in the board's zone", () => {
  const toTime = timer({ kind: "toTime", targetAt: NINE_PARIS, run: { status: "running", startedAt: NINE_PARIS - 600_000, elapsed: 0 } });
  assert.equal(timerFace(toTime, NINE_PARIS - 90_000).text, "1:30");
  assert.equal(timerFace(toTime, NINE_PARIS + 5_000).phase, "over");
  const clock = timer({ kind: "clock" });
  assert.equal(timerFace(clock, NINE_PARIS + 1_500, false, "Europe/Paris").text, "09:00:01");
  assert.equal(timerFace(clock, NINE_PARIS + 1_500, false, "America/New_York").text, "03:00:01");
  assert.equal(msUntilChange(clock, NINE_PARIS + 1_500), 500);
});

test("a scheduled start reads 'starts at 09:00, in m:ss' in the board's zone and ticks to it", () => {
  const scheduled = timer({ startAt: NINE_PARIS });
  assert.equal(timerFace(scheduled, NINE_PARIS - 299_500, false, "Europe/Paris").word, "starts at 09:00, in 5:00");
  assert.equal(timerFace(scheduled, NINE_PARIS - 299_500, false, "Asia/Tokyo").word, "starts at 17:00, in 5:00");
  assert.equal(ticks(scheduled), true);
  assert.equal(msUntilChange(scheduled, NINE_PARIS - 299_500), 500);
  assert.equal(timerFace(timer({ startAt: null }), 0).word, "Ready");
});

test("a section's totals, and a sequence behind by its pause and ahead by a skip", () => {
  const L = 60_000;
  const done = { status: "finished", elapsed: L, finishedAt: 100_000 + L };
  // The first ran on time; the second started at the hand-over, paused 20 s, and runs again.
  const ordered = [
    timer({ id: "a", order: "a0", run: done }),
    timer({ id: "b", order: "a1", run: { status: "running", startedAt: 100_000 + L + 30_000, elapsed: 10_000 } }),
    timer({ id: "c", order: "a2" }),
  ];
  const now = 100_000 + L + 40_000;
  assert.deepEqual(sectionTotals(ordered, now), { total: 3 * L, elapsed: L + 20_000, left: 2 * L - 20_000 });
  assert.equal(behindPlan(ordered, now), 20_000);
  assert.equal(sectionTimesText(ordered, true, now), "3:00 in all · 1:20 done · 1:40 left · 0:20 behind");
  // The second skipped after 30 s: the third started then, so the show is 30 s ahead.
  const skipped = [
    timer({ id: "a", run: { status: "finished", elapsed: L, finishedAt: 100_000 + L } }),
    timer({ id: "b", run: { status: "finished", elapsed: L, finishedAt: 100_000 + L + 30_000 } }),
    timer({ id: "c", run: { status: "running", startedAt: 100_000 + L + 30_000, elapsed: 0 } }),
  ];
  assert.equal(behindPlan(skipped, 100_000 + L + 40_000), -30_000);
  assert.match(sectionTimesText(skipped, true, 100_000 + L + 40_000), /0:30 ahead$/);
  // "+1 min" on the first timer while it runs: a minute behind.
  const added = [timer({ id: "a", run: { status: "running", startedAt: 100_000, elapsed: -60_000 } })];
  assert.equal(behindPlan(added, 130_000), 60_000);
  assert.equal(behindPlan([timer({})], 0), null, "a sequence that does not run");
});
