// @ts-check
// The board page's two dialogs: Share (the board's links, as far as this page's role may show
// them) and the owner's settings (rename, replace a link, delete). They fill fixed elements of
// index.html through `.value`, `textContent` and `hidden`; main.js's delegated listener calls them.

import { ROLE } from "./constants.js";
import { apiErrorText } from "./board_api.js";
import { withLinks } from "./board_list.js";
import { absoluteLink } from "./links.js";
import { parseTitle } from "./field_edit.js";
import { updateBoards } from "./storage.js";

/** @typedef {import("./board_session.js").BoardSession} BoardSession */
/** @typedef {import("./board_api.js").BoardApi} BoardApi */

/**
 * Copies a link field's text. Where the clipboard API is refused (no permission, an old browser,
 * a page not served over https), the text is selected instead, for Ctrl+C.
 * @param {HTMLInputElement} input @param {HTMLElement} status where to say what happened
 */
export async function copyField(input, status) {
  if (!input.value) return;
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = "Link copied.";
  } catch {
    input.focus();
    input.select();
    status.textContent = "The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.";
  }
}

/** @param {Document} doc @param {string} id */
function byId(doc, id) {
  return /** @type {HTMLElement} */ (doc.getElementById(id));
}

export class ShareDialog {
  /** @param {{dialog: HTMLDialogElement, session: BoardSession, api: BoardApi, origin: string}} options */
  constructor({ dialog, session, api, origin }) {
    const doc = dialog.ownerDocument;
    this.dialog = dialog;
    this.session = session;
    this.api = api;
    this.origin = origin;
    this.status = byId(doc, "share-status");
    this.editRow = byId(doc, "share-edit-row");
    this.viewRow = byId(doc, "share-view-row");
    this.editLink = /** @type {HTMLInputElement} */ (byId(doc, "share-edit-link"));
    this.viewLink = /** @type {HTMLInputElement} */ (byId(doc, "share-view-link"));
    this.viewNote = byId(doc, "share-view-note");
    this.viewInput = /** @type {HTMLElement} */ (this.viewLink.closest(".inline-form"));
  }

  /**
   * Owner: both links, as the server says they are now (so a link replaced from another device
   * shows its new value). Editor: its own edit link; the view link is the owner's to give. Viewer:
   * its own view link only.
   */
  async open() {
    const { session } = this;
    const role = session.role ?? ROLE.view;
    this.status.textContent = "";
    this.editRow.hidden = role === ROLE.view;
    this.viewInput.hidden = role === ROLE.edit;
    this.viewNote.hidden = role !== ROLE.edit;
    this.editLink.value = role === ROLE.edit ? absoluteLink(this.origin, session.link) : "";
    this.viewLink.value = role === ROLE.view ? absoluteLink(this.origin, session.link) : "";
    if (!this.dialog.open) this.dialog.showModal();
    if (role !== ROLE.owner) return;
    this.status.textContent = "Loading the links…";
    try {
      const { links } = await this.api.links(session.boardId, session.secret);
      this.editLink.value = absoluteLink(this.origin, links.edit);
      this.viewLink.value = absoluteLink(this.origin, links.view);
      this.status.textContent = "";
      updateBoards((list) => withLinks(list, session.boardId, { edit: links.edit, view: links.view }, { now: Date.now() }));
    } catch (error) {
      this.status.textContent = `Could not load the links: ${apiErrorText(error)}.`;
    }
  }
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
