// @ts-check
// The Screens dialog of the board page (editors and owners): a message for every display of the
// board (optionally flashing), clearing it in one press, blacking the displays out and back, and a
// link that opens a display. Messages and blackout are board state (docs/protocol.md "Screens"): it
// sends edits through the session and draws what the server confirmed, so every editor's dialog
// says the same. It fills fixed elements of index.html; pages/board.js's delegated listener calls it.
// A display only shows the board, so the owner's opens with the view link (fetched as the Share
// dialog does: it may have been replaced), never the owner's own, which a wall screen would keep;
// an editor, who is not given the view link, opens it with their own.
//
// Stable selectors: #screens-dialog: form.screen-message ([name=text], [name=flash]), #screen-message-now,
// .screen-clear, .screen-blackout[aria-pressed], #screen-display-link.

import { ROLE } from "../wire/constants.js";
import { absoluteLink, displayLink } from "../wire/links.js";
import { clearMessage, setBlackout, showMessage } from "../wire/protocol.js";
import { setText } from "../dom/kit.js";
import { SCREENS_WORDS } from "../model/sentences.js";

/** @typedef {import("./session.js").BoardSession} BoardSession */
/** @typedef {import("../wire/api.js").BoardApi} BoardApi */
/** @typedef {import("../wire/protocol.js").Display} Display */

export class ScreensPanel {
  /** @param {{dialog: HTMLDialogElement, session: BoardSession, api: BoardApi, origin: string}} options */
  constructor({ dialog, session, api, origin }) {
    this.dialog = dialog;
    this.session = session;
    this.api = api;
    this.origin = origin;
    const part = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (dialog.querySelector(selector));
    this.form = /** @type {HTMLFormElement} */ (part("form.screen-message"));
    this.now = part("#screen-message-now");
    this.clear = /** @type {HTMLButtonElement} */ (part(".screen-clear"));
    this.blackout = /** @type {HTMLButtonElement} */ (part(".screen-blackout"));
    this.link = /** @type {HTMLAnchorElement} */ (part("#screen-display-link"));
  }

  open() {
    this.render(this.session.displayed.display);
    if (this.session.role === ROLE.owner) void this.#showViewDisplay();
    else this.link.href = absoluteLink(this.origin, displayLink(this.session.link));
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** The owner's link to a display: the view link's, hidden until the server says what it is now. */
  async #showViewDisplay() {
    const { session } = this;
    this.link.hidden = true;
    try {
      const { links } = await this.api.links(session.boardId, session.secret);
      this.link.href = absoluteLink(this.origin, displayLink(links.view));
      this.link.hidden = false;
    } catch (error) {
      session.toast(SCREENS_WORDS.displayLinkFailed(error));
    }
  }

  /** What the server confirmed the displays show. @param {Display} display */
  render({ message, blackout }) {
    setText(this.now, message ? SCREENS_WORDS.showing(message.text, message.flash) : SCREENS_WORDS.noMessage);
    // A disabled button loses the focus to <body>, behind the dialog: it goes to the next message's field.
    if (message === null && this.dialog.ownerDocument.activeElement === this.clear) this.#textField.focus();
    this.clear.disabled = message === null;
    this.blackout.setAttribute("aria-pressed", String(blackout));
    setText(this.blackout, blackout ? SCREENS_WORDS.blackoutOn : SCREENS_WORDS.blackoutOff);
  }

  get #textField() {
    return /** @type {HTMLInputElement} */ (this.form.elements.namedItem("text"));
  }

  /** The form's message goes to every display; the field empties for the next one. */
  send() {
    const text = this.#textField;
    const flash = /** @type {HTMLInputElement} */ (this.form.elements.namedItem("flash"));
    const trimmed = text.value.trim();
    if (!trimmed) return;
    this.session.edit([showMessage({ text: trimmed, flash: flash.checked })]);
    text.value = "";
  }

  clearMessage() {
    this.session.edit([clearMessage()]);
  }

  toggleBlackout() {
    this.session.edit([setBlackout({ on: !this.session.displayed.display.blackout })]);
  }
}
