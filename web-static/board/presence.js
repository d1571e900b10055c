// @ts-check
// Who else is on the board (the header list) and what they are editing (a mark on that section's
// header or timer's row, in their colour, with their name), and how well every screen agrees on
// the server's clock. Touches only the marks that change.
//
// Stable selectors: #presence > li[data-user-id] (the others, at most PRESENCE_CHIPS of them:
// .user-dot in their colour, .presence-name), #presence > li.presence-more (how many more:
// "+250"); #user-name and .me-dot (this user); [data-editing-by] (a section's
// .section-header or a timer's <li> someone else edits: their names; style --editor-color);
// #sync-status[data-state=ok|off]: .sync-summary ("3 screens within ±20 ms"), .sync-off > li.

import { CLOCK_ERROR_OFF_MS } from "../wire/constants.js";
import { h, setAttribute, setText } from "../dom/kit.js";
import { SYNC_WORDS, presenceEditing, presenceMore, presenceMoreTip, presenceTip } from "../model/sentences.js";

/** @typedef {import("../wire/protocol.js").PresenceUser} PresenceUser */

/** The most others the header shows by name; the rest are a count ("+18"). */
export const PRESENCE_CHIPS = 12;

/**
 * Who else is on the board (the header list) and what they are editing (a mark on that section's
 * header or timer's row, in their colour, with their name). Touches only the marks that change.
 */
export class PresenceView {
  /**
   * @param {{list: HTMLElement, myDot: HTMLElement, elements: Map<string, HTMLElement>, describe: (id: string) => string | null, sync?: HTMLElement | null}} options
   *   sync: #sync-status, where how well the screens agree on the server's clock is shown
   */
  constructor({ list, myDot, elements, describe, sync = null }) {
    this.list = list;
    this.syncArea = sync;
    this.syncKey = "";
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
    /** @type {Map<string, PresenceUser>} everyone the server lists, by user id */
    this.users = new Map();
    /** How many more are on the board, unlisted (a list names at most 100). */
    this.more = 0;
  }

  /** The server told us who we are on this board. @param {string} userId */
  setMe(userId) {
    if (userId === this.userId) return;
    this.userId = userId;
    this.#render();
  }

  /**
   * @param {PresenceUser[]} users everyone the server lists, this client included
   * @param {number} [more] how many more are on the board, unlisted
   */
  show(users, more = 0) {
    this.users = new Map(users.map((user) => [user.userId, user]));
    this.more = more;
    this.#render();
  }

  /**
   * Who arrived or changed what they edit, and who is no longer listed, since the last presence
   * message. @param {PresenceUser[]} users @param {string[]} left user ids
   * @param {number} [more] how many are unlisted now (undefined: as before)
   */
  change(users, left, more) {
    for (const userId of left) this.users.delete(userId);
    for (const user of users) this.users.set(user.userId, user);
    if (more !== undefined) this.more = more;
    this.#render();
  }

