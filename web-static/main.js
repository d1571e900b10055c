// @ts-check
// Bootstrap: picks the page from the path (`/` start page, `/b/ID` a board), wires the store, the
// socket and the views together, and turns user intent into edits. There is one delegated
// listener per event type, on the document; handlers find their element with closest().

import {
  API_BOARDS, BOARD_PATH_PREFIX, CONNECTION, DEFAULT_LIMITS, GUEST_NAME_PREFIX, KIND, MSG, NAME_KEY, NAME_MAX_LENGTH, OP,
  RECENT_BOARDS_KEY, RECENT_BOARDS_MAX, RUN, SOUND_KEY, WS_PATH,
} from "./constants.js";
import { ServerClock } from "./clock.js";
import { acceptField, armButton, fillSectionMenu, formatField, isDirty, renderBoardLinks, revertField, setFieldValue } from "./dom_patch.js";
import * as protocol from "./protocol.js";
import { Connection } from "./socket.js";
import { Store, orderedSections, orderedTimers } from "./store.js";
import { BoardView, CountdownView, PresenceView, StatusView, TimerAlerts } from "./views.js";

/** @typedef {import("./dom_patch.js").FieldInput} FieldInput */
/** @typedef {import("./protocol.js").Op} Op */

const doc = document;
const BOARD_ROUTE = /^\/b\/([A-Za-z0-9_-]{1,64})\/?$/;

/**
 * The board page's parts; null on the start page.
 * @type {null | {store: Store, connection: Connection, view: BoardView, presence: PresenceView, countdowns: CountdownView, alerts: TimerAlerts, nextOpId: number}}
 */
let board = null;
const status = new StatusView(byId("connection"), byId("toasts"));

/** @param {string} id */
function byId(id) {
  return /** @type {HTMLElement} */ (doc.getElementById(id));
}

// MARK: routing

function start() {
  for (const type of ["click", "submit", "keydown", "focusin", "focusout", "change"]) {
    doc.addEventListener(type, (event) => HANDLERS[type](/** @type {any} */ (event)));
  }
  const match = BOARD_ROUTE.exec(location.pathname);
  if (match) openBoard(match[1]);
  else openStartPage();
}

function openStartPage() {
  byId("start-page").hidden = false;
  renderBoardLinks(byId("recent-boards"), loadRecent(), "Boards you open will show up here.");
  fetchJSON(API_BOARDS)
    .then((answer) => {
      const boards = [...(answer.boards ?? [])].sort((a, b) => b.createdDate - a.createdDate);
      renderBoardLinks(byId("all-boards"), boards, "No boards yet. Create the first one above.");
    })
    .catch((error) => renderBoardLinks(byId("all-boards"), [], `Could not load the boards (${error.message}).`));
}

/** @param {string} id */
function openBoard(id) {
  byId("board-page").hidden = false;
  const store = new Store();
  const view = new BoardView(byId("sections"));
  view.onLostEdit = (kind) => status.toast(`The ${kind} you were editing was deleted by someone else.`);
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const name = loadName();
  /** @type {HTMLInputElement} */ (byId("user-name")).value = name;
  const clientId = protocol.newClientId();
  // Countdowns are drawn with the server's clock, as estimated from the socket's pings.
  const clock = new ServerClock();
  const connection = new Connection({
    url: `${scheme}//${location.host}${WS_PATH}`,
    board: id,
    clientId,
    name,
    handler: sessionHandler(),
    clock,
  });
  const alerts = new TimerAlerts(byId("timer-alerts"));
  const soundToggle = /** @type {HTMLInputElement} */ (byId("sound-toggle"));
  soundToggle.checked = readStorage(SOUND_KEY) === "on";
  alerts.sound = soundToggle.checked;
  const countdowns = new CountdownView({
    elements: view.elements,
    clock,
    onFinished: (timer) => alerts.show(timer),
    onCleared: (timerId) => alerts.hide(timerId),
  });
  clock.onChange = () => countdowns.redraw();
  const presence = new PresenceView({
    list: byId("presence"),
    myDot: /** @type {HTMLElement} */ (doc.querySelector(".me-dot")),
    elements: view.elements,
    clientId,
    describe: describeEntity,
  });
  board = { store, connection, view, presence, countdowns, alerts, nextOpId: 1 };
  Object.assign(window, { timerboard: { store, socket: connection, view, presence, clock, countdowns, alerts, state: boardState } });
  showBoardTitle(id, loadRecent().find((b) => b.id === id)?.title ?? "");
  addEventListener("online", () => connection.goOnline());
  addEventListener("offline", () => connection.goOffline());
  doc.addEventListener("visibilitychange", () => {
    if (doc.visibilityState !== "visible") return;
    connection.goOnline();
    // Hidden pages get few timer wake-ups, and a sleep may have paused the page's clock.
    connection.syncClock();
    countdowns.redraw();
  });
  addEventListener("beforeunload", (event) => {
    // Edits the server has not confirmed would be lost with the page.
    if (store.pending.length > 0) event.preventDefault();
  });
  connection.start();
}

