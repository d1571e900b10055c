// @ts-check
// The board's state, with no DOM and no socket: the confirmed board (what the server said, at
// revision `rev`) plus the queue of local edits the server has not confirmed yet. What the page
// shows is `displayed`: the confirmed board, or with edits pending an overlay of it holding just
// the ids they touch. A changeset changes the confirmed board in place and the pending edits are
// laid over it again, so a remote change never erases a local edit in flight, a rejected edit
// simply disappears, and a change costs what it touches (and the pending edits), not the board.

import { BOARD_CHANGE, CHANGE } from "../wire/constants.js";
import { Board, StoreError, applyChanges } from "./board.js";
import { Overlay, applyOp } from "./overlay.js";

/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {import("../wire/protocol.js").Change} Change */
/** @typedef {import("../wire/protocol.js").Op} Op */
/** @typedef {import("./board.js").BoardReader} BoardReader */
/**
 * A local edit not yet confirmed. `ackedRev` is set when the ack arrived before the changes of
 * its revision (after a gap): the edit keeps showing until `rev` reaches it.
 * @typedef {{opId: string, ops: Op[], createdAt: number, ackedRev: number | null}} PendingEdit
 */

export class Store {
  constructor() {
    /** @type {string | null} the board id, from the snapshot */
    this.board = null;
    /** @type {number | null} the revision of `confirmed`; null until the first snapshot */
    this.rev = null;
    /** The board as the server confirmed it, at `rev`. */
    this.confirmed = new Board();
    /** @type {PendingEdit[]} in the order they were made (and sent) */
    this.pending = [];
    /** The pending edits laid over `confirmed`; null when none is pending. @type {Overlay | null} */
    this.overlay = null;
    /**
     * Ids of sections and timers whose displayed value may have changed since `takeTouched`, or
     * null when anything may have (a snapshot): the views patch only these.
     * @type {Set<string> | null}
     */
    this.touched = new Set();
  }

  /** What the page shows: confirmed + pending. @returns {BoardReader} */
  get displayed() {
    return this.overlay ?? this.confirmed;
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
   * @param {{board: string, rev: number, sections: Section[], timers: Timer[], display?: import("../wire/protocol.js").Display}} snapshot
   */
  loadSnapshot(snapshot) {
    this.board = snapshot.board;
    this.rev = snapshot.rev;
    this.confirmed = Board.fromSnapshot(snapshot);
    this.touched = null;
    this.#rebase();
  }

  /**
   * Applies the next changeset. "stale": already applied (ignored); "gap": revisions are missing,
   * rejoin with `since`; "invalid": it does not fit, so our state is wrong: rejoin for a snapshot
   * (the confirmed board is left as it was).
   * @param {{rev: number, changes: Change[]}} changeset
   * @returns {{status: "applied" | "stale" | "gap" | "invalid", error?: string}}
   */
  applyChangeset({ rev, changes }) {
    if (this.rev === null) return { status: "gap" };
    if (rev <= this.rev) return { status: "stale" };
    if (rev !== this.rev + 1) return { status: "gap" };
    try {
      applyChanges(this.confirmed, changes);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      return { status: "invalid", error: error.message };
    }
    this.rev = rev;
    // A change of the board's display has no id: views of it compare `display` by identity.
    for (const change of changes) {
      if (change.action === CHANGE.insert) this.#touch([change.entity.id]);
      else if (change.kind !== BOARD_CHANGE) this.#touch([change.id]);
    }
    this.#rebase();
    return { status: "applied" };
  }

  /**
   * Queues a local edit and shows it at once: its operations go on top of the ones before.
   * @param {string} opId @param {Op[]} ops @param {number} now the created date of added items
   */
  addEdit(opId, ops, now) {
    const edit = { opId, ops, createdAt: now, ackedRev: null };
    this.pending.push(edit);
    this.overlay ??= new Overlay(this.confirmed);
    for (const op of ops) applyOp(this.overlay, op, now);
    this.#touch(this.overlay.ids());
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
    if (rev <= (this.rev ?? -1)) this.#rebase();
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

  /**
   * Drops acked edits the confirmed board includes, then lays the others over it again. An
   * operation that no longer applies (its entity was deleted remotely, or it is our own insert
   * the server already confirmed) is skipped; the server's answer settles it.
   */
  #rebase() {
    const rev = this.rev ?? -1;
    this.pending = this.pending.filter((e) => e.ackedRev === null || e.ackedRev > rev);
    // What the pending edits showed before may no longer be shown, and what they show now may be new.
    if (this.overlay) this.#touch(this.overlay.ids());
    if (this.pending.length === 0) {
      this.overlay = null;
      return;
    }
    const overlay = new Overlay(this.confirmed);
    for (const edit of this.pending) for (const op of edit.ops) applyOp(overlay, op, edit.createdAt);
    this.overlay = overlay;
    this.#touch(overlay.ids());
  }
}