  #render() {
    // Not localeCompare: its first call loads the locale's collation, 20 ms of the first load.
    const users = [...this.users.values()].sort(byNameThenId);
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
    // A class's thirty phones would fill the header: chips for the first few, whoever edits
    // something first, and a count for the rest (the server's unlisted ones included).
    const shown = others.length > PRESENCE_CHIPS ? [...others].sort(byEditingFirst).slice(0, PRESENCE_CHIPS).sort(byNameThenId) : others;
    const hidden = others.length - shown.length + this.more;
    const key = JSON.stringify([hidden, shown.map((u) => [u.userId, u.name, u.color, u.editing && this.describe(u.editing)])]);
    if (key !== this.listKey) {
      this.listKey = key;
      renderPresenceList(this.list, shown, hidden, this.describe);
    }
    if (this.syncArea) {
      // Everyone who reported, this screen included (the server lists us too).
      const summary = syncSummary(users, this.userId);
      const syncKey = JSON.stringify(summary);
      if (syncKey !== this.syncKey) {
        this.syncKey = syncKey;
        renderSync(this.syncArea, summary);
      }
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


/**
 * How well the screens on the board agree on the server's clock, from the `clockError` each one
 * reported in presence (docs/protocol.md, "Sync in presence"): "4 screens within ±20 ms" (the
 * largest bound of all), and each screen above ±CLOCK_ERROR_OFF_MS by name, worst first.
 * @param {{userId: string, name: string, clockError?: number}[]} users everyone on the board
 * @param {string | null} me this page's userId ("Your screen")
 * @returns {{text: string, off: string[], state: "ok" | "off" | "none"}} state none: nobody reported
 */
export function syncSummary(users, me) {
  const reported = users.filter((u) => typeof u.clockError === "number");
  if (reported.length === 0) return { text: "", off: [], state: "none" };
  const worst = Math.max(...reported.map((u) => /** @type {number} */ (u.clockError)));
  const count = reported.length;
  const text = SYNC_WORDS.within(count, worst);
  const off = reported
    .filter((u) => /** @type {number} */ (u.clockError) > CLOCK_ERROR_OFF_MS)
    .sort((a, b) => /** @type {number} */ (b.clockError) - /** @type {number} */ (a.clockError) || byNameThenId(a, b))
    .map((u) => SYNC_WORDS.off(u.userId === me ? null : u.name, /** @type {number} */ (u.clockError)));
  return { text, off, state: off.length > 0 ? "off" : "ok" };
}

/** @param {{name: string}} a @param {{name: string}} b */
function byName(a, b) {
  const x = a.name.toLowerCase(), y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** @param {{name: string, userId: string}} a @param {{name: string, userId: string}} b */
function byNameThenId(a, b) {
  return byName(a, b) || (a.userId < b.userId ? -1 : 1);
}

/** Whoever edits something first (their marks are on the board), then by name, as the server lists. @param {PresenceUser} a @param {PresenceUser} b */
function byEditingFirst(a, b) {
  return Number(!a.editing) - Number(!b.editing) || byNameThenId(a, b);
}

// MARK: drawing

/** A colour from the server, or the muted one if it is not a plain hex colour. @param {string} color */
function safeColor(color) {
  return /^#[0-9A-Fa-f]{3,8}$/.test(color) ? color : "var(--muted)";
}

/**
 * Marks (or unmarks, with null) the element that shows who else is editing a section or timer:
 * its header for a section, its row for a timer. Touches that one element's attributes only.
 * @param {HTMLElement} entity [data-kind]
 * @param {{names: string, color: string} | null} editors
 */
function markEditing(entity, editors) {
  const target = /** @type {HTMLElement} */ (entity.dataset.kind === "section" ? entity.querySelector(".section-header") : entity);
  if (!editors) {
    if (target.hasAttribute("data-editing-by")) {
      target.removeAttribute("data-editing-by");
      target.style.removeProperty("--editor-color");
    }
    return;
  }
  if (target.dataset.editingBy !== editors.names) target.dataset.editingBy = editors.names;
  const color = safeColor(editors.color);
  if (target.style.getPropertyValue("--editor-color") !== color) target.style.setProperty("--editor-color", color);
}

/**
 * The list of the others on the board (small, outside the board: rebuilt when it changes), and
 * how many more are on it, not shown (li.presence-more).
 * @param {HTMLElement} list #presence
 * @param {{userId: string, name: string, color: string, editing: string | null}[]} users
 * @param {number} more
 * @param {(id: string) => string | null} describe what an id names, for "editing …" hints
 */
function renderPresenceList(list, users, more, describe) {
  const doc = list.ownerDocument;
  const unlisted = more > 0 ? [h(doc, "li", { class: "presence-more", title: presenceMoreTip(more) }, [presenceMore(more)])] : [];
  list.replaceChildren(...users.map((user) => {
    const editing = user.editing ? describe(user.editing) : null;
    const item = h(doc, "li", { class: "presence-user", "data-user-id": user.userId, title: presenceTip(user.name, editing) }, [
      h(doc, "span", { class: "user-dot", "aria-hidden": "true" }),
      h(doc, "span", { class: "presence-name" }, [user.name]),
      ...(editing ? [h(doc, "span", { class: "visually-hidden" }, [presenceEditing(editing)])] : []),
    ]);
    if (editing) item.dataset.editing = "true";
    item.style.setProperty("--user-color", safeColor(user.color));
    return item;
  }), ...unlisted);
}

/**
 * How well the screens on the board agree on the server's clock (#sync-status): the summary, and
 * the screens that are off, by name. Small and outside the board: rewritten when it changes.
 * @param {HTMLElement} area #sync-status
 * @param {{text: string, off: string[], state: "ok" | "off" | "none"}} summary
 */
function renderSync(area, { text, off, state }) {
  const doc = area.ownerDocument;
  setAttribute(area, "data-state", state);
  area.hidden = state === "none";
  setText(/** @type {HTMLElement} */ (area.querySelector(".sync-summary")), text);
  const list = /** @type {HTMLElement} */ (area.querySelector(".sync-off"));
  const now = list.children.length === off.length && [...list.children].every((li, i) => li.textContent === off[i]);
  if (!now) list.replaceChildren(...off.map((line) => h(doc, "li", {}, [line])));
}
