// @ts-check
// The board's state, with no DOM and no socket: the confirmed board (what the server said, at
// revision `rev`) plus the queue of local edits the server has not confirmed yet. What the page
// shows is `displayed` = confirmed + pending edits re-applied, recomputed after every event, so a
// remote change never erases a local edit in flight and a rejected edit simply disappears.

import { CHANGE, FIELD, KIND, OP, POSITION, SECTION_FIELDS, TIMER_FIELDS } from "../wire/constants.js";
import { compareByOrder, keyForPosition } from "./order.js";
import { idleRun } from "../wire/protocol.js";

/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {import("../wire/protocol.js").Change} Change */
/** @typedef {import("../wire/protocol.js").Op} Op */
/**
 * Entities are never mutated once in a board: a change replaces the object, so two boards can
 * share unchanged entities and a diff can skip them by identity.
 * @typedef {{sections: Map<string, Section>, timers: Map<string, Timer>}} Board
 */
/**
 * A local edit not yet confirmed. `ackedRev` is set when the ack arrived before the changes of
 * its revision (after a gap): the edit keeps showing until `rev` reaches it.
 * @typedef {{opId: string, ops: Op[], createdAt: number, ackedRev: number | null}} PendingEdit
 */

/** A changeset that does not fit the confirmed board: the client is out of sync. */
export class StoreError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "StoreError";
  }
}

// MARK: boards

/** @returns {Board} */
export function emptyBoard() {
  return { sections: new Map(), timers: new Map() };
}

/** @param {Board} board @returns {Board} a copy that can be changed without touching `board` */
function copyBoard(board) {
  return { sections: new Map(board.sections), timers: new Map(board.timers) };
}

/** @param {{sections: Section[], timers: Timer[]}} snapshot @returns {Board} */
export function boardFromSnapshot(snapshot) {
  return {
    sections: new Map(snapshot.sections.map((s) => [s.id, { ...s }])),
    timers: new Map(snapshot.timers.map((t) => [t.id, { ...t }])),
  };
}

/** @param {Board} board @param {string} id */
function containsId(board, id) {
  return board.sections.has(id) || board.timers.has(id);
}

/** @param {Board} board @returns {Section[]} the sections in display order */
export function orderedSections(board) {
  return [...board.sections.values()].sort(compareByOrder);
}

/** @param {Board} board @param {string} sectionId @returns {Timer[]} the section's timers in display order */
export function orderedTimers(board, sectionId) {
  return [...board.timers.values()].filter((t) => t.sectionID === sectionId).sort(compareByOrder);
}

/** @param {Board} board @returns {Map<string, Timer[]>} every section's timers in display order, in one pass */
export function timersBySection(board) {
  /** @type {Map<string, Timer[]>} */
  const groups = new Map();
  for (const timer of board.timers.values()) {
    const group = groups.get(timer.sectionID);
    if (group) group.push(timer);
    else groups.set(timer.sectionID, [timer]);
  }
  for (const group of groups.values()) group.sort(compareByOrder);
  return groups;
}

/** @param {Board} board @param {string} sectionId */
function deleteSectionWithTimers(board, sectionId) {
  for (const timer of board.timers.values()) if (timer.sectionID === sectionId) board.timers.delete(timer.id);
  board.sections.delete(sectionId);
}

// MARK: server changes

/**
 * Applies a changeset to a copy of `board`, checking only that each change fits the board (as
 * Board.apply does on the server).
 * @param {Board} board
 * @param {Change[]} changes
 * @returns {Board}
 * @throws {StoreError} at the first change that does not fit
 */
export function applyChanges(board, changes) {
  const result = copyBoard(board);
  for (const change of changes) applyChange(result, change);
  return result;
}

/** @param {Board} board mutated @param {Change} change */
function applyChange(board, change) {
  const map = change.kind === KIND.section ? board.sections : board.timers;
  if (change.action === CHANGE.insert) {
    const entity = change.entity;
    if (containsId(board, entity.id)) throw new StoreError(`insert of ${entity.id}, which exists`);
    if (change.kind === KIND.timer && !board.sections.has(change.entity.sectionID)) {
      throw new StoreError(`insert of timer ${entity.id} into missing section ${change.entity.sectionID}`);
    }
    map.set(entity.id, { ...entity });
    return;
  }
  const current = map.get(change.id);
  if (!current) throw new StoreError(`${change.action} of missing ${change.kind} ${change.id}`);
  if (change.action === CHANGE.delete) {
    // The server lists a section's timer deletes first; dropping leftovers keeps us consistent anyway.
    if (change.kind === KIND.section) deleteSectionWithTimers(board, change.id);
    else board.timers.delete(change.id);
    return;
  }
  const sectionID = change.fields[FIELD.sectionID];
  if (typeof sectionID === "string" && !board.sections.has(sectionID)) {
    throw new StoreError(`move of timer ${change.id} into missing section ${sectionID}`);
  }
  map.set(change.id, /** @type {any} */ ({ ...current, ...change.fields }));
}

// MARK: local operations

