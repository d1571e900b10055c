// @ts-check
// The board's sections and timers in the DOM. The first board is built whole (a big board: a
// screenful of timers, and the other sections' timers when they come near the screen: nearby.js);
// after that, each render is told which ids may have changed (the store's `takeTouched`) and looks
// at those only: it compares each with what it shows and patches that element's changed fields,
// moves, adds or removes it (section_element.js and timer_row.js do the touching). A rename costs
// one field write, whatever the size of the board; a move sorts only the siblings of the list it
// lands in.
//
// Stable selectors: #sections (the sections, in display order; data-ready once the board is in),
// #board-page[data-role=owner|edit|view] (view hides every edit control, style.css).

import { DEFAULT_LIMITS } from "../wire/constants.js";
import { orderedSections, orderedTimers, timersBySection } from "../model/board.js";
import { formatField } from "../model/fields.js";
import { compareByOrder } from "../model/order.js";
import { placeElement } from "../dom/kit.js";
import { fieldOf, holdsUnsentText, setFieldValue, setFieldsReadOnly } from "./field.js";
import { BUILD_AT_ONCE, BUILD_FIRST, NearbyRows, ROW_HEIGHT } from "./nearby.js";
import { bodyOf, createSectionElement, setExpanded, timerListOf } from "./section_element.js";
import { TIMER_FIELDS, createTimerElement } from "./timer_row.js";

export { BUILD_AT_ONCE, BUILD_FIRST, BUILD_MARGIN, BUILD_SLICE, DROP_MARGIN, ROW_HEIGHT } from "./nearby.js";

/** @typedef {import("../model/board.js").BoardReader} Board */
/** @typedef {import("./field.js").FieldInput} FieldInput */
/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */

export class BoardView {
  /**
   * @param {HTMLElement} container #sections
   * @param {{IntersectionObserver?: typeof IntersectionObserver | null, schedule?: (f: () => void) => void, idle?: (f: () => void) => void, screenHeight?: number}} [env]
   *   for tests: IntersectionObserver null builds everything at once; schedule runs the next build
   *   slice, idle a task for when the page is idle (nearby.js); screenHeight (px, else the
   *   screen's) sets how many rows the first render builds
   */
  constructor(container, env = {}) {
    this.container = container;
    // The screen's, not the window's: reading innerHeight makes Chromium lay out the page there and then.
    const height = env.screenHeight ?? container.ownerDocument.defaultView?.screen?.availHeight ?? 0;
    /** How many timers a big board's first render builds: a screenful. */
    this.firstRows = height > 0 ? Math.ceil(height / ROW_HEIGHT) + 1 : BUILD_FIRST;
    const Observer = env.IntersectionObserver === undefined ? globalThis.IntersectionObserver ?? null : env.IntersectionObserver;
    /** A big board's rows near the screen; null: everything is built at once. */
    this.nearby = Observer === null ? null : new NearbyRows({
      IntersectionObserver: Observer,
      schedule: env.schedule,
      idle: env.idle,
      fill: (id, max) => this.#fill(id, max),
      drop: (element) => this.#drop(element),
      onBuilt: (ids) => this.onBuilt(ids),
    });
    /** @type {Board | null} the board last rendered, for building a lazy section's timers */
    this.board = null;
    /** Told the ids built after a render (a lazy section's), so the other views can draw on them. */
    this.onBuilt = (/** @type {string[]} */ _ids) => {};
    /** Told the timer ids whose elements were dropped (a section far from the screen), so the other views let go of them. */
    this.onDropped = (/** @type {string[]} */ _ids) => {};
    this.doc = container.ownerDocument;
    /** @type {Map<string, HTMLElement>} every section and timer element, by id */
    this.elements = new Map();
    /** @type {Map<string, Section>} each section as shown */
    this.sections = new Map();
    /** @type {Map<string, Timer>} each timer as shown */
    this.timers = new Map();
    /** @type {Map<string, Set<string>>} the ids of each section's shown timers */
    this.timersOf = new Map();
    this.built = false;
    this.limits = { ...DEFAULT_LIMITS };
    /** True while patching: moving a focused node can fire focusout, which must not commit. */
    this.patching = false;
    /** Sections collapsed remotely while the user types inside them; applied when focus leaves. */
    this.deferredCollapse = new Set();
    /** Called when an element holding unsent text is removed by someone else. */
    this.onLostEdit = (/** @type {string} */ _kind) => {};
    /** A view link's board: every field read-only (style.css hides the edit buttons). */
    this.readOnly = false;
  }

