// @ts-check
// The "Times…" dialog of a section (issue 30): when all its timers finish together (finishAt), and
// for each of its timers its kind (count down, count up, count to a time of day, clock), the time
// it counts to, and a scheduled start. Every time is picked as the board's wall clock
// (<input type=datetime-local>, read and written in the board's zone by model/wall_clock.js),
// never typed in milliseconds. Also the owner's time zone field (Board settings).
//
// Stable selectors: #time-dialog, form.finish-form [name=finishAt], .finish-clear,
// form.timer-time-form [name=timer|kind|targetAt|startAt], .start-clear, .time-zone-name,
// #time-status; form.time-zone-form [name=timeZone] (in #owner-dialog).

import { h } from "../dom/kit.js";
import { TIMER_KIND } from "../wire/constants.js";
import * as protocol from "../wire/protocol.js";
import { orderedTimers } from "../model/board.js";
import { boardZone, formatWallTime, instantOfWall, isKnownZone, wallInputValue } from "../model/wall_clock.js";

/** @typedef {import("./session.js").BoardSession} BoardSession */

/** Save with no timer to save (the list is empty, or its timer went the instant before). */
const GONE = "That timer is no longer on the board.";

export class TimeDialog {
  /** @param {{dialog: HTMLDialogElement, session: BoardSession}} options */
  constructor({ dialog, session }) {
    this.dialog = dialog;
    this.session = session;
    this.sectionId = "";
    const form = (/** @type {string} */ selector) => /** @type {HTMLFormElement} */ (dialog.querySelector(selector));
    this.finishForm = form(".finish-form");
    this.timerForm = form(".timer-time-form");
    this.status = /** @type {HTMLElement} */ (dialog.querySelector("#time-status"));
  }

  get zone() {
    return boardZone(this.session.displayed.display);
  }