/**
 * Applies one local operation to `board` the way the server would, with `now` as the created date
 * of added items. Returns false, leaving the board untouched, when the operation no longer applies:
 * its entity or anchor is gone, or an added id is already there (typically our own insert, already
 * confirmed by the server before its ack). Titles and ranges are checked by the UI and the server.
 * @param {Board} board mutated
 * @param {Op} op
 * @param {number} now
 * @returns {boolean}
 */
export function applyOp(board, op, now) {
  const apply = OP_APPLIERS[op.op];
  return apply ? apply(board, /** @type {any} */ (op), now) : false;
}

/** @type {Record<string, (board: Board, op: any, now: number) => boolean>} */
const OP_APPLIERS = {
  [OP.addSection](board, op, now) {
    if (containsId(board, op.id)) return false;
    const order = keyForPosition(op.position ?? POSITION.first, orderedSections(board), op.id);
    if (order === null) return false;
    board.sections.set(op.id, { id: op.id, title: op.title, isExpanded: op.isExpanded ?? true, createdDate: now, order });
    return true;
  },
  [OP.updateSection](board, op) {
    const section = board.sections.get(op.id);
    if (!section) return false;
    board.sections.set(op.id, { ...section, ...pick(op, SECTION_FIELDS) });
    return true;
  },
  [OP.moveSection](board, op) {
    const section = board.sections.get(op.id);
    const order = section && keyForPosition(op.position, orderedSections(board), op.id);
    if (!section || !order) return false;
    board.sections.set(op.id, { ...section, order });
    return true;
  },
  [OP.deleteSection](board, op) {
    if (!board.sections.has(op.id)) return false;
    deleteSectionWithTimers(board, op.id);
    return true;
  },
  [OP.addTimer](board, op, now) {
    if (containsId(board, op.id) || !board.sections.has(op.sectionID)) return false;
    const order = keyForPosition(op.position ?? POSITION.first, orderedTimers(board, op.sectionID), op.id);
    if (order === null) return false;
    const { id, sectionID, title, minutes, seconds, warnAt } = op;
    /** @type {import("../wire/protocol.js").Timer} */
    const timer = { id, sectionID, title, minutes, seconds, createdDate: now, order, run: idleRun() };
    // As the server writes it: a warning point only when there is one.
    if (warnAt) timer.warnAt = warnAt;
    board.timers.set(id, timer);
    return true;
  },
  [OP.updateTimer](board, op) {
    const timer = board.timers.get(op.id);
    if (!timer) return false;
    board.timers.set(op.id, { ...timer, ...pick(op, TIMER_FIELDS) });
    return true;
  },
  [OP.moveTimer](board, op) {
    const timer = board.timers.get(op.id);
    const sectionID = op.sectionID ?? timer?.sectionID;
    if (!timer || !board.sections.has(sectionID)) return false;
    const order = keyForPosition(op.position, orderedTimers(board, sectionID), op.id);
    if (!order) return false;
    board.timers.set(op.id, { ...timer, sectionID, order });
    return true;
  },
  [OP.deleteTimer](board, op) {
    return board.timers.delete(op.id);
  },
};

/** @param {Record<string, unknown>} source @param {readonly string[]} keys the fields to copy when present */
function pick(source, keys) {
  /** @type {Record<string, unknown>} */
  const result = {};
  for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
  return result;
}

// MARK: diff, for the view

/** @typedef {{added: string[], removed: string[], changed: Map<string, string[]>}} EntityDiff */

/**
 * What differs between two boards, per id and per field, so the view patches only that.
 * @param {Board} before
 * @param {Board} after
 * @returns {{sections: EntityDiff, timers: EntityDiff}}
 */
export function diffBoards(before, after) {
  return {
    sections: diffMaps(before.sections, after.sections, SECTION_FIELDS),
    timers: diffMaps(before.timers, after.timers, TIMER_FIELDS),
  };
}

/**
 * @param {Map<string, Record<string, any>>} before
 * @param {Map<string, Record<string, any>>} after
 * @param {readonly string[]} fields
 * @returns {EntityDiff}
 */
function diffMaps(before, after, fields) {
  /** @type {EntityDiff} */
  const diff = { added: [], removed: [], changed: new Map() };
  for (const [id, next] of after) {
    const previous = before.get(id);
    if (!previous) {
      diff.added.push(id);
    } else if (previous !== next) {
      const changed = fields.filter((f) => previous[f] !== next[f]);
      if (changed.length) diff.changed.set(id, changed);
    }
  }
  for (const id of before.keys()) if (!after.has(id)) diff.removed.push(id);
  return diff;
}

// MARK: the store

export class Store {
  constructor() {
    /** @type {string | null} the board id, from the snapshot */
    this.board = null;
    /** @type {number | null} the revision of `confirmed`; null until the first snapshot */
    this.rev = null;
    /** @type {Board} */
    this.confirmed = emptyBoard();
    /** @type {PendingEdit[]} in the order they were made (and sent) */
    this.pending = [];
    /** @type {Board} confirmed + pending; a new object after each change, never mutated */
    this.displayed = this.confirmed;
    /** Ids where pending edits make `displayed` differ from `confirmed`. */
    this.overlay = /** @type {Set<string>} */ (new Set());
    /**
     * Ids of sections and timers whose displayed value may have changed since `takeTouched`, or
     * null when anything may have (a snapshot): the view patches only these.
     * @type {Set<string> | null}
     */
    this.touched = new Set();
  }

