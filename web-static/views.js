// @ts-check
// Orchestrates the board's DOM: the first snapshot is built whole; after that, each new displayed
// board is diffed against the previous one and only the ids and fields that changed are patched
// (dom_patch.js does the touching). Also the connection indicator and the toasts, and the
// countdowns of running timers with their alerts.

import { BEEP_COUNT, BEEP_HZ, BEEP_MS, DEFAULT_LIMITS, RUN, TOAST_MS } from "./constants.js";
import { changedDigits, countdownText, isRunning, justFinished, nextChangeIn } from "./countdown.js";
import {
  appendToast, bodyOf, countdownOf, createSectionElement, createTimerElement, fieldOf, formatField, isDirty, markEditing, placeElement,
  removeElement, removeTimerAlert, renderConnection, renderPresenceList, renderRunState, renderSectionRun, safeColor, setExpanded,
  setFieldValue, showTimerAlert, timerListOf, writeCountdown,
} from "./dom_patch.js";
import { diffBoards, orderedSections, orderedTimers, timersBySection } from "./store.js";

/** @typedef {import("./store.js").Board} Board */
/** @typedef {import("./dom_patch.js").FieldInput} FieldInput */
/** @typedef {import("./protocol.js").Section} Section */
/** @typedef {import("./protocol.js").Timer} Timer */

export class BoardView {
  /** @param {HTMLElement} container #sections */
  constructor(container) {
    this.container = container;
    this.doc = container.ownerDocument;
    /** @type {Map<string, HTMLElement>} every section and timer element, by id */
    this.elements = new Map();
    /** @type {Board | null} what the DOM shows now */
    this.shown = null;
    this.limits = { ...DEFAULT_LIMITS };
    /** True while patching: moving a focused node can fire focusout, which must not commit. */
    this.patching = false;
    /** Sections collapsed remotely while the user types inside them; applied when focus leaves. */
    this.deferredCollapse = new Set();
    /** Called when an element holding unsent text is removed by someone else. */
    this.onLostEdit = (/** @type {string} */ _kind) => {};
  }

  /**
   * Shows `board`: whole the first time, then by diff only.
   * @param {Board} board
   */
  render(board) {
    if (board === this.shown) return;
    this.patching = true;
    try {
      if (this.shown === null) this.#build(board);
      else this.#patch(this.shown, board);
    } finally {
      this.patching = false;
    }
    this.shown = board;
    if (this.container.dataset.ready !== "true") this.container.dataset.ready = "true";
  }

  /** Focus left a field: apply a collapse that was waiting for it. */
  settle() {
    for (const id of this.deferredCollapse) {
      const section = this.shown?.sections.get(id);
      const element = this.elements.get(id);
      if (section && element) this.#applyExpanded(element, section.isExpanded);
      else this.deferredCollapse.delete(id);
    }
  }

  // MARK: first render

  /** @param {Board} board */
  #build(board) {
    const timers = timersBySection(board);
    const sections = orderedSections(board).map((section) => {
      const element = this.#createSection(section);
      timerListOf(element).append(...(timers.get(section.id) ?? []).map((t) => this.#createTimer(t)));
      return element;
    });
    this.container.replaceChildren(...sections);
  }

  /** @param {Section} section */
  #createSection(section) {
    const element = createSectionElement(this.doc, section, this.limits.maxTitleLength);
    this.elements.set(section.id, element);
    return element;
  }

