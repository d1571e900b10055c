// @ts-check
// The board's sections and timers in the DOM. The first board is built whole (a big board: a
// screenful of timers, and the other sections' timers when they come near the screen); after
// that, each render is told which ids may have changed (the store's `takeTouched`) and looks at
// those only: it compares each with what it shows and patches that element's changed fields,
// moves, adds or removes it (dom_patch.js does the touching). A rename costs one field write,
// whatever the size of the board; a move sorts only the siblings of the list it lands in.

import { DEFAULT_LIMITS } from "../wire/constants.js";
import {
  bodyOf, createSectionElement, createTimerElement, fieldOf, formatField, isDirty, placeElement, removeElement, setExpanded,
  setFieldValue, setReadOnly, timerListOf,
} from "./dom_patch.js";
import { compareByOrder } from "../model/order.js";
import { orderedSections, timersBySection } from "../model/store.js";

/** @typedef {import("../model/store.js").Board} Board */
/** @typedef {import("./dom_patch.js").FieldInput} FieldInput */
/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */

/** A board up to this many timers is built whole at once; a bigger one builds a screenful first. */
export const BUILD_AT_ONCE = 300;
/**
 * How many timers the first render of a big board builds when the screen's height is not known: a
 * tall screen's worth. Otherwise it builds the rows one screen can show (ROW_HEIGHT each), the last
 * section cut where the screen ends; the rest, below, is built in slices right after the first
 * frame (within BUILD_MARGIN). Whole sections made the first frame of a 2,000-timer board lay out
 * 40 rows for a screen that shows 13 (docs/performance.md).
 */
export const BUILD_FIRST = 30;
/** A one-line timer row's height in px (style.css: --row-height), to count the rows a screen shows:
 * narrow windows have taller rows, and then more are built than show. */
export const ROW_HEIGHT = 52;
/** How far from the screen a section's timers are built, so they are there before they show. */
export const BUILD_MARGIN = "1500px 0px";
/**
 * How far from the screen a built section drops its timers' elements again (the store keeps the
 * timers): the page then holds what is near the screen, however far the user scrolls. Well
 * beyond BUILD_MARGIN, so a section scrolled past and back is not rebuilt each time.
 */
export const DROP_MARGIN = "6000px 0px";
/** At most this many timers are built per task while sections come near: scrolling never waits on one long task. */
export const BUILD_SLICE = 80;

