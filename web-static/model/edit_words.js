// @ts-check
// What an edit did, in words, for undo's toasts ("Reset of Keynote undone") and the history panel
// ("Ada reset Keynote at 14:02:11"). Pure: it reads the board as it was before the edit (so a
// deleted timer still has its title) and the server's history entries.

import { BOARD_CHANGE, CHANGE, FIELD, KIND, OP, RUN } from "../wire/constants.js";

/** @typedef {import("../wire/protocol.js").Op} Op */
/** @typedef {import("./board.js").BoardReader} BoardReader */

/** The ops that throw something away: their toast offers Undo at once. */
export const DESTRUCTIVE_OPS = Object.freeze([OP.deleteTimer, OP.deleteSection, OP.resetTimer, OP.restartSection]);

/** @param {Op[]} ops */
export function isDestructive(ops) {
  return ops.some((op) => DESTRUCTIVE_OPS.includes(op.op));
}

/** Undo's toasts and buttons. */
export const UNDO_WORDS = Object.freeze({
  undo: "Undo", redo: "Redo", history: "History",
  nothingToUndo: "Nothing of yours to undo.", nothingToRedo: "Nothing to redo.",
  undoTip: "Undo your last edit (Ctrl+Z)", redoTip: "Redo what you undid (Ctrl+Shift+Z)",
});

/**
 * What an undo (or redo) did: all of it, all but what someone else changed since (the ack's
 * `skipped`, named as the user knows them: "the name of Soup", "the timer Pasta"), or nothing.
 * @param {string} label @param {"undo" | "redo"} kind
 * @param {{changed?: boolean, skipped?: {id?: string, field: string}[], titleOf?: (id: string) => string | undefined}} [outcome]
 *   changed: false when it changed nothing; titleOf: an item's title now, if it is there
 */
export function undoneText(label, kind, { changed = true, skipped = [], titleOf = () => undefined } = {}) {
  const verb = kind === "undo" ? "undone" : "redone";
  if (!changed) return `${label} could not be ${verb}: someone else changed it since.`;
  const done = `${label} ${verb}`;
  if (skipped.length === 0) return done;
  const parts = [...new Set(skipped.map((s) => skippedText(s, titleOf)))];
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `${done}, but not ${list}: someone else changed ${parts.length === 1 ? "it" : "them"} since.`;
}

/** The wire's field names (docs/protocol.md, "Undo") as a user knows them; minutes and seconds are one length. */
const FIELD_WORDS = Object.freeze({
  title: "name", minutes: "length", seconds: "length", run: "run", order: "place", sectionID: "section",
  isExpanded: "collapsed or expanded state", warnAt: "warning", kind: "kind", startAt: "start time",
  targetAt: "target time", finishAt: "finish time", sequence: "sequence setting", loop: "loop setting",
  message: "screens' message", blackout: "blackout", timeZone: "time zone",
});

/** @param {{id?: string, field: string}} skipped @param {(id: string) => string | undefined} titleOf */
function skippedText({ id, field }, titleOf) {
  const title = id === undefined ? undefined : titleOf(id);
  // A whole item: an added one not deleted, or a deleted one not put back (then gone: no title).
  if (field === KIND.timer || field === KIND.section) return title === undefined ? `a ${field}` : `the ${field} ${title}`;
  const words = /** @type {Record<string, string>} */ (FIELD_WORDS)[field] ?? field;
  if (id === undefined) return `the ${words}`;
  return title === undefined ? `a ${words}` : `the ${words} of ${title}`;
}

/** @param {string} label an undo the server refused (too old, or not ours) */
export function undoRefusedText(label) {
  return `${label} can no longer be undone.`;
}

/**
 * "Reset of Keynote", "Rename of Prep": what an edit did, named by its first operation.
 * @param {Op[]} ops @param {BoardReader} before the board before the edit
 */
export function editLabel(ops, before) {
  const op = ops[0];
  if (!op) return "Edit";
  const title = (/** @type {unknown} */ id) => {
    const key = String(id ?? "");
    return before.timers.get(key)?.title ?? before.sections.get(key)?.title ?? /** @type {any} */ (op).title ?? "it";
  };
  const of = (/** @type {string} */ noun) => `${noun} of ${title(op.id)}`;
  switch (op.op) {
    case OP.addSection: case OP.addTimer: return `Adding ${op.title}`;
    case OP.deleteTimer: case OP.deleteSection: return of("Delete");
    case OP.resetTimer: return of("Reset");
    case OP.startTimer: case OP.startSection: return of("Start");
    case OP.pauseTimer: case OP.pauseSection: return of("Pause");
    case OP.adjustTimer: return `${Number(op.by) > 0 ? "+" : "−"}${Math.abs(Number(op.by)) / 60000} min on ${title(op.id)}`;
    case OP.moveTimer: case OP.moveSection: return of("Move");
    case OP.skipSection: return of("Skip");
    case OP.restartSection: return of("Restart");
    case OP.setTimeZone: return "Time zone change";
    case OP.updateTimer: case OP.updateSection: return of(updateNoun(op));
    default: return "Edit";
  }
}

