// @ts-check
// A board's page (`/b/ID#role=SECRET`): its session (board/session.js), its dialogs, what the
// window tells it (online, offline, visible again, leaving), and what each of its elements means:
// the page's handlers for the one delegated listener (main.js). A handler finds its element and
// hands the user's intent to its one owner: the session (through model/intents.js), a field
// (board/field.js), a form or button of the board (board/actions.js), or a dialog.
//
// Stable selectors: #board-page[data-role=owner|edit|view] (what the link may do; view hides every
// edit control, style.css), #role-badge ("View only"), .share-open, .owner-open (owner only),
// #board-title, form.add-section [name=title], #user-name (form.name-form), #share-dialog
// (#share-edit-link, #share-view-link, .copy-field[data-copies=INPUT_ID], .share-note),
// #owner-dialog (form.rename-board, .replace-link[data-role=edit|view], #replace-confirm,
// #replaced-link, form.delete-board [name=confirm]).

import { ENDED, MODE_KEY, ROLE } from "../wire/constants.js";
import { parseFragment } from "../wire/links.js";
import { loadName, readStorage, writeStorage } from "../wire/storage.js";
import { armButton } from "../dom/kit.js";
import { buttonActions, formActions } from "../dom/delegate.js";
import { loadBoards } from "../model/board_list.js";
import { DIALOG_UNLOADED } from "../model/sentences.js";
import * as intents from "../model/intents.js";
import * as actions from "../board/actions.js";
import { renderNotify } from "../board/alerts.js";
import { commitField, fieldInput, revertField } from "../board/field.js";
import { BoardSession } from "../board/session.js";
import { runKey } from "../model/run_keys.js";
import { undoKey } from "../board/undo.js";

/** @typedef {import("../board/status.js").StatusView} StatusView */
/** @typedef {import("../board/share_dialog.js").ShareDialog} ShareDialog */
/** @typedef {import("../board/owner_panel.js").OwnerPanel} OwnerPanel */
/** @typedef {import("../board/screens_panel.js").ScreensPanel} ScreensPanel */
/** @typedef {import("../board/history_panel.js").HistoryPanel} HistoryPanel */
/** @typedef {import("../board/time_dialog.js").TimeDialog} TimeDialog */
/**
 * @typedef {{share: ShareDialog | null, owner: OwnerPanel | null, screens: ScreensPanel | null, history: HistoryPanel | null,
 *   time: TimeDialog | null}} Dialogs  made when first opened
 */

/**
 * The page a board ends on, loaded when a board ends (the first load does without it).
 * @param {Document} doc @param {string} reason one of ENDED
 */
async function showEnded(doc, reason) {
  (await import("./ended.js")).showEnded(doc, reason);
}

/**
 * Opens board `id` with the key in the page's fragment (none: the "incomplete link" page).
 * @param {Document} doc @param {string} id @param {{status: StatusView}} options
 * @returns {import("../dom/delegate.js").Handlers}
 */
export function openBoardPage(doc, id, { status }) {
  const win = /** @type {Window} */ (doc.defaultView);
  const { location } = win;
  const byId = (/** @type {string} */ name) => /** @type {HTMLElement} */ (doc.getElementById(name));
  const key = parseFragment(location.hash);
  if (!key) {
    void showEnded(doc, ENDED.noSecret);
    return {};
  }
  const page = byId("board-page");
  page.hidden = false;
  // A hint until the server's `access` says what the link may do; owner controls wait for it.
  renderRole(page, key.role === ROLE.owner ? ROLE.edit : key.role);
  /** @type {Dialogs | null} the dialogs made so far (the Screens dialog follows the board's display) */
  let made = null;
  const name = loadName();
  /** @type {HTMLInputElement} */ (byId("user-name")).value = name;
  const session = new BoardSession({
    boardId: id, secret: key.secret, linkRole: key.role, name, status, location,
    elements: {
      sections: byId("sections"), presence: byId("presence"), alerts: byId("timer-alerts"), title: byId("board-title"),
      myDot: /** @type {HTMLElement} */ (doc.querySelector(".me-dot")), sync: byId("sync-status"),
      undoButtons: /** @type {HTMLElement[]} */ ([...doc.querySelectorAll(".undo-button, .redo-button")]),
    },
    page: {
      role: (role) => renderRole(page, role),
      ended: (reason) => void showEnded(doc, reason),
      display: (display) => {
        renderScreensButton(/** @type {HTMLElement} */ (doc.querySelector(".screens-open")), display);
        made?.screens?.render(display);
      },
      changed: () => made?.time?.follow(),
    },
  });
  renderMode(page, readStorage(MODE_KEY) === "run");
  /** @type {HTMLInputElement} */ (byId("sound-toggle")).checked = session.alerts.sound;
  // What the browser already allows; nothing is asked until the button is pressed.
  renderNotify(byId("notify-toggle"), session.alerts.notifyState());
  session.showTitle(loadBoards().find((b) => b.id === id)?.title ?? "", { remember: false });
  // Another key typed into the address bar: that is another link, so another page.
  win.addEventListener("hashchange", () => {
    if (parseFragment(location.hash)?.secret !== key.secret) location.reload();
  });
  win.addEventListener("online", () => connection.goOnline());
  win.addEventListener("offline", () => connection.goOffline());
  doc.addEventListener("visibilitychange", () => {
    if (doc.visibilityState === "visible") session.becameVisible();
  });
  win.addEventListener("beforeunload", (event) => {
    // Edits the server has not confirmed would be lost with the page (unless the board is gone).
    if (store.pending.length > 0 && !session.ended) event.preventDefault();
  });
  const open = dialogs(session, byId);
  made = open.made;
  session.start();
  // The dialogs' code, fetched once the page is idle: offline later, they open all the same.
  const dialogsLoaded = new Promise((resolve) => whenIdle(win, () => resolve(open.preload())));
  // For tests and the console.
  const { store, connection, view, presence, clock, countdowns, alerts } = session;
  Object.assign(win, { timerboard: { store, socket: connection, view, presence, clock, countdowns, alerts, session, state: () => session.state(), dialogsLoaded } });
  return handlers(session, byId, open);
}