/**
 * The board's name in the header and the tab: first what this device remembers, then what the
 * snapshot says.
 * @param {string} id @param {string} title
 */
function showBoardTitle(id, title) {
  const shown = title || "Untitled board";
  const heading = byId("board-title");
  if (heading.textContent !== shown) heading.textContent = shown;
  doc.title = `${shown} · TimerBoard`;
  rememberBoard(id, title);
}

/** What an id names, for "Ada is editing …": a section's or timer's title, quoted. @param {string} id */
function describeEntity(id) {
  const displayed = board?.store.displayed;
  const entity = displayed?.sections.get(id) ?? displayed?.timers.get(id);
  return entity ? `“${entity.title}”` : null;
}

// MARK: session: what the socket delivers goes through the store, then to the view

/** @returns {import("./socket.js").SessionHandler} */
function sessionHandler() {
  const b = () => /** @type {NonNullable<typeof board>} */ (board);
  return {
    welcome(message) {
      b().view.limits = message.limits;
    },
    since: () => b().store.rev,
    snapshot(message) {
      b().store.loadSnapshot(message);
      if (message.title !== undefined) showBoardTitle(message.board, message.title);
      refresh();
    },
    changes(message) {
      const result = b().store.applyChangeset(message);
      if (result.status === "applied") refresh();
      if (result.status === "invalid") console.warn("TimerBoard: resyncing after a changeset that did not fit:", result.error);
      return result.status;
    },
    ack(message) {
      if (b().store.ack(message.opId, message.rev)) refresh();
    },
    reject(message) {
      const edit = b().store.reject(message.opId);
      if (!edit) return;
      refresh();
      status.toast(rejectText(message, edit.ops));
    },
    serverError(message) {
      console.warn("TimerBoard: server error", message.code, message.message);
    },
    presence(message) {
      if (message.type === MSG.presence) b().presence.show(message.users);
      else b().presence.change(message.users, message.left);
    },
    unackedEdits: () => b().store.unackedEdits(),
    status({ state, attempt, detail }) {
      status.update({ state, attempt, detail });
      // Off the board, we do not know who is on it: show nobody rather than a stale list.
      if (state !== CONNECTION.live) b().presence.clear();
      if (detail && state === CONNECTION.offline) status.toast(detail);
    },
  };
}

/** Shows the store's displayed board (by diff), who edits what in it, and the pending count. */
function refresh() {
  if (!board) return;
  board.view.render(board.store.displayed);
  board.countdowns.sync(board.store.displayed);
  board.presence.sync();
  status.update({ pending: board.store.pending.length });
}

/** Operations on a timer (the rest are on a section). */
const TIMER_OPS = new Set([OP.addTimer, OP.updateTimer, OP.moveTimer, OP.deleteTimer, OP.startTimer, OP.pauseTimer, OP.resetTimer]);

/**
 * Why an edit was refused, in words: the usual reason is that someone else deleted what it was
 * about while it was on its way.
 * @param {{code: string, message: string, op?: number, current?: {kind: string}}} reject @param {Op[]} ops
 */
