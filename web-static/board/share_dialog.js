// @ts-check
// The Share dialog: the board's links, as far as this page's role may show them, and copying one.
// It fills fixed elements of index.html through `.value`, `textContent` and `hidden`; pages/board.js's
// delegated listener calls it.

import { ROLE } from "../wire/constants.js";
import { absoluteLink, displayLink } from "../wire/links.js";
import { updateBoards, withLinks } from "../model/board_list.js";
import { SHARE_WORDS } from "../model/sentences.js";

/** @typedef {import("./session.js").BoardSession} BoardSession */
/** @typedef {import("../wire/api.js").BoardApi} BoardApi */

/**
 * Copies a link field's text. Where the clipboard API is refused (no permission, an old browser,
 * a page not served over https), the text is selected instead, for Ctrl+C.
 * @param {HTMLInputElement} input @param {HTMLElement} status where to say what happened
 */
export async function copyField(input, status) {
  if (!input.value) return;
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = SHARE_WORDS.copied;
  } catch {
    input.focus();
    input.select();
    status.textContent = SHARE_WORDS.selected;
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
    this.viewDisplayRow = byId(doc, "share-view-display-row");
    this.ownerRow = byId(doc, "share-owner-row");
    this.ownerLink = /** @type {HTMLInputElement} */ (byId(doc, "share-owner-link"));
    /** Each link's display link (the same key, at /b/ID/display), by the id of the link's field. */
    this.qr = /** @type {HTMLElement} */ (byId(doc, "share-qr"));
    this.displays = /** @type {[HTMLInputElement, HTMLInputElement][]} */ (["owner", "edit", "view"].map((role) => [
      byId(doc, `share-${role}-link`), byId(doc, `share-${role}-display`),
    ]));
  }

  /**
   * The QR code of a link field, drawn in this browser (board/qr_code.js), under the links, with
   * the field's label: a phone scans the board's link, or a TV's browser its display.
   * @param {HTMLInputElement} input
   */
  async showQr(input) {
    if (!input.value) return;
    const { drawQrCode } = await import("./qr_code.js");
    await drawQrCode(/** @type {HTMLImageElement} */ (this.qr.querySelector("img")), input.value);
    const row = input.closest(".share-row");
    const label = row?.querySelector("label")?.textContent ?? "";
    /** @type {HTMLElement} */ (this.qr.querySelector("figcaption")).textContent = input.id.endsWith("-display") ? `${label}: display` : label;
    this.qr.dataset.for = input.id;
    this.qr.hidden = false;
  }

  /** Each shown link's display link follows it. */
  #showDisplays() {
    for (const [link, display] of this.displays) display.value = link.value ? displayLink(link.value) : "";
  }

  /**
   * Owner: its own link and both others, as the server says they are now (so a link replaced from another device
   * shows its new value). Editor: its own edit link; the view link is the owner's to give. Viewer:
   * its own view link only. Each link comes with its display's link.
   */
  async open() {
    const { session } = this;
    const role = session.role ?? ROLE.view;
    this.status.textContent = "";
    this.qr.hidden = true;
    this.editRow.hidden = role === ROLE.view;
    this.viewInput.hidden = role === ROLE.edit;
    this.viewNote.hidden = role !== ROLE.edit;
    this.viewDisplayRow.hidden = role === ROLE.edit;
    // The owner's own link, which nobody else may be given, is the owner's to copy too.
    this.ownerRow.hidden = role !== ROLE.owner;
    this.ownerLink.value = role === ROLE.owner ? absoluteLink(this.origin, session.link) : "";
    this.editLink.value = role === ROLE.edit ? absoluteLink(this.origin, session.link) : "";
    this.viewLink.value = role === ROLE.view ? absoluteLink(this.origin, session.link) : "";
    this.#showDisplays();
    if (!this.dialog.open) this.dialog.showModal();
    if (role !== ROLE.owner) return;
    this.status.textContent = SHARE_WORDS.loading;
    try {
      const { links } = await this.api.links(session.boardId, session.secret);
      this.editLink.value = absoluteLink(this.origin, links.edit);
      this.viewLink.value = absoluteLink(this.origin, links.view);
      this.#showDisplays();
      this.status.textContent = "";
      updateBoards((list) => withLinks(list, session.boardId, { edit: links.edit, view: links.view }, { now: Date.now() }));
    } catch (error) {
      this.status.textContent = SHARE_WORDS.loadFailed(error);
    }
  }
}
