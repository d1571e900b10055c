// @ts-check
// Every timer's countdown, run state, phase (warning, overtime, "Done") and run buttons, and each
// section's run controls (start/pause all, or a sequence's start/pause, skip, progress).

import { RUN, TIMER_KIND } from "../wire/constants.js";
import { setAttribute } from "../dom/kit.js";
import { compareByOrder } from "../model/order.js";
import { progressText } from "../model/sentences.js";
import { isSequence, movedOnIds, sequenceProgress } from "../model/sequence.js";
import { justFinished, msUntilChange, ticks, timerFace } from "../model/timer_face.js";
import { renderSectionRun } from "./section_element.js";
import { renderSectionTimes } from "./section_times.js";
import { nearestRunning } from "./tab_title.js";
import { countdownOf, renderPhase, renderRunState, renderStatusWord, writeCountdown } from "./timer_row.js";

/** @typedef {import("../model/board.js").BoardReader} Board */
/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {{timer: Timer, element: HTMLElement, text: string, phase: string, word: string, movedOn: boolean}} Entry  a timer as shown */

/** @type {Set<string>} */
const NONE = new Set();

/**
 * Every timer's countdown, run state, phase and run buttons, and each section's run controls.
 * Countdowns are drawn from the run state and the server's clock (model/timer_face.js, wire/clock.js), and
 * written only when their text, phase or words change. One scheduler for all timers: a single
 * timeout, set for the soonest moment anything shown changes by itself (a countdown's or an
 * overtime's next second, a warning point, or the tab title's timer); nothing is scheduled while
 * nothing runs. A tick touches the shown timers that tick, nothing else: the work per second is
 * proportional to the timers on screen, whatever the size of the board.
 *
 * What is decided for the whole board (not only what is shown) is kept up to date from the ids
 * each change touches, never by a pass over the board per tick: each timer's last run state (a
 * timer that newly reads "finished" alerts, shown or not), the running timers (the nearest one
 * names the tab), and which finished timers of sequences moved on (they read "Done").
 */
export class CountdownView {
  /**
   * @param {{
   *   elements: Map<string, HTMLElement>,
   *   clock: {serverNow(): number},
   *   onFinished?: (timer: Timer) => void,
   *   onCleared?: (id: string) => void,
   *   onTick?: (serverNow: number) => void,
   *   setTimeout?: (f: () => void, ms: number) => any,
   *   clearTimeout?: (handle: any) => void,
   * }} options
   *   onFinished: a timer of the board has just finished; onCleared: it is no longer finished (or gone)
   *   onTick: after each sync and each tick (the tab title follows `nearest()` with it)
   */
  constructor({
    elements, clock, onFinished = () => {}, onCleared = () => {}, onTick = () => {},
    setTimeout = (f, ms) => globalThis.setTimeout(f, ms), clearTimeout = (handle) => globalThis.clearTimeout(handle),
  }) {
    this.elements = elements;
    this.clock = clock;
    this.onFinished = onFinished;
    this.onCleared = onCleared;
    this.onTick = onTick;
    this.setTimeout = setTimeout;
    this.clearTimeout = clearTimeout;
    /** @type {Map<string, Entry>} each timer as shown */
    this.shown = new Map();
    /** @type {Map<string, Entry>} the shown timers whose face changes by itself (running, or counting overtime) */
    this.ticking = new Map();
    /** @type {Map<string, {section: Section, element: HTMLElement}>} each section as its controls were last drawn */
    this.sections = new Map();
    /** @type {Map<string, Timer>} every timer of the board as last seen, shown or not */
    this.known = new Map();
    /** @type {Map<string, Timer>} the board's running timers, shown or not */
    this.running = new Map();
    /** Finished timers of sequence sections that a later timer followed: they read "Done". */
    this.movedOn = /** @type {Set<string>} */ (new Set());
    /** The running timer nearest its end; undefined when the running timers changed since. @type {Timer | null | undefined} */
    this.nearestTimer = null;
    /** The one pending wake-up, or null. */
    this.wakeUp = /** @type {any} */ (null);
    /** The board as last synced: the headers' times are read from it on a tick. @type {Board | null} */
    this.board = null;
    /** The board's time zone: clocks and scheduled starts are told in it. */
    this.zone = "UTC";
  }

  /** The board's time zone changed: every face that tells a time of day is drawn again. @param {string} zone */
  setZone(zone) {
    if (zone === this.zone) return;
    this.zone = zone;
    const now = this.clock.serverNow();
    for (const entry of this.shown.values()) this.#draw(entry, now);
  }