function rejectText(reject, ops) {
  const op = ops[reject.op ?? 0] ?? ops[0];
  if (reject.code === "not_found" && op) {
    // A move to another section names the timer; `current` says the timer is still there, so it
    // was the target section that went.
    const movedIntoGone = op.op === OP.moveTimer && op.sectionID !== undefined && reject.current?.kind === KIND.timer;
    const what = op.op === OP.addTimer ? "its section was" : movedIntoGone ? "the section it was moving to was"
      : TIMER_OPS.has(op.op) ? "the timer was" : "the section was";
    return `Your change was not saved: ${what} deleted by someone else.`;
  }
  return `Your change was not saved: ${reject.message}`;
}

/**
 * A local edit: shown at once, sent now or after the next join.
 * @param {Op[]} ops
 */
function edit(ops) {
  if (!board) return;
  const opId = String(board.nextOpId++);
  board.store.addEdit(opId, ops, Date.now());
  refresh();
  board.connection.sendEdit({ opId, ops });
}

/** For tests and the console: the displayed board as plain data. */
function boardState() {
  if (!board) return null;
  const { store, connection } = board;
  const displayed = store.displayed;
  return {
    board: store.board,
    rev: store.rev,
    connection: connection.state,
    attempt: connection.attempt,
    pending: store.pending.map((e) => e.opId),
    sections: orderedSections(displayed).map((s) => ({ ...s, timers: orderedTimers(displayed, s.id) })),
  };
}

// MARK: events

/** @type {Record<string, (event: any) => void>} */
const HANDLERS = {
  /** @param {MouseEvent} event */
  click(event) {
    const button = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest("button"));
    // Any click may be the gesture the browser wants before a beep can play.
    board?.alerts.unlock();
    if (!button || button.type === "submit") return;
    const id = /** @type {HTMLElement | null} */ (button.closest("[data-kind]"))?.dataset.id ?? "";
    const action = Object.keys(CLICK_ACTIONS).find((name) => button.classList.contains(name));
    if (action) CLICK_ACTIONS[action](id, button);
  },

  /** @param {SubmitEvent} event */
  submit(event) {
    const form = /** @type {HTMLFormElement} */ (event.target);
    const action = Object.keys(SUBMIT_ACTIONS).find((name) => form.classList.contains(name));
    if (!action) return;
    event.preventDefault();
    SUBMIT_ACTIONS[action](form);
  },

  /** @param {KeyboardEvent} event */
  keydown(event) {
    const input = fieldInput(event.target);
    if (!input || event.isComposing) return;
    if (event.key === "Enter") {
      event.preventDefault();
      commitField(input);
    } else if (event.key === "Escape") {
      event.preventDefault();
      revertField(input);
    }
  },

  /** @param {FocusEvent} event */
  focusin(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.matches(".timer-section")) fillMoveMenu(/** @type {HTMLSelectElement} */ (target));
    tellEditing();
  },

  /** @param {FocusEvent} event */
  focusout(event) {
    // A focused node moved by a patch can blur for an instant; that is not the user leaving it.
    if (board?.view.patching) return;
    const target = /** @type {HTMLElement} */ (event.target);
    const input = fieldInput(target);
    if (input) commitField(input);
    if (target instanceof HTMLButtonElement) armButton(target, null);
    if (target.matches("#user-name")) setName(/** @type {HTMLInputElement} */ (target));
    // Once focus has landed, a collapse that waited for the user can happen, and the others learn
    // what (if anything) the user edits now.
    setTimeout(() => {
      board?.view.settle();
      tellEditing();
    }, 0);
  },

  /** @param {Event} event */
  change(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.matches(".timer-section")) return moveTimerToSection(/** @type {HTMLSelectElement} */ (target));
    if (target.matches("#sound-toggle")) return setSound(/** @type {HTMLInputElement} */ (target).checked);
    // Number inputs: the spinner arrows commit at once; typing commits on Enter or blur.
    const input = fieldInput(target);
    if (input && input.type === "number") commitField(input);
  },
};

/** Presence: the section or timer whose title, minutes or seconds has the focus, if any. */
function tellEditing() {
  if (!board) return;
  const input = fieldInput(doc.activeElement);
  board.connection.setEditing(input ? /** @type {HTMLElement} */ (input.closest("[data-kind]")).dataset.id ?? null : null);
}

/** @param {EventTarget | null} target @returns {FieldInput | null} a section or timer field */
function fieldInput(target) {
  return target instanceof HTMLInputElement && target.dataset.field && target.closest("[data-kind]") ? target : null;
}