/** @param {Window} win @param {() => void} f */
function whenIdle(win, f) {
  if (typeof win.requestIdleCallback === "function") win.requestIdleCallback(f);
  else win.setTimeout(f, 0);
}

/**
 * Run mode or edit mode (#board-page[data-mode=run|edit], style.css): run mode shows start/pause,
 * titles and large countdowns, and hides lengths, warning points, moves and deletes. Per device.
 * @param {HTMLElement} page #board-page @param {boolean} run
 */
function renderMode(page, run) {
  page.dataset.mode = run ? "run" : "edit";
  const button = /** @type {HTMLElement | null} */ (page.querySelector(".mode-toggle"));
  button?.setAttribute("aria-pressed", String(run));
}

/**
 * The top bar's Screens button says whether a message or a blackout is on, so it shows on the
 * board page without opening the dialog.
 * @param {HTMLElement} button .screens-open @param {import("../wire/protocol.js").Display} display
 */
function renderScreensButton(button, { message, blackout }) {
  button.dataset.message = String(message !== null);
  button.dataset.blackout = String(blackout);
}

/**
 * The board's role: #board-page[data-role] (style.css hides every edit control of a view link),
 * the "View only" badge, and the owner's settings button.
 * @param {HTMLElement} page #board-page @param {string} role
 */
export function renderRole(page, role) {
  if (page.dataset.role !== role) page.dataset.role = role;
  const badge = /** @type {HTMLElement | null} */ (page.querySelector("#role-badge"));
  if (badge) badge.hidden = role !== ROLE.view;
  const owner = /** @type {HTMLElement | null} */ (page.querySelector(".owner-open"));
  if (owner) owner.hidden = role !== ROLE.owner;
}

/**
 * The Share dialog and the owner's settings, made (and their modules loaded) the first time one
 * opens: most visits open neither.
 * @param {BoardSession} session @param {(id: string) => HTMLElement} byId
 */
function dialogs(session, byId) {
  /** @type {Dialogs} */
  const made = { share: null, owner: null, screens: null, history: null, time: null };
  const origin = location.origin;
  return {
    made,
    async share() {
      const [{ ShareDialog }, { BoardApi }] = await Promise.all([import("../board/share_dialog.js"), import("../wire/api.js")]);
      made.share ??= new ShareDialog({ dialog: /** @type {HTMLDialogElement} */ (byId("share-dialog")), session, api: new BoardApi(), origin });
      return made.share;
    },
    async screens() {
      const [{ ScreensPanel }, { BoardApi }] = await Promise.all([import("../board/screens_panel.js"), import("../wire/api.js")]);
      made.screens ??= new ScreensPanel({ dialog: /** @type {HTMLDialogElement} */ (byId("screens-dialog")), session, api: new BoardApi(), origin });
      return made.screens;
    },
    async time() {
      const { TimeDialog } = await import("../board/time_dialog.js");
      made.time ??= new TimeDialog({ dialog: /** @type {HTMLDialogElement} */ (byId("time-dialog")), session });
      return made.time;
    },
    async history() {
      const [{ HistoryPanel }, { BoardApi }] = await Promise.all([import("../board/history_panel.js"), import("../wire/api.js")]);
      made.history ??= new HistoryPanel({ dialog: /** @type {HTMLDialogElement} */ (byId("history-dialog")), session, api: new BoardApi() });
      return made.history;
    },
    async owner() {
      const [{ OwnerPanel }, { BoardApi }] = await Promise.all([import("../board/owner_panel.js"), import("../wire/api.js")]);
      made.owner ??= new OwnerPanel({
        dialog: /** @type {HTMLDialogElement} */ (byId("owner-dialog")), session, api: new BoardApi(), origin, onDeleted: () => session.end(ENDED.deleted),
      });
      return made.owner;
    },
    /**
     * Fetches every dialog's code (and the QR code's wrapper) without making a dialog. What fails
     * here is told when that dialog is opened, so nothing is reported now.
     */
    preload() {
      return Promise.allSettled([
        import("../board/share_dialog.js"), import("../board/screens_panel.js"), import("../board/time_dialog.js"),
        import("../board/history_panel.js"), import("../board/owner_panel.js"), import("../board/qr_code.js"), import("../wire/api.js"),
      ]);
    },
  };
}