/** @param {Op} op an update @returns {string} */
function updateNoun(op) {
  if (op.title !== undefined) return "Rename";
  if (op.minutes !== undefined || op.seconds !== undefined) return "Length";
  if (op.isExpanded !== undefined) return op.isExpanded ? "Expand" : "Collapse";
  if (op.startAt !== undefined) return "Start time";
  if (op.finishAt !== undefined) return "Finish time";
  if (op.kind !== undefined || op.targetAt !== undefined) return "Kind";
  if (op.warnAt !== undefined) return "Warning";
  return "Change";
}

// MARK: the history panel

/**
 * @typedef {{rev: number, time: number, by: string | null, changes: Record<string, any>[], replaced?: Record<string, any>[]}} HistoryEntry
 *   as GET /api/boards/ID/history sends it: changes and replaced in the wire's flat shape
 */

/** Who did what the server did by itself (a timer running out, a scheduled start). */
export const SERVER_NAME = "TimerBoard";
/** The history's `by` of an edit made over HTTP (docs/protocol.md, "history"). */
const HTTP_AUTHOR = "HTTP";

/**
 * One line of the history, without its time: "Ada reset Keynote", "TimerBoard finished Tea".
 * @param {HistoryEntry} entry @param {(id: string) => string | undefined} titleOf an item's title, if known
 */
export function historyText(entry, titleOf) {
  if (isMakersZone(entry)) return `Board created in the time zone ${entry.changes[0].timeZone}`;
  return `${entry.by ?? SERVER_NAME} ${historyAction(entry, titleOf)}`;
}

/**
 * The start page sets a new board's zone over HTTP right after creating it (pages/start.js), so
 * a board's first change, over HTTP, setting only its zone, is its maker's: part of making it.
 * @param {HistoryEntry} entry
 */
function isMakersZone({ rev, by, changes }) {
  const change = changes[0];
  return rev === 1 && by === HTTP_AUTHOR && changes.length === 1 && change[CHANGE.update] === BOARD_CHANGE &&
    typeof change.timeZone === "string" && Object.keys(change).length === 2;
}

/**
 * The titles items had just before `entry` ([id, title] pairs from its `replaced`: a deleted
 * item's whole insert, a renamed one's old title). The history is read newest first, so what
 * these say names an item in the older entries, after it is gone.
 * @param {HistoryEntry} entry @returns {[string, string][]}
 */
export function titlesBefore(entry) {
  return (entry.replaced ?? []).filter((r) => typeof r.id === "string" && typeof r.title === "string").map((r) => [r.id, r.title]);
}

/**
 * What one entry of the history did, as a verb phrase with its object ("reset Keynote",
 * "deleted the section Prep", "renamed Tea to Green tea").
 * @param {HistoryEntry} entry @param {(id: string) => string | undefined} titleOf the title an id has now, if any
 */
export function historyAction(entry, titleOf) {
  const replaced = new Map((entry.replaced ?? []).map((r) => [r.id, r]));
  const name = (/** @type {string} */ id) => replaced.get(id)?.title ?? titleOf(id) ?? "an item";
  // A section delete lists its timers' deletes first: name the section.
  const changes = [...entry.changes].sort((a, b) => weight(b) - weight(a));
  const change = changes[0];
  if (!change) return "changed nothing";
  const more = entry.changes.length > 1 && !isSectionDelete(change) ? ` (and ${entry.changes.length - 1} more)` : "";
  if (change[CHANGE.delete]) return `deleted ${change[CHANGE.delete] === KIND.section ? "the section " : ""}${name(change.id)}`;
  if (change[CHANGE.insert]) return `added ${change.title}${more}`;
  if (change[CHANGE.update] === BOARD_CHANGE) return change.timeZone ? `set the time zone to ${change.timeZone}` : "changed the screens' message";
  const title = change.title !== undefined ? `renamed ${name(change.id)} to ${change.title}` : null;
  if (title) return title + more;
  const run = change[FIELD.run]?.status;
  const verb = run ? RUN_VERBS[run] : change.order !== undefined ? "moved" : "changed";
  // A run the server changed by itself (no author) is said as what happened to the timer.
  return `${verb} ${name(change.id)}${more}`;
}

const RUN_VERBS = { [RUN.idle]: "reset", [RUN.running]: "started", [RUN.paused]: "paused", [RUN.finished]: "finished" };

/** @param {Record<string, any>} change */
function isSectionDelete(change) {
  return change[CHANGE.delete] === KIND.section;
}

/** @param {Record<string, any>} change a section delete names the entry */
function weight(change) {
  return isSectionDelete(change) ? 1 : 0;
}

/**
 * What of an entry can be put back: the sections and timers it deleted, whole, as the entry's
 * `replaced` holds them (a section with its timers). Empty when it deleted nothing.
 * @param {HistoryEntry} entry
 * @returns {{sections: Record<string, any>[], timers: Record<string, any>[]}}
 */
export function restorable(entry) {
  const deleted = new Set(entry.changes.filter((c) => c[CHANGE.delete]).map((c) => c.id));
  const inserts = (entry.replaced ?? []).filter((r) => r[CHANGE.insert] && deleted.has(r.id));
  return { sections: inserts.filter((r) => r[CHANGE.insert] === KIND.section), timers: inserts.filter((r) => r[CHANGE.insert] === KIND.timer) };
}
