// @ts-check
// The start page (`/`): the boards this browser opened, and a form for a new board. No board is
// public, so this list is all it shows; it is rebuilt whole (it is small, not live, and holds no input).

import { withLinks, withoutBoard } from "../model/board_list.js";
import { armButton, renderBoardLinks } from "../board/dom_patch.js";
import { loadBoards, updateBoards } from "../wire/storage.js";

/** @typedef {import("../wire/api.js").BoardApi} BoardApi */
/** @typedef {import("../board/status.js").StatusView} StatusView */

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
    renderBoardLinks(this.list, loadBoards(), "Boards you create or open in this browser show up here.");
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
      updateBoards((list) => withLinks(list, created.id, created.links, { title: created.title ?? title, now: Date.now() }));
      this.navigate(created.url);
    } catch (error) {
      this.status.toast(`Could not create the board: ${/** @type {Error} */ (error).message}`);
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
      armButton(button, "Press again to forget this board on this device");
      return;
    }
    updateBoards((list) => withoutBoard(list, id));
    this.render();
  }
}
