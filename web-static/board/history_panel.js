// @ts-check
// The History dialog (issue 32): who changed what, and when, newest first, from the server's log
// (GET /api/boards/ID/history with the page's secret), each line in the board's time zone ("Ada
// reset Keynote at 14:02:11"). A line that deleted a section or a timer offers to put it back: by
// adding it again with its id (model/restore.js), since the server undoes only an author's own
// edits. The report of the board's runs downloads from here too.
//
// Stable selectors: #history-dialog, #history-list > li.history-entry[data-rev] (.history-text,
// .history-restore), .history-more, .history-report, #history-status.

import { h } from "../dom/kit.js";
import { historyText, restorable, titlesBefore } from "../model/edit_words.js";
import { restoreOps } from "../model/restore.js";
import { boardZone, formatWallTime } from "../model/wall_clock.js";

/** @typedef {import("../model/edit_words.js").HistoryEntry} HistoryEntry */
/** @typedef {import("./session.js").BoardSession} BoardSession */
/** @typedef {import("../wire/api.js").BoardApi} BoardApi */

export class HistoryPanel {
  /** @param {{dialog: HTMLDialogElement, session: BoardSession, api: BoardApi}} options */
  constructor({ dialog, session, api }) {
    this.dialog = dialog;
    this.session = session;
    this.api = api;
    this.list = /** @type {HTMLElement} */ (dialog.querySelector("#history-list"));
    this.status = /** @type {HTMLElement} */ (dialog.querySelector("#history-status"));
    this.more = /** @type {HTMLButtonElement} */ (dialog.querySelector(".history-more"));
    /** @type {Map<number, HistoryEntry>} the entries shown, by revision */
    this.entries = new Map();
    /** @type {number | null} where the next page starts */
    this.next = null;
    /** @type {Map<string, string>} the title each item had just before the oldest entry shown, from the entries' `replaced` */
    this.titles = new Map();
  }

  /** Opens the dialog on the newest changes (read afresh each time). */
  async open() {
    if (!this.dialog.open) this.dialog.showModal();
    this.list.replaceChildren();
    this.entries.clear();
    this.titles.clear();
    await this.load(null);
  }

  /** The page of older changes. */
  async older() {
    if (this.next !== null) await this.load(this.next);
  }

  /** @param {number | null} before */
  async load(before) {
    this.status.textContent = "Loading…";
    try {
      const page = await this.api.history(this.session.boardId, this.session.secret, before);
      this.next = page.next;
      this.more.hidden = page.next === null;
      for (const entry of page.entries) this.#add(entry);
      this.status.textContent = this.entries.size === 0 ? "No changes yet." : "";
    } catch (error) {
      this.status.textContent = `The history could not be loaded: ${/** @type {Error} */ (error).message}`;
    }
  }

  /** @param {HistoryEntry} entry */
  #add(entry) {
    this.entries.set(entry.rev, entry);
    const doc = this.dialog.ownerDocument;
    const board = this.session.displayed;
    // An item on the board by its title now; one deleted since by the title it had then.
    const titleOf = (/** @type {string} */ id) => board.timers.get(id)?.title ?? board.sections.get(id)?.title ?? this.titles.get(id);
    const text = `${historyText(entry, titleOf)} at ${formatWallTime(entry.time, boardZone(board.display))}`;
    for (const [id, title] of titlesBefore(entry)) this.titles.set(id, title);
    const deleted = restorable(entry);
    const canRestore = this.session.role !== "view" && deleted.sections.length + deleted.timers.length > 0;
    this.list.append(h(doc, "li", { class: "history-entry", "data-rev": String(entry.rev) }, [
      h(doc, "span", { class: "history-text" }, [text]),
      ...(canRestore ? [h(doc, "button", { type: "button", class: "button history-restore", "data-rev": String(entry.rev) }, ["Put back"])] : []),
    ]));
  }

  /** Puts back what the entry of revision `rev` deleted. @param {number} rev */
  restore(rev) {
    const entry = this.entries.get(rev);
    if (!entry) return;
    const ops = restoreOps(restorable(entry), this.session.displayed);
    if (ops.length === 0) {
      this.status.textContent = "It is back already, or its section is gone.";
      return;
    }
    this.session.edit(ops);
    this.status.textContent = `Put back: ${ops.map((op) => op.title).join(", ")}.`;
  }

  /** Downloads the report of the board's timer runs (report.csv). */
  async downloadReport() {
    try {
      const blob = await this.api.reportCsv(this.session.boardId, this.session.secret);
      const doc = this.dialog.ownerDocument;
      const url = URL.createObjectURL(blob);
      const link = h(doc, "a", { href: url, download: `timerboard-${this.session.boardId}-report.csv`, hidden: "" });
      doc.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      this.status.textContent = `The report could not be loaded: ${/** @type {Error} */ (error).message}`;
    }
  }
}
