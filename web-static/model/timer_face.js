// @ts-check
// A timer's face: what its countdown shows, how it looks (warning, overtime, "Done") and its state
// in words, from its length, its run state and the server's clock (docs/protocol.md, "Timers that
// run"). Pure: no DOM, no clock of its own; the caller passes the server's time (wire/clock.js). The
// countdowns view (board/countdowns.js) draws a face only when it changes, and wakes up once for all
// running timers, at the earliest `msUntilChange`.

import { RUN, TIMER_KIND } from "../wire/constants.js";
import { STATE_WORDS } from "./sentences.js";
import { formatWallTime } from "./wall_clock.js";

/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {import("../wire/protocol.js").Run} Run */
/** @typedef {Pick<Timer, "minutes" | "seconds" | "run"> & Partial<Pick<Timer, "kind" | "startAt" | "targetAt">>} TimerTimes */

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
  if (run.status === RUN.finished && timer.kind !== TIMER_KIND.countUp) return lengthMs(timer);
  if (run.status === RUN.idle) return 0;
  const running = run.status === RUN.running && run.startedAt !== undefined ? Math.max(0, serverNow - run.startedAt) : 0;
  return run.elapsed + running;
}

/**
 * Milliseconds left at server time `serverNow`, never below 0:
 * length - elapsed - (running ? now - startedAt : 0). It may be more than the length: `+1 min`
 * makes `elapsed` negative (docs/protocol.md, adjustTimer).
 * @param {TimerTimes} timer @param {number} serverNow
 */
