// @ts-check
// A timer's row, and everything drawn on it: its fields, its run state and its face (countdown,
// phase, state in words: model/timer_face.js decides them, countdowns.js says when). Built from a
// shape made once per page (a copy per timer, its id stamped in), then touched one attribute or
// text at a time.
//
// Stable selectors (browser tests rely on these; keep them):
//   [data-kind=timer][data-id=ID]               a timer (<li>)
//     .timer-title / .timer-minutes / .timer-seconds   inputs (minutes and seconds are type=number)
//     .timer-warnAt                             the warning point input (m:ss left, empty: none)
//     .timer-section                            <select> "move to section" (options filled on focus)
//     .timer-move-up / .timer-move-down / .timer-delete buttons, named "Delete timer Eggs" etc.
//   [data-kind=timer][data-status=idle|running|paused|finished]  its run state, also in words in .timer-status
//     .timer-countdown                          m:ss left (role=timer), written only when the text changes
//     .timer-toggle                             start / pause / resume / restart button, named "Start Eggs" etc.
//     .timer-reset                              reset button, named "Reset Eggs"
//     .timer-adjust[data-by=60000|-60000]       "+1 min" / "−1 min" (made when the timer first runs; shown running or paused)
//   [data-kind=timer][data-phase=warn|over|done]  amber from the warning point, red at zero and in overtime
//                                               (the countdown reads +m:ss), "Done" when its sequence moved on;
//                                               also as class timer-warn / timer-over / timer-done

import { ADJUST_MS } from "../wire/constants.js";
import { h, iconButton, labelledButton, setAttribute, setIcon, setText } from "../dom/kit.js";
import { ITEM_ID, templateOf } from "../dom/template.js";
import { formatField } from "../model/fields.js";
import { TIMER_LABELS, TOGGLE_VERBS } from "../model/sentences.js";
import { createField, fieldOf, setFieldValue } from "./field.js";

/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {import("../dom/kit.js").IconName} IconName */
/** @typedef {{maxTitleLength: number, maxMinutes: number, maxSeconds: number}} RowLimits */

/** The fields of a row, as the user edits them. */
export const TIMER_FIELDS = /** @type {const} */ (["title", "minutes", "seconds", "warnAt"]);

/**
 * A timer's row with its fields filled (its run state is drawn by countdowns.js).
 * @param {Document} doc @param {Timer} timer @param {RowLimits} limits
 */
export function createTimerElement(doc, timer, limits) {
  const key = `timer ${limits.maxTitleLength} ${limits.maxMinutes} ${limits.maxSeconds}`;
  const element = templateOf(doc, key, () => timerShape(doc, limits)).stamp(timer.id);
  for (const field of TIMER_FIELDS) {
    setFieldValue(/** @type {import("./field.js").FieldInput} */ (fieldOf(element, field)), formatField(field, timer[field]));
  }
  return element;
}

/** Every timer row's elements, ITEM_ID for its id (dom/template.js). @param {Document} doc @param {RowLimits} limits */
function timerShape(doc, limits) {
  const L = TIMER_LABELS;
  const titleId = `timer-title-${ITEM_ID}`;
  const title = createField(doc, "timer-title", L.title, { id: titleId, "data-field": "title", maxlength: String(limits.maxTitleLength), enterkeyhint: "done" });
  const number = (/** @type {string} */ field, /** @type {string} */ label, /** @type {number} */ max) =>
    createField(doc, `number timer-${field}`, label, { "data-field": field, type: "number", min: "0", max: String(max), inputmode: "numeric" });
  // One input, not two: a timer row stays at 20 elements (the big board's budget, docs/performance.md).
  const warn = createField(doc, "timer-warnAt", L.warnAt, {
    "data-field": "warnAt", inputmode: "numeric", placeholder: L.warnAtPlaceholder, title: L.warnAtTip, maxlength: "7",
  });
  const move = h(doc, "select", { class: "field timer-section", "aria-label": L.moveTo }, [h(doc, "option", { value: "" }, [L.moveToPrompt])]);
  return h(doc, "li", { class: "timer", "data-kind": "timer", "data-id": ITEM_ID }, [
    runButton(doc, "timer-toggle", `timer-toggle-label-${ITEM_ID}`, TOGGLE_VERBS.idle, titleId, "play"),
    title,
    h(doc, "span", { class: "run" }, [h(doc, "span", { class: "timer-countdown", role: "timer" }), h(doc, "span", { class: "timer-status" })]),
    runButton(doc, "timer-reset", `timer-reset-label-${ITEM_ID}`, L.reset, titleId, "reset"),
    h(doc, "span", { class: "duration", title: L.length }, [
      number("minutes", L.minutes, limits.maxMinutes), h(doc, "span", { class: "colon", "aria-hidden": "true" }, [":"]), number("seconds", L.seconds, limits.maxSeconds),
    ]),
    warn,
    h(doc, "div", { class: "actions" }, [
      move,
      iconButton(doc, "timer-move-up", L.moveUp, "up", { id: `timer-move-up-${ITEM_ID}`, titleId }),
      iconButton(doc, "timer-move-down", L.moveDown, "down", { id: `timer-move-down-${ITEM_ID}`, titleId }),
      iconButton(doc, "timer-delete", L.delete, "delete", { id: `timer-delete-${ITEM_ID}`, titleId }),
    ]),
  ]);
}