/**
 * What each element of the board page means.
 * @param {BoardSession} board @param {(id: string) => HTMLElement} byId @param {ReturnType<typeof dialogs>} open
 * @returns {import("../dom/delegate.js").Handlers}
 */
function handlers(board, byId, open) {
  const { selection } = board;
  /**
   * The run keys (model/run_keys.js), when no field, button or dialog has the keyboard: Space on a
   * focused button presses that button, as it always did. A view link moves the selection only.
   * @param {KeyboardEvent} event
   */
  const runKeys = (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (event.ctrlKey || event.metaKey || event.altKey || target.closest("input, textarea, button, select, a, label, dialog, [contenteditable]")) return;
    const decided = runKey(board.displayed, selection.id, event.key);
    if (!decided) return;
    event.preventDefault();
    selection.select(decided.selected, board.displayed);
    if (board.role !== ROLE.view) board.edit(decided.ops);
  };
  // The buttons inside a dialog: it is made by then.
  const { made } = open;
  // A dialog's code that never came (offline before the page was idle): say so rather than nothing.
  const unloaded = () => board.toast(DIALOG_UNLOADED);
  const edit = (/** @type {(b: import("../model/board.js").BoardReader) => import("../wire/protocol.js").Op[]} */ intent) => board.edit(intent(board.displayed));
  const onButton = buttonActions({
    "share-open": () => void open.share().then((dialog) => dialog.open(), unloaded),
    "owner-open": () => void Promise.all([open.owner(), import("../board/time_dialog.js")]).then(([dialog, { fillTimeZoneForm }]) => {
      dialog.open();
      fillTimeZoneForm(/** @type {HTMLFormElement} */ (byId("owner-dialog").querySelector(".time-zone-form")), board.displayed.display.timeZone ?? "UTC");
    }, unloaded),
    "screens-open": () => void open.screens().then((dialog) => dialog.open(), unloaded),
    "mode-toggle": (_id, button) => {
      const run = button.getAttribute("aria-pressed") !== "true";
      renderMode(/** @type {HTMLElement} */ (button.closest("#board-page")), run);
      writeStorage(MODE_KEY, run ? "run" : "edit");
    },
    "screen-clear": () => made.screens?.clearMessage(),
    "screen-blackout": () => made.screens?.toggleBlackout(),
    "dialog-close": (_id, button) => /** @type {HTMLDialogElement} */ (button.closest("dialog")).close(),
    "copy-field": (_id, button) => void import("../board/share_dialog.js").then(({ copyField }) => copyField(
      /** @type {HTMLInputElement} */ (byId(button.dataset.copies ?? "")), /** @type {HTMLElement} */ (button.closest("dialog")?.querySelector(".dialog-status"))), unloaded),
    "qr-field": (_id, button) => void made.share?.showQr(/** @type {HTMLInputElement} */ (byId(button.dataset.qr ?? ""))).catch(unloaded),
    "undo-button": () => board.undo.undo(),
    "redo-button": () => board.undo.redo(),
    "toast-undo": (_id, button) => {
      board.undo.undo(button.dataset.opId);
      button.closest(".toast")?.remove();
    },
    "section-time": (id) => void open.time().then((dialog) => dialog.open(id), unloaded),
    "finish-clear": () => made.time?.clearFinish(),
    "start-clear": () => made.time?.clearStart(),
    "history-open": () => void open.history().then((panel) => panel.open(), unloaded),
    "history-more": () => void made.history?.older(),
    "history-restore": (_id, button) => made.history?.restore(Number(button.dataset.rev)),
    "history-report": () => void made.history?.downloadReport(),
    "replace-link": (_id, button) => made.owner?.askReplace(button.dataset.role === ROLE.view ? ROLE.view : ROLE.edit),
    "replace-confirm": () => made.owner?.confirmReplace(),
    "replace-cancel": () => made.owner?.cancelReplace(),
    "section-toggle": (id) => edit((b) => intents.toggleSection(b, id)),
    "section-move-up": (id) => edit((b) => intents.moveSection(b, id, -1)),
    "section-move-down": (id) => edit((b) => intents.moveSection(b, id, 1)),
    "section-delete": (id, button) => actions.deleteSection(board, id, button),
    "section-sequence": (id) => edit((b) => intents.toggleSequence(b, id)),
    "section-loop": (id) => edit((b) => intents.toggleLoop(b, id)),
    "section-skip": (id, button) => {
      if (button.getAttribute("aria-disabled") !== "true") edit((b) => intents.skipSection(b, id));
    },
    "section-restart": (id) => edit((b) => intents.restartSection(b, id)),
    // Run buttons say what they do (data-action), so a press does what the user read.
    "section-run": (id, button) => edit((b) => intents.runSection(b, id, button.dataset.action, button.getAttribute("aria-disabled") === "true")),
    "timer-toggle": (id, button) => edit((b) => intents.runTimer(b, id, button.dataset.action)),
    "timer-reset": (id) => edit((b) => intents.resetTimer(b, id)),
    "timer-adjust": (id, button) => edit((b) => intents.adjustTimer(b, id, Number(button.dataset.by))),
    "timer-move-up": (id) => edit((b) => intents.moveTimer(b, id, -1)),
    "timer-move-down": (id) => edit((b) => intents.moveTimer(b, id, 1)),
    "timer-delete": (id, button) => actions.deleteTimer(board, id, button),
    "notify-toggle": (_id, button) => {
      const shown = /** @type {import("../board/alerts.js").NotifyState} */ (button.dataset.state ?? "default");
      void board.toggleNotify(shown).then((state) => renderNotify(button, state));
    },
    "alert-dismiss": () => board.alerts.dismiss(),
  });
  return {
    /** @param {MouseEvent} event */
    click(event) {
      // Any click may be the gesture the browser wants before a beep can play.
      board.alerts.unlock();
      onButton(event);
    },
    submit: formActions({
      "name-form": (form) => actions.setName(board, /** @type {HTMLInputElement} */ (form.elements.namedItem("name"))),
      "rename-board": () => made.owner?.rename(),
      "delete-board": () => made.owner?.deleteBoard(),
      "screen-message": () => made.screens?.send(),
      "add-section": (form) => actions.addSection(board, form),
      "add-timer": (form) => actions.addTimer(board, form),
      "finish-form": () => made.time?.saveFinish(),
      "timer-time-form": () => made.time?.saveTimer(),
      "time-zone-form": (form) => void import("../board/time_dialog.js").then(({ submitTimeZone }) => submitTimeZone(board, form), unloaded),
    }),
    /** @param {KeyboardEvent} event */
    keydown(event) {
      // Ctrl+Z / Ctrl+Shift+Z outside text fields: this page's own edits, through the server.
      const undo = undoKey(event);
      if (undo) {
        event.preventDefault();
        return undo === "undo" ? board.undo.undo() : board.undo.redo();
      }
      const input = fieldInput(event.target);
      if (!input && !event.isComposing) return runKeys(event);
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
      if (target.matches(".timer-section")) actions.fillMoveMenu(board, /** @type {HTMLSelectElement} */ (target));
      actions.tellEditing(board);
    },
    /** @param {FocusEvent} event */
    focusout(event) {
      // A focused node moved by a patch can blur for an instant; that is not the user leaving it.
      if (board.view.patching) return;
      const target = /** @type {HTMLElement} */ (event.target);
      const input = fieldInput(target);
      if (input) commitField(input, board);
      if (target instanceof HTMLButtonElement) armButton(target, null);
      if (target.matches("#user-name")) actions.setName(board, /** @type {HTMLInputElement} */ (target));
      // Once focus has landed, a collapse that waited for the user can happen, and the others learn
      // what (if anything) the user edits now.
      setTimeout(() => {
        board.view.settle();
        actions.tellEditing(board);
      }, 0);
    },
    /** @param {Event} event */
    change(event) {
      const target = /** @type {HTMLElement} */ (event.target);
      if (target.matches(".timer-section")) return actions.moveTimerToSection(board, /** @type {HTMLSelectElement} */ (target));
      if (target.matches("#sound-toggle")) return board.setSound(/** @type {HTMLInputElement} */ (target).checked);
      if (target.matches("#time-timer")) return made.time?.fillTimer();
      if (target.matches("#time-kind")) return made.time?.showKindFields();
      // Number inputs: the spinner arrows commit at once; typing commits on Enter or blur.
      const input = fieldInput(target);
      if (input && input.type === "number") commitField(input, board);
    },
  };
}
