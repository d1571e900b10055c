// @ts-check
// Every timer's countdown, run state and run buttons, and each section's start/pause-all button.

import { RUN } from "./constants.js";
import { changedDigits, countdownText, isRunning, justFinished, nextChangeIn } from "./countdown.js";
import { countdownOf, renderRunState, renderSectionRun, writeCountdown } from "./dom_patch.js";

/** @typedef {import("./store.js").Board} Board */
/** @typedef {import("./protocol.js").Section} Section */
/** @typedef {import("./protocol.js").Timer} Timer */

/**
 * Every timer's countdown, run state and run buttons, and each section's start/pause-all button.
 * Countdowns are drawn from the run state and the server's clock (countdown.js, clock.js), and
 * written only when their text changes. One scheduler for all timers: a single timeout, set for
 * the soonest moment any shown text changes (nothing is scheduled while no timer runs).
 */
export class CountdownView {
  /**
   * @param {{
   *   elements: Map<string, HTMLElement>,
   *   clock: {serverNow(): number},
   *   sectionTimers?: (board: Board, sectionIds: Set<string>) => Map<string, Timer[]>,
   *   onFinished?: (timer: Timer) => void,
   *   onCleared?: (id: string) => void,
   *   setTimeout?: (f: () => void, ms: number) => any,
   *   clearTimeout?: (handle: any) => void,
   * }} options
   *   sectionTimers: these sections' timers in `board`, shown or not, for their run buttons (default:
   *   one pass over the board; the page answers a built section from its view, see BoardSession)
   *   onFinished: a shown timer has just finished; onCleared: it is no longer finished (or gone)
   */
  constructor({
    elements, clock, sectionTimers = timersOfSections, onFinished = () => {}, onCleared = () => {},
    setTimeout = (f, ms) => globalThis.setTimeout(f, ms), clearTimeout = (handle) => globalThis.clearTimeout(handle),
  }) {
    this.elements = elements;
    this.clock = clock;
    this.sectionTimers = sectionTimers;
    this.onFinished = onFinished;
    this.onCleared = onCleared;
    this.setTimeout = setTimeout;
    this.clearTimeout = clearTimeout;
    /** @type {Map<string, {timer: Timer, element: HTMLElement, text: string}>} each timer as shown, and its countdown text */
    this.shown = new Map();
    /** @type {Map<string, {section: Section, element: HTMLElement}>} each section as its button was last drawn */
    this.sections = new Map();
    /** @type {Map<string, {timer: Timer, element: HTMLElement, text: string}>} the shown timers that run */
    this.running = new Map();
    /** The one pending wake-up, or null. */
    this.wakeUp = /** @type {any} */ (null);
  }

  /**
   * Brings run states, buttons and countdowns up to `board` for the ids in `touched` (null: every
   * id, after a snapshot). Timers and sections are immutable objects replaced on change, so
   * unchanged ones are skipped by identity.
   * @param {Board} board @param {Iterable<string> | null} touched
   */
  sync(board, touched) {
    const now = this.clock.serverNow();
    const ids = touched ?? new Set([...this.shown.keys(), ...this.sections.keys(), ...board.sections.keys(), ...board.timers.keys()]);
    /** Sections whose start/pause-all button may read differently now. */
    const sections = new Set();
    for (const id of ids) {
      const timer = board.timers.get(id);
      if (timer) this.#syncTimer(timer, now, sections);
      else if (this.shown.has(id)) this.#forget(id, sections);
      if (board.sections.has(id) || this.sections.has(id)) sections.add(id);
    }
    this.#syncSections(board, sections);
    this.#schedule(now);
  }