  /** @param {HTMLFormElement} form @param {string} name */
  #field(form, name) {
    return /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  }

  /** Opens the dialog for section `sectionId`, filled with what the board says now. @param {string} sectionId */
  open(sectionId) {
    const board = this.session.displayed;
    const section = board.sections.get(sectionId);
    if (!section) return;
    this.sectionId = sectionId;
    this.status.textContent = "";
    const zone = this.zone;
    /** @type {HTMLElement} */ (this.dialog.querySelector(".time-zone-name")).textContent = zone;
    this.#field(this.finishForm, "finishAt").value = section.finishAt == null ? "" : wallInputValue(section.finishAt, zone);
    this.#fillList(orderedTimers(board, sectionId));
    this.fillTimer();
    if (!this.dialog.open) this.dialog.showModal();
  }

  get #select() {
    return /** @type {HTMLSelectElement} */ (this.timerForm.elements.namedItem("timer"));
  }

  /** The section's timers to choose from. @param {import("../wire/protocol.js").Timer[]} timers in display order */
  #fillList(timers) {
    const doc = this.dialog.ownerDocument;
    this.#select.replaceChildren(...timers.map((t) => h(doc, "option", { value: t.id }, [t.title])));
    this.timerForm.hidden = timers.length === 0;
  }

  /**
   * The board changed while the dialog may be open: its list of timers follows (added, renamed,
   * moved, deleted by anyone). The chosen timer stays chosen with what the user picked for it; if
   * it left the section, the dialog says so and shows the timer it names now, so a Save never goes
   * to another timer than the one shown. A section deleted meanwhile closes the dialog.
   */
  follow() {
    if (!this.dialog.open) return;
    const board = this.session.displayed;
    if (!board.sections.has(this.sectionId)) {
      this.dialog.close();
      this.session.toast("The section whose times you were setting was deleted by someone else.");
      return;
    }
    const timers = orderedTimers(board, this.sectionId);
    const shown = [...this.#select.options];
    if (shown.length === timers.length && shown.every((o, i) => o.value === timers[i].id && o.text === timers[i].title)) return;
    const chosen = this.#select.selectedOptions[0];
    this.#fillList(timers);
    if (!chosen) return this.fillTimer();
    if (timers.some((t) => t.id === chosen.value)) {
      this.#select.value = chosen.value;
      return;
    }
    this.#say(`“${chosen.text}” was ${board.timers.has(chosen.value) ? "moved to another section" : "deleted"} by someone else.`);
    this.fillTimer();
  }

  /** Shows the chosen timer's kind, target and scheduled start. */
  fillTimer() {
    const timer = this.session.displayed.timers.get(this.#field(this.timerForm, "timer").value);
    if (!timer) return;
    const zone = this.zone;
    this.#field(this.timerForm, "kind").value = timer.kind ?? TIMER_KIND.countdown;
    this.#field(this.timerForm, "targetAt").value = timer.targetAt == null ? "" : wallInputValue(timer.targetAt, zone);
    this.#field(this.timerForm, "startAt").value = timer.startAt == null ? "" : wallInputValue(timer.startAt, zone);
    this.showKindFields();
  }

  /** The time to count down to is asked only of a timer that counts to a time of day. */
  showKindFields() {
    const row = /** @type {HTMLElement} */ (this.timerForm.querySelector(".time-target-row"));
    row.hidden = this.#field(this.timerForm, "kind").value !== TIMER_KIND.toTime;
  }

  /** "Finish together at": every timer of the section starts so that all end at that time. */
  saveFinish() {
    const finishAt = instantOfWall(this.#field(this.finishForm, "finishAt").value, this.zone);
    if (finishAt === null) return this.#say("Pick a date and a time to finish at.");
    this.session.edit([protocol.updateSection({ id: this.sectionId, finishAt })]);
    this.#say(`All its timers finish together at ${formatWallTime(finishAt, this.zone)}.`);
  }

  clearFinish() {
    this.#field(this.finishForm, "finishAt").value = "";
    this.session.edit([protocol.updateSection({ id: this.sectionId, finishAt: null })]);
    this.#say("Finish together is off.");
  }

  /** The chosen timer's kind, target and scheduled start, as picked. */
  saveTimer() {
    const id = this.#field(this.timerForm, "timer").value;
    const timer = this.session.displayed.timers.get(id);
    if (!timer) return this.#say(GONE);
    const zone = this.zone;
    const kind = this.#field(this.timerForm, "kind").value;
    const targetValue = this.#field(this.timerForm, "targetAt").value;
    const startValue = this.#field(this.timerForm, "startAt").value;
    const targetAt = targetValue ? instantOfWall(targetValue, zone) : null;
    const startAt = startValue ? instantOfWall(startValue, zone) : null;
    if (kind === TIMER_KIND.toTime && targetAt === null) return this.#say("Pick the time to count down to.");
    /** @type {import("../wire/protocol.js").TimeOfDay} */
    const change = {};
    if (kind !== (timer.kind ?? TIMER_KIND.countdown)) change.kind = kind;
    // A target belongs to "count down to a time" only.
    const wantedTarget = kind === TIMER_KIND.toTime ? targetAt : null;
    if (wantedTarget !== (timer.targetAt ?? null)) change.targetAt = wantedTarget;
    // A clock does not run, so it has no start.
    const wantedStart = kind === TIMER_KIND.clock ? null : startAt;
    if (wantedStart !== (timer.startAt ?? null)) change.startAt = wantedStart;
    if (Object.keys(change).length === 0) return this.#say("Nothing to change.");
    this.session.edit([protocol.updateTimer({ id, ...change })]);
    this.#say(wantedStart === null ? `${timer.title} saved.` : `${timer.title} starts at ${formatWallTime(wantedStart, zone)}.`);
  }

  /** No scheduled start for the chosen timer. */
  clearStart() {
    this.#field(this.timerForm, "startAt").value = "";
    const id = this.#field(this.timerForm, "timer").value;
    const timer = this.session.displayed.timers.get(id);
    if (!timer) return this.#say(GONE);
    if (timer.startAt == null) return;
    this.session.edit([protocol.updateTimer({ id, startAt: null })]);
    this.#say(`${timer.title} has no scheduled start.`);
  }

  /** @param {string} text */
  #say(text) {
    this.status.textContent = text;
  }
}

/**
 * The owner's time zone field: its list of zones (made when Board settings opens), and the board's now.
 * @param {HTMLFormElement} form form.time-zone-form @param {string} zone
 */
export function fillTimeZoneForm(form, zone) {
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("timeZone"));
  const list = /** @type {HTMLDataListElement} */ (form.querySelector("datalist"));
  if (list.childElementCount === 0) {
    const doc = form.ownerDocument;
    const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    list.replaceChildren(...zones.map((name) => h(doc, "option", { value: name })));
  }
  if (form.ownerDocument.activeElement !== input) input.value = zone;
}

/**
 * The owner set the board's time zone: every screen shows times of day in it.
 * @param {BoardSession} session @param {HTMLFormElement} form
 */
export function submitTimeZone(session, form) {
  const zone = /** @type {HTMLInputElement} */ (form.elements.namedItem("timeZone")).value.trim();
  if (!isKnownZone(zone)) return session.toast(`${zone || "An empty name"} is not a time zone this browser knows, such as Europe/Paris.`);
  session.edit([protocol.setTimeZone(zone)]);
}
