// @ts-check
// A server changeset applied to the confirmed board, in place: each change costs what it touches.
// Each change is checked against the board (as the server's Board.apply checks operations); one
// that does not fit means this page's copy is wrong. All or nothing: the value of every entity a
// change touches is remembered first, and if a later change does not fit they are put back, in
// reverse order, before the error is thrown, so the board is as it was.

import { CHANGE, FIELD, KIND } from "../wire/constants.js";

/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("../wire/protocol.js").Change} Change */
/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {{kind: string, id: string, before: Section | Timer | undefined}} Undo */

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
  try {
    for (const change of changes) applyChange(board, change, undo);
  } catch (error) {
    for (const { kind, id, before } of undo.reverse()) putBack(board, kind, id, before);
    throw error;
  }
}

/** @param {Board} board @param {Change} change @param {Undo[]} undo */
function applyChange(board, change, undo) {
  /** @param {string} kind @param {string} id */
  const remember = (kind, id) => undo.push({ kind, id, before: kind === KIND.section ? board.sections.get(id) : board.timers.get(id) });
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