  /** @param {boolean} readOnly */
  setReadOnly(readOnly) {
    if (readOnly === this.readOnly) return;
    this.readOnly = readOnly;
    setFieldsReadOnly(this.container, readOnly);
  }

  /**
   * Shows `board`: whole the first time; then only the ids in `touched` (null: any id, as after a
   * snapshot, which is then compared id by id, so the elements that did not change stay).
   * @param {Board} board @param {Iterable<string> | null} touched
   */
  render(board, touched) {
    this.patching = true;
    try {
      if (!this.built) this.#build(board);
      else this.#patch(board, touched ?? new Set([...this.elements.keys(), ...board.sections.keys(), ...board.timers.keys()]));
    } finally {
      this.patching = false;
    }
    this.built = true;
    this.board = board;
    if (this.container.dataset.ready !== "true") this.container.dataset.ready = "true";
  }

  /**
   * A section's shown timers (in no particular order).
   * @param {string} sectionId @returns {Timer[]}
   */
  timersIn(sectionId) {
    return [...(this.timersOf.get(sectionId) ?? [])].map((id) => /** @type {Timer} */ (this.timers.get(id)));
  }

  /**
   * The row of timer `id`, built now if a big board has not built it yet (its section far from the
   * screen): the run keys can select any timer, and the user must see the one they select.
   * @param {string} id @returns {HTMLElement | undefined}
   */
  reveal(id) {
    const shown = this.elements.get(id);
    const timer = this.board?.timers.get(id);
    if (shown || !this.board || !timer || !this.nearby?.isLazy(timer.sectionID)) return shown;
    // The section's missing rows up to this one, in display order; the rest come as it nears the screen.
    const missing = orderedTimers(this.board, timer.sectionID).filter((t) => !this.timers.has(t.id));
    const { ids } = this.#fill(timer.sectionID, missing.findIndex((t) => t.id === id) + 1);
    this.onBuilt(ids);
    const row = this.elements.get(id);
    // Rendered at once, not when it comes near the screen: it is scrolled to next.
    if (row) this.nearby.forgetRow(row);
    return row;
  }

  /** Focus left a field: apply a collapse that was waiting for it. */
  settle() {
    for (const id of this.deferredCollapse) {
      const section = this.sections.get(id);
      const element = this.elements.get(id);
      if (section && element) this.#applyExpanded(element, section.isExpanded);
      else this.deferredCollapse.delete(id);
    }
  }

  // MARK: first render, and a big board's rows near the screen

