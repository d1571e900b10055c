// @ts-check
// Bootstrap: picks the page from the path (`/` start page, `/b/ID#role=SECRET` a board) and holds
// the one delegated listener per event type, on the document: handlers find their element with
// closest() and hand the user's intent to the board's session (board_session.js), the field editor
// (field_edit.js), the dialogs (board_dialogs.js) or a page action here.

import { ENDED, KIND, ROLE } from "./constants.js";
import { BoardApi } from "./board_api.js";
import { OwnerPanel, ShareDialog, copyField } from "./board_dialogs.js";
import { withLinks, withoutBoard } from "./board_list.js";
import { BoardSession } from "./board_session.js";
import { armButton, fillSectionMenu, renderBoardLinks, renderEnded, renderRole, revertField } from "./dom_patch.js";
import { commitField, fieldInput, parseField, parseTitle } from "./field_edit.js";
import { boardIdFromPath, parseFragment } from "./links.js";
import * as protocol from "./protocol.js";
import { StatusView } from "./status_view.js";
import { cleanName, loadBoards, loadName, saveName, updateBoards } from "./storage.js";

const doc = document;
const api = new BoardApi();

/** The board page's session; null on the start page. @type {BoardSession | null} */
let board = null;
/** The board page's dialogs (null on the start page). */
let dialogs = /** @type {{share: ShareDialog, owner: OwnerPanel} | null} */ (null);
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
  const id = boardIdFromPath(location.pathname);
  if (id) openBoard(id);
  else openStartPage();
}

/** The start page lists the boards this browser opened, and nothing else: no board is public. */
function openStartPage() {
  byId("start-page").hidden = false;
  renderStartList();
  // Another tab of this browser opened, renamed or forgot a board.
  addEventListener("storage", renderStartList);
}

function renderStartList() {
  renderBoardLinks(byId("recent-boards"), loadBoards(), "Boards you create or open in this browser show up here.");
}

/** @param {string} id */
function openBoard(id) {
  const key = parseFragment(location.hash);
  if (!key) return showEnded(ENDED.noSecret);
  const page = byId("board-page");
  page.hidden = false;
  // A hint until the server's `access` says what the link may do; owner controls wait for it.
  renderRole(page, key.role === ROLE.owner ? ROLE.edit : key.role);
  const name = loadName();
  /** @type {HTMLInputElement} */ (byId("user-name")).value = name;
  const session = new BoardSession({
    boardId: id,
    secret: key.secret,
    linkRole: key.role,
    name,
    status,
    location,
    elements: {
      sections: byId("sections"), presence: byId("presence"), alerts: byId("timer-alerts"), title: byId("board-title"),
      myDot: /** @type {HTMLElement} */ (doc.querySelector(".me-dot")),
    },
    page: {
      role: (role) => renderRole(page, role),
      ended: (reason) => showEnded(reason),
    },
  });
  board = session;
  dialogs = {
    share: new ShareDialog({ dialog: dialogOf("share-dialog"), session, api, origin: location.origin }),
    owner: new OwnerPanel({ dialog: dialogOf("owner-dialog"), session, api, origin: location.origin, onDeleted: () => session.end(ENDED.deleted) }),
  };
  /** @type {HTMLInputElement} */ (byId("sound-toggle")).checked = session.alerts.sound;
  const { store, connection, view, presence, clock, countdowns, alerts } = session;
  Object.assign(window, { timerboard: { store, socket: connection, view, presence, clock, countdowns, alerts, session, state: () => session.state() } });
  session.showTitle(loadBoards().find((b) => b.id === id)?.title ?? "", { remember: false });
  // Another key typed into the address bar: that is another link, so another page.
  addEventListener("hashchange", () => {
    const now = parseFragment(location.hash);
    if (now?.secret !== key.secret) location.reload();
  });
  addEventListener("online", () => connection.goOnline());
  addEventListener("offline", () => connection.goOffline());
  doc.addEventListener("visibilitychange", () => {
    if (doc.visibilityState === "visible") session.becameVisible();
  });
  addEventListener("beforeunload", (event) => {
    // Edits the server has not confirmed would be lost with the page (unless the board is gone).
    if (store.pending.length > 0 && !session.ended) event.preventDefault();
  });
  session.start();
}

