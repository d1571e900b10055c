// @ts-check
// Creates, updates, moves and removes the elements of sections and timers, one element or one
// field at a time. It decides nothing about *what* changed (board_view.js does); it makes sure each
// touch is small and never disturbs the element the user is typing in. Text goes in through
// `.value` or `textContent`, never `innerHTML`.
//
// Stable selectors (browser tests rely on these; keep them):
//   #sections                                   container of the sections, in display order
//   [data-kind=section][data-id=ID]             a section (<section>); data-expanded="true|false"
//     .section-toggle                           expand/collapse button, aria-expanded
//     .section-title                            title <input>
//     .section-move-up / .section-move-down     move buttons
//     .section-delete                           delete button (asks a second click when the section has timers)
//     .timers                                   <ol> of its timers, in display order
//     form.add-timer  [name=title|minutes|seconds]  the "add timer" form
//   [data-kind=timer][data-id=ID]               a timer (<li>)
//     .timer-title / .timer-minutes / .timer-seconds   inputs (minutes and seconds are type=number)
//     .timer-section                            <select> "move to section" (options filled on focus)
//     .timer-move-up / .timer-move-down / .timer-delete buttons
//   [data-kind=timer][data-status=idle|running|paused|finished]  its run state, also in words in .timer-status
//     .timer-countdown                          m:ss left (role=timer), written only when the text changes
//     .timer-toggle                             start / pause / resume / restart button, aria-label "Start Eggs" etc.
//     .timer-reset                              reset button, aria-label "Reset Eggs"
//     .timer-warnAt                             the warning point input (m:ss left, empty: none)
//     .timer-adjust[data-by=60000|-60000]       "+1 min" / "−1 min" (made when the timer first runs; shown running or paused)
//   [data-kind=timer][data-phase=warn|over|done]  amber from the warning point, red at zero and in overtime
//                                               (the countdown reads +m:ss), "Done" when its sequence moved on;
//                                               also as class timer-warn / timer-over / timer-done
//   .section-run                                a section's "Start all" / "Pause all" button (data-action=start|pause);
//                                               in a sequence section "Start" / "Pause" the sequence
//   [data-kind=section][data-sequence=true|false][data-loop=true|false]
//     .section-sequence / .section-loop         toggles (aria-pressed) of the section's sequence and loop
//     .section-skip / .section-restart          a sequence's "Skip" and "Restart"
//     .section-progress                         a sequence's progress, e.g. "2 of 5"
//   #notify-toggle[data-state=default|on|off|denied|unsupported]  "Notify me": system notifications (asks on click only)
//   #sync-status[data-state=ok|off]: .sync-summary ("3 screens within ±20 ms"), .sync-off > li (screens above ±50 ms)
//   #timer-alerts > .timer-alert[data-timer-id=ID]  "… is done" (role=alert); .alert-dismiss closes it
//   #sound-toggle                               checkbox: beep when a timer finishes (off by default)
//   input.remote-changed                        a field someone else changed while you were typing in it
//   form.add-section [name=title]               the "add section" form
//   #connection[data-state=connecting|live|joining|reconnecting|offline][data-pending=N]
//   #toasts                                     role=status live region for messages
//   #presence > li[data-user-id]                the others on the board: .user-dot (their colour) and .presence-name
//   #user-name                                  this user's display name (form.name-form); .me-dot their colour
//   [data-editing-by]                           a section's .section-header or a timer's <li> that someone else
//                                               is editing: their name(s); style --editor-color: their colour
//   #board-title, form.new-board, #recent-boards (start page: li[data-kind=board][data-id=ID], .board-forget)
//   #board-page[data-role=owner|edit|view]      what the link may do; view hides every edit control (style.css)
//   #role-badge ("View only"), .share-open, .owner-open (owner only)
//   #share-dialog: #share-edit-link / #share-view-link (inputs), .copy-field[data-copies=INPUT_ID], .share-note
//   #owner-dialog: form.rename-board, .replace-link[data-role=edit|view], #replace-confirm, #replaced-link,
//                  form.delete-board [name=confirm]
//   #ended-page[data-reason=no-secret|wrong-link|replaced|deleted]: #ended-title, #ended-text

import { ADJUST_MS } from "../wire/constants.js";
import { ElementTemplate, ITEM_ID } from "../dom/template.js";

/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {HTMLInputElement} FieldInput  an input with data-field, data-base (the value to show) and data-shown (the value last written) */

