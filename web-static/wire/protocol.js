// @ts-check
// The wire format (docs/protocol.md) as this page speaks it: the types of what travels, and a
// builder for every client message and operation. Pure: no DOM, no socket, no state. What the
// server sends is read and checked by server_messages.js; ids are made by ids.js.

import { MSG, OP, POSITION, PROTOCOL_VERSION, DEFAULT_LIMITS } from "./constants.js";

// MARK: types

/**
 * A section. `sequence` and `loop` are on the wire only when true (issue 18): absent reads as false.
 * `finishAt` (server ms; absent or null: none) starts its timers so that all finish then.
 * @typedef {{id: string, title: string, isExpanded: boolean, createdDate: number, order: string, sequence?: boolean, loop?: boolean, finishAt?: number | null}} Section
 */
/**
 * A timer's running state. `finishedAt` (server ms) is when a finished timer reached zero; a
 * server from before overtime sends none. `elapsed` may be negative after `+1 min`.
 * @typedef {{status: "idle" | "running" | "paused" | "finished", startedAt?: number, elapsed: number, finishedAt?: number}} Run
 */
/**
 * A timer. `warnAt` (ms left at which it turns amber) is on the wire only when set: absent reads as 0, none.
 * Time of day: `kind` (absent: countdown), `startAt` a scheduled start and `targetAt` a toTime
 * timer's instant (server ms; absent or null: none).
 * @typedef {{id: string, sectionID: string, title: string, minutes: number, seconds: number, createdDate: number, order: string, run: Run, warnAt?: number,
 *   kind?: "countdown" | "countUp" | "toTime" | "clock", startAt?: number | null, targetAt?: number | null}} Timer
 */
/**
 * Someone on the board; `clockError` is the ± bound of their screen's clock, once they reported one.
 * @typedef {{userId: string, name: string, color: string, editing: string | null, clockError?: number}} PresenceUser
 */
/** @typedef {"owner" | "edit" | "view"} Role  what a link lets its holder do */
/** @typedef {"first" | "last" | {before: string} | {after: string}} Position */
/** @typedef {{op: string, id: string, [field: string]: unknown}} Op  An operation, as sent (see the builders). */
/** @typedef {"section" | "timer"} Kind */
/** @typedef {{text: string, flash: boolean, shownAt: number}} ScreenMessage */
/**
 * What the board's screens show besides its sections (docs/protocol.md "Screens").
 * @typedef {{message: ScreenMessage | null, blackout: boolean, timeZone: string}} Display
 */
/** The display of a board that never set one. @returns {Display} */
export const defaultDisplay = () => ({ message: null, blackout: false, timeZone: "UTC" });
/** A timer that has never run, as the server makes it. @returns {Run} */
export const idleRun = () => ({ status: /** @type {const} */ ("idle"), elapsed: 0 });

/**
 * A change, normalised from its flat wire form so the store can switch on `action` and `kind`.
 * @typedef {{action: "insert", kind: "section", entity: Section}
 *   | {action: "insert", kind: "timer", entity: Timer}
 *   | {action: "update", kind: Kind, id: string, fields: Record<string, string | number | boolean | Run>}
 *   | {action: "delete", kind: Kind, id: string}
 *   | {action: "update", kind: "board", fields: Partial<Display>}} Change
 *   the last: `{"update":"board", …}`, the fields of `display` that changed (message null: cleared)
 */
/** @typedef {typeof DEFAULT_LIMITS} Limits */
/**
 * @typedef {{type: "welcome", protocol: number, serverTime: number, limits: Limits}
 *   | {type: "access", board: string, role: Role, userId: string}
 *   | {type: "snapshot", board: string, title?: string, rev: number, sections: Section[], timers: Timer[], display?: Display}
 *   | {type: "resume", board: string, title?: string, since: number, rev: number}
 *   | {type: "renamed", title: string}
 *   | {type: "changes", rev: number, changes: Change[]}
 *   | {type: "ack", opId: string, rev: number, duplicate: boolean, unchanged: boolean, skipped?: {id?: string, field: string}[]}
 *   | {type: "reject", opId: string, code: string, message: string, op?: number, current?: {kind: Kind, entity: Section | Timer}, retryAfterMs?: number}
 *   | {type: "pong", t: number, serverTime: number}
 *   | {type: "error", code: string, message: string}
 *   | {type: "presence", users: PresenceUser[], more?: number}
 *   | {type: "presenceChanged", users: PresenceUser[], left: string[], more?: number}} ServerMessage
 */

// MARK: client messages

/** @param {string} clientId @param {string} [name] */
export function helloMessage(clientId, name) {
  return withoutUndefined({ type: MSG.hello, protocol: PROTOCOL_VERSION, clientId, name });
}

/**
 * @param {string} board @param {string} secret the secret of the link the page was opened with
 * @param {number | null} [since] the last revision applied; omit for a snapshot
 */
export function joinMessage(board, secret, since) {
  return withoutUndefined({ type: MSG.join, board, secret, since: since ?? undefined });
}

/** @param {string} opId @param {Op[]} ops */
export function editMessage(opId, ops) {
  return { type: MSG.edit, opId, ops };
}

/**
 * An edit that undoes this client's own earlier edit `target` (its opId); it goes alone in its edit.
 * @param {string} opId @param {string} target
 */
export function undoMessage(opId, target) {
  return editMessage(opId, [undo(target)]);
}

/** The undo of this client's own edit `target` (an opId). @param {string} target @returns {Op} */
export function undo(target) {
  return /** @type {Op} */ (/** @type {unknown} */ ({ op: OP.undo, opId: target }));
}

