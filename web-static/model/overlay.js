// @ts-check
// The board as pending edits show it: the confirmed board underneath, and on top only the sections
// and timers the edits set or deleted. Reading an id looks on top first; writing goes on top only,
// so the confirmed board is never touched and dropping the edits is dropping the overlay. It costs
// what the edits touched, whatever the size of the board.

/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */

/**
 * A map read through `top` (null there: deleted) down to `base`.
 * @template V
 * @implements {ReadonlyMap<string, V>}
 */
class LayeredMap {
  /** @param {ReadonlyMap<string, V>} base @param {Map<string, V | null>} top */
  constructor(base, top) {
    this.base = base;
    this.top = top;
  }

  /** @param {string} id @returns {V | undefined} */
  get(id) {
    return this.top.has(id) ? this.top.get(id) ?? undefined : this.base.get(id);
  }

  /** @param {string} id */
  has(id) {
    return this.top.has(id) ? this.top.get(id) != null : this.base.has(id);
  }

  get size() {
    let size = this.base.size;
    for (const [id, value] of this.top) size += (value != null ? 1 : 0) - (this.base.has(id) ? 1 : 0);
    return size;
  }

  /** @returns {IterableIterator<[string, V]>} */
  *entries() {
    for (const [id, value] of this.base) {
      const shown = this.top.has(id) ? this.top.get(id) : value;
      if (shown != null) yield [id, shown];
    }
    for (const [id, value] of this.top) if (value != null && !this.base.has(id)) yield [id, value];
  }

  [Symbol.iterator]() {
    return this.entries();
  }

  *keys() {
    for (const [id] of this.entries()) yield id;
  }

  *values() {
    for (const [, value] of this.entries()) yield value;
  }

  /** @param {(value: V, id: string, map: ReadonlyMap<string, V>) => void} f */
  forEach(f) {
    for (const [id, value] of this.entries()) f(value, id, this);
  }
}

/** @implements {import("./board.js").WritableBoard} */
export class Overlay {
  /** @param {Board} base the confirmed board */
  constructor(base) {
    this.base = base;
    /** @type {Map<string, Section | null>} */
    this.topSections = new Map();
    /** @type {Map<string, Timer | null>} */
    this.topTimers = new Map();
    this.sections = new LayeredMap(base.sections, this.topSections);
    this.timers = new LayeredMap(base.timers, this.topTimers);
  }

  /** Every id the edits set or deleted: where what is shown may differ from the confirmed board. */
  ids() {
    return [...this.topSections.keys(), ...this.topTimers.keys()];
  }

  /** @param {string} id */
  has(id) {
    return this.sections.has(id) || this.timers.has(id);
  }

  /** @param {string} sectionId @returns {Timer[]} in no particular order */
  timersIn(sectionId) {
    /** @type {Timer[]} */
    const timers = [];
    for (const { id } of this.base.timersIn(sectionId)) {
      const shown = this.timers.get(id);
      if (shown && shown.sectionID === sectionId) timers.push(shown);
    }
    for (const [id, timer] of this.topTimers) {
      if (timer && timer.sectionID === sectionId && this.base.timers.get(id)?.sectionID !== sectionId) timers.push(timer);
    }
    return timers;
  }

  /** @param {Section} section */
  putSection(section) {
    this.topSections.set(section.id, section);
  }

  /** @param {Timer} timer */
  putTimer(timer) {
    this.topTimers.set(timer.id, timer);
  }

  /** @param {string} id */
  removeTimer(id) {
    this.topTimers.set(id, null);
  }

  /** @param {string} id */
  removeSection(id) {
    for (const timer of this.timersIn(id)) this.topTimers.set(timer.id, null);
    this.topSections.set(id, null);
  }
}
