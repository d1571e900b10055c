// @ts-check
// Undo and redo of this page's own edits (issue 32): Ctrl+Z, Ctrl+Shift+Z and the Undo/Redo
// buttons send the server's `undo` operation (docs/protocol.md, "Undo"); model/undo_stack.js
// remembers which edits and which undos; the toasts say what was undone, and the toast of a
// destructive edit (a delete, a reset) offers Undo at once.
//
// Stable selectors: .undo-button / .redo-button (aria-disabled=true when there is nothing to undo
// or redo), .toast-undo[data-op-id] (the Undo button of a destructive edit's toast).

import { h } from "../dom/kit.js";
import * as protocol from "../wire/protocol.js";
import { UNDO_WORDS, editLabel, isDestructive, undoRefusedText, undoneText } from "../model/edit_words.js";
import { UndoStack } from "../model/undo_stack.js";

/** @typedef {import("../wire/protocol.js").Op} Op */
/** @typedef {import("../model/board.js").BoardReader} BoardReader */
/**
 * What undo needs of its session: to send an edit that is not itself remembered (an undo), to
 * say something, and what an id names now.
 * @typedef {{send(ops: Op[]): string, toast(text: string): void, toasts: HTMLElement, titleOf(id: string): string | undefined}} UndoSession
 */

export class UndoController {
  /** @param {{session: UndoSession, buttons: HTMLElement[], toastMs: number}} options buttons: the page's .undo-button and .redo-button */
  constructor({ session, buttons, toastMs }) {
    this.session = session;
    this.buttons = buttons;
    this.toastMs = toastMs;
    this.stack = new UndoStack();
    this.#render();
  }

  /**
   * The user made an edit (sent as `opId`): it can be undone; a destructive one says so with an
   * Undo button at once.
   * @param {string} opId @param {Op[]} ops @param {BoardReader} before the board before the edit
   */
  edited(opId, ops, before) {
    const label = editLabel(ops, before);
    this.stack.edited(opId, label);
    if (isDestructive(ops)) this.#toastWithUndo(`${label}.`, opId);
    this.#render();
  }

  /** Undoes the last edit, or the one named (a toast's button). @param {string} [opId] */
  undo(opId) {
    const entry = this.stack.takeUndo(opId);
    if (!entry) return this.session.toast(UNDO_WORDS.nothingToUndo);
    this.stack.sent("undo", this.session.send([protocol.undo(entry.opId)]), entry);
    this.#render();
  }

  /** Redoes the last undo: an undo of that undo. */
  redo() {
    const entry = this.stack.takeRedo();
    if (!entry) return this.session.toast(UNDO_WORDS.nothingToRedo);
    this.stack.sent("redo", this.session.send([protocol.undo(entry.opId)]), entry);
    this.#render();
  }

  /** The server acked an edit. @param {{opId: string, unchanged: boolean, skipped?: {id?: string, field: string}[]}} ack */
  acked({ opId, unchanged, skipped }) {
    const flight = this.stack.acked(opId, unchanged);
    if (!flight) return;
    this.session.toast(undoneText(flight.entry.label, flight.kind, { changed: flight.changed, skipped, titleOf: (id) => this.session.titleOf(id) }));
    this.#render();
  }

  /** The server refused an edit. @param {string} opId @returns {boolean} whether it was an undo or a redo (its toast is said here) */
  rejected(opId) {
    const flight = this.stack.rejected(opId);
    if (flight) this.session.toast(undoRefusedText(flight.entry.label));
    this.#render();
    return flight !== null;
  }

  /** @param {string} text @param {string} opId */
  #toastWithUndo(text, opId) {
    const doc = this.session.toasts.ownerDocument;
    const toast = h(doc, "div", { class: "toast toast-with-action" }, [
      h(doc, "span", {}, [text]),
      h(doc, "button", { type: "button", class: "button toast-undo", "data-op-id": opId }, [UNDO_WORDS.undo]),
    ]);
    this.session.toasts.append(toast);
    setTimeout(() => toast.remove(), this.toastMs * 2);
  }

  #render() {
    for (const button of this.buttons) {
      const can = button.classList.contains("redo-button") ? this.stack.canRedo : this.stack.canUndo;
      if (button.getAttribute("aria-disabled") !== String(!can)) button.setAttribute("aria-disabled", String(!can));
    }
  }
}

/**
 * Whether a key press is undo or redo for the page (not for a text field, whose own undo belongs
 * to the browser): "undo", "redo" or null.
 * @param {KeyboardEvent} event
 * @returns {"undo" | "redo" | null}
 */
export function undoKey(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.isComposing) return null;
  const key = event.key.toLowerCase();
  if (key !== "z" && key !== "y") return null;
  const target = /** @type {HTMLElement | null} */ (event.target);
  if (target && (target.isContentEditable || target.matches?.("input:not([type=checkbox]):not([type=radio]):not([type=button]), textarea, select"))) return null;
  if (key === "y") return "redo";
  return event.shiftKey ? "redo" : "undo";
}