  /** @param {Timer} timer */
  #createTimer(timer) {
    const element = createTimerElement(this.doc, timer, this.limits);
    this.elements.set(timer.id, element);
    return element;
  }

  // MARK: patches

  /**
   * In the order the server lists changes: timer deletes, sections, timers, section deletes, so a
   * timer moved out of a deleted section is in its new place before the old one goes.
   * @param {Board} before @param {Board} after
   */
  #patch(before, after) {
    const diff = diffBoards(before, after);
    for (const id of diff.timers.removed) this.#remove(id);
    this.#patchSections(diff.sections, after);
    this.#patchTimers(diff.timers, after);
    for (const id of diff.sections.removed) this.#remove(id);
  }

  /** @param {import("./store.js").EntityDiff} diff @param {Board} after */
  #patchSections(diff, after) {
    const moved = new Set(diff.added);
    for (const id of diff.added) this.#createSection(/** @type {Section} */ (after.sections.get(id)));
    for (const [id, fields] of diff.changed) {
      const section = /** @type {Section} */ (after.sections.get(id));
      const element = /** @type {HTMLElement} */ (this.elements.get(id));
      if (fields.includes("title")) setFieldValue(/** @type {FieldInput} */ (fieldOf(element, "title")), section.title);
      if (fields.includes("isExpanded")) this.#applyExpanded(element, section.isExpanded);
      if (fields.includes("order")) moved.add(id);
    }
    if (moved.size) this.#place(this.container, orderedSections(after), moved);
  }

  /** @param {import("./store.js").EntityDiff} diff @param {Board} after */
  #patchTimers(diff, after) {
    /** @type {Map<string, Set<string>>} per section, its timers that were added or moved */
    const moved = new Map();
    const markMoved = (/** @type {Timer} */ timer) => moved.set(timer.sectionID, (moved.get(timer.sectionID) ?? new Set()).add(timer.id));
    for (const id of diff.added) {
      const timer = /** @type {Timer} */ (after.timers.get(id));
      this.#createTimer(timer);
      markMoved(timer);
    }
    for (const [id, fields] of diff.changed) {
      const timer = /** @type {Timer} */ (after.timers.get(id));
      const element = /** @type {HTMLElement} */ (this.elements.get(id));
      for (const field of /** @type {const} */ (["title", "minutes", "seconds"])) {
        if (fields.includes(field)) setFieldValue(/** @type {FieldInput} */ (fieldOf(element, field)), formatField(field, timer[field]));
      }
      if (fields.includes("order") || fields.includes("sectionID")) markMoved(timer);
    }
    for (const [sectionId, ids] of moved) {
      const section = this.elements.get(sectionId);
      if (section) this.#place(timerListOf(section), orderedTimers(after, sectionId), ids);
    }
  }

  /**
   * Puts the added or moved items of one list in place, moving only them. Going from the last
   * to the first, each is put right before its successor, which is already in place: either it
   * did not move (and unmoved items keep their relative order), or it was placed just before.
   * @param {HTMLElement} parent
   * @param {{id: string}[]} siblings in display order
   * @param {Set<string>} moved
   */
  #place(parent, siblings, moved) {
    for (let index = siblings.length - 1; index >= 0; index -= 1) {
      if (!moved.has(siblings[index].id)) continue;
      const element = /** @type {HTMLElement} */ (this.elements.get(siblings[index].id));
      const next = index + 1 < siblings.length ? this.elements.get(siblings[index + 1].id) ?? null : null;
      placeElement(parent, element, next);
    }
  }

  /** @param {string} id */
  #remove(id) {
    const element = this.elements.get(id);
    if (!element) return;
    const active = this.doc.activeElement;
    if (active instanceof HTMLInputElement && active.dataset.field && element.contains(active) && isDirty(/** @type {FieldInput} */ (active))) {
      this.onLostEdit(/** @type {string} */ (element.dataset.kind));
    }
    removeElement(element);
    this.elements.delete(id);
    this.deferredCollapse.delete(id);
  }

  /**
   * An expand toggle touches only its section. Hiding the body under the user's caret would blur
   * the field they are typing in, so a collapse waits until focus leaves it.
   * @param {HTMLElement} element @param {boolean} expanded
   */
  #applyExpanded(element, expanded) {
    const id = /** @type {string} */ (element.dataset.id);
    if (!expanded && bodyOf(element).contains(this.doc.activeElement)) {
      this.deferredCollapse.add(id);
      return;
    }
    this.deferredCollapse.delete(id);
    if (element.dataset.expanded !== String(expanded)) setExpanded(element, expanded);
  }
}

// MARK: presence

/** @typedef {import("./protocol.js").PresenceUser} PresenceUser */

/**
 * Who else is on the board (the header list) and what they are editing (a mark on that section's
 * header or timer's row, in their colour, with their name). Touches only the marks that change.
 */
export class PresenceView {
  /**
   * @param {{list: HTMLElement, myDot: HTMLElement, elements: Map<string, HTMLElement>, clientId: string, describe: (id: string) => string | null}} options
   */
  constructor({ list, myDot, elements, clientId, describe }) {
    this.list = list;
    this.myDot = myDot;
    this.elements = elements;
    this.clientId = clientId;
    this.describe = describe;
    /** @type {Map<string, {names: string, color: string}>} the marks to show, by section or timer id */
    this.marks = new Map();
    /** Ids marked in the DOM now (their elements may have gone since). */
    this.marked = new Set();
    this.listKey = "";
    /** @type {Map<string, PresenceUser>} everyone on the board, by client id */
    this.users = new Map();
  }