  /**
   * The first board. A big one gets its first screenful of timers now and every other timer
   * later: each section below is a shell (the one the screen ends in holds its first rows),
   * whose timers are built when it comes near the screen (#fill). The page shows and answers at
   * once, and a board of 10,000 timers costs what is looked at.
   * @param {Board} board
   */
  #build(board) {
    const timers = timersBySection(board);
    const nearby = board.timers.size > BUILD_AT_ONCE ? this.nearby : null;
    let room = nearby ? this.firstRows : Infinity;
    const sections = orderedSections(board).map((section) => {
      const element = this.#createSection(section);
      const list = timers.get(section.id) ?? [];
      const now = list.length <= room ? list : list.slice(0, room);
      timerListOf(element).append(...now.map((t) => this.#createTimer(t)));
      if (now.length < list.length) nearby?.defer(element, list.length, now.length);
      else nearby?.watch(element);
      room -= now.length;
      return element;
    });
    this.container.replaceChildren(...sections);
  }

  /**
   * A lazy section came near the screen: builds up to `max` of the timers it does not show yet
   * (the first ones in display order), from the board last rendered, each in its place among those
   * it shows. Rows built ahead of the screen render when they come near it (nearby.js, fresh).
   * @param {string} id @param {number} max
   * @returns {{ids: string[], left: number}} the ids built (the section's first), and how many rows it still lacks
   */
  #fill(id, max) {
    const element = this.elements.get(id);
    if (!element || !this.board) return { ids: [], left: 0 };
    const timers = orderedTimers(this.board, id);
    const missing = timers.filter((t) => !this.timers.has(t.id));
    const added = new Set(missing.slice(0, max).map((t) => t.id));
    this.patching = true;
    try {
      const rows = timers.filter((t) => added.has(t.id)).map((timer) => this.#createTimer(timer));
      this.nearby?.fresh(rows);
      this.#place(timerListOf(element), timers.filter((t) => this.timers.has(t.id)), added);
    } finally {
      this.patching = false;
    }
    const left = missing.length - added.size;
    if (left > 0) this.nearby?.lacks(element, left);
    else this.nearby?.built(element);
    return { ids: [id, ...added], left };
  }

  /**
   * A built section went far from the screen: its timers' elements go (the store keeps the
   * timers) and it is a shell again, rebuilt when it comes near. Not while the user is in it.
   * @param {HTMLElement} element @returns {string[]} the timer ids dropped
   */
  #drop(element) {
    const id = /** @type {string} */ (element.dataset.id);
    const ids = [...(this.timersOf.get(id) ?? [])];
    if (ids.length === 0 || element.contains(this.doc.activeElement)) return [];
    this.patching = true;
    try {
      timerListOf(element).replaceChildren();
    } finally {
      this.patching = false;
    }
    for (const timerId of ids) {
      const row = this.elements.get(timerId);
      if (row) this.nearby?.forgetRow(row);
      this.timers.delete(timerId);
      this.elements.delete(timerId);
    }
    this.timersOf.set(id, new Set());
    this.nearby?.dropped(element, ids.length);
    this.onDropped(ids);
    return ids;
  }