/** @param {string} id @returns {HTMLDialogElement} */
function dialogOf(id) {
  return /** @type {HTMLDialogElement} */ (byId(id));
}

/**
 * The board page stopped for good, or never started: a page that says what happened and what to
 * do, instead of a board that would try to reconnect forever.
 * @param {string} reason one of ENDED
 */
function showEnded(reason) {
  byId("board-page").hidden = true;
  for (const dialog of doc.querySelectorAll("dialog")) if (/** @type {HTMLDialogElement} */ (dialog).open) /** @type {HTMLDialogElement} */ (dialog).close();
  const page = byId("ended-page");
  renderEnded(page, reason);
  doc.title = `${/** @type {HTMLElement} */ (page.querySelector("#ended-title")).textContent} · TimerBoard`;
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
      commitField(input, board);
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
    if (input) commitField(input, board);
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
    if (target.matches("#sound-toggle")) return board?.setSound(/** @type {HTMLInputElement} */ (target).checked);
    // Number inputs: the spinner arrows commit at once; typing commits on Enter or blur.
    const input = fieldInput(target);
    if (input && input.type === "number") commitField(input, board);
  },
};

/** Presence: the section or timer whose title, minutes or seconds has the focus, if any. */
function tellEditing() {
  if (!board) return;
  const input = fieldInput(doc.activeElement);
  board.connection.setEditing(input ? /** @type {HTMLElement} */ (input.closest("[data-kind]")).dataset.id ?? null : null);
}

/** @type {Record<string, (id: string, button: HTMLButtonElement) => void>} */
const CLICK_ACTIONS = {
  "share-open": () => dialogs?.share.open(),
  "owner-open": () => dialogs?.owner.open(),
  "dialog-close": (_id, button) => /** @type {HTMLDialogElement} */ (button.closest("dialog")).close(),
  "copy-field": (_id, button) => copyField(/** @type {HTMLInputElement} */ (byId(button.dataset.copies ?? "")),
    /** @type {HTMLElement} */ (button.closest("dialog")?.querySelector(".dialog-status"))),
  "replace-link": (_id, button) => dialogs?.owner.askReplace(button.dataset.role === ROLE.view ? ROLE.view : ROLE.edit),
  "replace-confirm": () => dialogs?.owner.confirmReplace(),
  "replace-cancel": () => dialogs?.owner.cancelReplace(),
  "board-forget": forgetBoard,
  "section-toggle": (id) => board?.toggleSection(id),
  "section-move-up": (id) => board?.moveSection(id, -1),
  "section-move-down": (id) => board?.moveSection(id, 1),
  "section-delete": deleteSection,
  "timer-move-up": (id) => board?.moveTimer(id, -1),
  "timer-move-down": (id) => board?.moveTimer(id, 1),
  "timer-delete": (id, button) => keepFocusNear(button, () => board?.edit([protocol.deleteTimer({ id })])),
  "timer-toggle": (id) => board?.toggleTimer(id),
  "timer-reset": (id) => board?.resetTimer(id),
  "section-run": (id, button) => {
    // The button says what it does (data-action), so a press does what the user read.
    if (button.dataset.action === "pause") board?.edit([protocol.pauseSection({ id })]);
    else if (button.getAttribute("aria-disabled") !== "true") board?.edit([protocol.startSection({ id })]);
  },
  "alert-dismiss": (_id, button) => board?.alerts.hide(/** @type {HTMLElement} */ (button.closest(".timer-alert")).dataset.timerId ?? ""),
};

/** @type {Record<string, (form: HTMLFormElement) => void>} */
const SUBMIT_ACTIONS = {
  "name-form": (form) => setName(/** @type {HTMLInputElement} */ (form.elements.namedItem("name"))),
  "new-board": createBoard,
  "rename-board": () => dialogs?.owner.rename(),
  "delete-board": () => dialogs?.owner.deleteBoard(),
  "add-section": addSection,
  "add-timer": addTimer,
};