  /**
   * What may have changed in `displayed` since the last call (null: anything), and starts afresh.
   * @returns {Set<string> | null}
   */
  takeTouched() {
    const touched = this.touched;
    this.touched = new Set();
    return touched;
  }

  /** @param {Iterable<string>} ids */
  #touch(ids) {
    if (this.touched) for (const id of ids) this.touched.add(id);
  }

  /**
   * Replaces the confirmed state: the first join, or a rejoin the server could not resume.
   * @param {{board: string, rev: number, sections: Section[], timers: Timer[]}} snapshot
   */
  loadSnapshot(snapshot) {
    this.board = snapshot.board;
    this.rev = snapshot.rev;
    this.confirmed = boardFromSnapshot(snapshot);
    this.touched = null;
    this.#rebase();
  }

  /**
   * Applies the next changeset. "stale": already applied (ignored); "gap": revisions are missing,
   * rejoin with `since`; "invalid": it does not fit, so our state is wrong: rejoin for a snapshot.
   * @param {{rev: number, changes: Change[]}} changeset
   * @returns {{status: "applied" | "stale" | "gap" | "invalid", error?: string}}
   */
  applyChangeset({ rev, changes }) {
    if (this.rev === null) return { status: "gap" };
    if (rev <= this.rev) return { status: "stale" };
    if (rev !== this.rev + 1) return { status: "gap" };
    try {
      this.confirmed = applyChanges(this.confirmed, changes);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      return { status: "invalid", error: error.message };
    }
    this.rev = rev;
    this.#touch(changes.map((change) => (change.action === CHANGE.insert ? change.entity.id : change.id)));
    this.#rebase();
    return { status: "applied" };
  }

  /**
   * Queues a local edit and shows it at once.
   * @param {string} opId @param {Op[]} ops @param {number} now the created date of added items
   */
  addEdit(opId, ops, now) {
    this.pending.push({ opId, ops, createdAt: now, ackedRev: null });
    this.#rebase();
  }

  /**
   * The edit is in at `rev`. Its changes came just before the ack, so it is dropped; if they have
   * not arrived yet (an ack after a gap), it stays shown until they do.
   * @param {string} opId @param {number} rev
   * @returns {PendingEdit | null} the edit, or null if we were not waiting for it
   */
  ack(opId, rev) {
    const edit = this.pending.find((e) => e.opId === opId);
    if (!edit) return null;
    edit.ackedRev = rev;
    this.#rebase();
    return edit;
  }

  /**
   * The edit was refused: drop it, so the page shows the confirmed values again.
   * @param {string} opId
   * @returns {PendingEdit | null} the dropped edit, or null if we were not waiting for it
   */
  reject(opId) {
    const edit = this.pending.find((e) => e.opId === opId);
    if (!edit) return null;
    this.pending = this.pending.filter((e) => e !== edit);
    this.#rebase();
    return edit;
  }

  /** @returns {PendingEdit[]} the edits to (re)send on a fresh connection, in order */
  unackedEdits() {
    return this.pending.filter((e) => e.ackedRev === null);
  }

  /** Drops acked edits the confirmed state includes, then recomputes `displayed`. */
  #rebase() {
    const rev = this.rev ?? -1;
    this.pending = this.pending.filter((e) => e.ackedRev === null || e.ackedRev > rev);
    // What the pending edits showed before may no longer be shown, and what they show now may be new.
    this.#touch(this.overlay);
    if (this.pending.length === 0) {
      this.displayed = this.confirmed;
      this.overlay = new Set();
      return;
    }
    const board = copyBoard(this.confirmed);
    const overlay = new Set();
    const recorded = recording(board, overlay);
    // An op that no longer applies (its entity was deleted remotely, or it is our own insert the
    // server already confirmed) is skipped; the server's answer settles it.
    for (const edit of this.pending) for (const op of edit.ops) applyOp(recorded, op, edit.createdAt);
    this.displayed = board;
    this.overlay = overlay;
    this.#touch(overlay);
  }
}

/**
 * A view of `board` whose maps note in `ids` every id they set or delete, so the store knows which
 * entities its pending edits touched (a section delete touches its timers too).
 * @param {Board} board @param {Set<string>} ids @returns {Board}
 */
function recording(board, ids) {
  /** @template V @param {Map<string, V>} map @returns {Map<string, V>} */
  const wrap = (map) => new Proxy(map, {
    get(target, key) {
      if (key === "set") return (/** @type {string} */ id, /** @type {V} */ value) => (ids.add(id), target.set(id, value));
      if (key === "delete") return (/** @type {string} */ id) => (ids.add(id), target.delete(id));
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { sections: wrap(board.sections), timers: wrap(board.timers) };
}
