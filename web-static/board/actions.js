// @ts-check
// What a press, a menu or a form on the board page asks of its board, where the answer needs the
// element the user used: its form's values, its armed state, where the focus goes next.
// model/intents.js says what it means; the session sends it. pages/board.js's delegated listener
// finds the element and calls these.

import { KIND } from "../wire/constants.js";
import { cleanName, saveName } from "../wire/storage.js";
import { armButton } from "../dom/kit.js";
import * as intents from "../model/intents.js";
import { deleteSectionPrompt } from "../model/sentences.js";
import { fieldInput } from "./field.js";
import { fillSectionMenu } from "./timer_row.js";

/** @typedef {import("./session.js").BoardSession} BoardSession */

/** @param {Element} element @returns {string} the id of the section or timer the element is in */
function idOf(element) {
  return /** @type {HTMLElement} */ (element.closest("[data-kind]")).dataset.id ?? "";
}

/** @param {HTMLFormElement} form @param {string} name */
function valueOf(form, name) {
  return /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
}

/** The "add section" form. @param {BoardSession} board @param {HTMLFormElement} form */
export function addSection(board, form) {
  const intent = intents.addSection(valueOf(form, "title"), board.limits);
  if ("error" in intent) return board.toast(intent.error);
  board.edit(intent.ops);
  form.reset();
}

/** A section's "add timer" form: the new timer on top, and the title field ready for the next. @param {BoardSession} board @param {HTMLFormElement} form */
export function addTimer(board, form) {
  const sectionID = idOf(form);
  const intent = intents.addTimer(sectionID, { title: valueOf(form, "title"), minutes: valueOf(form, "minutes"), seconds: valueOf(form, "seconds") }, board.limits);
  if ("error" in intent) return board.toast(intent.error);
  board.edit(intent.ops);
  form.reset();
  /** @type {HTMLInputElement} */ (form.elements.namedItem("title")).focus();
}

/** A timer's "move to" menu was chosen. @param {BoardSession} board @param {HTMLSelectElement} select */
export function moveTimerToSection(board, select) {
  const sectionID = select.value;
  select.value = "";
  board.edit(intents.moveTimerToSection(board.displayed, idOf(select), sectionID));
}

/** A timer's "move to" menu is filled when it gets the focus, not kept up to date. @param {BoardSession} board @param {HTMLSelectElement} select */
export function fillMoveMenu(board, select) {
  const id = idOf(select);
  if (board.displayed.timers.has(id)) fillSectionMenu(select, intents.otherSections(board.displayed, id));
}

/**
 * Deleting a section deletes its timers for everyone, so a section with timers asks for a
 * second press (the button is armed until it loses focus).
 * @param {BoardSession} board @param {string} id @param {HTMLButtonElement} button
 */
export function deleteSection(board, id, button) {
  const count = board.displayed.timersIn(id).length;
  if (count > 0 && !button.dataset.armed) {
    const prompt = deleteSectionPrompt(count);
    armButton(button, prompt);
    board.toast(`${prompt}.`);
    return;
  }
  keepFocusNear(button, "section-delete", () => board.edit(intents.deleteSection(id)));
}

/** @param {BoardSession} board @param {string} id @param {HTMLButtonElement} button */
export function deleteTimer(board, id, button) {
  keepFocusNear(button, "timer-delete", () => board.edit(intents.deleteTimer(id)));
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