  /**
   * Brings run states, buttons and countdowns up to `board` for the ids in `touched` (null: every
   * id, after a snapshot). Timers and sections are immutable objects replaced on change, so
   * unchanged ones are skipped by identity.
   * @param {Board} board @param {Iterable<string> | null} touched
   */
  sync(board, touched) {
    this.board = board;
    const now = this.clock.serverNow();
    const ids = touched ?? new Set([...this.known.keys(), ...this.sections.keys(), ...board.sections.keys(), ...board.timers.keys()]);
    /** Sections whose run controls may read differently now. */
    const sections = new Set();
    /** Timers to draw again: the touched ones, and those whose "Done" changed. */
    const draw = new Set();
    /** Timers that newly read "finished": an alert each, unless a sequence moved on from them. */
    const finished = /** @type {Timer[]} */ ([]);
    for (const id of ids) {
      const timer = board.timers.get(id);
      if (timer) {
        if (this.#track(timer, sections)) finished.push(timer);
        draw.add(id);
      } else if (this.known.has(id)) {
        this.#forget(id, sections);
      }
      if (board.sections.has(id) || this.sections.has(id)) sections.add(id);
    }
    this.#syncSections(board, sections, draw);
    // A sequence's planned hand-over (or a skip) finishes a timer and starts the next in one
    // changeset: that is the show going on, not an alarm. Its last timer, or a lone one, alerts.
    for (const timer of finished) if (!this.movedOn.has(timer.id)) this.onFinished(timer);
    for (const id of draw) {
      const timer = board.timers.get(id);
      if (timer) this.#syncTimer(timer, now);
    }
    this.#schedule(now);
    this.onTick(now);
  }

  /**
   * What the whole board needs of a changed timer: whether it just finished (an alert, shown or
   * not), whether it runs (the tab title), and its sections' controls.
   * @param {Timer} timer @param {Set<string>} sections
   * @returns {boolean} whether it just finished
   */
  #track(timer, sections) {
    const before = this.known.get(timer.id);
    if (before === timer) return false;
    this.known.set(timer.id, timer);
    sections.add(timer.sectionID);
    if (before && before.sectionID !== timer.sectionID) sections.add(before.sectionID);
    const wasRunning = this.running.has(timer.id);
    if (timer.run.status === RUN.running) this.running.set(timer.id, timer);
    else this.running.delete(timer.id);
    if (wasRunning || timer.run.status === RUN.running) this.nearestTimer = undefined;
    if (justFinished(before?.run, timer.run)) return true;
    if (before?.run.status === RUN.finished && timer.run.status !== RUN.finished) this.onCleared(timer.id);
    return false;
  }

