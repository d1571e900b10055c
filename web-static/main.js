// @ts-check
// Bootstrap: picks the page from the path (`/` start page, `/b/ID#role=SECRET` a board) and holds
// the one delegated listener per event type, on the document: handlers find their element with
// closest() and hand the user's intent to its one owner: the board's session (board_session.js),
// a field (field_edit.js), a form or button of the board (board_actions.js), a dialog
// (share_dialog.js, owner_panel.js) or the start page (start_page.js).

import { ENDED, ROLE } from "./wire/constants.js";
import { BoardApi } from "./wire/api.js";
import * as actions from "./board/actions.js";
import { BoardSession } from "./board/session.js";
import { armButton, renderEnded, renderNotify, renderRole, revertField } from "./board/dom_patch.js";
import { commitField, fieldInput } from "./board/field.js";
import { boardIdFromPath, parseFragment } from "./wire/links.js";
import { OwnerPanel } from "./board/owner_panel.js";
import * as protocol from "./wire/protocol.js";
import { ShareDialog, copyField } from "./board/share_dialog.js";
import { StartPage } from "./pages/start.js";
import { StatusView } from "./board/status.js";
import { loadBoards, loadName } from "./wire/storage.js";

const doc = document;
const api = new BoardApi();

/** The board page's session; null on the start page. @type {BoardSession | null} */
let board = null;
/** The board page's dialogs (null on the start page). */
let dialogs = /** @type {{share: ShareDialog, owner: OwnerPanel} | null} */ (null);
const status = new StatusView(byId("connection"), byId("toasts"));
/** The start page (null on a board's page). @type {StartPage | null} */
let startPage = null;

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
  const page = new StartPage({ page: byId("start-page"), list: byId("recent-boards"), api, status, navigate: (url) => location.assign(url) });
  startPage = page;
  page.open();
  // Another tab of this browser opened, renamed or forgot a board.
  addEventListener("storage", () => page.render());
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
      myDot: /** @type {HTMLElement} */ (doc.querySelector(".me-dot")), sync: byId("sync-status"),
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
  // What the browser already allows; nothing is asked until the button is pressed.
  renderNotify(byId("notify-toggle"), session.alerts.notifyState());
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
    if (board && target.matches(".timer-section")) actions.fillMoveMenu(board, /** @type {HTMLSelectElement} */ (target));
    if (board) actions.tellEditing(board);
  },

  /** @param {FocusEvent} event */
  focusout(event) {
    // A focused node moved by a patch can blur for an instant; that is not the user leaving it.
    if (board?.view.patching) return;
    const target = /** @type {HTMLElement} */ (event.target);
    const input = fieldInput(target);
    if (input) commitField(input, board);
    if (target instanceof HTMLButtonElement) armButton(target, null);
    if (board && target.matches("#user-name")) actions.setName(board, /** @type {HTMLInputElement} */ (target));
    // Once focus has landed, a collapse that waited for the user can happen, and the others learn
    // what (if anything) the user edits now.
    setTimeout(() => {
      if (!board) return;
      board.view.settle();
      actions.tellEditing(board);
    }, 0);
  },

  /** @param {Event} event */
  change(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    if (board && target.matches(".timer-section")) return actions.moveTimerToSection(board, /** @type {HTMLSelectElement} */ (target));
    if (target.matches("#sound-toggle")) return board?.setSound(/** @type {HTMLInputElement} */ (target).checked);
    // Number inputs: the spinner arrows commit at once; typing commits on Enter or blur.
    const input = fieldInput(target);
    if (input && input.type === "number") commitField(input, board);
  },
};

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
  "board-forget": (id, button) => startPage?.forget(id, button),
  "section-toggle": (id) => board?.toggleSection(id),
  "section-move-up": (id) => board?.moveSection(id, -1),
  "section-move-down": (id) => board?.moveSection(id, 1),
  "section-delete": (id, button) => board && actions.deleteSection(board, id, button),
  "timer-move-up": (id) => board?.moveTimer(id, -1),
  "timer-move-down": (id) => board?.moveTimer(id, 1),
  "timer-delete": (id, button) => board && actions.deleteTimer(board, id, button),
  // The button says what it does (data-action), so a press does what the user read.
  "timer-toggle": (id, button) => board?.runTimer(id, button.dataset.action),
  "timer-reset": (id) => board?.resetTimer(id),
  "timer-adjust": (id, button) => board?.adjustTimer(id, Number(button.dataset.by)),
  "section-sequence": (id) => board?.toggleSequence(id),
  "section-loop": (id) => board?.toggleLoop(id),
  "section-skip": (id, button) => {
    if (button.getAttribute("aria-disabled") !== "true") board?.skipSection(id);
  },
  "section-restart": (id) => board?.restartSection(id),
  "notify-toggle": (_id, button) => {
    const shown = /** @type {import("./board/alerts.js").NotifyState} */ (button.dataset.state ?? "default");
    void board?.toggleNotify(shown).then((state) => renderNotify(button, state));
  },
  "section-run": (id, button) => {
    // The button says what it does (data-action), so a press does what the user read.
    if (button.dataset.action === "pause") board?.edit([protocol.pauseSection({ id })]);
    else if (button.getAttribute("aria-disabled") !== "true") board?.edit([protocol.startSection({ id })]);
  },
  "alert-dismiss": (_id, button) => board?.alerts.hide(/** @type {HTMLElement} */ (button.closest(".timer-alert")).dataset.timerId ?? ""),
};

/** @type {Record<string, (form: HTMLFormElement) => void>} */
const SUBMIT_ACTIONS = {
  "name-form": (form) => board && actions.setName(board, /** @type {HTMLInputElement} */ (form.elements.namedItem("name"))),
  "new-board": (form) => startPage?.create(form),
  "rename-board": () => dialogs?.owner.rename(),
  "delete-board": () => dialogs?.owner.deleteBoard(),
  "add-section": (form) => board && actions.addSection(board, form),
  "add-timer": (form) => board && actions.addTimer(board, form),
};

start();