  /** @param {Section} section */
  #createSection(section) {
    const element = createSectionElement(this.doc, section, this.limits.maxTitleLength);
    if (this.readOnly) setFieldsReadOnly(element, true);
    this.elements.set(section.id, element);
    this.sections.set(section.id, section);
    if (!this.timersOf.has(section.id)) this.timersOf.set(section.id, new Set());
    return element;
  }

  /** @param {Timer} timer */
  #createTimer(timer) {
    const element = createTimerElement(this.doc, timer, this.limits);
    if (this.readOnly) setFieldsReadOnly(element, true);
    this.elements.set(timer.id, element);
    this.#showTimer(timer);
    return element;
  }

  /** @param {Timer} timer */
  #showTimer(timer) {
    const before = this.timers.get(timer.id);
    if (before && before.sectionID !== timer.sectionID) this.timersOf.get(before.sectionID)?.delete(timer.id);
    this.timers.set(timer.id, timer);
    let ids = this.timersOf.get(timer.sectionID);
    if (!ids) this.timersOf.set(timer.sectionID, (ids = new Set()));
    ids.add(timer.id);
  }

  // MARK: patches

  /**
   * In the order the server lists changes: timer deletes, sections, timers, section deletes, so a
   * timer moved out of a deleted section is in its new place before the old one goes.
   * @param {Board} board @param {Iterable<string>} touched
   */
  #patch(board, touched) {
    const ids = [...new Set(touched)];
    for (const id of ids) if (this.timers.has(id) && !board.timers.has(id)) this.#removeTimer(id);
    /** @type {Set<string>} sections added or moved */
    const movedSections = new Set();
    for (const id of ids) {
      const section = board.sections.get(id);
      if (section && section !== this.sections.get(id) && this.#patchSection(section)) movedSections.add(id);
    }
    if (movedSections.size) this.#place(this.container, orderedSections(board), movedSections);
    /** @type {Map<string, Set<string>>} per section, its timers that were added or moved */
    const movedTimers = new Map();
    for (const id of ids) {
      const timer = board.timers.get(id);
      if (!timer || timer === this.timers.get(id)) continue;
      if (this.#patchTimer(timer)) movedTimers.set(timer.sectionID, (movedTimers.get(timer.sectionID) ?? new Set()).add(id));
    }
    for (const [sectionId, moved] of movedTimers) {
      const section = this.elements.get(sectionId);
      const siblings = this.timersIn(sectionId).sort(compareByOrder);
      if (section) this.#place(timerListOf(section), siblings, moved);
    }
    for (const id of ids) if (this.sections.has(id) && !board.sections.has(id)) this.#removeSection(id);
  }

  /** @param {Section} section @returns {boolean} whether it must be put in place (added or moved) */
  #patchSection(section) {
    const before = this.sections.get(section.id);
    if (!before) {
      const element = this.#createSection(section);
      // On a big board, a new section drops its timers when it goes far from the screen, as the others do.
      if (this.nearby?.watching) this.nearby.watch(element);
      return true;
    }
    const element = /** @type {HTMLElement} */ (this.elements.get(section.id));
    this.sections.set(section.id, section);
    if (section.title !== before.title) setFieldValue(/** @type {FieldInput} */ (fieldOf(element, "title")), section.title);
    if (section.isExpanded !== before.isExpanded) this.#applyExpanded(element, section.isExpanded);
    return section.order !== before.order;
  }

  /** @param {Timer} timer @returns {boolean} whether it must be put in place (added or moved) */
  #patchTimer(timer) {
    const before = this.timers.get(timer.id);
    if (this.nearby?.isLazy(timer.sectionID) && before?.sectionID !== timer.sectionID) {
      // Its section's other timers are built when it comes near the screen, from the board then.
      if (before) this.#removeTimer(timer.id);
      return false;
    }
    if (!before) {
      this.#createTimer(timer);
      return true;
    }
    const element = /** @type {HTMLElement} */ (this.elements.get(timer.id));
    this.#showTimer(timer);
    for (const field of TIMER_FIELDS) {
      if (timer[field] !== before[field]) setFieldValue(/** @type {FieldInput} */ (fieldOf(element, field)), formatField(field, timer[field]));
    }
    return timer.order !== before.order || timer.sectionID !== before.sectionID;
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
  #removeTimer(id) {
    const timer = this.timers.get(id);
    if (timer) this.timersOf.get(timer.sectionID)?.delete(id);
    this.timers.delete(id);
    this.#remove(id);
  }

  /** @param {string} id */
  #removeSection(id) {
    // Timers still shown in it (a cascade the changeset did not list) go with it.
    for (const timerId of this.timersOf.get(id) ?? []) {
      const row = this.elements.get(timerId);
      if (row) this.nearby?.forgetRow(row);
      this.timers.delete(timerId);
      this.elements.delete(timerId);
    }
    this.timersOf.delete(id);
    this.sections.delete(id);
    this.nearby?.forget(id, this.elements.get(id));
    this.#remove(id);
  }

  /** @param {string} id */
  #remove(id) {
    const element = this.elements.get(id);
    if (!element) return;
    const active = this.doc.activeElement;
    if (active?.tagName === "INPUT" && element.contains(active) && holdsUnsentText(/** @type {HTMLInputElement} */ (active))) {
      this.onLostEdit(/** @type {string} */ (element.dataset.kind));
    }
    if (element.dataset.kind === "timer") this.nearby?.forgetRow(element);
    element.remove();
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
