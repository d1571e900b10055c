// @ts-check
// What a section's header says about time (issue 30): its total, elapsed and remaining time, and
// for a sequence how far the show is ahead of or behind its plan (docs/protocol.md, "Time of
// day"). Pure: from the timers' run states and the server's time, so every screen says the same.

import { RUN, TIMER_KIND } from "../wire/constants.js";
import { countedMs, formatClock, lengthMs, remainingMs } from "./timer_face.js";

/** @typedef {import("../wire/protocol.js").Timer} Timer */

/** @param {Timer} timer a timer that has a length to count (not a stopwatch, a clock, or one counting to a time) */
function counts(timer) {
  return (timer.kind ?? TIMER_KIND.countdown) === TIMER_KIND.countdown;
}

/**
 * The section's planned total, the time counted so far and the time left, in ms, over its
 * countdown timers.
 * @param {Timer[]} timers @param {number} now server ms
 */
export function sectionTotals(timers, now) {
  let total = 0;
  let elapsed = 0;
  let left = 0;
  for (const timer of timers) {
    if (!counts(timer)) continue;
    const length = lengthMs(timer);
    total += length;
    left += remainingMs(timer, now);
    elapsed += Math.min(length, Math.max(0, countedMs(timer, now)));
  }
  return { total, elapsed, left };
}

/**
 * How far a sequence is behind its plan (negative: ahead), in ms, or null while it does not run:
 * the wall time since its round began minus the planned lengths of the timers done and the time
 * counted on the current one. A pause or "+1 min" puts it behind, a skip ahead. The server keeps
 * no start of the round, so it is read from the first timer: its `startedAt` less what it had
 * counted before, or for a finished first timer its `finishedAt` less its length. So what happened
 * to the first timer itself (a pause, a skip, "−1 min") does not show; from the second on, all does.
 * @param {Timer[]} ordered the sequence's timers in display order @param {number} now server ms
 * @returns {number | null}
 */
export function behindPlan(ordered, now) {
  const current = ordered.findIndex((t) => t.run.status === RUN.running || t.run.status === RUN.paused);
  if (current < 0) return null;
  const first = ordered[0];
  const { run } = first;
  let began = null;
  // Time added to the first timer (a negative elapsed) is behind plan, not an earlier start.
  if (run.status === RUN.running && run.startedAt !== undefined) began = run.startedAt - Math.max(0, run.elapsed);
  else if (run.status === RUN.finished && run.finishedAt !== undefined) began = run.finishedAt - lengthMs(first);
  else if (run.status === RUN.paused && current === 0) return 0;
  if (began === null) return null;
  let planned = 0;
  for (let index = 0; index < current; index += 1) planned += lengthMs(ordered[index]);
  planned += countedMs(ordered[current], now);
  return now - began - planned;
}

/**
 * The header's words: "12:00 in all · 3:00 done · 9:00 left", and for a sequence that runs
 * "· 0:30 behind" or "· 1:00 ahead" ("on time" within a second).
 * @param {Timer[]} ordered in display order @param {boolean} sequence @param {number} now
 */
export function sectionTimesText(ordered, sequence, now) {
  const { total, elapsed, left } = sectionTotals(ordered, now);
  if (total === 0) return "";
  const parts = [`${formatClock(Math.ceil(total / 1000))} in all`, `${formatClock(Math.floor(elapsed / 1000))} done`, `${formatClock(Math.ceil(left / 1000))} left`];
  const behind = sequence ? behindPlan(ordered, now) : null;
  if (behind !== null) {
    const seconds = Math.floor(Math.abs(behind) / 1000);
    parts.push(seconds === 0 ? "on time" : `${formatClock(seconds)} ${behind > 0 ? "behind" : "ahead"}`);
  }
  return parts.join(" · ");
}