export function remainingMs(timer, serverNow) {
  // Counting to a time of day: that instant minus now, whatever the length (or the run).
  if (timer.kind === TIMER_KIND.toTime) return timer.run.status === RUN.finished ? 0 : Math.max(0, (timer.targetAt ?? serverNow) - serverNow);
  return Math.max(0, lengthMs(timer) - countedMs(timer, serverNow));
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
 * m:ss under an hour, h:mm:ss from one (0:03, 59:59, 1:00:00, 16:39:59): a countdown to a time of
 * day hours away, or a stopwatch left running, reads as a clock does, not as "181:51".
 * @param {number} totalSeconds
 */
export function formatClock(totalSeconds) {
  const whole = Math.max(0, Math.floor(totalSeconds));
  const seconds = String(whole % 60).padStart(2, "0");
  if (whole < 3600) return `${Math.floor(whole / 60)}:${seconds}`;
  return `${Math.floor(whole / 3600)}:${String(Math.floor(whole / 60) % 60).padStart(2, "0")}:${seconds}`;
}

/** What the countdown of `timer` reads at server time `serverNow`. @param {TimerTimes} timer @param {number} serverNow */
export function countdownText(timer, serverNow) {
  return formatClock(shownSeconds(remainingMs(timer, serverNow)));
}

// MARK: overtime and warnings (issue 18)

/**
 * How a timer looks beside its text: "" (plain), "warn" (amber: running or paused, `warnAt` or
 * less left), "over" (red: at zero, or counting up past it), "done" (a finished timer of a
 * sequence that moved on: quiet, no overtime).
 * @typedef {"" | "warn" | "over" | "done"} Phase
 */
export const PHASE = Object.freeze({ plain: /** @type {Phase} */ (""), warn: /** @type {Phase} */ ("warn"), over: /** @type {Phase} */ ("over"), done: /** @type {Phase} */ ("done") });

/** @typedef {TimerTimes & {warnAt?: number}} TimerFaceInput */

/**
 * When a running timer reaches zero, in server ms: startedAt + length - elapsed. A finished
 * timer's `finishedAt` is this instant (the server writes the deadline, not when it noticed).
 * @param {TimerTimes} timer @returns {number | null} null unless it runs
 */
export function deadlineOf(timer) {
  const { run } = timer;
  if (run.status !== RUN.running || run.startedAt === undefined || timer.kind === TIMER_KIND.countUp) return null;
  if (timer.kind === TIMER_KIND.toTime) return timer.targetAt ?? null;
  return run.startedAt + lengthMs(timer) - run.elapsed;
}

/**
 * Since when the timer has been over, in server ms: a finished timer's `finishedAt`, or the
 * deadline of a running one already past it (the server's "finished" is on its way). Null when
 * it is not over, or when a server from before overtime sent no `finishedAt`.
 * @param {TimerTimes} timer @param {number} serverNow
 */
export function overSince(timer, serverNow) {
  const { run } = timer;
  if (run.status === RUN.finished) return run.finishedAt ?? null;
  const deadline = deadlineOf(timer);
  return deadline !== null && deadline <= serverNow ? deadline : null;
}

/**
 * Overtime as shown: "0:00" for the first second at zero, then "+0:01", "+1:30": whole seconds
 * counted up from the deadline (rounded down, as a stopwatch counts).
 * @param {number} ms how long it has been over (clamped at 0)
 */
export function formatOvertime(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return seconds === 0 ? "0:00" : `+${formatClock(seconds)}`;
}

/**
 * What a timer's countdown reads, how it looks, and its state in words, at server time `serverNow`.
 * @param {TimerFaceInput} timer
 * @param {number} serverNow
 * @param {boolean} [movedOn] a finished timer of a sequence section that a later timer of it
 *   followed (sequence.js): it reads "Done", not overtime
 * @param {string} [zone] the board's time zone: a clock and a scheduled start are told in it
 * @returns {{text: string, phase: Phase, word: string}}
 */
export function timerFace(timer, serverNow, movedOn = false, zone = "UTC") {
  const { status } = timer.run;
  if (timer.kind === TIMER_KIND.clock) return { text: formatWallTime(serverNow, zone), phase: PHASE.plain, word: STATE_WORDS.clock };
  if (timer.kind === TIMER_KIND.countUp) {
    return { text: formatClock(Math.floor(Math.max(0, countedMs(timer, serverNow)) / 1000)), phase: PHASE.plain, word: STATE_WORDS[status] };
  }
  const scheduled = scheduledWord(timer, serverNow, zone);
  if (status === RUN.finished && movedOn) return { text: formatClock(0), phase: PHASE.done, word: STATE_WORDS.done };
  const since = overSince(timer, serverNow);
  if (since !== null) return { text: formatOvertime(serverNow - since), phase: PHASE.over, word: STATE_WORDS.over };
  // Finished by a server that sent no finishedAt: at zero, as before overtime existed.
  if (status === RUN.finished) return { text: formatClock(0), phase: PHASE.over, word: STATE_WORDS.over };
  const left = remainingMs(timer, serverNow);
  const text = formatClock(shownSeconds(left));
  if (isWarning(timer, left)) return { text, phase: PHASE.warn, word: status === RUN.paused ? STATE_WORDS.paused : STATE_WORDS.warn };
  return { text, phase: PHASE.plain, word: scheduled ?? STATE_WORDS[status] };
}

/**
 * An idle timer with a scheduled start, in words: "starts at 09:00, in 4:59" (the time in the
 * board's zone, then a countdown to it). Null for any other.
 * @param {TimerTimes} timer @param {number} serverNow @param {string} zone
 */
export function scheduledWord(timer, serverNow, zone) {
  if (timer.run.status !== RUN.idle || timer.startAt == null) return null;
  const seconds = timer.startAt % 60000 === 0 ? {} : { seconds: true };
  return `starts at ${formatWallTime(timer.startAt, zone, { seconds: false, ...seconds })}, in ${formatClock(shownSeconds(timer.startAt - serverNow))}`;
}

/**
 * Amber from the warning point to zero: a running or paused timer with `warnAt` ms or less left
 * (and some left). At exactly `warnAt` left the text reads the warning point (1:00), so the colour
 * turns with the text, on every screen that shares the server's clock.
 * @param {TimerFaceInput} timer @param {number} left ms left now
 */
export function isWarning(timer, left) {
  const warnAt = timer.warnAt ?? 0;
  const { status } = timer.run;
  return warnAt > 0 && (status === RUN.running || status === RUN.paused) && left > 0 && left <= warnAt;
}

/**
 * Whether the timer's face changes by itself as time passes (so the view's one timeout must
 * include it): running, or finished and counting overtime.
 * @param {TimerTimes} timer @param {boolean} [movedOn]
 */
export function ticks(timer, movedOn = false) {
  const { run } = timer;
  if (timer.kind === TIMER_KIND.clock || (timer.kind === TIMER_KIND.toTime && run.status !== RUN.finished)) return true;
  if (run.status === RUN.idle && timer.startAt != null) return true;
  return run.status === RUN.running || (run.status === RUN.finished && run.finishedAt !== undefined && !movedOn);
}

/**
 * Milliseconds from `serverNow` until the timer's face (text or phase) changes by itself:
 * the next whole second of the countdown or of the overtime, or the warning point, whichever is
 * first. Infinity when it does not change by itself (idle, paused, "Done", or finished with no
 * `finishedAt`).
 * @param {TimerFaceInput} timer @param {number} serverNow @param {boolean} [movedOn]
 */
export function msUntilChange(timer, serverNow, movedOn = false) {
  if (!ticks(timer, movedOn)) return Infinity;
  // A clock, a stopwatch and the countdown to a scheduled start change on their own whole seconds.
  if (timer.kind === TIMER_KIND.clock) return 1000 - (((serverNow % 1000) + 1000) % 1000);
  if (timer.kind === TIMER_KIND.countUp) return 1000 - (((countedMs(timer, serverNow) % 1000) + 1000) % 1000);
  if (timer.run.status === RUN.idle && timer.startAt != null) {
    const untilStart = timer.startAt - serverNow;
    return untilStart > 0 ? untilStart - (shownSeconds(untilStart) - 1) * 1000 : 1000;
  }
  const since = overSince(timer, serverNow);
  if (since !== null) {
    // Counting up: the next whole second past the deadline.
    const over = serverNow - since;
    return (Math.floor(over / 1000) + 1) * 1000 - over;
  }
  const left = remainingMs(timer, serverNow);
  // The text shows ceil(left / 1000) seconds; it changes once `left` reaches the next lower whole
  // second (at the last second: zero, where overtime begins).
  const nextSecond = left - (shownSeconds(left) - 1) * 1000;
  const warnAt = timer.warnAt ?? 0;
  return warnAt > 0 && left > warnAt ? Math.min(nextSecond, left - warnAt) : nextSecond;
}

/**
 * How much of a display's progress bar is filled, 0 to 1, or null for no bar. A countdown: the
 * part of its length counted (full in overtime). A count to a time of day: the part of the time
 * from its run's start to its target (its length means nothing to it), full once finished, and no
 * bar before it runs. A clock and a stopwatch never end: no bar.
 * @param {TimerTimes} timer @param {number} serverNow @returns {number | null}
 */
export function progressOf(timer, serverNow) {
  const { run } = timer;
  const part = (/** @type {number} */ done, /** @type {number} */ whole) => (whole > 0 ? Math.min(1, Math.max(0, done / whole)) : 1);
  if (timer.kind === TIMER_KIND.clock || timer.kind === TIMER_KIND.countUp) return null;
  if (timer.kind === TIMER_KIND.toTime) {
    if (run.status === RUN.finished) return 1;
    if (run.status !== RUN.running || run.startedAt === undefined || timer.targetAt == null) return null;
    return part(serverNow - run.startedAt, timer.targetAt - run.startedAt);
  }
  return part(countedMs(timer, serverNow), lengthMs(timer));
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
