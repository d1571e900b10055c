// @ts-check
// Putting back a section or timer that someone deleted, from the history (docs/protocol.md, HTTP
// API: a history entry's `replaced` holds a deleted item's whole insert). The server's undo undoes
// only the sender's own edits, so a deletion by anyone else is put back by adding the item again,
// with its id, its fields and its place among the siblings it had (before the first sibling whose
// order key follows its own). Its run is not put back: it comes back idle. Pure.

import { CHANGE, KIND } from "../wire/constants.js";
import * as protocol from "../wire/protocol.js";
import { orderedSections, orderedTimers } from "./board.js";

/** @typedef {import("./board.js").BoardReader} BoardReader */
/** @typedef {import("../wire/protocol.js").Op} Op */

/**
 * The operations that add back what an entry deleted: its sections first, then their timers. An
 * item whose id is in use again, or a timer whose section is gone and not put back, is left out.
 * @param {{sections: Record<string, any>[], timers: Record<string, any>[]}} deleted see edit_words.js restorable()
 * @param {BoardReader} board as shown now
 * @returns {Op[]}
 */
export function restoreOps(deleted, board) {
  /** @type {Op[]} */
  const ops = [];
  const inUse = (/** @type {string} */ id) => board.sections.has(id) || board.timers.has(id);
  const sections = deleted.sections.filter((s) => !inUse(s.id));
  const back = new Set(sections.map((s) => s.id));
  for (const section of sections) {
    ops.push(protocol.addSection({
      id: section.id, title: section.title, isExpanded: section.isExpanded, sequence: section.sequence || undefined, loop: section.loop || undefined,
      position: placeAmong(orderedSections(board), section.order),
    }));
  }
  for (const timer of deleted.timers) {
    if (inUse(timer.id) || !(board.sections.has(timer.sectionID) || back.has(timer.sectionID))) continue;
    ops.push(protocol.addTimer({
      id: timer.id, sectionID: timer.sectionID, title: timer.title, minutes: timer.minutes, seconds: timer.seconds,
      warnAt: timer.warnAt || undefined, kind: timer.kind, targetAt: timer.targetAt ?? undefined,
      // Timers of a section put back come in their own order: after each other, as they were.
      position: back.has(timer.sectionID) ? "last" : placeAmong(orderedTimers(board, timer.sectionID), timer.order),
    }));
  }
  return ops;
}

/**
 * Where an item with order key `order` goes among `siblings` (in display order): before the first
 * whose key follows it, else last.
 * @param {{id: string, order: string}[]} siblings @param {string} order
 * @returns {import("../wire/protocol.js").Position}
 */
export function placeAmong(siblings, order) {
  const next = siblings.find((s) => s.order > order);
  return next ? protocol.position.before(next.id) : protocol.position.last;
}

/** Whether a history change is a deletion of a section or a timer. @param {Record<string, any>} change */
export function isDeletion(change) {
  return change[CHANGE.delete] === KIND.section || change[CHANGE.delete] === KIND.timer;
}