/** @type {Record<string, (id: string, button: HTMLButtonElement) => void>} */
const CLICK_ACTIONS = {
  "copy-link": () => copyLink(),
  "section-toggle": (id) => {
    const section = board?.store.displayed.sections.get(id);
    if (section) edit([protocol.updateSection({ id, isExpanded: !section.isExpanded })]);
  },
  "section-move-up": (id) => moveSection(id, -1),
  "section-move-down": (id) => moveSection(id, 1),
  "section-delete": deleteSection,
  "timer-move-up": (id) => moveTimer(id, -1),
  "timer-move-down": (id) => moveTimer(id, 1),
  "timer-delete": (id, button) => keepFocusNear(button, () => edit([protocol.deleteTimer({ id })])),
  "timer-toggle": (id) => {
    const timer = board?.store.displayed.timers.get(id);
    if (timer) edit([timer.run.status === RUN.running ? protocol.pauseTimer({ id }) : protocol.startTimer({ id })]);
  },
  "timer-reset": (id) => {
    const timer = board?.store.displayed.timers.get(id);
    if (timer && timer.run.status !== RUN.idle) edit([protocol.resetTimer({ id })]);
  },
  "section-run": (id, button) => {
    // The button says what it does (data-action), so a press does what the user read.
    if (button.dataset.action === "pause") edit([protocol.pauseSection({ id })]);
    else if (button.getAttribute("aria-disabled") !== "true") edit([protocol.startSection({ id })]);
  },
  "alert-dismiss": (_id, button) => board?.alerts.hide(/** @type {HTMLElement} */ (button.closest(".timer-alert")).dataset.timerId ?? ""),
};

/** Sound on or off for finished timers, remembered on this device. @param {boolean} on */
function setSound(on) {
  board?.alerts.setSound(on);
  writeStorage(SOUND_KEY, on ? "on" : "off");
}

/** @type {Record<string, (form: HTMLFormElement) => void>} */
const SUBMIT_ACTIONS = {
  "name-form": (form) => setName(/** @type {HTMLInputElement} */ (form.elements.namedItem("name"))),
  "new-board": createBoard,
  "add-section": addSection,
  "add-timer": addTimer,
};

// MARK: edits

/**
 * Sends what the user typed in a field, if it differs from what the board says. A field left
 * unchanged shows the board's latest value (which may have arrived while it had focus).
 * @param {FieldInput} input
 */
function commitField(input) {
  const entity = /** @type {HTMLElement} */ (input.closest("[data-kind]"));
  const { id = "", kind } = entity.dataset;
  const field = /** @type {string} */ (input.dataset.field);
  if (!board || !isDirty(input)) return revertField(input);
  const parsed = parseField(field, input.value);
  if ("error" in parsed) {
    status.toast(parsed.error);
    return revertField(input);
  }
  acceptField(input);
  const map = kind === KIND.section ? board.store.displayed.sections : board.store.displayed.timers;
  const current = /** @type {Record<string, unknown> | undefined} */ (map.get(id));
  if (!current) return;
  if (current[field] === parsed.value) return setFieldValue(input, formatField(field, parsed.value));
  const change = { id, [field]: parsed.value };
  edit([kind === KIND.section ? protocol.updateSection(change) : protocol.updateTimer(change)]);
}

/**
 * Checks a typed value against the board's limits, as the server will.
 * @param {string} field @param {string} text
 * @returns {{value: string | number} | {error: string}}
 */
function parseField(field, text) {
  const limits = board?.view.limits ?? DEFAULT_LIMITS;
  if (field === "title") return parseTitle(text, limits.maxTitleLength);
  const max = field === "minutes" ? limits.maxMinutes : limits.maxSeconds;
  const value = text.trim() === "" ? NaN : Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max) return { error: `${capitalise(field)} must be a whole number from 0 to ${max}.` };
  return { value };
}

