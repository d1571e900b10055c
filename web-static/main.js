// @ts-check
// Bootstrap: picks the page from the path (`/` the start page, `/b/ID#role=SECRET` a board's) and
// installs the one delegated listener per event type, at the document, which hands each event to
// the page's handlers (pages/). Nothing else happens here.

import { BoardApi } from "./wire/api.js";
import { boardIdFromPath } from "./wire/links.js";
import { listen } from "./dom/delegate.js";
import { StatusView } from "./board/status.js";
import { openBoardPage } from "./pages/board.js";
import { openStartPage } from "./pages/start.js";

const api = new BoardApi();
const status = new StatusView(/** @type {HTMLElement} */ (document.getElementById("connection")), /** @type {HTMLElement} */ (document.getElementById("toasts")));
const board = boardIdFromPath(location.pathname);
const handlers = board
  ? openBoardPage(document, board, { api, status })
  : openStartPage(document, { api, status, navigate: (url) => location.assign(url) });
listen(document, handlers);
