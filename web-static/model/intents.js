// @ts-check
// What the user meant: each press, menu and form of the board page, read against the board as it
// is shown, becomes the operations it asks for, or none when there is nothing to do (the item is
// gone, already at the edge, an idle timer has nothing to reset). Pure: board/actions.js and
// board/field.js read the elements, the board's session sends what these return.

import { KIND, RUN } from "../wire/constants.js";
import { newEntityId } from "../wire/ids.js";
import * as protocol from "../wire/protocol.js";
import { orderedSections, orderedTimers } from "./board.js";
import { formatField, parseField, parseTitle } from "./fields.js";
import { FIELD_ERRORS } from "./sentences.js";
import { lengthMs } from "./timer_face.js";

/** @typedef {import("./board.js").BoardReader} BoardReader */
/** @typedef {import("../wire/protocol.js").Op} Op */
/** @typedef {import("./fields.js").FieldLimits} FieldLimits */

// MARK: sections

/** The chevron: show or hide the section's timers, for everyone. @param {BoardReader} board @param {string} id @returns {Op[]} */
export function toggleSection(board, id) {
  const section = board.sections.get(id);
  return section ? [protocol.updateSection({ id, isExpanded: !section.isExpanded })] : [];
}

/** "Sequence": the section's timers run one after another, or not. @param {BoardReader} board @param {string} id @returns {Op[]} */
export function toggleSequence(board, id) {
  const section = board.sections.get(id);
  return section ? [protocol.updateSection({ id, sequence: section.sequence !== true })] : [];
}

/** "Loop": a sequence starts again after its last timer, or not. @param {BoardReader} board @param {string} id @returns {Op[]} */
export function toggleLoop(board, id) {
  const section = board.sections.get(id);
  return section ? [protocol.updateSection({ id, loop: section.loop !== true })] : [];
}

/** A sequence's "Skip": its current timer finishes now and the next starts. @param {BoardReader} board @param {string} id @returns {Op[]} */
export function skipSection(board, id) {
  return board.sections.has(id) ? [protocol.skipSection({ id })] : [];
}

/** A sequence's "Restart": every timer back to idle, the first starts now. @param {BoardReader} board @param {string} id @returns {Op[]} */
export function restartSection(board, id) {
  return board.sections.has(id) ? [protocol.restartSection({ id })] : [];
}

/**
 * A section's run button sends the intent it showed (its data-action), never a toggle of the state
 * at the moment of the press; a start with nothing to start (aria-disabled) does nothing.
 * @param {BoardReader} board @param {string} id @param {string | undefined} action "start" or "pause" @param {boolean} disabled
 * @returns {Op[]}
 */
export function runSection(board, id, action, disabled) {
  if (!board.sections.has(id)) return [];
  if (action === "pause") return [protocol.pauseSection({ id })];
  return action === "start" && !disabled ? [protocol.startSection({ id })] : [];
}

/** @param {BoardReader} board @param {string} id @param {number} delta -1 (up) or 1 (down) @returns {Op[]} */
export function moveSection(board, id, delta) {
  const position = stepPosition(orderedSections(board), id, delta);
  return position ? [protocol.moveSection({ id, position })] : [];
}

/** @param {string} id @returns {Op[]} */
export function deleteSection(id) {
  return [protocol.deleteSection({ id })];
}

/**
 * The "add section" form: a new section at the end, next to the form (so sections typed one after
 * another stay in the order typed), or why its title will not do.
 * @param {string} title as typed @param {FieldLimits} limits
 * @returns {{ops: Op[]} | {error: string}}
 */
export function addSection(title, limits) {
  const parsed = parseTitle(title, limits.maxTitleLength);
  if ("error" in parsed) return parsed;
  return { ops: [protocol.addSection({ id: newEntityId(KIND.section), title: parsed.value, position: protocol.position.last })] };
}

// MARK: timers

/**
 * A timer's run button sends the intent it showed (data-action): two screens pressing Start at once
 * mean start twice, which the server applies once (docs/protocol.md).
 * @param {BoardReader} board @param {string} id @param {string | undefined} action "start" or "pause" @returns {Op[]}
 */
export function runTimer(board, id, action) {
  if (!board.timers.has(id)) return [];
  if (action === "pause") return [protocol.pauseTimer({ id })];
  return action === "start" ? [protocol.startTimer({ id })] : [];
}

/** @param {BoardReader} board @param {string} id @returns {Op[]} nothing for an idle timer */
export function resetTimer(board, id) {
  const timer = board.timers.get(id);
  return timer && timer.run.status !== RUN.idle ? [protocol.resetTimer({ id })] : [];
}