  /** @param {PresenceUser[]} users everyone on the board, this client included */
  show(users) {
    this.users = new Map(users.map((user) => [user.clientId, user]));
    this.#render();
  }

  /**
   * Who arrived or changed what they edit, and who left, since the last presence message.
   * @param {PresenceUser[]} users @param {string[]} left client ids
   */
  change(users, left) {
    for (const clientId of left) this.users.delete(clientId);
    for (const user of users) this.users.set(user.clientId, user);
    this.#render();
  }

  #render() {
    const users = [...this.users.values()].sort((a, b) => a.name.localeCompare(b.name) || (a.clientId < b.clientId ? -1 : 1));
    const me = users.find((u) => u.clientId === this.clientId);
    if (me) this.myDot.style.setProperty("--user-color", safeColor(me.color));
    const others = users.filter((u) => u.clientId !== this.clientId);
    /** @type {Map<string, {names: string, color: string}>} */
    const marks = new Map();
    for (const user of others) {
      if (!user.editing) continue;
      const mark = marks.get(user.editing);
      // Two people on one item: both names, the first one's colour.
      marks.set(user.editing, mark ? { ...mark, names: `${mark.names}, ${user.name}` } : { names: user.name, color: user.color });
    }
    this.marks = marks;
    this.sync();
    const key = JSON.stringify(others.map((u) => [u.clientId, u.name, u.color, u.editing && this.describe(u.editing)]));
    if (key !== this.listKey) {
      this.listKey = key;
      renderPresenceList(this.list, others, this.describe);
    }
  }

  /** Nobody to show (we are not connected, so we do not know). */
  clear() {
    this.show([]);
  }

  /** Puts the marks on the elements that exist now: after a presence list, and after each render. */
  sync() {
    for (const id of this.marked) {
      if (this.marks.has(id)) continue;
      const element = this.elements.get(id);
      if (element) markEditing(element, null);
      this.marked.delete(id);
    }
    for (const [id, mark] of this.marks) {
      const element = this.elements.get(id);
      if (!element) continue;
      markEditing(element, mark);
      this.marked.add(id);
    }
  }
}

// MARK: page chrome

export class StatusView {
  /** @param {HTMLElement} indicator #connection @param {HTMLElement} toasts #toasts */
  constructor(indicator, toasts) {
    this.indicator = indicator;
    this.toasts = toasts;
    this.status = { state: "connecting", attempt: 0, detail: /** @type {string | undefined} */ (undefined), pending: 0 };
  }

  /** @param {Partial<StatusView["status"]>} update */
  update(update) {
    this.status = { ...this.status, ...update };
    renderConnection(this.indicator, this.status);
  }

  /**
   * A brief message, read out by screen readers (the area is role=status).
   * @param {string} text
   */
  toast(text) {
    const toast = appendToast(this.toasts, text);
    setTimeout(() => toast.remove(), TOAST_MS);
  }
}