export class BoardView {
  /**
   * @param {HTMLElement} container #sections
   * @param {{IntersectionObserver?: typeof IntersectionObserver | null, schedule?: (f: () => void) => void, screenHeight?: number}} [env]
   *   for tests: IntersectionObserver null builds everything at once; schedule runs the next build
   *   slice; screenHeight (px, else the screen's) sets how many rows the first render builds
   */
  constructor(container, env = {}) {
    this.container = container;
    // The screen's, not the window's: reading innerHeight makes Chromium lay out the page there and then.
    const height = env.screenHeight ?? container.ownerDocument.defaultView?.screen?.availHeight ?? 0;
    /** How many timers a big board's first render builds: a screenful. */
    this.firstRows = height > 0 ? Math.ceil(height / ROW_HEIGHT) + 1 : BUILD_FIRST;
    this.IntersectionObserver = env.IntersectionObserver === undefined ? globalThis.IntersectionObserver ?? null : env.IntersectionObserver;
    this.schedule = env.schedule ?? ((/** @type {() => void} */ f) => void setTimeout(f, 0));
    /** Sees sections come within BUILD_MARGIN of the screen. @type {IntersectionObserver | null} */
    this.observer = null;
    /** Sees sections go farther than DROP_MARGIN from the screen. @type {IntersectionObserver | null} */
    this.farObserver = null;
    /** Lazy sections near the screen, waiting for their slice, nearest first. @type {Map<string, number>} id → distance from the screen */
    this.queue = new Map();
    this.sliceScheduled = false;
    /**
     * Sections whose timers are not all built (a big board's, far from the screen, or cut where
     * the first screen ended): the rest are in the store, not in the DOM, until the section comes
     * near the screen.
     * @type {Set<string>}
     */
    this.lazy = new Set();
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
    setReadOnly(this.container, readOnly);
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
   * A section's shown timers (in no particular order): for the section's run button.
   * @param {string} sectionId @returns {Timer[]}
   */
  timersIn(sectionId) {
    return [...(this.timersOf.get(sectionId) ?? [])].map((id) => /** @type {Timer} */ (this.timers.get(id)));
  }

  /** Whether a section's timers are all in the DOM (it is not a shell of a big board). @param {string} sectionId */
  isBuilt(sectionId) {
    return this.sections.has(sectionId) && !this.lazy.has(sectionId);
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

  // MARK: first render

  /**
   * The first board. A big one gets its first screenful of timers now and every other timer
   * later: each section below is a shell (the one the screen ends in holds its first rows),
   * whose timers are built when it comes near the screen (#fill). The page shows and answers at
   * once, and a board of 10,000 timers costs what is looked at.
   * @param {Board} board
   */
  #build(board) {
    const timers = timersBySection(board);
    const lazy = board.timers.size > BUILD_AT_ONCE && this.IntersectionObserver !== null;
    let room = lazy ? this.firstRows : Infinity;
    const sections = orderedSections(board).map((section) => {
      const element = this.#createSection(section);
      const list = timers.get(section.id) ?? [];
      const now = list.length <= room ? list : list.slice(0, room);
      timerListOf(element).append(...now.map((t) => this.#createTimer(t)));
      if (now.length < list.length) this.#defer(section.id, element, list.length, now.length);
      else if (lazy) this.#observe(element);
      room -= now.length;
      return element;
    });
    this.container.replaceChildren(...sections);
  }

  /**
   * A section whose timers are not all built: sized for them meanwhile (style.css), so that what
   * is below it does not look near the screen before its rows arrive and push it away.
   * @param {string} id @param {HTMLElement} element @param {number} timers how many it holds @param {number} shown how many are built
   */
  #defer(id, element, timers, shown) {
    this.lazy.add(id);
    element.dataset.built = "false";
    element.style.setProperty("--timers", String(timers));
    element.style.setProperty("--unbuilt", String(timers - shown));
    this.#observe(element);
  }

  /** Watches a big board's section: built when it comes near the screen, dropped when it goes far. @param {HTMLElement} element */
  #observe(element) {
    if (!this.observer) {
      const Observer = /** @type {typeof IntersectionObserver} */ (this.IntersectionObserver);
      this.observer = new Observer((entries) => {
        for (const entry of entries) {
          const id = /** @type {string} */ (/** @type {HTMLElement} */ (entry.target).dataset.id);
          if (!entry.isIntersecting || !this.lazy.has(id)) continue;
          const box = entry.boundingClientRect;
          this.queue.set(id, box ? Math.max(0, box.top, -box.bottom) : 0);
        }
        this.#scheduleSlice();
      }, { rootMargin: BUILD_MARGIN });
      this.farObserver = new Observer((entries) => {
        for (const entry of entries) if (!entry.isIntersecting) this.#drop(/** @type {HTMLElement} */ (entry.target));
      }, { rootMargin: DROP_MARGIN });
    }
    this.observer.observe(element);
    this.farObserver?.observe(element);
  }

  #scheduleSlice() {
    if (this.sliceScheduled || this.queue.size === 0) return;
    this.sliceScheduled = true;
    this.schedule(() => {
      this.sliceScheduled = false;
      this.#buildSlice();
    });
  }

