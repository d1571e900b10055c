// @ts-check
// One operation of a local edit, applied the way the server would apply it, so the page shows the
// edit at once. It writes through a WritableBoard: the store applies pending edits to an overlay of
// the confirmed board (overlay.js), never to the confirmed board itself.

import { OP, POSITION, SECTION_FIELDS, TIMER_FIELDS } from "../wire/constants.js";
import { idleRun } from "../wire/protocol.js";
import { orderedSections, orderedTimers } from "./board.js";
import { keyForPosition } from "./order.js";

/** @typedef {import("./board.js").WritableBoard} WritableBoard */
/** @typedef {import("../wire/protocol.js").Op} Op */
/** @typedef {import("../wire/protocol.js").Timer} Timer */

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
