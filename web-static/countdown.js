// @ts-check
// What a timer's countdown shows, from its length, its run state and the server's clock
// (docs/protocol.md, "Timers that run"). Pure: no DOM, no clock of its own; the caller passes the
// server's time (clock.js). The view redraws a countdown only when `countdownText` changes, and
// wakes up once for all running timers, at the earliest `msUntilChange`.

import { RUN } from "./constants.js";

/** @typedef {import("./protocol.js").Timer} Timer */
/** @typedef {import("./protocol.js").Run} Run */
/** @typedef {Pick<Timer, "minutes" | "seconds" | "run">} TimerTimes */

/** The timer's full length in ms. @param {Pick<Timer, "minutes" | "seconds">} timer */
export function lengthMs({ minutes, seconds }) {
  return (minutes * 60 + seconds) * 1000;
}

/**
 * Milliseconds counted so far at server time `serverNow`: what earlier runs counted, plus the
 * current run while it runs. A finished timer has counted its whole length.
 * @param {TimerTimes} timer @param {number} serverNow
 */
export function countedMs(timer, serverNow) {
  const { run } = timer;
  if (run.status === RUN.finished) return lengthMs(timer);
  if (run.status === RUN.idle) return 0;
  const running = run.status === RUN.running && run.startedAt !== undefined ? Math.max(0, serverNow - run.startedAt) : 0;
  return run.elapsed + running;
}

/**
 * Milliseconds left at server time `serverNow`, never below 0 nor above the length:
 * length - elapsed - (running ? now - startedAt : 0).
 * @param {TimerTimes} timer @param {number} serverNow
 */
export function remainingMs(timer, serverNow) {
  const length = lengthMs(timer);
  return Math.min(length, Math.max(0, length - countedMs(timer, serverNow)));
}

/**
 * The whole seconds a countdown shows for `ms` left: rounded up, so it shows 0:03 for the whole
 * first second of a 3-second timer and 0:00 only once it is over.
 * @param {number} ms
 */
export function shownSeconds(ms) {
  return Math.max(0, Math.ceil(ms / 1000));
}

/**
 * m:ss, with as many minute digits as needed (0:03, 7:30, 999:59).
 * @param {number} totalSeconds
 */
export function formatClock(totalSeconds) {
  const whole = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** What the countdown of `timer` reads at server time `serverNow`. @param {TimerTimes} timer @param {number} serverNow */
export function countdownText(timer, serverNow) {
  return formatClock(shownSeconds(remainingMs(timer, serverNow)));
}

/**
 * Milliseconds from `serverNow` until the countdown's text changes by itself: Infinity unless the
 * timer runs and has time left.
 * @param {TimerTimes} timer @param {number} serverNow
 */
export function msUntilChange(timer, serverNow) {
  if (timer.run.status !== RUN.running) return Infinity;
  const left = remainingMs(timer, serverNow);
  if (left <= 0) return Infinity;
  // The text shows ceil(left / 1000) seconds; it changes once `left` reaches the next lower whole second.
  return left - (shownSeconds(left) - 1) * 1000;
}

/**
 * When to wake up next for a set of timers: the soonest change among them (Infinity: no need).
 * @param {Iterable<TimerTimes>} timers @param {number} serverNow
 */
export function nextChangeIn(timers, serverNow) {
  let soonest = Infinity;
  for (const timer of timers) soonest = Math.min(soonest, msUntilChange(timer, serverNow));
  return soonest;
}

/**
 * Which characters of a shown text differ from the text shown before, counted from the right (0
 * is the last seconds digit), so 10:00 → 9:59 changes 0, 1, 3 and 4 (the colon stays). Empty: no
 * write is needed.
 * @param {string} before @param {string} after
 * @returns {number[]}
 */
export function changedDigits(before, after) {
  /** @type {number[]} */
  const changed = [];
  for (let i = 0; i < Math.max(before.length, after.length); i += 1) {
    if (before[before.length - 1 - i] !== after[after.length - 1 - i]) changed.push(i);
  }
  return changed;
}

/** Whether the user can pause the timer (else the toggle starts, resumes or restarts it). @param {{run: Run}} timer */
export function isRunning(timer) {
  return timer.run.status === RUN.running;
}

/**
 * A run state that newly reads "finished", as opposed to one that was already finished (a page
 * opened after the end): only the first deserves an alert.
 * @param {Run | undefined} before the state shown before, undefined for a timer not shown before
 * @param {Run} after
 */
export function justFinished(before, after) {
  return before !== undefined && before.status !== RUN.finished && after.status === RUN.finished;
}
