// @ts-check
// A section's elements, and everything drawn on them: built from a shape made once per page (a
// copy per section, its id stamped in), and then touched one attribute or text at a time. Which
// sections there are and where is the board view's business (view.js); the run controls' state
// comes from the countdowns view (countdowns.js).
//
// Stable selectors (browser tests rely on these; keep them):
//   [data-kind=section][data-id=ID]             a section (<section>); data-expanded="true|false"
//     .section-toggle                           expand/collapse button, aria-expanded
//     .section-title                            title <input>
//     .section-move-up / .section-move-down     move buttons
//     .section-delete                           delete button (asks a second press when the section has timers)
//     .timers                                   <ol> of its timers, in display order
//     form.add-timer  [name=title|minutes|seconds]  the "add timer" form
//   .section-run                                its "Start all" / "Pause all" button (data-action=start|pause);
//                                               in a sequence section "Start" / "Pause" the sequence
//   [data-kind=section][data-sequence=true|false][data-loop=true|false]
//     .section-sequence / .section-loop         toggles (aria-pressed) of the section's sequence and loop
//     .section-skip / .section-restart          a sequence's "Skip" and "Restart"
//     .section-progress                         a sequence's progress, e.g. "2 of 5"
//   [data-built=false]                          a big board's section whose timers are not all built yet
//   .section-times                              total, elapsed and left, and a sequence's ahead/behind (board/section_times.js)
//   .section-time                               "Times…": the time dialog of the section and its timers (board/time_dialog.js)

import { h, iconButton, labelledButton, setAttribute, setIcon, setText } from "../dom/kit.js";
import { ITEM_ID, templateOf } from "../dom/template.js";
import { SECTION_LABELS, sectionRunWords } from "../model/sentences.js";
import { createField, fieldOf, setFieldValue } from "./field.js";

/** @typedef {import("../wire/protocol.js").Section} Section */

/**
 * A section element with an empty timer list (the board view adds the timers).
 * @param {Document} doc @param {Section} section @param {number} maxTitleLength
 */
export function createSectionElement(doc, section, maxTitleLength) {
  const element = templateOf(doc, `section ${maxTitleLength}`, () => sectionShape(doc, maxTitleLength)).stamp(section.id);
  setFieldValue(/** @type {import("./field.js").FieldInput} */ (fieldOf(element, "title")), section.title);
  setExpanded(element, section.isExpanded);
  setSequence(element, section);
  return element;
}

/** Every section's elements, ITEM_ID for its id (dom/template.js). @param {Document} doc @param {number} maxTitleLength */
function sectionShape(doc, maxTitleLength) {
  const L = SECTION_LABELS;
  const bodyId = `section-body-${ITEM_ID}`;
  const titleId = `section-title-${ITEM_ID}`;
  const title = createField(doc, "section-title", L.title, { id: titleId, "data-field": "title", maxlength: String(maxTitleLength), enterkeyhint: "done" });
  const toggle = iconButton(doc, "section-toggle", L.toggle, "chevron");
  toggle.setAttribute("aria-controls", bodyId);
  return h(doc, "section", { class: "section", "data-kind": "section", "data-id": ITEM_ID, "aria-labelledby": titleId }, [
    h(doc, "header", { class: "section-header" }, [
      toggle,
      title,
      h(doc, "span", { class: "section-progress", role: "status" }),
      h(doc, "span", { class: "section-times" }),
      sectionRunButton(doc, ITEM_ID, titleId),
      labelledButton(doc, "section-skip", `section-skip-${ITEM_ID}`, titleId, L.skip, L.skipTip),
      labelledButton(doc, "section-restart", `section-restart-${ITEM_ID}`, titleId, L.restart, L.restartTip),
      h(doc, "div", { class: "actions" }, [
        h(doc, "button", { type: "button", class: "button toggle section-time", "aria-haspopup": "dialog", title: "Times of day: kinds, scheduled starts, finish together" }, ["Times…"]),
        pressedButton(doc, "section-sequence", L.sequence, L.sequenceTip),
        pressedButton(doc, "section-loop", L.loop, L.loopTip),
        // One group, so that on a phone they wrap to a line of their own together.
        h(doc, "span", { class: "actions-group" }, [
          iconButton(doc, "section-move-up", L.moveUp, "up"),
          iconButton(doc, "section-move-down", L.moveDown, "down"),
          iconButton(doc, "section-delete", L.delete, "delete"),
        ]),
      ]),
    ]),
    h(doc, "div", { class: "section-body", id: bodyId }, [
      h(doc, "ol", { class: "timers", "aria-label": L.timers }),
      h(doc, "p", { class: "empty-note" }, [L.noTimers]),
      addTimerForm(doc, ITEM_ID, maxTitleLength),
    ]),
  ]);
}

/** A toggle button (aria-pressed) with its words. @param {Document} doc @param {string} className @param {string} words @param {string} tip */
function pressedButton(doc, className, words, tip) {
  return h(doc, "button", { type: "button", class: `button toggle ${className}`, "aria-pressed": "false", title: tip }, [words]);
}

