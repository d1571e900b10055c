// @ts-check
// A board as plain data: its sections and timers by id, and each section's timer ids, so what a
// section holds costs what it holds, not what the board holds. The store changes it in place, one
// entity at a time, and never changes an entity itself: a change puts a new object in its place, so
// whoever kept the old one (a view) sees by identity that it changed.
//
// A server changeset applies to it in place too (applyChanges): each change costs what it touches.
// Each change is checked against the board (as the server's Board.apply checks operations); one
// that does not fit means this page's copy is wrong. All or nothing: the value of every entity a
// change touches is remembered first, and if a later change does not fit they are put back, in
// reverse order, before the error is thrown, so the board is as it was.

import { BOARD_CHANGE, CHANGE, FIELD, KIND } from "../wire/constants.js";
import { defaultDisplay } from "../wire/protocol.js";
import { compareByOrder } from "./order.js";

/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {import("../wire/protocol.js").Change} Change */
/** @typedef {import("../wire/protocol.js").Display} Display */
/** @typedef {{kind: string, id: string, before: Section | Timer | undefined}} Undo */
/**
 * What the views read of a board: the confirmed board, or the board pending edits show (overlay.js).
 * @typedef {{
 *   readonly sections: ReadonlyMap<string, Section>,
 *   readonly timers: ReadonlyMap<string, Timer>,
 *   readonly display: Display,
 *   timersIn(sectionId: string): Timer[],
 * }} BoardReader
 *   timersIn: a section's timers, in no particular order (orderedTimers sorts them)
 *   display: what the screens show besides the sections; a change replaces the object, so a view
 *   sees by identity that it changed
 */
/**
 * What an operation writes (overlay.js, applyOp), the same on the confirmed board and on an overlay.
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
    /** @type {Display} */
    this.display = defaultDisplay();
  }

  /**
   * A board of a snapshot's entities (copied: the message stays as it came).
   * @param {{sections: Section[], timers: Timer[], display?: Display}} snapshot @returns {Board}
   */
  static fromSnapshot({ sections, timers, display }) {
    const board = new Board();
    if (display) board.display = { ...display };
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

// MARK: a server changeset, in place

/** A changeset that does not fit the confirmed board: the client is out of sync. */
export class StoreError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "StoreError";
  }
}

/**
 * @param {Board} board changed in place
 * @param {Change[]} changes
 * @throws {StoreError} at the first change that does not fit, with the board as it was
 */
export function applyChanges(board, changes) {
  /** @type {Undo[]} */
  const undo = [];
  const display = board.display;
  try {
    for (const change of changes) applyChange(board, change, undo);
  } catch (error) {
    for (const { kind, id, before } of undo.reverse()) putBack(board, kind, id, before);
    board.display = display;
    throw error;
  }
}

/** @param {Board} board @param {Change} change @param {Undo[]} undo */
function applyChange(board, change, undo) {
  /** @param {string} kind @param {string} id */
  const remember = (kind, id) => undo.push({ kind, id, before: kind === KIND.section ? board.sections.get(id) : board.timers.get(id) });
  // The board's own state: a new object, so views see by identity that it changed.
  if (change.kind === BOARD_CHANGE) {
    board.display = { ...board.display, ...change.fields };
    return;
  }
  if (change.action === CHANGE.insert) {
    const entity = change.entity;
    if (board.has(entity.id)) throw new StoreError(`insert of ${entity.id}, which exists`);
    remember(change.kind, entity.id);
    if (change.kind === KIND.section) return board.putSection({ ...change.entity });
    if (!board.sections.has(change.entity.sectionID)) {
      throw new StoreError(`insert of timer ${entity.id} into missing section ${change.entity.sectionID}`);
    }
    return board.putTimer({ ...change.entity });
  }
  const current = change.kind === KIND.section ? board.sections.get(change.id) : board.timers.get(change.id);
  if (!current) throw new StoreError(`${change.action} of missing ${change.kind} ${change.id}`);
  if (change.action === CHANGE.delete) {
    if (change.kind === KIND.timer) {
      remember(KIND.timer, change.id);
      return board.removeTimer(change.id);
    }
    // The server lists a section's timer deletes first; dropping leftovers keeps us consistent anyway.
    for (const timer of board.timersIn(change.id)) remember(KIND.timer, timer.id);
    remember(KIND.section, change.id);
    return board.removeSection(change.id);
  }
  const sectionID = change.fields[FIELD.sectionID];
  if (typeof sectionID === "string" && !board.sections.has(sectionID)) {
    throw new StoreError(`move of timer ${change.id} into missing section ${sectionID}`);
  }
  remember(change.kind, change.id);
  const updated = /** @type {any} */ ({ ...current, ...change.fields });
  if (change.kind === KIND.section) board.putSection(updated);
  else board.putTimer(updated);
}

/** @param {Board} board @param {string} kind @param {string} id @param {Section | Timer | undefined} before */
function putBack(board, kind, id, before) {
  // In reverse order, so a section inserted by the changeset has lost the timers it gained by now.
  if (kind === KIND.section) {
    if (before) board.putSection(/** @type {Section} */ (before));
    else board.removeSection(id);
  } else if (before) {
    board.putTimer(/** @type {Timer} */ (before));
  } else {
    board.removeTimer(id);
  }
}