/** @param {string} text @param {number} maxLength @returns {{value: string} | {error: string}} */
function parseTitle(text, maxLength) {
  const value = text.trim();
  if (!value) return { error: "A title cannot be empty." };
  if ([...value].length > maxLength) return { error: `A title can have at most ${maxLength} characters.` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return { error: "A title cannot contain control characters." };
  return { value };
}

/** @param {string} text */
function capitalise(text) {
  return text[0].toUpperCase() + text.slice(1);
}

/** @param {HTMLFormElement} form */
function addSection(form) {
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("title"));
  const title = parseTitle(input.value, board?.view.limits.maxTitleLength ?? DEFAULT_LIMITS.maxTitleLength);
  if ("error" in title) return status.toast(title.error);
  const id = protocol.newEntityId(KIND.section);
  edit([protocol.addSection({ id, title: title.value, position: protocol.position.first })]);
  form.reset();
}

/** @param {HTMLFormElement} form */
function addTimer(form) {
  const sectionID = /** @type {HTMLElement} */ (form.closest("[data-kind=section]")).dataset.id ?? "";
  const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
  const title = parseField("title", value("title"));
  // Empty minutes or seconds mean 0: "Eggs, 7 min" should not need a 0 typed in.
  const minutes = parseField("minutes", value("minutes") || "0");
  const seconds = parseField("seconds", value("seconds") || "0");
  const error = [title, minutes, seconds].find((p) => "error" in p);
  if (error && "error" in error) return status.toast(error.error);
  const [t, m, s] = /** @type {{value: any}[]} */ ([title, minutes, seconds]).map((p) => p.value);
  edit([protocol.addTimer({ id: protocol.newEntityId(KIND.timer), sectionID, title: t, minutes: m, seconds: s, position: protocol.position.first })]);
  form.reset();
  /** @type {HTMLInputElement} */ (form.elements.namedItem("title")).focus();
}

/**
 * Up or down one place among its siblings: before the previous one, or after the next one.
 * @param {{id: string}[]} siblings in display order @param {string} id @param {number} delta -1 or 1
 * @returns {import("./protocol.js").Position | null} null at the edge
 */
function stepPosition(siblings, id, delta) {
  const neighbour = siblings[siblings.findIndex((s) => s.id === id) + delta];
  if (!neighbour) return null;
  return delta < 0 ? protocol.position.before(neighbour.id) : protocol.position.after(neighbour.id);
}

/** @param {string} id @param {number} delta */
function moveSection(id, delta) {
  if (!board) return;
  const position = stepPosition(orderedSections(board.store.displayed), id, delta);
  if (position) edit([protocol.moveSection({ id, position })]);
}

/** @param {string} id @param {number} delta */
function moveTimer(id, delta) {
  const timer = board?.store.displayed.timers.get(id);
  if (!board || !timer) return;
  const position = stepPosition(orderedTimers(board.store.displayed, timer.sectionID), id, delta);
  if (position) edit([protocol.moveTimer({ id, position })]);
}

/** @param {HTMLSelectElement} select */
function moveTimerToSection(select) {
  const id = /** @type {HTMLElement} */ (select.closest("[data-kind=timer]")).dataset.id ?? "";
  const sectionID = select.value;
  select.value = "";
  if (!sectionID || !board?.store.displayed.sections.has(sectionID)) return;
  edit([protocol.moveTimer({ id, sectionID, position: protocol.position.first })]);
}

/** @param {HTMLSelectElement} select */
function fillMoveMenu(select) {
  const timer = board?.store.displayed.timers.get(/** @type {HTMLElement} */ (select.closest("[data-kind=timer]")).dataset.id ?? "");
  if (!board || !timer) return;
  fillSectionMenu(select, orderedSections(board.store.displayed).filter((s) => s.id !== timer.sectionID));
}

/**
 * Deleting a section deletes its timers for everyone, so a section with timers asks for a
 * second press (the button is armed until it loses focus).
 * @param {string} id @param {HTMLButtonElement} button
 */
function deleteSection(id, button) {
  if (!board) return;
  const count = orderedTimers(board.store.displayed, id).length;
  if (count > 0 && !button.dataset.armed) {
    const prompt = `Press again to delete this section and its ${count === 1 ? "timer" : `${count} timers`}`;
    armButton(button, prompt);
    status.toast(`${prompt}.`);
    return;
  }
  keepFocusNear(button, () => edit([protocol.deleteSection({ id })]));
}