/** @param {string} timeZone an IANA name @returns {Op} */
export function setTimeZone(timeZone) {
  return /** @type {Op} */ (/** @type {unknown} */ ({ op: OP.setTimeZone, timeZone }));
}

/** @param {number} t */
export function pingMessage(t) {
  return { type: MSG.ping, t };
}


/**
 * @param {string | null} editing the section or timer this client is editing now, or null
 * @param {number} [clockError] the ± bound of this page's server clock, in whole ms (left out: unchanged)
 */
export function presenceMessage(editing, clockError) {
  return withoutUndefined({ type: MSG.presence, editing, clockError });
}


// MARK: operations. Optional fields left undefined are not sent.

/** @param {{id: string, title: string, isExpanded?: boolean, sequence?: boolean, loop?: boolean, position?: Position}} a @returns {Op} */
export function addSection({ id, title, isExpanded, sequence, loop, position }) {
  return withoutUndefined({ op: OP.addSection, id, title, isExpanded, sequence, loop, position });
}

/** finishAt: null turns "finish together" off. @param {{id: string, title?: string, isExpanded?: boolean, sequence?: boolean, loop?: boolean, finishAt?: number | null}} a @returns {Op} */
export function updateSection({ id, title, isExpanded, sequence, loop, finishAt }) {
  return withoutUndefined({ op: OP.updateSection, id, title, isExpanded, sequence, loop, finishAt });
}

/** @param {{id: string, position: Position}} a @returns {Op} */
export function moveSection({ id, position }) {
  return { op: OP.moveSection, id, position };
}

/** @param {{id: string}} a @returns {Op} */
export function deleteSection({ id }) {
  return { op: OP.deleteSection, id };
}

/** @typedef {{kind?: string, startAt?: number | null, targetAt?: number | null}} TimeOfDay  null clears startAt or targetAt */

/** @param {{id: string, sectionID: string, title: string, minutes: number, seconds: number, warnAt?: number, position?: Position} & TimeOfDay} a @returns {Op} */
export function addTimer({ id, sectionID, title, minutes, seconds, warnAt, position, kind, startAt, targetAt }) {
  return withoutUndefined({ op: OP.addTimer, id, sectionID, title, minutes, seconds, warnAt, kind, startAt, targetAt, position });
}

/** @param {{id: string, title?: string, minutes?: number, seconds?: number, warnAt?: number} & TimeOfDay} a @returns {Op} */
export function updateTimer({ id, title, minutes, seconds, warnAt, kind, startAt, targetAt }) {
  return withoutUndefined({ op: OP.updateTimer, id, title, minutes, seconds, warnAt, kind, startAt, targetAt });
}

/** @param {{id: string, sectionID?: string, position: Position}} a @returns {Op} */
export function moveTimer({ id, sectionID, position }) {
  return withoutUndefined({ op: OP.moveTimer, id, sectionID, position });
}

/** @param {{id: string}} a @returns {Op} */
export function deleteTimer({ id }) {
  return { op: OP.deleteTimer, id };
}

/** @param {{id: string}} a a timer @returns {Op} */
export function startTimer({ id }) {
  return { op: OP.startTimer, id };
}

/** @param {{id: string}} a a timer @returns {Op} */
export function pauseTimer({ id }) {
  return { op: OP.pauseTimer, id };
}

/** @param {{id: string}} a a timer @returns {Op} */
export function resetTimer({ id }) {
  return { op: OP.resetTimer, id };
}

/** @param {{id: string}} a a section @returns {Op} */
export function startSection({ id }) {
  return { op: OP.startSection, id };
}

/** @param {{id: string}} a a section @returns {Op} */
export function pauseSection({ id }) {
  return { op: OP.pauseSection, id };
}

/**
 * More (by > 0) or less time left on a running or paused timer. Adjustments compose on the
 * server: two concurrent `+1 min` give two minutes more.
 * @param {{id: string, by: number}} a a timer, and the change in ms @returns {Op}
 */
export function adjustTimer({ id, by }) {
  return { op: OP.adjustTimer, id, by };
}

/** @param {{id: string}} a a sequence section: its current timer ends now, the next starts @returns {Op} */
export function skipSection({ id }) {
  return { op: OP.skipSection, id };
}

/** @param {{id: string}} a a sequence section: every timer back to idle, the first starts now @returns {Op} */
export function restartSection({ id }) {
  return { op: OP.restartSection, id };
}

// Screens: operations on the board itself, with no id (docs/protocol.md "Screens").

/** @param {{text: string, flash: boolean}} a what every display shows until it is cleared @returns {Op} */
export function showMessage({ text, flash }) {
  return /** @type {Op} */ ({ op: OP.showMessage, text, flash });
}

/** @returns {Op} */
export function clearMessage() {
  return /** @type {Op} */ ({ op: OP.clearMessage });
}

/** @param {{on: boolean}} a whether displays show only black @returns {Op} */
export function setBlackout({ on }) {
  return /** @type {Op} */ ({ op: OP.setBlackout, on });
}

/** Positions: `"first"` (the protocol's default: newest on top), `"last"`, before or after a sibling. */
export const position = Object.freeze({
  first: /** @type {Position} */ (POSITION.first),
  last: /** @type {Position} */ (POSITION.last),
  /** @param {string} id @returns {Position} */
  before: (id) => ({ [POSITION.before]: id }),
  /** @param {string} id @returns {Position} */
  after: (id) => ({ [POSITION.after]: id }),
});

/**
 * `object` without its keys whose value is undefined: optional fields left out are not sent.
 * @template {Record<string, unknown>} T
 * @param {T} object
 * @returns {T}
 */
export function withoutUndefined(object) {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}
