// @ts-check
// The board's sections and timers in the DOM. The first board is built whole; after that, each
// render is told which ids may have changed (the store's `takeTouched`) and looks at those only:
// it compares each with what it shows and patches that element's changed fields, moves, adds or
// removes it (dom_patch.js does the touching). A rename costs one field write, whatever the size
// of the board; a move sorts only the siblings of the list it lands in.

import { DEFAULT_LIMITS } from "./constants.js";
import {
  bodyOf, createSectionElement, createTimerElement, fieldOf, formatField, isDirty, placeElement, removeElement, setExpanded,
  setFieldValue, timerListOf,
} from "./dom_patch.js";
import { compareByOrder } from "./order.js";
import { orderedSections, timersBySection } from "./store.js";

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
    if (this.container.dataset.ready !== "true") this.container.dataset.ready = "true";
  }

  /**
   * A section's shown timers (in no particular order): for the section's run button.
   * @param {string} sectionId @returns {Timer[]}
   */
  timersIn(sectionId) {
    return [...(this.timersOf.get(sectionId) ?? [])].map((id) => /** @type {Timer} */ (this.timers.get(id)));
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
    this.sections.set(section.id, section);
    if (!this.timersOf.has(section.id)) this.timersOf.set(section.id, new Set());
    return element;
  }

  /** @param {Timer} timer */
  #createTimer(timer) {
    const element = createTimerElement(this.doc, timer, this.limits);
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
      this.#createSection(section);
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
    if (!before) {
      this.#createTimer(timer);
      return true;
    }
    const element = /** @type {HTMLElement} */ (this.elements.get(timer.id));
    this.#showTimer(timer);
    for (const field of /** @type {const} */ (["title", "minutes", "seconds"])) {
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