  /**
   * Builds the timers of the queued sections nearest the screen, about BUILD_SLICE timers (whole
   * sections), and leaves the rest to the next task.
   */
  #buildSlice() {
    const nearest = [...this.queue].sort((a, b) => a[1] - b[1]).map(([id]) => id);
    /** @type {string[]} */
    const built = [];
    let count = 0;
    for (const id of nearest) {
      if (count >= BUILD_SLICE) break;
      this.queue.delete(id);
      const ids = this.#fill(id);
      built.push(...ids);
      count += ids.length;
    }
    if (built.length) this.onBuilt(built);
    this.#scheduleSlice();
  }

  /**
   * A lazy section came near the screen: builds the timers it does not show yet, from the board
   * last rendered, each in its place among those it shows.
   * @param {string} id @returns {string[]} the ids built (the section's and its new timers')
   */
  #fill(id) {
    const element = this.elements.get(id);
    if (!element || !this.lazy.delete(id) || !this.board) return [];
    const timers = [...this.board.timers.values()].filter((t) => t.sectionID === id).sort(compareByOrder);
    const added = timers.filter((t) => !this.timers.has(t.id));
    this.patching = true;
    try {
      for (const timer of added) this.#createTimer(timer);
      this.#place(timerListOf(element), timers, new Set(added.map((t) => t.id)));
    } finally {
      this.patching = false;
    }
    delete element.dataset.built;
    element.style.removeProperty("--timers");
    element.style.removeProperty("--unbuilt");
    return [id, ...added.map((t) => t.id)];
  }

  /**
   * A built section went far from the screen: its timers' elements go (the store keeps the
   * timers) and it is a shell again, rebuilt when it comes near. Not while the user is in it.
   * @param {HTMLElement} element
   */
  #drop(element) {
    const id = /** @type {string} */ (element.dataset.id);
    this.queue.delete(id);
    const ids = [...(this.timersOf.get(id) ?? [])];
    if (ids.length === 0 || element.contains(this.doc.activeElement)) return;
    this.patching = true;
    try {
      timerListOf(element).replaceChildren();
    } finally {
      this.patching = false;
    }
    for (const timerId of ids) {
      this.timers.delete(timerId);
      this.elements.delete(timerId);
    }
    this.timersOf.set(id, new Set());
    // A section cut by the first screen already says how many timers it holds; it showed fewer.
    if (!this.lazy.has(id)) element.style.setProperty("--timers", String(ids.length));
    element.style.setProperty("--unbuilt", element.style.getPropertyValue("--timers"));
    this.lazy.add(id);
    element.dataset.built = "false";
    this.onDropped(ids);
  }

  /** @param {Section} section */
  #createSection(section) {
    const element = createSectionElement(this.doc, section, this.limits.maxTitleLength);
    if (this.readOnly) setReadOnly(element, true);
    this.elements.set(section.id, element);
    this.sections.set(section.id, section);
    if (!this.timersOf.has(section.id)) this.timersOf.set(section.id, new Set());
    return element;
  }

  /** @param {Timer} timer */
  #createTimer(timer) {
    const element = createTimerElement(this.doc, timer, this.limits);
    if (this.readOnly) setReadOnly(element, true);
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
      if (this.observer) this.#observe(element);
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
    if (this.lazy.has(timer.sectionID) && before?.sectionID !== timer.sectionID) {
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
    for (const field of /** @type {const} */ (["title", "minutes", "seconds", "warnAt"])) {
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
      this.timers.delete(timerId);
      this.elements.delete(timerId);
    }
    this.timersOf.delete(id);
    this.sections.delete(id);
    const element = this.elements.get(id);
    this.lazy.delete(id);
    this.queue.delete(id);
    if (element) {
      this.observer?.unobserve(element);
      this.farObserver?.unobserve(element);
    }
    this.#remove(id);
  }

  /** @param {string} id */
  #remove(id) {
    const element = this.elements.get(id);
    if (!element) return;
    const active = this.doc.activeElement;
    if (active?.tagName === "INPUT" && /** @type {HTMLElement} */ (active).dataset.field && element.contains(active) && isDirty(/** @type {FieldInput} */ (active))) {
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
