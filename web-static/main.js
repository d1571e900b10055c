// @ts-check
// Bootstrap: picks the page from the path (`/` the start page, `/b/ID#role=SECRET` a board's,
// `/b/ID/display#role=SECRET` its display),
// opens it, and installs the one delegated listener per event type, at the document, which hands
// each event to the page's handlers (pages/). Nothing else happens here. A board's page is what a
// first load waits for, so it comes with main.js (and index.html preloads its modules); the start
// page loads what it adds when it is the one asked for.

import { boardIdFromPath, displayFromPath } from "./wire/links.js";
import { listen } from "./dom/delegate.js";
import { StatusView } from "./board/status.js";
import { openBoardPage } from "./pages/board.js";

const status = new StatusView(/** @type {HTMLElement} */ (document.getElementById("connection")), /** @type {HTMLElement} */ (document.getElementById("toasts")));
const display = displayFromPath(location.pathname);
const board = boardIdFromPath(location.pathname);
const handlers = display
  ? (await import("./pages/display.js")).openDisplayPage(document, display)
  : board
    ? openBoardPage(document, board, { status })
    : (await import("./pages/start.js")).openStartPage(document, { status, navigate: (url) => location.assign(url) });
listen(document, handlers);
