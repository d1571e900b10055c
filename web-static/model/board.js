// @ts-check
// A board as plain data: its sections and timers by id, and each section's timer ids, so what a
// section holds costs what it holds, not what the board holds. The store changes it in place, one
// entity at a time, and never changes an entity itself: a change puts a new object in its place, so
// whoever kept the old one (a view) sees by identity that it changed.

import { compareByOrder } from "./order.js";

/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */
/**
 * What the views read of a board: the confirmed board, or the board pending edits show (overlay.js).
 * @typedef {{
 *   readonly sections: ReadonlyMap<string, Section>,
 *   readonly timers: ReadonlyMap<string, Timer>,
 *   timersIn(sectionId: string): Timer[],
 * }} BoardReader
 *   timersIn: a section's timers, in no particular order (orderedTimers sorts them)
 */
/**
 * What an operation writes (local_ops.js), the same on the confirmed board and on an overlay.
 * @typedef {BoardReader & {
 *   putSection(section: Section): void,
 *   putTimer(timer: Timer): void,
 *   removeSection(id: string): void,
 *   removeTimer(id: string): void,
 * }} WritableBoard
 *   removeSection: the section and every timer in it
 */

/** @implements {WritableBoard} */
export class Board {
  constructor() {
    /** @type {Map<string, Section>} */
    this.sections = new Map();
    /** @type {Map<string, Timer>} */
    this.timers = new Map();
    /** @type {Map<string, Set<string>>} each section's timer ids */
    this.index = new Map();
  }

  /**
   * A board of a snapshot's entities (copied: the message stays as it came).
   * @param {{sections: Section[], timers: Timer[]}} snapshot @returns {Board}
   */
  static fromSnapshot({ sections, timers }) {
    const board = new Board();
    for (const section of sections) board.putSection({ ...section });
    for (const timer of timers) board.putTimer({ ...timer });
    return board;
  }

  /** @param {string} id a section's or a timer's */
  has(id) {
    return this.sections.has(id) || this.timers.has(id);
  }

  /** @param {string} sectionId @returns {Timer[]} */
  timersIn(sectionId) {
    return [...(this.index.get(sectionId) ?? [])].map((id) => /** @type {Timer} */ (this.timers.get(id)));
  }

  /** @param {Section} section */
  putSection(section) {
    this.sections.set(section.id, section);
    if (!this.index.has(section.id)) this.index.set(section.id, new Set());
  }

  /** @param {Timer} timer */
  putTimer(timer) {
    const before = this.timers.get(timer.id);
    if (before && before.sectionID !== timer.sectionID) this.index.get(before.sectionID)?.delete(timer.id);
    this.timers.set(timer.id, timer);
    let ids = this.index.get(timer.sectionID);
    if (!ids) this.index.set(timer.sectionID, (ids = new Set()));
    ids.add(timer.id);
  }

  /** @param {string} id */
  removeTimer(id) {
    const timer = this.timers.get(id);
    if (!timer) return;
    this.index.get(timer.sectionID)?.delete(id);
    this.timers.delete(id);
  }

  /** @param {string} id */
  removeSection(id) {
    for (const timerId of this.index.get(id) ?? []) this.timers.delete(timerId);
    this.index.delete(id);
    this.sections.delete(id);
  }
}

/** @param {BoardReader} board @returns {Section[]} the sections in display order */
export function orderedSections(board) {
  return [...board.sections.values()].sort(compareByOrder);
}

/** @param {BoardReader} board @param {string} sectionId @returns {Timer[]} the section's timers in display order */
export function orderedTimers(board, sectionId) {
  return board.timersIn(sectionId).sort(compareByOrder);
}

/** @param {BoardReader} board @returns {Map<string, Timer[]>} every section's timers in display order */
export function timersBySection(board) {
  return new Map([...board.sections.keys()].map((id) => [id, orderedTimers(board, id)]));
}
