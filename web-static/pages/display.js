// @ts-check
// A board's display (`/b/ID/display#role=SECRET`, or `/b/ID/display/TIMER#…` for one timer): a
// screen for a wall or a stage, read from across a room. It shows one timer as large as the screen
// allows, the board's message and its blackout, and no control: any role's link opens it, and it
// never edits. A click or the key F makes it fullscreen (and back); the screen is kept awake where
// the browser allows (Wake Lock); the mouse pointer hides when it stands still.
//
// Stable selectors: #display-page (board/display_view.js lists its parts), #display-connection.

import { CONNECTION, ENDED } from "../wire/constants.js";
import { parseFragment } from "../wire/links.js";
import { DisplaySession } from "../board/display_session.js";
import { DisplayView } from "../board/display_view.js";
import { StatusView } from "../board/status.js";

/** The pointer hides after standing still this long. */
const CURSOR_IDLE_MS = 2500;

/**
 * @param {Document} doc @param {{board: string, timer: string | null}} address
 * @returns {import("../dom/delegate.js").Handlers}
 */
export function openDisplayPage(doc, { board, timer }) {
  const win = /** @type {Window} */ (doc.defaultView);
  const key = parseFragment(win.location.hash);
  const byId = (/** @type {string} */ name) => /** @type {HTMLElement} */ (doc.getElementById(name));
  const page = byId("display-page");
  /** @param {string} reason one of ENDED */
  const ended = async (reason) => {
    page.hidden = true;
    (await import("./ended.js")).showEnded(doc, reason);
  };
  if (!key) {
    void ended(ENDED.noSecret);
    return {};
  }
  page.hidden = false;
  const connection = byId("display-connection");
  const status = new StatusView(connection, byId("toasts"));
  const clock = { serverNow: () => session.clock.serverNow(), get synced() { return session.clock.synced; } };
  const view = new DisplayView({ page, clock, timerId: timer });
  const session = new DisplaySession({
    boardId: board, secret: key.secret, status, location: win.location,
    onBoard: (shown) => view.render(shown), onClock: () => view.tick(), onEnded: (reason) => void ended(reason),
  });
  // For tests and the console.
  Object.assign(win, { timerboard: { session, view, store: session.store, state: () => ({ rev: session.store.rev, connection: session.connection.state }) } });
  win.addEventListener("hashchange", () => {
    if (parseFragment(win.location.hash)?.secret !== key.secret) win.location.reload();
  });
  win.addEventListener("online", () => session.connection.goOnline());
  win.addEventListener("offline", () => session.connection.goOffline());
  const awake = new WakeLock(win.navigator);
  doc.addEventListener("visibilitychange", () => {
    if (doc.visibilityState !== "visible") return;
    session.becameVisible();
    view.tick();
    // The browser lets a wake lock go with the page's visibility; ask again.
    awake.request();
  });
  hideStillCursor(doc, page);
  awake.request();
  session.start();
  // The connection state shows only while it is not live: a wall screen shows the timer, not a pill.
  status.update({ state: CONNECTION.connecting });
  return {
    click: () => toggleFullscreen(doc),
    /** @param {KeyboardEvent} event */
    keydown(event) {
      if (event.key.toLowerCase() !== "f" || event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      toggleFullscreen(doc);
    },
  };
}

/** @param {Document} doc */
function toggleFullscreen(doc) {
  if (doc.fullscreenElement) void doc.exitFullscreen?.().catch(() => {});
  else void doc.documentElement.requestFullscreen?.().catch(() => {});
}

/** Keeps the screen on while the display is visible, where the browser has the Wake Lock API. */
class WakeLock {
  /** @param {Navigator} navigator */
  constructor(navigator) {
    this.api = /** @type {{request(type: "screen"): Promise<{released: boolean}>} | undefined} */ (/** @type {any} */ (navigator).wakeLock);
    /** @type {{released: boolean} | null} */
    this.lock = null;
  }

  request() {
    if (!this.api || (this.lock && !this.lock.released)) return;
    // Refused without a user's gesture in some browsers, or on battery saving: the screen may then sleep.
    this.api.request("screen").then((lock) => (this.lock = lock), () => {});
  }
}

/**
 * Hides the mouse pointer over the display once it stands still, and shows it when it moves.
 * @param {Document} doc @param {HTMLElement} page
 */
function hideStillCursor(doc, page) {
  let timer = /** @type {any} */ (null);
  const still = () => page.classList.add("cursor-hidden");
  doc.addEventListener("mousemove", () => {
    page.classList.remove("cursor-hidden");
    clearTimeout(timer);
    timer = setTimeout(still, CURSOR_IDLE_MS);
  });
  timer = setTimeout(still, CURSOR_IDLE_MS);
}