// MARK: edits from forms and menus

/** @param {HTMLFormElement} form */
function addSection(form) {
  if (!board) return;
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("title"));
  const title = parseTitle(input.value, board.limits.maxTitleLength);
  if ("error" in title) return status.toast(title.error);
  const id = protocol.newEntityId(KIND.section);
  board.edit([protocol.addSection({ id, title: title.value, position: protocol.position.first })]);
  form.reset();
}

/** @param {HTMLFormElement} form */
function addTimer(form) {
  if (!board) return;
  const sectionID = /** @type {HTMLElement} */ (form.closest("[data-kind=section]")).dataset.id ?? "";
  const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
  const limits = board.limits;
  const title = parseField("title", value("title"), limits);
  // Empty minutes or seconds mean 0: "Eggs, 7 min" should not need a 0 typed in.
  const minutes = parseField("minutes", value("minutes") || "0", limits);
  const seconds = parseField("seconds", value("seconds") || "0", limits);
  const error = [title, minutes, seconds].find((p) => "error" in p);
  if (error && "error" in error) return status.toast(error.error);
  const [t, m, s] = /** @type {{value: any}[]} */ ([title, minutes, seconds]).map((p) => p.value);
  board.edit([protocol.addTimer({ id: protocol.newEntityId(KIND.timer), sectionID, title: t, minutes: m, seconds: s, position: protocol.position.first })]);
  form.reset();
  /** @type {HTMLInputElement} */ (form.elements.namedItem("title")).focus();
}

/** @param {HTMLSelectElement} select */
function moveTimerToSection(select) {
  const id = /** @type {HTMLElement} */ (select.closest("[data-kind=timer]")).dataset.id ?? "";
  const sectionID = select.value;
  select.value = "";
  board?.moveTimerToSection(id, sectionID);
}

/** @param {HTMLSelectElement} select */
function fillMoveMenu(select) {
  if (!board) return;
  const id = /** @type {HTMLElement} */ (select.closest("[data-kind=timer]")).dataset.id ?? "";
  if (board.store.displayed.timers.has(id)) fillSectionMenu(select, board.otherSections(id));
}

/**
 * Deleting a section deletes its timers for everyone, so a section with timers asks for a
 * second press (the button is armed until it loses focus).
 * @param {string} id @param {HTMLButtonElement} button
 */
function deleteSection(id, button) {
  if (!board) return;
  const count = board.timerCount(id);
  if (count > 0 && !button.dataset.armed) {
    const prompt = `Press again to delete this section and its ${count === 1 ? "timer" : `${count} timers`}`;
    armButton(button, prompt);
    status.toast(`${prompt}.`);
    return;
  }
  keepFocusNear(button, () => board?.edit([protocol.deleteSection({ id })]));
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

/**
 * Creating a board: the server shows its owner secret this once, so this browser keeps all three
 * links before it opens the owner link.
 * @param {HTMLFormElement} form
 */
async function createBoard(form) {
  const title = /** @type {HTMLInputElement} */ (form.elements.namedItem("title")).value.trim();
  const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
  button.disabled = true;
  try {
    const created = await api.createBoard(title);
    updateBoards((list) => withLinks(list, created.id, created.links, { title: created.title ?? title, now: Date.now() }));
    location.assign(created.url);
  } catch (error) {
    status.toast(`Could not create the board: ${/** @type {Error} */ (error).message}`);
    button.disabled = false;
  }
}

/**
 * "Forget" on the start page: the first press arms the button (the link may be the only copy of
 * an owner link), the second forgets the board in this browser. The board itself stays.
 * @param {string} id @param {HTMLButtonElement} button
 */
function forgetBoard(id, button) {
  if (!button.dataset.armed) {
    armButton(button, "Press again to forget this board on this device");
    return;
  }
  updateBoards((list) => withoutBoard(list, id));
  renderStartList();
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
  saveName(name);
  board.connection.rename(name);
}

start();
