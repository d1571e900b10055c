// @ts-check
// The owner's settings dialog: rename the board, replace a link, delete the board. It fills fixed
// elements of index.html through `.value`, `textContent` and `hidden`; pages/board.js's delegated
// listener calls it.

import { ROLE } from "../wire/constants.js";
import { absoluteLink } from "../wire/links.js";
import { updateBoards, withLinks } from "../model/board_list.js";
import { parseTitle } from "../model/fields.js";
import { OWNER_WORDS } from "../model/sentences.js";

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
      this.status.textContent = OWNER_WORDS.renamed;
    }, OWNER_WORDS.renameFailed);
  }

  /**
   * A "Replace the … link" button: say what it does before doing it.
   * @param {"edit" | "view"} role
   */
  askReplace(role) {
    this.replacing = role;
    this.confirmText.textContent = OWNER_WORDS.replaceConfirm(role === ROLE.edit ? "edit" : "view");
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
      this.replacedLabel.textContent = OWNER_WORDS.newLink(role);
      this.replacedLink.value = absoluteLink(this.origin, answer.url);
      this.replacedRow.hidden = false;
      this.status.textContent = OWNER_WORDS.replaced(role);
      updateBoards((list) => withLinks(list, this.session.boardId, { [role]: answer.url }, { now: Date.now() }));
    }, OWNER_WORDS.replaceFailed);
  }

  /** The delete form was submitted: only with "delete" typed. */
  async deleteBoard() {
    if (this.deleteInput.value.trim().toLowerCase() !== "delete") {
      this.status.textContent = OWNER_WORDS.typeDelete;
      return;
    }
    await this.#call(async () => {
      await this.api.deleteBoard(this.session.boardId, this.session.secret);
      this.dialog.close();
      this.onDeleted();
    }, OWNER_WORDS.deleteFailed);
  }

  /** @param {() => Promise<void>} action @param {string} failure */
  async #call(action, failure) {
    if (this.busy) return;
    this.busy = true;
    this.status.textContent = OWNER_WORDS.working;
    try {
      await action();
    } catch (error) {
      this.status.textContent = OWNER_WORDS.failed(failure, error);
    } finally {
      this.busy = false;
    }
  }
}