/**
 * "+1 min" / "−1 min": an adjustment the server composes with concurrent ones (two `+1 min` give
 * two minutes).
 * @param {BoardReader} board @param {string} id @param {number} by ms @returns {Op[]}
 */
export function adjustTimer(board, id, by) {
  return board.timers.has(id) && by !== 0 && Number.isSafeInteger(by) ? [protocol.adjustTimer({ id, by })] : [];
}

/** @param {BoardReader} board @param {string} id @param {number} delta -1 (up) or 1 (down) @returns {Op[]} */
export function moveTimer(board, id, delta) {
  const timer = board.timers.get(id);
  const position = timer && stepPosition(orderedTimers(board, timer.sectionID), id, delta);
  return position ? [protocol.moveTimer({ id, position })] : [];
}

/** The "move to" menu: on top of another section. @param {BoardReader} board @param {string} id @param {string} sectionID @returns {Op[]} */
export function moveTimerToSection(board, id, sectionID) {
  if (!sectionID || !board.sections.has(sectionID)) return [];
  return [protocol.moveTimer({ id, sectionID, position: protocol.position.first })];
}

/** @param {BoardReader} board @param {string} id @returns {{id: string, title: string}[]} the sections a timer can move to, in display order */
export function otherSections(board, id) {
  const timer = board.timers.get(id);
  return timer ? orderedSections(board).filter((s) => s.id !== timer.sectionID) : [];
}

/** @param {string} id @returns {Op[]} */
export function deleteTimer(id) {
  return [protocol.deleteTimer({ id })];
}

/**
 * A section's "add timer" form: a new timer at the end of the section, next to the form (a sequence
 * typed Round 1, 2, 3 runs in that order), or why it will not do. Empty
 * minutes or seconds mean 0: "Eggs, 7 min" should not need a 0 typed in.
 * @param {string} sectionID @param {{title: string, minutes: string, seconds: string}} typed @param {FieldLimits} limits
 * @returns {{ops: Op[]} | {error: string}}
 */
export function addTimer(sectionID, typed, limits) {
  const title = parseField("title", typed.title, limits);
  const minutes = parseField("minutes", typed.minutes || "0", limits);
  const seconds = parseField("seconds", typed.seconds || "0", limits);
  for (const parsed of [title, minutes, seconds]) if ("error" in parsed) return parsed;
  const [t, m, s] = /** @type {{value: any}[]} */ ([title, minutes, seconds]).map((p) => p.value);
  return { ops: [protocol.addTimer({ id: newEntityId(KIND.timer), sectionID, title: t, minutes: m, seconds: s, position: protocol.position.last })] };
}

// MARK: a field typed in place

/**
 * What the user typed in a section's or timer's field: the update it means, or why it will not do,
 * or `same` (the value as it reads) when it says what the board says. An item deleted meanwhile
 * takes no update.
 * @param {BoardReader} board
 * @param {{kind: string, id: string, field: string, text: string}} typed
 * @param {FieldLimits} limits
 * @returns {{ops: Op[]} | {error: string} | {same: string}}
 */
export function editField(board, { kind, id, field, text }, limits) {
  const parsed = parseField(field, text, limits);
  if ("error" in parsed) return parsed;
  const current = /** @type {Record<string, unknown> | undefined} */ (kind === KIND.section ? board.sections.get(id) : board.timers.get(id));
  if (!current) return { ops: [] };
  // A warning point the server never sent is 0, none; one longer than the timer is refused there.
  const now = field === "warnAt" ? current[field] ?? 0 : current[field];
  if (field === "warnAt" && Number(parsed.value) > lengthMs(/** @type {any} */ (current))) return { error: FIELD_ERRORS.warnAtTooLate };
  if (now === parsed.value) return { same: formatField(field, parsed.value) };
  const change = { id, [field]: parsed.value };
  return { ops: [kind === KIND.section ? protocol.updateSection(change) : protocol.updateTimer(change)] };
}

/**
 * Up or down one place among its siblings: before the previous one, or after the next one.
 * @param {{id: string}[]} siblings in display order @param {string} id @param {number} delta -1 or 1
 * @returns {import("../wire/protocol.js").Position | null} null at the edge
 */
function stepPosition(siblings, id, delta) {
  const neighbour = siblings[siblings.findIndex((s) => s.id === id) + delta];
  if (!neighbour) return null;
  return delta < 0 ? protocol.position.before(neighbour.id) : protocol.position.after(neighbour.id);
}
