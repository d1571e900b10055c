// @ts-check
// Who else is on the board (the header list) and what they are editing (a mark on that section's
// header or timer's row, in their colour, with their name). Touches only the marks that change.

import { markEditing, renderPresenceList, safeColor } from "./dom_patch.js";

/** @typedef {import("./protocol.js").PresenceUser} PresenceUser */

/**
 * Who else is on the board (the header list) and what they are editing (a mark on that section's
 * header or timer's row, in their colour, with their name). Touches only the marks that change.
 */
export class PresenceView {
  /**
   * @param {{list: HTMLElement, myDot: HTMLElement, elements: Map<string, HTMLElement>, describe: (id: string) => string | null}} options
   */
  constructor({ list, myDot, elements, describe }) {
    this.list = list;
    this.myDot = myDot;
    this.elements = elements;
    /** Our own userId on this board, from the server's `access` (null before): our entry is not listed. */
    this.userId = /** @type {string | null} */ (null);
    this.describe = describe;
    /** @type {Map<string, {names: string, color: string}>} the marks to show, by section or timer id */
    this.marks = new Map();
    /** Ids marked in the DOM now (their elements may have gone since). */
    this.marked = new Set();
    this.listKey = "";
    /** @type {Map<string, PresenceUser>} everyone on the board, by user id */
    this.users = new Map();
  }

  /** The server told us who we are on this board. @param {string} userId */
  setMe(userId) {
    if (userId === this.userId) return;
    this.userId = userId;
    this.#render();
  }

  /** @param {PresenceUser[]} users everyone on the board, this client included */
  show(users) {
    this.users = new Map(users.map((user) => [user.userId, user]));
    this.#render();
  }

  /**
   * Who arrived or changed what they edit, and who left, since the last presence message.
   * @param {PresenceUser[]} users @param {string[]} left user ids
   */
  change(users, left) {
    for (const userId of left) this.users.delete(userId);
    for (const user of users) this.users.set(user.userId, user);
    this.#render();
  }

  #render() {
    // Not localeCompare: its first call loads the locale's collation, 20 ms of the first load.
    const users = [...this.users.values()].sort((a, b) => byName(a, b) || (a.userId < b.userId ? -1 : 1));
    const me = users.find((u) => u.userId === this.userId);
    if (me) this.myDot.style.setProperty("--user-color", safeColor(me.color));
    const others = users.filter((u) => u.userId !== this.userId);
    /** @type {Map<string, {names: string, color: string}>} */
    const marks = new Map();
    for (const user of others) {
      if (!user.editing) continue;
      const mark = marks.get(user.editing);
      // Two people on one item: both names, the first one's colour.
      marks.set(user.editing, mark ? { ...mark, names: `${mark.names}, ${user.name}` } : { names: user.name, color: user.color });
    }
    this.marks = marks;
    this.sync();
    const key = JSON.stringify(others.map((u) => [u.userId, u.name, u.color, u.editing && this.describe(u.editing)]));
    if (key !== this.listKey) {
      this.listKey = key;
      renderPresenceList(this.list, others, this.describe);
    }
  }

  /** Nobody to show (we are not connected, so we do not know). */
  clear() {
    this.show([]);
  }

  /**
   * Puts the marks on the elements that exist now: after a presence list (every mark), and after
   * a render (`touched`: only the ids it may have re-created).
   * @param {Iterable<string> | null} [touched]
   */
  sync(touched = null) {
    if (touched) {
      for (const id of touched) {
        const mark = this.marks.get(id);
        const element = this.elements.get(id);
        if (mark && element) markEditing(element, mark);
      }
      return;
    }
    for (const id of this.marked) {
      if (this.marks.has(id)) continue;
      const element = this.elements.get(id);
      if (element) markEditing(element, null);
      this.marked.delete(id);
    }
    for (const [id, mark] of this.marks) {
      const element = this.elements.get(id);
      if (!element) continue;
      markEditing(element, mark);
      this.marked.add(id);
    }
  }
}


/** @param {{name: string}} a @param {{name: string}} b */
function byName(a, b) {
  const x = a.name.toLowerCase(), y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