  /** @param {string} id a timer that is gone @param {Set<string>} sections */
  #forget(id, sections) {
    const timer = /** @type {Timer} */ (this.known.get(id));
    this.known.delete(id);
    if (this.running.delete(id)) this.nearestTimer = undefined;
    this.movedOn.delete(id);
    this.shown.delete(id);
    this.ticking.delete(id);
    sections.add(timer.sectionID);
    this.onCleared(id);
  }

  /** @param {Timer} timer @param {number} now */
  #syncTimer(timer, now) {
    const element = this.elements.get(timer.id);
    const before = this.shown.get(timer.id);
    const movedOn = this.movedOn.has(timer.id);
    if (before && before.timer === timer && before.element === element && before.movedOn === movedOn) return;
    if (!element) return;
    renderRunState(element, timer.run.status);
    // style.css hides what a kind cannot do (a clock does not run; a timer to a time is not adjusted).
    setAttribute(element, "data-timer-kind", timer.kind ?? TIMER_KIND.countdown);
    const same = before?.element === element;
    /** @type {Entry} */
    const entry = {
      timer, element, movedOn,
      text: same ? before.text : countdownOf(element).textContent ?? "",
      phase: same ? before.phase : element.dataset.phase ?? "",
      word: same ? before.word : element.querySelector(".timer-status")?.textContent ?? "",
    };
    this.shown.set(timer.id, entry);
    this.#draw(entry, now);
    if (ticks(timer, movedOn)) this.ticking.set(timer.id, entry);
    else this.ticking.delete(timer.id);
  }

  /**
   * The elements of these timers were dropped (their section went far from the screen): stop
   * drawing on them. Not a clear: a finished timer's alert stays. They are drawn again when built.
   * @param {Iterable<string>} ids
   */
  detach(ids) {
    for (const id of ids) {
      this.shown.delete(id);
      this.ticking.delete(id);
    }
  }

  /** Redraws every ticking face: the clock's estimate changed, the page is visible again, or a tick. */
  redraw() {
    const now = this.clock.serverNow();
    for (const entry of this.ticking.values()) this.#draw(entry, now);
    this.#drawSectionTimes(now);
    this.#schedule(now);
    this.onTick(now);
  }

  /** The board's running timer nearest its end (for the tab title), or null. */
  nearest() {
    if (this.nearestTimer === undefined) this.nearestTimer = nearestRunning(this.running.values());
    return this.nearestTimer;
  }

  /**
   * The run controls of these sections, and for a sequence which of its finished timers moved on
   * (their ids go into `draw` when that changed).
   * @param {Board} board @param {Set<string>} ids the sections to look at @param {Set<string>} draw
   */
  #syncSections(board, ids, draw) {
    for (const id of ids) {
      const section = board.sections.get(id);
      const element = this.elements.get(id);
      // Shown or not (a big board's far section has no rows): its run button reads them all.
      const list = board.timersIn(id);
      const sequence = isSequence(section);
      const ordered = sequence ? [...list].sort(compareByOrder) : list;
      const movedOn = sequence ? movedOnIds(ordered) : NONE;
      for (const timer of list) {
        if (movedOn.has(timer.id) === this.movedOn.has(timer.id)) continue;
        if (movedOn.has(timer.id)) this.movedOn.add(timer.id);
        else this.movedOn.delete(timer.id);
        draw.add(timer.id);
      }
      if (!section || !element) {
        this.sections.delete(id);
        continue;
      }
      const progress = sequence ? sequenceProgress(ordered) : null;
      renderSectionRun(element, {
        ...sectionRunState(list, sequence),
        sequence,
        loop: section.loop === true,
        progress: progress ? progressText(progress) : "",
        current: progress?.state === "running" || progress?.state === "paused",
      });
      renderSectionTimes(element, list, sequence, this.clock.serverNow());
      this.sections.set(id, { section, element });
    }
  }

  /** The times in the headers of sections with a running timer: they change as it runs. @param {number} now */
  #drawSectionTimes(now) {
    const board = this.board;
    if (!board) return;
    for (const id of new Set([...this.running.values()].map((t) => t.sectionID))) {
      const shown = this.sections.get(id);
      if (shown) renderSectionTimes(shown.element, board.timersIn(id), isSequence(shown.section), now);
    }
  }

  /** @param {Entry} entry @param {number} now */
  #draw(entry, now) {
    const face = timerFace(entry.timer, now, entry.movedOn, this.zone);
    if (face.text !== entry.text) {
      writeCountdown(countdownOf(entry.element), face.text);
      entry.text = face.text;
    }
    if (face.phase !== entry.phase) {
      renderPhase(entry.element, face.phase);
      entry.phase = face.phase;
    }
    if (face.word !== entry.word) {
      renderStatusWord(entry.element, face.word);
      entry.word = face.word;
    }
  }

  #tick() {
    this.wakeUp = null;
    this.redraw();
  }

  /**
   * One timeout for everything that changes by itself: the soonest change of any ticking face,
   * or of the tab title's countdown.
   * @param {number} now
   */
  #schedule(now) {
    if (this.wakeUp !== null) this.clearTimeout(this.wakeUp);
    this.wakeUp = null;
    let wait = Infinity;
    for (const entry of this.ticking.values()) wait = Math.min(wait, msUntilChange(entry.timer, now, entry.movedOn));
    const nearest = this.nearest();
    if (nearest) wait = Math.min(wait, msUntilChange(nearest, now));
    // Rounded up: waking a moment early would draw nothing and need another wake-up.
    if (wait !== Infinity) this.wakeUp = this.setTimeout(() => this.#tick(), Math.max(1, Math.ceil(wait)));
  }
}

/**
 * Whether any of a section's timers runs (its button pauses), and whether there is anything to
 * start: an idle or paused timer (what startSection starts), or in a sequence any timer at all
 * (startSection resumes, or starts the first not finished, or the first).
 * @param {Timer[]} timers @param {boolean} [sequence]
 */
export function sectionRunState(timers, sequence = false) {
  return {
    anyRunning: timers.some((t) => t.run.status === RUN.running),
    anyStartable: sequence ? timers.length > 0 : timers.some((t) => t.run.status === RUN.idle || t.run.status === RUN.paused),
  };
}