/**
 * A timer's run button. Its name is a verb and the timer's title ("Start Eggs"), by reference
 * (aria-labelledby: a hidden word and the title input, whose value names it), so a rename touches
 * nothing here and a state change touches only the word.
 * @param {Document} doc @param {string} className @param {string} labelId @param {string} words
 * @param {string} titleId @param {IconName} iconName
 */
function runButton(doc, className, labelId, words, titleId, iconName) {
  return h(doc, "button", { type: "button", class: `icon-button ${className}`, "aria-labelledby": `${labelId} ${titleId}`, title: words, "data-icon": iconName }, [
    h(doc, "span", { class: "visually-hidden run-words", id: labelId }, [words]),
  ]);
}

/**
 * What the toggle does in each state, and its icon: a press sends what the button showed
 * (data-action), never "the opposite of whatever the state is now" (two screens pressing Start at
 * once both mean start).
 * @type {Record<string, {icon: IconName, action: string}>}
 */
const TOGGLE = {
  idle: { icon: "play", action: "start" },
  running: { icon: "pause", action: "pause" },
  paused: { icon: "play", action: "start" },
  finished: { icon: "play", action: "start" },
};

/**
 * Shows a timer's run state: data-status, and what its toggle does ("Pause", which with the title
 * names it "Pause Eggs"). Touches only what differs, so this is a no-op unless the state changed.
 * @param {HTMLElement} element [data-kind=timer]
 * @param {"idle" | "running" | "paused" | "finished"} status
 */
export function renderRunState(element, status) {
  setAttribute(element, "data-status", status);
  const toggle = /** @type {HTMLElement} */ (element.querySelector(".timer-toggle"));
  setText(/** @type {HTMLElement} */ (toggle.querySelector(".run-words")), TOGGLE_VERBS[status]);
  setAttribute(toggle, "title", TOGGLE_VERBS[status]);
  setAttribute(toggle, "data-action", TOGGLE[status].action);
  setIcon(toggle, TOGGLE[status].icon);
  // Still focusable (a disabled button would drop the keyboard's focus), but says there is nothing to reset.
  setAttribute(/** @type {HTMLElement} */ (element.querySelector(".timer-reset")), "aria-disabled", String(status === "idle"));
  if ((status === "running" || status === "paused") && !element.querySelector(".timer-adjust")) addAdjustButtons(element);
}

/**
 * "+1 min" and "−1 min", made the first time a timer runs (style.css shows them while it runs or
 * is paused): an idle row does without them, so a big board of idle timers keeps 20 elements a row.
 * @param {HTMLElement} element [data-kind=timer]
 */
function addAdjustButtons(element) {
  const doc = element.ownerDocument;
  const id = element.dataset.id ?? "";
  const titleId = `timer-title-${id}`;
  const next = /** @type {HTMLElement} */ (element.querySelector(".timer-reset")).nextElementSibling;
  for (const button of [
    labelledButton(doc, "timer-adjust", `timer-less-${id}`, titleId, TIMER_LABELS.less, TIMER_LABELS.lessTip, { "data-by": String(-ADJUST_MS) }),
    labelledButton(doc, "timer-adjust", `timer-more-${id}`, titleId, TIMER_LABELS.more, TIMER_LABELS.moreTip, { "data-by": String(ADJUST_MS) }),
  ]) element.insertBefore(button, next);
}

/** The phases of a timer's face (model/timer_face.js), as classes: "clearly marked", in colour and in words. */
const PHASE_CLASSES = { warn: "timer-warn", over: "timer-over", done: "timer-done" };

/**
 * How a timer looks beside its countdown: data-phase and its class (style.css colours them). The
 * caller writes only what changed.
 * @param {HTMLElement} element [data-kind=timer] @param {"" | "warn" | "over" | "done"} phase
 */
export function renderPhase(element, phase) {
  const before = /** @type {keyof typeof PHASE_CLASSES | ""} */ (element.dataset.phase ?? "");
  if (before === phase) return;
  if (before) element.classList.remove(PHASE_CLASSES[before]);
  if (phase) {
    element.classList.add(PHASE_CLASSES[phase]);
    element.dataset.phase = phase;
  } else {
    delete element.dataset.phase;
  }
}

/** Writes the state in words next to the countdown, so the state is never told by colour alone. @param {HTMLElement} element [data-kind=timer] @param {string} word */
export function renderStatusWord(element, word) {
  setText(/** @type {HTMLElement} */ (element.querySelector(".timer-status")), word);
}

/** @param {HTMLElement} timer [data-kind=timer] @returns {HTMLElement} its countdown */
export function countdownOf(timer) {
  return /** @type {HTMLElement} */ (timer.querySelector(".timer-countdown"));
}

/**
 * Writes a countdown's text. The caller writes only when the text changed (countdowns.js), so
 * this is the one DOM write per digit change.
 * @param {HTMLElement} countdown @param {string} text
 */
export function writeCountdown(countdown, text) {
  countdown.textContent = text;
}

/**
 * Fills a timer's "move to" menu with the other sections, when the user opens it: keeping every
 * menu up to date would touch every timer on each section rename.
 * @param {HTMLSelectElement} select
 * @param {{id: string, title: string}[]} sections in display order, without the timer's own
 */
export function fillSectionMenu(select, sections) {
  const doc = select.ownerDocument;
  const options = sections.map((s) => h(doc, "option", { value: s.id }, [s.title]));
  if (options.length === 0) options.push(h(doc, "option", { value: "", disabled: "" }, [TIMER_LABELS.noOtherSection]));
  select.replaceChildren(h(doc, "option", { value: "" }, [TIMER_LABELS.moveToPrompt]), ...options);
  select.value = "";
}