// MARK: running timers

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
   *   onFinished?: (timer: Timer) => void,
   *   onCleared?: (id: string) => void,
   *   setTimeout?: (f: () => void, ms: number) => any,
   *   clearTimeout?: (handle: any) => void,
   * }} options
   *   onFinished: a shown timer has just finished; onCleared: it is no longer finished (or gone)
   */
  constructor({
    elements, clock, onFinished = () => {}, onCleared = () => {},
    setTimeout = (f, ms) => globalThis.setTimeout(f, ms), clearTimeout = (handle) => globalThis.clearTimeout(handle),
  }) {
    this.elements = elements;
    this.clock = clock;
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
   * Brings run states, buttons and countdowns up to `board`. Timers and sections are immutable
   * objects replaced on change, so unchanged ones are skipped by identity.
   * @param {Board} board
   */
  sync(board) {
    const now = this.clock.serverNow();
    /** Sections whose start/pause-all button may read differently now. */
    const touched = new Set();
    for (const timer of board.timers.values()) {
      const element = this.elements.get(timer.id);
      const before = this.shown.get(timer.id);
      if (!element || (before && before.timer === timer && before.element === element)) continue;
      touched.add(timer.sectionID);
      if (before) touched.add(before.timer.sectionID);
      renderRunState(element, timer.run.status);
      const entry = { timer, element, text: before?.element === element ? before.text : countdownOf(element).textContent ?? "" };
      this.shown.set(timer.id, entry);
      this.#draw(entry, now);
      if (isRunning(timer)) this.running.set(timer.id, entry);
      else this.running.delete(timer.id);
      if (justFinished(before?.timer.run, timer.run)) this.onFinished(timer);
      else if (before?.timer.run.status === RUN.finished && timer.run.status !== RUN.finished) this.onCleared(timer.id);
    }
    for (const [id, entry] of this.shown) {
      if (board.timers.has(id)) continue;
      this.shown.delete(id);
      this.running.delete(id);
      touched.add(entry.timer.sectionID);
      this.onCleared(id);
    }
    this.#syncSections(board, touched);
    this.#schedule(now);
  }

  /** Redraws every countdown: the clock's estimate changed, or the page is visible again. */
  redraw() {
    const now = this.clock.serverNow();
    for (const entry of this.running.values()) this.#draw(entry, now);
    this.#schedule(now);
  }

  /** @param {Board} board @param {Set<string>} touched */
  #syncSections(board, touched) {
    /** @type {Map<string, {anyRunning: boolean, anyStartable: boolean}> | null} built once, when needed */
    let states = null;
    for (const section of board.sections.values()) {
      const element = this.elements.get(section.id);
      const before = this.sections.get(section.id);
      if (!element || (before && before.section === section && before.element === element && !touched.has(section.id))) continue;
      states ??= sectionRunStates(board);
      const state = states.get(section.id) ?? { anyRunning: false, anyStartable: false };
      renderSectionRun(element, state);
      this.sections.set(section.id, { section, element });
    }
    for (const id of this.sections.keys()) if (!board.sections.has(id)) this.sections.delete(id);
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
 * Per section: whether any of its timers runs (its button pauses all), and whether any can be
 * started (idle or paused: what startSection starts).
 * @param {Board} board
 */
function sectionRunStates(board) {
  /** @type {Map<string, {anyRunning: boolean, anyStartable: boolean}>} */
  const states = new Map();
  for (const timer of board.timers.values()) {
    const state = states.get(timer.sectionID) ?? { anyRunning: false, anyStartable: false };
    if (timer.run.status === RUN.running) state.anyRunning = true;
    if (timer.run.status === RUN.idle || timer.run.status === RUN.paused) state.anyStartable = true;
    states.set(timer.sectionID, state);
  }
  return states;
}

/**
 * The alerts of finished timers (visible until dismissed, or until the timer is started or reset
 * again), and the optional beep. Sound is off unless the user turns it on; the audio context is
 * made on that click, as browsers only let a page start sound after a user gesture.
 */
export class TimerAlerts {
  /** @param {HTMLElement} area #timer-alerts */
  constructor(area) {
    this.area = area;
    this.sound = false;
    /** @type {AudioContext | null} */
    this.audio = null;
    /** How many beeps were asked for (for tests: headless browsers play to no speaker). */
    this.beeps = 0;
  }

  /** @param {Timer} timer */
  show(timer) {
    showTimerAlert(this.area, timer.id, `“${timer.title}” is done`);
    if (this.sound) this.#beep();
  }

  /** @param {string} id a timer's id */
  hide(id) {
    removeTimerAlert(this.area, id);
  }

  /** @param {boolean} on */
  setSound(on) {
    this.sound = on;
    if (on) this.unlock();
  }

  /** Makes or resumes the audio context; call from a user gesture (a click, a key). */
  unlock() {
    if (!this.sound) return;
    try {
      this.audio ??= new AudioContext();
      if (this.audio.state === "suspended") void this.audio.resume();
    } catch (error) {
      // No audio here (or not allowed): the visible alert is what counts.
      console.warn("TimerBoard: no sound:", /** @type {Error} */ (error).message);
      this.audio = null;
    }
  }

  /** A few short sine beeps, faded in and out so they do not click. */
  #beep() {
    this.beeps += 1;
    // No click on this page yet (sound was turned on in an earlier visit): try anyway; the browser may allow it.
    if (!this.audio) this.unlock();
    const audio = this.audio;
    if (!audio) return;
    const start = audio.currentTime + 0.01;
    const length = BEEP_MS / 1000;
    for (let i = 0; i < BEEP_COUNT; i += 1) {
      const at = start + i * length * 2;
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = BEEP_HZ;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + length + 0.02);
    }
  }
}
