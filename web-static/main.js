// @ts-check
// Bootstrap: picks the page from the path (`/` the start page, `/b/ID#role=SECRET` a board's),
// loads it, and installs the one delegated listener per event type, at the document, which hands
// each event to the page's handlers (pages/). Nothing else happens here. index.html preloads the
// board page's modules, the page whose first load counts; the start page loads what it adds.

import { boardIdFromPath } from "./wire/links.js";
import { listen } from "./dom/delegate.js";
import { StatusView } from "./board/status.js";

const status = new StatusView(/** @type {HTMLElement} */ (document.getElementById("connection")), /** @type {HTMLElement} */ (document.getElementById("toasts")));
const board = boardIdFromPath(location.pathname);
const handlers = board
  ? (await import("./pages/board.js")).openBoardPage(document, board, { status })
  : (await import("./pages/start.js")).openStartPage(document, { status, navigate: (url) => location.assign(url) });
listen(document, handlers);
