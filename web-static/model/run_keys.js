// @ts-check
// The board page's run keys (issue 35), decided with no DOM: Space starts or pauses the selected
// timer, the arrows move the selection through the timers on screen (expanded sections, in display
// order), + and − add or take a minute, N skips to the next timer of a sequence; a selection on
// the timer a sequence is on follows the sequence when it moves on. Pure: the board, the selection
// and the key in; the new selection and the operations out.

import { RUN } from "../wire/constants.js";
import { orderedSections, orderedTimers } from "./board.js";
import * as intents from "./intents.js";
import { isSequence, sequenceProgress } from "./sequence.js";

/** @typedef {import("./board.js").BoardReader} BoardReader */
/** @typedef {import("../wire/protocol.js").Op} Op */

/** A minute, as "+1 min" adds it. */
const MINUTE_MS = 60_000;

/** The keys this module answers, as `KeyboardEvent.key` spells them. */
export const RUN_KEYS = Object.freeze([" ", "ArrowDown", "ArrowUp", "+", "=", "-", "−", "n", "N"]);

/** @param {BoardReader} board @returns {string[]} the ids of the timers a user can see, in display order */
export function visibleTimerIds(board) {
  return orderedSections(board).filter((s) => s.isExpanded).flatMap((s) => orderedTimers(board, s.id).map((t) => t.id));
}

/**
 * @param {BoardReader} board @param {string | null} selected the selected timer's id, if any
 * @param {string} key `KeyboardEvent.key`
 * @returns {{selected: string | null, ops: Op[]} | null} null: not a run key
 */
export function runKey(board, selected, key) {
  if (!RUN_KEYS.includes(key)) return null;
  const ids = visibleTimerIds(board);
  const at = selected === null ? -1 : ids.indexOf(selected);
  if (key === "ArrowDown" || key === "ArrowUp") {
    if (ids.length === 0) return { selected: null, ops: [] };
    // With nothing selected, Down takes the first timer and Up the last.
    const next = at < 0 ? (key === "ArrowDown" ? 0 : ids.length - 1) : Math.min(ids.length - 1, Math.max(0, at + (key === "ArrowDown" ? 1 : -1)));
    return { selected: ids[next], ops: [] };
  }
  const timer = at < 0 ? undefined : board.timers.get(ids[at]);
  if (!timer) return { selected: null, ops: [] };
  const { status } = timer.run;
  const adjustable = status === RUN.running || status === RUN.paused;
  switch (key) {
    case " ":
      return { selected: timer.id, ops: intents.runTimer(board, timer.id, status === RUN.running ? "pause" : "start") };
    case "+":
    case "=":
      return { selected: timer.id, ops: adjustable ? intents.adjustTimer(board, timer.id, MINUTE_MS) : [] };
    case "-":
    case "−":
      return { selected: timer.id, ops: adjustable ? intents.adjustTimer(board, timer.id, -MINUTE_MS) : [] };
    default: {
      // N: the next timer of a sequence; elsewhere nothing comes "next" by itself.
      const section = board.sections.get(timer.sectionID);
      return { selected: timer.id, ops: isSequence(section) ? intents.skipSection(board, timer.sectionID) : [] };
    }
  }
}

/**
 * The timer a sequence is on (running, else paused), in the section of timer `id`.
 * @param {BoardReader} board @param {string | null} id
 * @returns {string | null} null: no such timer, no sequence, or the sequence rests
 */
export function sequenceCurrent(board, id) {
  const timer = id === null ? undefined : board.timers.get(id);
  if (!timer || !isSequence(board.sections.get(timer.sectionID))) return null;
  const ordered = orderedTimers(board, timer.sectionID);
  const { state, position } = sequenceProgress(ordered);
  return state === "running" || state === "paused" ? ordered[position - 1].id : null;
}

/**
 * Where the selection goes after the board changed. One that was on the timer its sequence was on
 * moves with the sequence (N, Skip, a hand-over), so the next Space pauses the timer that runs
 * rather than start the one that ran; any other selection stays.
 * @param {BoardReader} board the board now @param {string | null} selected
 * @param {string | null} current sequenceCurrent(board before the change, selected)
 * @returns {string | null}
 */
export function followSequence(board, selected, current) {
  if (selected === null || current !== selected) return selected;
  return sequenceCurrent(board, selected) ?? selected;
}
