// @ts-check
// The board as pending edits show it: the confirmed board underneath, and on top only the sections
// and timers the edits set or deleted. Reading an id looks on top first; writing goes on top only,
// so the confirmed board is never touched and dropping the edits is dropping the overlay. It costs
// what the edits touched, whatever the size of the board. An edit's operations are applied to it
// the way the server would apply them (applyOp), so the page shows the edit at once.

import { OP, POSITION, SECTION_FIELDS, TIMER_FIELDS } from "../wire/constants.js";
import { idleRun } from "../wire/protocol.js";
import { orderedSections, orderedTimers } from "./board.js";
import { keyForPosition } from "./order.js";

/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("./board.js").WritableBoard} WritableBoard */
/** @typedef {import("../wire/protocol.js").Op} Op */
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

  /** The confirmed display: a message or a blackout shows once the server has it, on every screen at once. */
  get display() {
    return this.base.display;
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

// MARK: an operation, as the server would apply it

/**
 * Applies `op` to `board` with `now` as the created date of added items. Returns false, leaving the
 * board untouched, when the operation no longer applies: its entity or anchor is gone, or an added
 * id is already there (typically our own insert, already confirmed by the server before its ack).
 * Titles and ranges are checked by the UI and the server. Run operations (start, pause, adjust...)
 * show when the server's changeset comes: they apply nothing here.
 * @param {WritableBoard} board @param {Op} op @param {number} now
 * @returns {boolean}
 */
export function applyOp(board, op, now) {
  const apply = OP_APPLIERS[op.op];
  return apply ? apply(board, /** @type {any} */ (op), now) : false;
}

/** @param {WritableBoard} board @param {string} id */
function containsId(board, id) {
  return board.sections.has(id) || board.timers.has(id);
}

/** @type {Record<string, (board: WritableBoard, op: any, now: number) => boolean>} */
const OP_APPLIERS = {
  [OP.addSection](board, op, now) {
    if (containsId(board, op.id)) return false;
    const order = keyForPosition(op.position ?? POSITION.first, orderedSections(board), op.id);
    if (order === null) return false;
    board.putSection({ id: op.id, title: op.title, isExpanded: op.isExpanded ?? true, createdDate: now, order });
    return true;
  },
  [OP.updateSection](board, op) {
    const section = board.sections.get(op.id);
    if (!section) return false;
    board.putSection({ ...section, ...pick(op, SECTION_FIELDS) });
    return true;
  },
  [OP.moveSection](board, op) {
    const section = board.sections.get(op.id);
    const order = section && keyForPosition(op.position, orderedSections(board), op.id);
    if (!section || !order) return false;
    board.putSection({ ...section, order });
    return true;
  },
  [OP.deleteSection](board, op) {
    if (!board.sections.has(op.id)) return false;
    board.removeSection(op.id);
    return true;
  },
  [OP.addTimer](board, op, now) {
    if (containsId(board, op.id) || !board.sections.has(op.sectionID)) return false;
    const order = keyForPosition(op.position ?? POSITION.first, orderedTimers(board, op.sectionID), op.id);
    if (order === null) return false;
    const { id, sectionID, title, minutes, seconds, warnAt } = op;
    /** @type {Timer} */
    const timer = { id, sectionID, title, minutes, seconds, createdDate: now, order, run: idleRun() };
    // As the server writes it: a warning point only when there is one.
    if (warnAt) timer.warnAt = warnAt;
    board.putTimer(timer);
    return true;
  },
  [OP.updateTimer](board, op) {
    const timer = board.timers.get(op.id);
    if (!timer) return false;
    board.putTimer({ ...timer, ...pick(op, TIMER_FIELDS) });
    return true;
  },
  [OP.moveTimer](board, op) {
    const timer = board.timers.get(op.id);
    const sectionID = op.sectionID ?? timer?.sectionID;
    if (!timer || !board.sections.has(sectionID)) return false;
    const order = keyForPosition(op.position, orderedTimers(board, sectionID), op.id);
    if (!order) return false;
    board.putTimer({ ...timer, sectionID, order });
    return true;
  },
  [OP.deleteTimer](board, op) {
    if (!board.timers.has(op.id)) return false;
    board.removeTimer(op.id);
    return true;
  },
};

/** @param {Record<string, unknown>} source @param {readonly string[]} keys the fields to copy when present */
function pick(source, keys) {
  /** @type {Record<string, unknown>} */
  const result = {};
  for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
  return result;
}
