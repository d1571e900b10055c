// @ts-check
// The owner's settings dialog: rename the board, replace a link, delete the board. It fills fixed
// elements of index.html through `.value`, `textContent` and `hidden`; main.js's delegated
// listener calls it.

import { ROLE } from "../wire/constants.js";
import { apiErrorText } from "../wire/api.js";
import { withLinks } from "../model/board_list.js";
import { absoluteLink } from "../wire/links.js";
import { parseTitle } from "./field.js";
import { updateBoards } from "../wire/storage.js";

/** @typedef {import("./session.js").BoardSession} BoardSession */
/** @typedef {import("../wire/api.js").BoardApi} BoardApi */

/** @param {Document} doc @param {string} id */
function byId(doc, id) {
  return /** @type {HTMLElement} */ (doc.getElementById(id));
}

export class OwnerPanel {
  /**
   * @param {{dialog: HTMLDialogElement, session: BoardSession, api: BoardApi, origin: string, onDeleted: () => void}} options
   */
  constructor({ dialog, session, api, origin, onDeleted }) {
    const doc = dialog.ownerDocument;
    this.dialog = dialog;
    this.session = session;
    this.api = api;
    this.origin = origin;
    this.onDeleted = onDeleted;
    this.status = byId(doc, "owner-status");
    this.titleInput = /** @type {HTMLInputElement} */ (byId(doc, "rename-board-title"));
    this.confirmBox = byId(doc, "replace-confirm");
    this.confirmText = byId(doc, "replace-confirm-text");
    this.replacedRow = byId(doc, "replaced-row");
    this.replacedLabel = byId(doc, "replaced-label");
    this.replacedLink = /** @type {HTMLInputElement} */ (byId(doc, "replaced-link"));
    this.deleteInput = /** @type {HTMLInputElement} */ (byId(doc, "delete-board-confirm"));
    /** The link a confirm box asks about. @type {"edit" | "view" | null} */
    this.replacing = null;
    this.busy = false;
  }

  open() {
    this.status.textContent = "";
    this.titleInput.value = this.session.title;
    this.deleteInput.value = "";
    this.confirmBox.hidden = true;
    this.replacedRow.hidden = true;
    this.replacing = null;
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** The title form was submitted. */
  async rename() {
    const title = parseTitle(this.titleInput.value, this.session.limits.maxTitleLength);
    if ("error" in title) {
      this.status.textContent = title.error;
      return;
    }
    await this.#call(async () => {
      const answer = await this.api.rename(this.session.boardId, this.session.secret, title.value);
      // Everyone on the board gets `renamed` too; this page need not wait for it.
      this.session.showTitle(answer.title);
      this.titleInput.value = answer.title;
      this.status.textContent = "Renamed.";
    }, "Could not rename the board");
  }

  /**
   * A "Replace the … link" button: say what it does before doing it.
   * @param {"edit" | "view"} role
   */
  askReplace(role) {
    this.replacing = role;
    const which = role === ROLE.edit ? "edit" : "view";
    this.confirmText.textContent = `Replace the ${which} link? The current ${which} link stops working at once, ` +
      `and everyone who has the board open with it is disconnected. You then share the new link with whoever should keep access.`;
    this.confirmBox.hidden = false;
    this.replacedRow.hidden = true;
  }

  cancelReplace() {
    this.replacing = null;
    this.confirmBox.hidden = true;
  }

  async confirmReplace() {
    const role = this.replacing;
    if (!role) return;
    await this.#call(async () => {
      const answer = await this.api.replaceLink(this.session.boardId, this.session.secret, role);
      this.replacing = null;
      this.confirmBox.hidden = true;
      this.replacedLabel.textContent = role === ROLE.edit ? "New edit link" : "New view link";
      this.replacedLink.value = absoluteLink(this.origin, answer.url);
      this.replacedRow.hidden = false;
      this.status.textContent = `The old ${role} link no longer works. Share the new one.`;
      updateBoards((list) => withLinks(list, this.session.boardId, { [role]: answer.url }, { now: Date.now() }));
    }, "Could not replace the link");
  }

  /** The delete form was submitted: only with "delete" typed. */
  async deleteBoard() {
    if (this.deleteInput.value.trim().toLowerCase() !== "delete") {
      this.status.textContent = "Type delete in the box to confirm.";
      return;
    }
    await this.#call(async () => {
      await this.api.deleteBoard(this.session.boardId, this.session.secret);
      this.dialog.close();
      this.onDeleted();
    }, "Could not delete the board");
  }

  /** @param {() => Promise<void>} action @param {string} failure */
  async #call(action, failure) {
    if (this.busy) return;
    this.busy = true;
    this.status.textContent = "Working…";
    try {
      await action();
    } catch (error) {
      this.status.textContent = `${failure}: ${apiErrorText(error)}.`;
    } finally {
      this.busy = false;
    }
  }
}