/** The start/pause-all button, named like a timer's run button: "Start all timers in Prep". @param {Document} doc @param {string} sectionId @param {string} titleId */
function sectionRunButton(doc, sectionId, titleId) {
  const labelId = `section-run-label-${sectionId}`;
  const words = sectionRunWords(false, false);
  return h(doc, "button", { type: "button", class: "button section-run", "data-action": "start", "aria-labelledby": `${labelId} ${titleId}`, "data-icon": "play" }, [
    h(doc, "span", { class: "section-run-label", "aria-hidden": "true" }, [words.label]),
    h(doc, "span", { class: "visually-hidden run-words", id: labelId }, [words.name]),
  ]);
}

/** @param {Document} doc @param {string} sectionId @param {number} maxTitleLength */
function addTimerForm(doc, sectionId, maxTitleLength) {
  const L = SECTION_LABELS;
  const id = (/** @type {string} */ name) => `add-timer-${name}-${sectionId}`;
  return h(doc, "form", { class: "add-timer", "aria-label": L.addTimer }, [
    h(doc, "label", { class: "visually-hidden", for: id("title") }, [L.newTitle]),
    h(doc, "input", {
      id: id("title"), name: "title", class: "field", placeholder: L.newTitlePlaceholder, required: "",
      maxlength: String(maxTitleLength), autocomplete: "off", dir: "auto",
    }),
    h(doc, "label", { class: "visually-hidden", for: id("minutes") }, [L.newMinutes]),
    h(doc, "input", { id: id("minutes"), name: "minutes", class: "field number", type: "number", min: "0", max: "999", inputmode: "numeric", placeholder: "min" }),
    h(doc, "span", { class: "colon", "aria-hidden": "true" }, [":"]),
    h(doc, "label", { class: "visually-hidden", for: id("seconds") }, [L.newSeconds]),
    h(doc, "input", { id: id("seconds"), name: "seconds", class: "field number", type: "number", min: "0", max: "59", inputmode: "numeric", placeholder: "sec" }),
    h(doc, "button", { type: "submit", class: "button" }, [L.add]),
  ]);
}

/**
 * Whether a section runs as a sequence, and loops: data-sequence and data-loop (style.css shows
 * a sequence's controls), and its toggles' aria-pressed. Touches only what differs.
 * @param {HTMLElement} element [data-kind=section] @param {{sequence?: boolean, loop?: boolean}} section
 */
export function setSequence(element, { sequence = false, loop = false }) {
  setAttribute(element, "data-sequence", String(sequence));
  setAttribute(element, "data-loop", String(loop));
  setAttribute(/** @type {HTMLElement} */ (element.querySelector(".section-sequence")), "aria-pressed", String(sequence));
  setAttribute(/** @type {HTMLElement} */ (element.querySelector(".section-loop")), "aria-pressed", String(loop));
}

/** Touches only this section: its toggle's aria-expanded and whether its body is shown. @param {HTMLElement} section @param {boolean} expanded */
export function setExpanded(section, expanded) {
  section.dataset.expanded = String(expanded);
  section.querySelector(".section-toggle")?.setAttribute("aria-expanded", String(expanded));
  const body = /** @type {HTMLElement | null} */ (section.querySelector(".section-body"));
  if (body) body.hidden = !expanded;
}

/** @param {HTMLElement} section @returns {HTMLElement} the section's <ol> of timers */
export function timerListOf(section) {
  return /** @type {HTMLElement} */ (section.querySelector(".timers"));
}

/** @param {HTMLElement} section @returns {HTMLElement} the part hidden when the section is collapsed */
export function bodyOf(section) {
  return /** @type {HTMLElement} */ (section.querySelector(".section-body"));
}

/**
 * A section's run controls. An ordinary section: "Pause all" while any of its timers runs, else
 * "Start all" (aria-disabled when there is nothing to start). A sequence: "Start" / "Pause" the
 * sequence, "Skip" while a timer is current, and its progress ("2 of 5"). Touches only what differs.
 * @param {HTMLElement} section [data-kind=section]
 * @param {{anyRunning: boolean, anyStartable: boolean, sequence?: boolean, loop?: boolean, progress?: string, current?: boolean}} state
 *   current: a timer of the sequence is running or paused (Skip has something to skip)
 */
export function renderSectionRun(section, { anyRunning, anyStartable, sequence = false, loop = false, progress = "", current = false }) {
  setSequence(section, { sequence, loop });
  const button = /** @type {HTMLElement} */ (section.querySelector(".section-run"));
  const words = sectionRunWords(anyRunning, sequence);
  setAttribute(button, "data-action", anyRunning ? "pause" : "start");
  setText(/** @type {HTMLElement} */ (button.querySelector(".run-words")), words.name);
  setAttribute(button, "aria-disabled", String(!anyRunning && !anyStartable));
  setText(/** @type {HTMLElement} */ (button.querySelector(".section-run-label")), words.label);
  setIcon(button, anyRunning ? "pause" : "play");
  setText(/** @type {HTMLElement} */ (section.querySelector(".section-progress")), sequence ? progress : "");
  setAttribute(/** @type {HTMLElement} */ (section.querySelector(".section-skip")), "aria-disabled", String(!current));
}