// MARK: building elements

/**
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string>} [attributes]
 * @param {(Node | string)[]} [children]
 */
function h(doc, tag, attributes = {}, children = []) {
  const element = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/**
 * The icons style.css draws: an element shows one with data-icon (no element of its own).
 * @typedef {"chevron" | "up" | "down" | "delete" | "play" | "pause" | "reset" | "bell"} IconName
 */

/** @param {Document} doc @param {string} className @param {string} label @param {IconName} name */
function iconButton(doc, className, label, name) {
  return h(doc, "button", { type: "button", class: `icon-button ${className}`, "aria-label": label, title: label, "data-icon": name });
}

/** @param {Document} doc @param {string} className @param {string} label @param {Record<string, string>} [extra] */
function fieldInput(doc, className, label, extra = {}) {
  return h(doc, "input", { class: `field ${className}`, "aria-label": label, autocomplete: "off", ...extra });
}

/**
 * A section element with an empty timer list (board_view.js adds the timers).
 * @param {Document} doc
 * @param {Section} section
 * @param {number} maxTitleLength
 */
export function createSectionElement(doc, section, maxTitleLength) {
  const element = templateOf(doc, `section ${maxTitleLength}`, () => sectionShape(doc, maxTitleLength)).stamp(section.id);
  setFieldValue(/** @type {FieldInput} */ (fieldOf(element, "title")), section.title);
  setExpanded(element, section.isExpanded);
  setSequence(element, section);
  return element;
}

/** Every section's elements, ITEM_ID for its id (element_template.js). @param {Document} doc @param {number} maxTitleLength */
function sectionShape(doc, maxTitleLength) {
  const bodyId = `section-body-${ITEM_ID}`;
  const titleId = `section-title-${ITEM_ID}`;
  const title = fieldInput(doc, "section-title", "Section title", {
    id: titleId, "data-field": "title", maxlength: String(maxTitleLength), enterkeyhint: "done",
  });
  const toggle = iconButton(doc, "section-toggle", "Show or hide this section's timers", "chevron");
  toggle.setAttribute("aria-controls", bodyId);
  return h(doc, "section", { class: "section", "data-kind": "section", "data-id": ITEM_ID, "aria-labelledby": titleId }, [
    h(doc, "header", { class: "section-header" }, [
      toggle,
      title,
      h(doc, "span", { class: "section-progress", role: "status" }),
      sectionRunButton(doc, ITEM_ID, titleId),
      labelledButton(doc, "section-skip", `section-skip-${ITEM_ID}`, titleId, "Skip", "Skip to the next timer"),
      labelledButton(doc, "section-restart", `section-restart-${ITEM_ID}`, titleId, "Restart", "Restart the sequence from its first timer"),
      h(doc, "div", { class: "actions" }, [
        pressedButton(doc, "section-sequence", "Sequence", "Run the timers one after another"),
        pressedButton(doc, "section-loop", "Loop", "Start the sequence again after its last timer"),
        iconButton(doc, "section-move-up", "Move section up", "up"),
        iconButton(doc, "section-move-down", "Move section down", "down"),
        iconButton(doc, "section-delete", "Delete section", "delete"),
      ]),
    ]),
    h(doc, "div", { class: "section-body", id: bodyId }, [
      h(doc, "ol", { class: "timers", "aria-label": "Timers" }),
      h(doc, "p", { class: "empty-note" }, ["No timers yet."]),
      addTimerForm(doc, ITEM_ID, maxTitleLength),
    ]),
  ]);
}

/**
 * A button whose name is its own words and the title of its section or timer ("Skip Prep",
 * "+1 min Eggs"), by reference, so a rename touches nothing here and it needs no element more.
 * @param {Document} doc @param {string} className @param {string} id @param {string} titleId
 * @param {string} words @param {string} tip
 * @param {Record<string, string>} [extra]
 */
function labelledButton(doc, className, id, titleId, words, tip, extra = {}) {
  return h(doc, "button", { type: "button", class: `button ${className}`, id, "aria-labelledby": `${id} ${titleId}`, title: tip, ...extra }, [words]);
}

/** A toggle button (aria-pressed) with its words. @param {Document} doc @param {string} className @param {string} words @param {string} tip */
function pressedButton(doc, className, words, tip) {
  return h(doc, "button", { type: "button", class: `button toggle ${className}`, "aria-pressed": "false", title: tip }, [words]);
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

/** @param {Document} doc @param {string} sectionId @param {number} maxTitleLength */
function addTimerForm(doc, sectionId, maxTitleLength) {
  const id = (/** @type {string} */ name) => `add-timer-${name}-${sectionId}`;
  return h(doc, "form", { class: "add-timer", "aria-label": "Add a timer" }, [
    h(doc, "label", { class: "visually-hidden", for: id("title") }, ["New timer title"]),
    h(doc, "input", {
      id: id("title"), name: "title", class: "field", placeholder: "Add a timer…", required: "",
      maxlength: String(maxTitleLength), autocomplete: "off",
    }),
    h(doc, "label", { class: "visually-hidden", for: id("minutes") }, ["New timer minutes"]),
    h(doc, "input", { id: id("minutes"), name: "minutes", class: "field number", type: "number", min: "0", max: "999", inputmode: "numeric", placeholder: "min" }),
    h(doc, "span", { class: "colon", "aria-hidden": "true" }, [":"]),
    h(doc, "label", { class: "visually-hidden", for: id("seconds") }, ["New timer seconds"]),
    h(doc, "input", { id: id("seconds"), name: "seconds", class: "field number", type: "number", min: "0", max: "59", inputmode: "numeric", placeholder: "sec" }),
    h(doc, "button", { type: "submit", class: "button" }, ["Add"]),
  ]);
}

/**
 * @param {Document} doc
 * @param {Timer} timer
 * @param {{maxTitleLength: number, maxMinutes: number, maxSeconds: number}} limits
 */
export function createTimerElement(doc, timer, limits) {
  const key = `timer ${limits.maxTitleLength} ${limits.maxMinutes} ${limits.maxSeconds}`;
  const element = templateOf(doc, key, () => timerShape(doc, limits)).stamp(timer.id);
  for (const field of /** @type {const} */ (["title", "minutes", "seconds", "warnAt"])) {
    setFieldValue(/** @type {FieldInput} */ (fieldOf(element, field)), formatField(field, timer[field]));
  }
  return element;
}

/**
 * Every timer row's elements, ITEM_ID for its id (element_template.js).
 * @param {Document} doc @param {{maxTitleLength: number, maxMinutes: number, maxSeconds: number}} limits
 */
function timerShape(doc, limits) {
  const titleId = `timer-title-${ITEM_ID}`;
  const title = fieldInput(doc, "timer-title", "Timer title", {
    id: titleId, "data-field": "title", maxlength: String(limits.maxTitleLength), enterkeyhint: "done",
  });
  const number = (/** @type {string} */ field, /** @type {string} */ label, /** @type {number} */ max) =>
    fieldInput(doc, `number timer-${field}`, label, { "data-field": field, type: "number", min: "0", max: String(max), inputmode: "numeric" });
  const minutes = number("minutes", "Minutes", limits.maxMinutes);
  const seconds = number("seconds", "Seconds", limits.maxSeconds);
  // One input, not two: a timer row stays at 20 elements (the big board's budget, docs/performance.md).
  const warn = fieldInput(doc, "timer-warnAt", "Warning point: minutes:seconds left (empty: none)", {
    "data-field": "warnAt", inputmode: "numeric", placeholder: "warn", title: "Turns amber with this much left (m:ss); empty: no warning",
    maxlength: "7",
  });
  const move = h(doc, "select", { class: "field timer-section", "aria-label": "Move timer to another section" }, [
    h(doc, "option", { value: "" }, ["Move to…"]),
  ]);
  return h(doc, "li", { class: "timer", "data-kind": "timer", "data-id": ITEM_ID }, [
    runButton(doc, "timer-toggle", `timer-toggle-label-${ITEM_ID}`, "Start", titleId, "play"),
    title,
    h(doc, "span", { class: "run" }, [
      h(doc, "span", { class: "timer-countdown", role: "timer" }),
      h(doc, "span", { class: "timer-status" }),
    ]),
    runButton(doc, "timer-reset", `timer-reset-label-${ITEM_ID}`, "Reset", titleId, "reset"),
    h(doc, "span", { class: "duration", title: "Length" }, [minutes, h(doc, "span", { class: "colon", "aria-hidden": "true" }, [":"]), seconds]),
    warn,
    h(doc, "div", { class: "actions" }, [
      move,
      iconButton(doc, "timer-move-up", "Move timer up", "up"),
      iconButton(doc, "timer-move-down", "Move timer down", "down"),
      iconButton(doc, "timer-delete", "Delete timer", "delete"),
    ]),
  ]);
}

/** Each document's shapes, by kind and limits (a shape holds the limits' maxlength and max). @type {WeakMap<Document, Map<string, ElementTemplate>>} */
const templates = new WeakMap();

/** @param {Document} doc @param {string} key @param {() => HTMLElement} shape */
function templateOf(doc, key, shape) {
  let shapes = templates.get(doc);
  if (!shapes) templates.set(doc, (shapes = new Map()));
  let template = shapes.get(key);
  if (!template) shapes.set(key, (template = new ElementTemplate(shape())));
  return template;
}

// MARK: fields

/**
 * How a field's value reads in its input: seconds always with two digits (7:05, not 7:5); a
 * warning point as m:ss, empty when there is none.
 */
export function formatField(/** @type {string} */ field, /** @type {unknown} */ value) {
  if (field === "warnAt") return formatWarnAt(/** @type {number | undefined} */ (value));
  return field === "seconds" ? String(value).padStart(2, "0") : String(value);
}

/** A warning point (ms left) as its input shows it: "1:00", "0:30", or "" for none. @param {number | undefined} ms */
export function formatWarnAt(ms) {
  if (!ms || ms <= 0) return "";
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * The input of one field of a section or timer (a section's element also holds its timers'
 * inputs, hence the kind-specific class).
 * @param {HTMLElement} entity @param {"title" | "minutes" | "seconds" | "warnAt"} field
 * @returns {FieldInput | null}
 */
export function fieldOf(entity, field) {
  return entity.querySelector(entity.dataset.kind === "section" ? ".section-title" : `.timer-${field}`);
}

/** The user changed this input since we last wrote it: it holds unsent text. */
export function isDirty(/** @type {FieldInput} */ input) {
  return input.value !== input.dataset.shown;
}

/**
 * Shows a new value in a field, unless the user is typing in it: then their text, focus and caret
 * stay, and the new value waits in data-base (Escape shows it; committing sends theirs).
 * @param {FieldInput} input
 * @param {string} text
 */
export function setFieldValue(input, text) {
  input.dataset.base = text;
  const focused = input.ownerDocument.activeElement === input;
  if (focused && isDirty(input)) {
    markRemote(input, input.value !== text);
    return;
  }
  writeField(input, text);
}

/** Escape, or a blur with nothing changed: show the latest value we know. */
export function revertField(/** @type {FieldInput} */ input) {
  writeField(input, input.dataset.base ?? "");
}

/** The user committed what the input holds: it is no longer unsent. */
export function acceptField(/** @type {FieldInput} */ input) {
  input.dataset.shown = input.value;
  markRemote(input, false);
}

/** @param {FieldInput} input @param {string} text */
function writeField(input, text) {
  if (input.value !== text) {
    const focused = input.ownerDocument.activeElement === input;
    const selection = focused ? saveSelection(input) : null;
    input.value = text;
    if (selection) restoreSelection(input, selection);
  }
  input.dataset.shown = text;
  markRemote(input, false);
}

/** @param {FieldInput} input @param {boolean} changed */
function markRemote(input, changed) {
  input.classList.toggle("remote-changed", changed);
  if (changed) input.title = "Someone else changed this while you were editing. Enter keeps yours; Escape shows theirs.";
  else input.removeAttribute("title");
}

/** @param {HTMLInputElement} input @returns {[number, number] | null} */
function saveSelection(input) {
  // Number inputs have no selection API (selectionStart is null there).
  return input.selectionStart === null || input.selectionEnd === null ? null : [input.selectionStart, input.selectionEnd];
}

/** @param {HTMLInputElement} input @param {[number, number] | null} selection */
function restoreSelection(input, selection) {
  if (!selection) return;
  const end = input.value.length;
  input.setSelectionRange(Math.min(selection[0], end), Math.min(selection[1], end));
}

// MARK: running timers

/**
 * What the toggle does in each state (its label says it, with the timer's title), its icon, and
 * the intent it sends (data-action): a press sends what the button showed, never "the opposite of
 * whatever the state is now" (two screens pressing Start at once both mean start).
 */
const TOGGLE = {
  idle: { verb: "Start", icon: /** @type {const} */ ("play"), action: "start" },
  running: { verb: "Pause", icon: /** @type {const} */ ("pause"), action: "pause" },
  paused: { verb: "Resume", icon: /** @type {const} */ ("play"), action: "start" },
  finished: { verb: "Restart", icon: /** @type {const} */ ("play"), action: "start" },
};

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

/** A section's start/pause-all button, named like runButton: "Start all timers in Prep". @param {Document} doc @param {string} sectionId @param {string} titleId */
function sectionRunButton(doc, sectionId, titleId) {
  const labelId = `section-run-label-${sectionId}`;
  return h(doc, "button", { type: "button", class: "button section-run", "data-action": "start", "aria-labelledby": `${labelId} ${titleId}`, "data-icon": "play" }, [
    h(doc, "span", { class: "section-run-label", "aria-hidden": "true" }, ["Start all"]),
    h(doc, "span", { class: "visually-hidden run-words", id: labelId }, ["Start all timers in"]),
  ]);
}

/** @param {Element} element @param {string} name @param {string} value */
function setAttribute(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** @param {Element} element @param {string} text */
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** @param {Element} element @param {IconName} name */
function setIcon(element, name) {
  setAttribute(element, "data-icon", name);
}

/** @param {HTMLElement} timer [data-kind=timer] @returns {HTMLElement} its countdown */
export function countdownOf(timer) {
  return /** @type {HTMLElement} */ (timer.querySelector(".timer-countdown"));
}

/**
 * Shows a timer's run state: data-status, the state in words, and what its toggle does ("Pause",
 * which with the title names it "Pause Eggs"). Touches only what differs, so this is a no-op
 * unless the state changed.
 * @param {HTMLElement} element [data-kind=timer]
 * @param {"idle" | "running" | "paused" | "finished"} status
 */
export function renderRunState(element, status) {
  setAttribute(element, "data-status", status);
  const toggle = /** @type {HTMLElement} */ (element.querySelector(".timer-toggle"));
  setText(/** @type {HTMLElement} */ (toggle.querySelector(".run-words")), TOGGLE[status].verb);
  setAttribute(toggle, "title", TOGGLE[status].verb);
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
  const reset = /** @type {HTMLElement} */ (element.querySelector(".timer-reset"));
  const next = reset.nextElementSibling;
  for (const button of [
    labelledButton(doc, "timer-adjust", `timer-less-${id}`, titleId, "−1 min", "One minute less", { "data-by": String(-ADJUST_MS) }),
    labelledButton(doc, "timer-adjust", `timer-more-${id}`, titleId, "+1 min", "One minute more", { "data-by": String(ADJUST_MS) }),
  ]) element.insertBefore(button, next);
}

/** The phases of timerFace (countdown.js), as classes: "clearly marked", in colour and in words. */
const PHASE_CLASSES = { warn: "timer-warn", over: "timer-over", done: "timer-done" };

/**
 * How a timer looks beside its countdown (countdown.js, timerFace): data-phase and its class
 * (style.css colours them), and the state in words next to the countdown, so the state is never
 * told by colour alone. The caller writes only what changed.
 * @param {HTMLElement} element [data-kind=timer]
 * @param {"" | "warn" | "over" | "done"} phase
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

/** Writes the state in words next to the countdown. @param {HTMLElement} element [data-kind=timer] @param {string} word */
export function renderStatusWord(element, word) {
  setText(/** @type {HTMLElement} */ (element.querySelector(".timer-status")), word);
}

/**
 * Writes a countdown's text. The caller writes only when the text changed (countdown.js), so
 * this is the one DOM write per digit change.
 * @param {HTMLElement} countdown @param {string} text
 */
export function writeCountdown(countdown, text) {
  countdown.textContent = text;
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
  const verb = anyRunning ? "Pause" : "Start";
  setAttribute(button, "data-action", anyRunning ? "pause" : "start");
  setText(/** @type {HTMLElement} */ (button.querySelector(".run-words")), sequence ? `${verb} the sequence` : `${verb} all timers in`);
  setAttribute(button, "aria-disabled", String(!anyRunning && !anyStartable));
  setText(/** @type {HTMLElement} */ (button.querySelector(".section-run-label")), sequence ? verb : `${verb} all`);
  setIcon(button, anyRunning ? "pause" : "play");
  setText(/** @type {HTMLElement} */ (section.querySelector(".section-progress")), sequence ? progress : "");
  setAttribute(/** @type {HTMLElement} */ (section.querySelector(".section-skip")), "aria-disabled", String(!current));
}

/**
 * Adds (or updates) the alert of a finished timer.
 * @param {HTMLElement} area #timer-alerts
 * @param {string} id the timer's id
 * @param {string} text what to say, e.g. “Eggs” is done
 */
export function showTimerAlert(area, id, text) {
  const doc = area.ownerDocument;
  const existing = [...area.children].find((child) => /** @type {HTMLElement} */ (child).dataset.timerId === id);
  if (existing) {
    setText(/** @type {HTMLElement} */ (existing.querySelector(".timer-alert-text")), text);
    return;
  }
  area.append(h(doc, "div", { class: "timer-alert", role: "alert", "data-timer-id": id, "data-icon": "bell" }, [
    h(doc, "span", { class: "timer-alert-text" }, [text]),
    h(doc, "button", { type: "button", class: "button alert-dismiss", "aria-label": `Dismiss: ${text}` }, ["OK"]),
  ]));
}

/** @param {HTMLElement} area #timer-alerts @param {string} id */
export function removeTimerAlert(area, id) {
  for (const child of [...area.children]) if (/** @type {HTMLElement} */ (child).dataset.timerId === id) child.remove();
}

// MARK: sections

/** Touches only this section: its toggle's aria-expanded and whether its body is shown. */
export function setExpanded(/** @type {HTMLElement} */ section, /** @type {boolean} */ expanded) {
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
 * Arms or disarms a delete button that asks for a second click.
 * @param {HTMLButtonElement} button
 * @param {string | null} confirmLabel the label while armed, or null to disarm
 */
export function armButton(button, confirmLabel) {
  if (confirmLabel) {
    button.dataset.armed = "true";
    button.dataset.label = button.getAttribute("aria-label") ?? "";
    button.setAttribute("aria-label", confirmLabel);
    button.title = confirmLabel;
  } else if (button.dataset.armed) {
    delete button.dataset.armed;
    button.setAttribute("aria-label", button.dataset.label ?? "");
    button.title = button.dataset.label ?? "";
  }
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
  if (options.length === 0) options.push(h(doc, "option", { value: "", disabled: "" }, ["(no other section)"]));
  select.replaceChildren(h(doc, "option", { value: "" }, ["Move to…"]), ...options);
  select.value = "";
}

// MARK: placing and removing

/**
 * Puts `element` right before `before` (or last) in `parent`, unless it is there already. If the
 * element holds the focus, focus and caret are put back: a move detaches the node for a moment.
 * @param {HTMLElement} parent
 * @param {HTMLElement} element
 * @param {HTMLElement | null} before
 */
export function placeElement(parent, element, before) {
  if (element.parentElement === parent && element.nextElementSibling === before) return;
  const doc = element.ownerDocument;
  const active = /** @type {HTMLElement | null} */ (doc.activeElement);
  const holdsFocus = active !== null && element.contains(active);
  const selection = holdsFocus && active instanceof HTMLInputElement ? saveSelection(active) : null;
  parent.insertBefore(element, before);
  if (holdsFocus && doc.activeElement !== active) {
    active.focus({ preventScroll: true });
    if (active instanceof HTMLInputElement) restoreSelection(active, selection);
  }
}

/** @param {HTMLElement} element */
export function removeElement(element) {
  element.remove();
}

// MARK: presence

/** A colour from the server, or the muted one if it is not a plain hex colour. @param {string} color */
export function safeColor(color) {
  return /^#[0-9A-Fa-f]{3,8}$/.test(color) ? color : "var(--muted)";
}

/**
 * Marks (or unmarks, with null) the element that shows who else is editing a section or timer:
 * its header for a section, its row for a timer. Touches that one element's attributes only.
 * @param {HTMLElement} entity [data-kind]
 * @param {{names: string, color: string} | null} editors
 */
export function markEditing(entity, editors) {
  const target = /** @type {HTMLElement} */ (entity.dataset.kind === "section" ? entity.querySelector(".section-header") : entity);
  if (!editors) {
    if (target.hasAttribute("data-editing-by")) {
      target.removeAttribute("data-editing-by");
      target.style.removeProperty("--editor-color");
    }
    return;
  }
  if (target.dataset.editingBy !== editors.names) target.dataset.editingBy = editors.names;
  const color = safeColor(editors.color);
  if (target.style.getPropertyValue("--editor-color") !== color) target.style.setProperty("--editor-color", color);
}

/**
 * The list of the others on the board (small, outside the board: rebuilt when it changes).
 * @param {HTMLElement} list #presence
 * @param {{userId: string, name: string, color: string, editing: string | null}[]} users
 * @param {(id: string) => string | null} describe what an id names, for "editing …" hints
 */
export function renderPresenceList(list, users, describe) {
  const doc = list.ownerDocument;
  list.replaceChildren(...users.map((user) => {
    const editing = user.editing ? describe(user.editing) : null;
    const item = h(doc, "li", { class: "presence-user", "data-user-id": user.userId, title: editing ? `${user.name}, editing ${editing}` : user.name }, [
      h(doc, "span", { class: "user-dot", "aria-hidden": "true" }),
      h(doc, "span", { class: "presence-name" }, [user.name]),
      ...(editing ? [h(doc, "span", { class: "visually-hidden" }, [`, editing ${editing}`])] : []),
    ]);
    if (editing) item.dataset.editing = "true";
    item.style.setProperty("--user-color", safeColor(user.color));
    return item;
  }));
}

// MARK: page chrome

/**
 * @param {HTMLElement} indicator #connection
 * @param {{state: string, attempt: number, detail?: string, pending: number}} status
 */
export function renderConnection(indicator, { state, attempt, detail, pending }) {
  // Written only when they differ: every refresh calls this, and a page at rest should not churn.
  if (indicator.dataset.state !== state) indicator.dataset.state = state;
  if (indicator.dataset.pending !== String(pending)) indicator.dataset.pending = String(pending);
  const label = /** @type {HTMLElement} */ (indicator.querySelector(".connection-label"));
  const text = CONNECTION_TEXT[state]?.(attempt) ?? state;
  const full = detail ? `${text}: ${detail}` : text;
  if (label.textContent !== full) label.textContent = full;
  const pendingText = pending === 0 ? "" : pending === 1 ? "1 edit pending" : `${pending} edits pending`;
  const pendingElement = /** @type {HTMLElement} */ (indicator.querySelector(".connection-pending"));
  if (pendingElement.textContent !== pendingText) pendingElement.textContent = pendingText;
}

/** @type {Record<string, (attempt: number) => string>} */
const CONNECTION_TEXT = {
  connecting: () => "Connecting…",
  live: () => "Live",
  joining: (attempt) => (attempt > 0 ? `Joining again (attempt ${attempt})…` : "Catching up…"),
  reconnecting: (attempt) => (attempt > 0 ? `Reconnecting (attempt ${attempt})…` : "Reconnecting…"),
  offline: () => "Offline",
};

/**
 * @param {HTMLElement} area #toasts
 * @param {string} text
 * @returns {HTMLElement} the toast, for the caller to remove later
 */
export function appendToast(area, text) {
  const toast = h(area.ownerDocument, "div", { class: "toast" }, [text]);
  area.append(toast);
  return toast;
}

/** The "Notify me" button in each state: its words, and whether it reads as pressed. */
const NOTIFY_TEXT = {
  unsupported: { text: "No notifications", pressed: "false", tip: "This browser cannot show notifications" },
  default: { text: "Notify me", pressed: "false", tip: "Get a system notification when a timer finishes while this tab is hidden" },
  denied: { text: "Notifications blocked", pressed: "false", tip: "Notifications are blocked for this site in the browser's settings" },
  on: { text: "Notifying", pressed: "true", tip: "A system notification when a timer finishes while this tab is hidden (press to stop)" },
  off: { text: "Notify me", pressed: "false", tip: "Get a system notification when a timer finishes while this tab is hidden" },
};

/**
 * The "Notify me" button (#notify-toggle): data-state, aria-pressed and its words.
 * @param {HTMLElement} button @param {keyof typeof NOTIFY_TEXT} state
 */
export function renderNotify(button, state) {
  const look = NOTIFY_TEXT[state];
  setAttribute(button, "data-state", state);
  setAttribute(button, "aria-pressed", look.pressed);
  setAttribute(button, "title", look.tip);
  setText(/** @type {HTMLElement} */ (button.querySelector(".notify-label") ?? button), look.text);
}

/**
 * How well the screens on the board agree on the server's clock (#sync-status): the summary, and
 * the screens that are off, by name. Small and outside the board: rewritten when it changes.
 * @param {HTMLElement} area #sync-status
 * @param {{text: string, off: string[], state: "ok" | "off" | "none"}} summary
 */
export function renderSync(area, { text, off, state }) {
  const doc = area.ownerDocument;
  setAttribute(area, "data-state", state);
  area.hidden = state === "none";
  setText(/** @type {HTMLElement} */ (area.querySelector(".sync-summary")), text);
  const list = /** @type {HTMLElement} */ (area.querySelector(".sync-off"));
  const now = list.children.length === off.length && [...list.children].every((li, i) => li.textContent === off[i]);
  if (!now) list.replaceChildren(...off.map((line) => h(doc, "li", {}, [line])));
}

/** What a stored link lets this browser do, next to the board's name on the start page. */
const ROLE_WORDS = { owner: "Owner", edit: "Can edit", view: "View only" };

/**
 * The start page's list of the boards this browser opened (rebuilt whole: it is not live and
 * holds no input). Each opens through its stored link; "Forget" asks for a second press.
 * @param {HTMLElement} list
 * @param {{id: string, title: string, role: "owner" | "edit" | "view", link: string, openedAt: number}[]} boards
 * @param {string} emptyText
 */
export function renderBoardLinks(list, boards, emptyText) {
  const doc = list.ownerDocument;
  if (boards.length === 0) {
    list.replaceChildren(h(doc, "li", { class: "empty-note" }, [emptyText]));
    return;
  }
  list.replaceChildren(...boards.map((board) => {
    const title = board.title || "Untitled board";
    const when = board.openedAt ? ` · opened ${formatDate(board.openedAt)}` : "";
    return h(doc, "li", { class: "board-item", "data-kind": "board", "data-id": board.id }, [
      h(doc, "a", { href: board.link, class: "board-link" }, [
        h(doc, "span", { class: "board-link-title" }, [title]),
        h(doc, "span", { class: "board-link-meta" }, [`${ROLE_WORDS[board.role] ?? board.role}${when}`]),
      ]),
      h(doc, "button", { type: "button", class: "button board-forget", "aria-label": `Forget ${title} on this device`, title: "Forget it on this device" }, ["Forget"]),
    ]);
  }));
}

/**
 * The board's role: #board-page[data-role] (style.css hides every edit control of a view link),
 * the "View only" badge, and the owner's settings button.
 * @param {HTMLElement} page #board-page @param {string} role
 */
export function renderRole(page, role) {
  if (page.dataset.role !== role) page.dataset.role = role;
  const badge = /** @type {HTMLElement | null} */ (page.querySelector("#role-badge"));
  if (badge) badge.hidden = role !== "view";
  const owner = /** @type {HTMLElement | null} */ (page.querySelector(".owner-open"));
  if (owner) owner.hidden = role !== "owner";
}

/**
 * A view link's page shows the board's fields read-only (its edit buttons are hidden by style.css).
 * @param {HTMLElement} root a section, a timer or the whole board @param {boolean} readOnly
 */
export function setReadOnly(root, readOnly) {
  for (const input of root.querySelectorAll("input[data-field]")) {
    if (/** @type {HTMLInputElement} */ (input).readOnly !== readOnly) /** @type {HTMLInputElement} */ (input).readOnly = readOnly;
  }
}

/** What a page that stopped for good says, by ENDED reason (constants.js). */
const ENDED_TEXT = {
  "no-secret": {
    title: "This link is incomplete",
    text: "A board link ends with #edit=…, #view=… or #owner=… and a key. Open the whole link you were given, or ask the board's owner to share it again.",
  },
  "wrong-link": {
    title: "This link does not open a board",
    text: "Its key is wrong or was replaced, or the board was deleted. Check that you copied the whole link, or ask the board's owner for the current one.",
  },
  replaced: {
    title: "This link was replaced",
    text: "The board's owner replaced the link you used, so it no longer opens the board. Ask the owner for the new link.",
  },
  deleted: {
    title: "This board was deleted",
    text: "Its owner deleted it, with all its sections and timers. There is nothing left to open.",
  },
};

/**
 * The page a board ends on: what happened and what to do (it links back to the start page).
 * @param {HTMLElement} page #ended-page @param {string} reason one of ENDED
 */
export function renderEnded(page, reason) {
  const text = ENDED_TEXT[/** @type {keyof typeof ENDED_TEXT} */ (reason)] ?? ENDED_TEXT["wrong-link"];
  page.dataset.reason = reason;
  setText(/** @type {HTMLElement} */ (page.querySelector("#ended-title")), text.title);
  setText(/** @type {HTMLElement} */ (page.querySelector("#ended-text")), text.text);
  page.hidden = false;
}

/** @param {number} ms */
function formatDate(ms) {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
