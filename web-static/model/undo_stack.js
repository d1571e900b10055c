// @ts-check
// This page's own edits that it can undo and redo (docs/protocol.md, "Undo"): the server undoes
// an edit named by its opId, for its author only, so the page remembers its edits in the order it
// sent them, and which undo edits it sent, since a redo is an undo of that undo. Pure: the session
// sends what this says and tells it what the server answered.
//
// An entry is remembered when its edit is sent, not when acked: the server applies a connection's
// edits in order, so an undo sent after an edit always finds it. A rejected edit is forgotten.
//
// An undo that changed nothing (someone else changed all of it since) is acked `unchanged`, and
// the server keeps nothing to redo: it is not offered as a redo.

/** @typedef {{opId: string, label: string}} Entry  an edit (or an undo, or a redo) and what it did, in words */
/** @typedef {{kind: "undo" | "redo", entry: Entry}} InFlight */

/** How many edits this page can undo: the server's `--undo-per-client` default. */
export const UNDO_DEPTH = 100;

export class UndoStack {
  constructor(depth = UNDO_DEPTH) {
    this.depth = depth;
    /** @type {Entry[]} edits that can be undone, oldest first (a redo is one of them) */
    this.done = [];
    /** @type {Entry[]} undos that can be redone (each an undo edit's own opId), oldest first */
    this.undone = [];
    /** @type {Map<string, InFlight>} undo and redo edits sent and not answered yet, by their opId */
    this.inFlight = new Map();
  }

  get canUndo() {
    return this.done.length > 0;
  }

  get canRedo() {
    return this.undone.length > 0;
  }

  /** The user made an edit: it can be undone, and what was undone before can no longer be redone. @param {string} opId @param {string} label */
  edited(opId, label) {
    this.done.push({ opId, label });
    if (this.done.length > this.depth) this.done.shift();
    this.undone = [];
  }

  /**
   * The edit to undo now: the last one, or the one named (a toast's Undo button); it leaves the
   * stack. Null when there is none.
   * @param {string} [opId] @returns {Entry | null}
   */
  takeUndo(opId) {
    const index = opId === undefined ? this.done.length - 1 : this.done.findIndex((e) => e.opId === opId);
    if (index < 0) return null;
    return this.done.splice(index, 1)[0];
  }

  /** The undo to redo now (the last one), or null. @returns {Entry | null} */
  takeRedo() {
    return this.undone.pop() ?? null;
  }

  /**
   * An undo (or redo) edit of `entry` went out as `opId`.
   * @param {"undo" | "redo"} kind @param {string} opId @param {Entry} entry
   */
  sent(kind, opId, entry) {
    this.inFlight.set(opId, { kind, entry });
  }

  /**
   * The server acked edit `opId`. An undo, once in, can be redone (by undoing it); a redo can be
   * undone again (by undoing the redo). One that changed nothing (`unchanged`) can be neither.
   * @param {string} opId @param {boolean} unchanged
   * @returns {(InFlight & {changed: boolean}) | null} what it was, when it was an undo or a redo
   */
  acked(opId, unchanged) {
    const flight = this.inFlight.get(opId);
    if (!flight) return null;
    this.inFlight.delete(opId);
    const changed = !unchanged;
    if (!changed) return { ...flight, changed };
    const entry = { opId, label: flight.entry.label };
    if (flight.kind === "undo") this.undone.push(entry);
    else this.done.push(entry);
    return { ...flight, changed };
  }

  /**
   * The server refused edit `opId`: a plain edit cannot be undone (nothing happened); an undo or
   * redo it refused (too old, say) is dropped.
   * @param {string} opId @returns {InFlight | null} what it was, when it was an undo or a redo
   */
  rejected(opId) {
    const flight = this.inFlight.get(opId) ?? null;
    this.inFlight.delete(opId);
    this.done = this.done.filter((e) => e.opId !== opId);
    return flight;
  }
}