  /** @param {Timer} timer @param {number} now @param {Set<string>} sections */
  #syncTimer(timer, now, sections) {
    const element = this.elements.get(timer.id);
    const before = this.shown.get(timer.id);
    if (before && before.timer === timer && before.element === element) return;
    // The section's button reads the board's timers, built or not: a far section's "Start all" too.
    sections.add(timer.sectionID);
    if (before) sections.add(before.timer.sectionID);
    if (!element) return;
    renderRunState(element, timer.run.status);
    const entry = { timer, element, text: before?.element === element ? before.text : countdownOf(element).textContent ?? "" };
    this.shown.set(timer.id, entry);
    this.#draw(entry, now);
    if (isRunning(timer)) this.running.set(timer.id, entry);
    else this.running.delete(timer.id);
    if (justFinished(before?.timer.run, timer.run)) this.onFinished(timer);
    else if (before?.timer.run.status === RUN.finished && timer.run.status !== RUN.finished) this.onCleared(timer.id);
  }

  /** @param {string} id a timer that is gone @param {Set<string>} sections */
  #forget(id, sections) {
    const entry = /** @type {{timer: Timer}} */ (this.shown.get(id));
    this.shown.delete(id);
    this.running.delete(id);
    sections.add(entry.timer.sectionID);
    this.onCleared(id);
  }

  /**
   * The elements of these timers were dropped (their section went far from the screen): stop
   * drawing on them. Not a clear: a finished timer's alert stays. They are drawn again when built.
   * @param {Iterable<string>} ids
   */
  detach(ids) {
    for (const id of ids) {
      this.shown.delete(id);
      this.running.delete(id);
    }
  }

  /** Redraws every countdown: the clock's estimate changed, or the page is visible again. */
  redraw() {
    const now = this.clock.serverNow();
    for (const entry of this.running.values()) this.#draw(entry, now);
    this.#schedule(now);
  }

  /** @param {Board} board @param {Set<string>} ids the sections to look at */
  #syncSections(board, ids) {
    if (ids.size === 0) return;
    const timers = this.sectionTimers(board, ids);
    for (const id of ids) {
      const section = board.sections.get(id);
      const element = this.elements.get(id);
      if (!section || !element) {
        this.sections.delete(id);
        continue;
      }
      renderSectionRun(element, sectionRunState(timers.get(id) ?? []));
      this.sections.set(id, { section, element });
    }
  }

  /** @param {{timer: Timer, element: HTMLElement, text: string}} entry @param {number} now */
  #draw(entry, now) {
    const text = countdownText(entry.timer, now);
    if (changedDigits(entry.text, text).length === 0) return;
    writeCountdown(countdownOf(entry.element), text);
    entry.text = text;
  }

  #tick() {
    this.wakeUp = null;
    this.redraw();
  }

  /** One timeout for all running timers, at the soonest change of any of their texts. @param {number} now */
  #schedule(now) {
    if (this.wakeUp !== null) this.clearTimeout(this.wakeUp);
    this.wakeUp = null;
    const wait = nextChangeIn([...this.running.values()].map((e) => e.timer), now);
    // Rounded up: waking a moment early would draw nothing and need another wake-up.
    if (wait !== Infinity) this.wakeUp = this.setTimeout(() => this.#tick(), Math.max(1, Math.ceil(wait)));
  }
}

/**
 * Each of these sections' timers in `board`, in one pass over its timers (in no particular order).
 * @param {Board} board @param {Set<string>} sectionIds @returns {Map<string, Timer[]>}
 */
export function timersOfSections(board, sectionIds) {
  /** @type {Map<string, Timer[]>} */
  const result = new Map([...sectionIds].map((id) => [id, []]));
  for (const timer of board.timers.values()) result.get(timer.sectionID)?.push(timer);
  return result;
}

/**
 * Whether any of a section's timers runs (its button pauses all), and whether any can be started
 * (idle or paused: what startSection starts).
 * @param {Timer[]} timers
 */
export function sectionRunState(timers) {
  return {
    anyRunning: timers.some((t) => t.run.status === RUN.running),
    anyStartable: timers.some((t) => t.run.status === RUN.idle || t.run.status === RUN.paused),
  };
}