/**
 * Runs a delete that removes the row of `button`. If the button had the focus, the focus goes to
 * the same button of the next row (else of the previous one, else to the nearest "add" field), so
 * a keyboard user keeps their place instead of being sent back to the top of the page.
 * @param {HTMLButtonElement} button @param {() => void} remove
 */
function keepFocusNear(button, remove) {
  const row = /** @type {HTMLElement} */ (button.closest("[data-kind]"));
  const hadFocus = doc.activeElement === button;
  const same = `.${[...button.classList].find((name) => name in CLICK_ACTIONS)}`;
  const candidates = [row.nextElementSibling?.querySelector(same), row.previousElementSibling?.querySelector(same),
    row.dataset.kind === KIND.timer ? row.closest("[data-kind=section]")?.querySelector(".add-timer [name=title]") : byId("add-section-title")];
  remove();
  if (!hadFocus || button.isConnected) return;
  const next = /** @type {HTMLElement | undefined} */ (candidates.find((element) => element?.isConnected));
  next?.focus();
}

// MARK: page actions

async function copyLink() {
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    status.toast("Link copied. Anyone with it can open and edit this board.");
  } catch {
    prompt("Copy this link:", url);
  }
}

/** @param {HTMLFormElement} form */
async function createBoard(form) {
  const title = /** @type {HTMLInputElement} */ (form.elements.namedItem("title")).value.trim();
  const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
  button.disabled = true;
  try {
    const created = await fetchJSON(API_BOARDS, { method: "POST", body: JSON.stringify(title ? { title } : {}) });
    rememberBoard(created.id, created.title ?? title);
    location.assign(created.url ?? `${BOARD_PATH_PREFIX}${encodeURIComponent(created.id)}`);
  } catch (error) {
    status.toast(`Could not create the board: ${/** @type {Error} */ (error).message}`);
    button.disabled = false;
  }
}

/** @param {string} url @param {RequestInit} [init] */
async function fetchJSON(url, init = {}) {
  const response = await fetch(url, { ...init, headers: { "Content-Type": "application/json", Accept: "application/json" } });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
  return response.json();
}

// MARK: the user's name

/** The name others see: the one chosen on this device, else a new guest name (kept for next time). */
function loadName() {
  const stored = cleanName(readStorage(NAME_KEY) ?? "");
  if (stored) return stored;
  const guest = `${GUEST_NAME_PREFIX}${1 + Math.floor(Math.random() * 999)}`;
  writeStorage(NAME_KEY, guest);
  return guest;
}

/** @param {string} text @returns {string} trimmed, without control characters, at most NAME_MAX_LENGTH code points */
function cleanName(text) {
  // eslint-disable-next-line no-control-regex
  return [...text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim()].slice(0, NAME_MAX_LENGTH).join("").trim();
}

/**
 * The user typed a new name: remember it and tell the others (a fresh hello). An empty name
 * shows the current one again.
 * @param {HTMLInputElement} input
 */
function setName(input) {
  if (!board) return;
  const name = cleanName(input.value);
  if (!name) {
    input.value = board.connection.name ?? "";
    return;
  }
  input.value = name;
  writeStorage(NAME_KEY, name);
  board.connection.rename(name);
}

/** @param {string} key @returns {string | null} */
function readStorage(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // Storage can be disabled; the name is then a guest name per page load.
  }
}

/** @param {string} key @param {string} value */
function writeStorage(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // As above.
  }
}

// MARK: boards opened on this device

/** @returns {{id: string, title: string, openedAt: number}[]} newest first */
function loadRecent() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_BOARDS_KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((b) => protocol.isValidId(b?.id)).sort((a, b) => b.openedAt - a.openedAt) : [];
  } catch {
    return []; // Storage can be disabled or hold garbage; the list is only a convenience.
  }
}

/** @param {string} id @param {string} title */
function rememberBoard(id, title) {
  const list = [{ id, title, openedAt: Date.now() }, ...loadRecent().filter((b) => b.id !== id)].slice(0, RECENT_BOARDS_MAX);
  try {
    localStorage.setItem(RECENT_BOARDS_KEY, JSON.stringify(list));
  } catch {
    // As above: not being remembered is fine.
  }
}

start();
