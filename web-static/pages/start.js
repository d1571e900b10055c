// @ts-check
// The start page (`/`): the boards this browser opened, and a form for a new board. No board is
// public, so this list is all it shows; it is rebuilt whole (it is small, not live, and holds no input).
//
// Stable selectors: form.new-board, #recent-boards > li[data-kind=board][data-id=ID] (.board-forget).

import { DEFAULT_TIME_ZONE } from "../wire/constants.js";
import { setTimeZone } from "../wire/protocol.js";
import { BoardApi } from "../wire/api.js";
import { armButton, h } from "../dom/kit.js";
import { buttonActions, formActions } from "../dom/delegate.js";
import { loadBoards, updateBoards, withLinks, withoutBoard } from "../model/board_list.js";
import { ROLE_WORDS, START_WORDS, UNTITLED_BOARD } from "../model/sentences.js";
import { screenZone } from "../model/wall_clock.js";

/** @typedef {import("../board/status.js").StatusView} StatusView */
/** @typedef {import("../model/board_list.js").BoardEntry} BoardEntry */

/**
 * Opens the start page, and says what its elements mean.
 * @param {Document} doc @param {{status: StatusView, navigate: (url: string) => void, api?: BoardApi}} options
 * @returns {import("../dom/delegate.js").Handlers}
 */
export function openStartPage(doc, { status, navigate, api = new BoardApi() }) {
  const byId = (/** @type {string} */ id) => /** @type {HTMLElement} */ (doc.getElementById(id));
  // early_paint.js may have shown the board page's frame for a path that is no board's.
  byId("board-page").hidden = true;
  const page = new StartPage({ page: byId("start-page"), list: byId("recent-boards"), api, status, navigate });
  page.open();
  // Another tab of this browser opened, renamed or forgot a board.
  doc.defaultView?.addEventListener("storage", () => page.render());
  return {
    click: buttonActions({ "board-forget": (id, button) => page.forget(id, button) }),
    submit: formActions({ "new-board": (form) => page.create(form) }),
  };
}

export class StartPage {
  /**
   * @param {{page: HTMLElement, list: HTMLElement, api: BoardApi, status: StatusView, navigate: (url: string) => void}} options
   *   navigate: opens a board's page (location.assign)
   */
  constructor({ page, list, api, status, navigate }) {
    this.page = page;
    this.list = list;
    this.api = api;
    this.status = status;
    this.navigate = navigate;
  }

  open() {
    this.page.hidden = false;
    this.render();
  }

  render() {
    renderBoardLinks(this.list, loadBoards());
  }

  /**
   * Creating a board: the server shows its owner secret this once, so this browser keeps all three
   * links before it opens the owner link.
   * @param {HTMLFormElement} form
   */
  async create(form) {
    const title = /** @type {HTMLInputElement} */ (form.elements.namedItem("title")).value.trim();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
    button.disabled = true;
    try {
      const created = await this.api.createBoard(title);
      // A new board shows times of day in its maker's zone (docs/protocol.md, "Time of day").
      const zone = screenZone();
      if (zone !== DEFAULT_TIME_ZONE) {
        await this.api.edit(created.id, created.secrets.owner, { opId: "time-zone", ops: [setTimeZone(zone)] })
          .catch((/** @type {Error} */ error) => console.warn("TimerBoard: the board's time zone was not set:", error.message));
      }
      updateBoards((list) => withLinks(list, created.id, created.links, { title: created.title ?? title, now: Date.now() }));
      this.navigate(created.url);
    } catch (error) {
      this.status.toast(START_WORDS.createFailed(/** @type {Error} */ (error).message));
      button.disabled = false;
    }
  }

  /**
   * "Forget": the first press arms the button (the link may be the only copy of an owner link),
   * the second forgets the board in this browser. The board itself stays.
   * @param {string} id @param {HTMLButtonElement} button
   */
  forget(id, button) {
    if (!button.dataset.armed) {
      armButton(button, START_WORDS.forgetPrompt);
      return;
    }
    updateBoards((list) => withoutBoard(list, id));
    this.render();
  }
}

/**
 * The list of the boards this browser opened (rebuilt whole: it is not live and holds no input).
 * Each opens through its stored link; "Forget" asks for a second press.
 * @param {HTMLElement} list
 * @param {Pick<BoardEntry, "id" | "title" | "role" | "link" | "openedAt">[]} boards
 * @param {string} [emptyText]
 */
export function renderBoardLinks(list, boards, emptyText = START_WORDS.empty) {
  const doc = list.ownerDocument;
  if (boards.length === 0) {
    list.replaceChildren(h(doc, "li", { class: "empty-note" }, [emptyText]));
    return;
  }
  list.replaceChildren(...boards.map((board) => {
    const title = board.title || UNTITLED_BOARD;
    const when = board.openedAt ? START_WORDS.opened(formatDate(board.openedAt)) : "";
    return h(doc, "li", { class: "board-item", "data-kind": "board", "data-id": board.id }, [
      h(doc, "a", { href: board.link, class: "board-link" }, [
        h(doc, "span", { class: "board-link-title" }, [title]),
        h(doc, "span", { class: "board-link-meta" }, [`${ROLE_WORDS[board.role] ?? board.role}${when}`]),
      ]),
      h(doc, "button", { type: "button", class: "button board-forget", "aria-label": START_WORDS.forgetLabel(title), title: START_WORDS.forgetTip }, [START_WORDS.forget]),
    ]);
  }));
}

/** @param {number} ms */
function formatDate(ms) {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
