// @ts-check
// What a press or a form on the board page asks of its board: read from the element the user
// used, checked by field_edit.js, and handed to the board's session as edits. main.js's delegated
// listener finds the element and calls these; the session decides nothing about forms.

import { KIND } from "../wire/constants.js";
import { armButton, fillSectionMenu } from "./dom_patch.js";
import { fieldInput, parseField, parseTitle } from "./field.js";
import * as protocol from "../wire/protocol.js";
import { cleanName, saveName } from "../wire/storage.js";

/** @typedef {import("./session.js").BoardSession} BoardSession */

/** @param {Element} element @returns {string} the id of the section or timer the element is in */
function idOf(element) {
  return /** @type {HTMLElement} */ (element.closest("[data-kind]")).dataset.id ?? "";
}

/** The "add section" form. @param {BoardSession} board @param {HTMLFormElement} form */
export function addSection(board, form) {
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("title"));
  const title = parseTitle(input.value, board.limits.maxTitleLength);
  if ("error" in title) return board.toast(title.error);
  board.edit([protocol.addSection({ id: protocol.newEntityId(KIND.section), title: title.value, position: protocol.position.first })]);
  form.reset();
}

/** A section's "add timer" form. @param {BoardSession} board @param {HTMLFormElement} form */
export function addTimer(board, form) {
  const sectionID = /** @type {HTMLElement} */ (form.closest("[data-kind=section]")).dataset.id ?? "";
  const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
  const limits = board.limits;
  const title = parseField("title", value("title"), limits);
  // Empty minutes or seconds mean 0: "Eggs, 7 min" should not need a 0 typed in.
  const minutes = parseField("minutes", value("minutes") || "0", limits);
  const seconds = parseField("seconds", value("seconds") || "0", limits);
  const error = [title, minutes, seconds].find((p) => "error" in p);
  if (error && "error" in error) return board.toast(error.error);
  const [t, m, s] = /** @type {{value: any}[]} */ ([title, minutes, seconds]).map((p) => p.value);
  board.edit([protocol.addTimer({ id: protocol.newEntityId(KIND.timer), sectionID, title: t, minutes: m, seconds: s, position: protocol.position.first })]);
  form.reset();
  /** @type {HTMLInputElement} */ (form.elements.namedItem("title")).focus();
}

/** A timer's "move to" menu was chosen. @param {BoardSession} board @param {HTMLSelectElement} select */
export function moveTimerToSection(board, select) {
  const sectionID = select.value;
  select.value = "";
  board.moveTimerToSection(idOf(select), sectionID);
}

/** A timer's "move to" menu is filled when it gets the focus, not kept up to date. @param {BoardSession} board @param {HTMLSelectElement} select */
export function fillMoveMenu(board, select) {
  const id = idOf(select);
  if (board.store.displayed.timers.has(id)) fillSectionMenu(select, board.otherSections(id));
}

/**
 * Deleting a section deletes its timers for everyone, so a section with timers asks for a
 * second press (the button is armed until it loses focus).
 * @param {BoardSession} board @param {string} id @param {HTMLButtonElement} button
 */
export function deleteSection(board, id, button) {
  const count = board.timerCount(id);
  if (count > 0 && !button.dataset.armed) {
    const prompt = `Press again to delete this section and its ${count === 1 ? "timer" : `${count} timers`}`;
    armButton(button, prompt);
    board.toast(`${prompt}.`);
    return;
  }
  keepFocusNear(button, "section-delete", () => board.edit([protocol.deleteSection({ id })]));
}

/** @param {BoardSession} board @param {string} id @param {HTMLButtonElement} button */
export function deleteTimer(board, id, button) {
  keepFocusNear(button, "timer-delete", () => board.edit([protocol.deleteTimer({ id })]));
}

/**
 * Runs a delete that removes the row of `button`. If the button had the focus, the focus goes to
 * the same button of the next row (else of the previous one, else to the nearest "add" field), so
 * a keyboard user keeps their place instead of being sent back to the top of the page.
 * @param {HTMLButtonElement} button @param {string} className the button's action @param {() => void} remove
 */
function keepFocusNear(button, className, remove) {
  const doc = button.ownerDocument;
  const row = /** @type {HTMLElement} */ (button.closest("[data-kind]"));
  const hadFocus = doc.activeElement === button;
  const same = `.${className}`;
  const candidates = [row.nextElementSibling?.querySelector(same), row.previousElementSibling?.querySelector(same),
    row.dataset.kind === KIND.timer ? row.closest("[data-kind=section]")?.querySelector(".add-timer [name=title]") : doc.getElementById("add-section-title")];
  remove();
  if (!hadFocus || button.isConnected) return;
  const next = /** @type {HTMLElement | undefined} */ (candidates.find((element) => element?.isConnected));
  next?.focus();
}

/**
 * The user typed a new name: remember it and tell the others (a fresh hello). An empty name
 * shows the current one again.
 * @param {BoardSession} board @param {HTMLInputElement} input
 */
export function setName(board, input) {
  const name = cleanName(input.value);
  if (!name) {
    input.value = board.connection.name ?? "";
    return;
  }
  input.value = name;
  saveName(name);
  board.connection.rename(name);
}

/** Presence: the section or timer whose title, minutes or seconds has the focus, if any. @param {BoardSession} board */
export function tellEditing(board) {
  const input = fieldInput(board.doc.activeElement);
  board.connection.setEditing(input ? idOf(input) : null);
}
