// @ts-check
// One board's page: its store (confirmed board + pending edits), its connection, and its views.
// It is the one owner of that board in the page: what the socket delivers goes through the store,
// and the store says which ids it touched, so each message patches only those elements; what the
// user does becomes an edit here (model/intents.js says which), shown at once, sent now or after
// the next join.

import { CONNECTION, ENDED, MSG, NOTIFY_KEY, ROLE, SOUND_KEY, TOAST_MS, WS_PATH } from "../wire/constants.js";
import { ServerClock } from "../wire/clock.js";
import { Connection } from "../wire/connection/connection.js";
import { newClientId } from "../wire/ids.js";
import { linkPath } from "../wire/links.js";
import { readStorage, writeStorage } from "../wire/storage.js";
import { orderedSections, orderedTimers } from "../model/board.js";
import { updateBoards, withOpened, withTitle, withoutBoard, withoutLink } from "../model/board_list.js";
import { NOTIFY_TOASTS, SLOWED, UNTITLED_BOARD, connectionDetailText, itemText, lostEditText, rejectText } from "../model/sentences.js";
import { Store } from "../model/store.js";
import { boardZone } from "../model/wall_clock.js";
import { TimerAlerts } from "./alerts.js";
import { CountdownView } from "./countdowns.js";
import { PresenceView } from "./presence.js";
import { TimerSelection } from "./selection.js";
import { TabTitle } from "./tab_title.js";
import { UndoController } from "./undo.js";
import { BoardView } from "./view.js";

/** @typedef {import("../wire/protocol.js").Op} Op */
/** @typedef {import("./status.js").StatusView} StatusView */
/** @typedef {import("../wire/protocol.js").Role} Role */
/**
 * What the page around the board does when the session learns something about the board itself.
 * @typedef {{role(role: Role): void, title(title: string): void, ended(reason: string): void, display(display: import("../wire/protocol.js").Display): void,
 *   changed(): void}} PageEvents
 *   display: what the board's displays show changed (the Screens control follows it);
 *   changed: the board shown changed (an open dialog follows it)
 */

export class BoardSession {
  /**
   * @param {{
   *   boardId: string, secret: string, linkRole: Role, name: string, status: StatusView,
   *   elements: {sections: HTMLElement, presence: HTMLElement, myDot: HTMLElement, alerts: HTMLElement, title: HTMLElement, sync?: HTMLElement | null, undoButtons?: HTMLElement[]},
   *   location: {protocol: string, host: string},
   *   page?: Partial<PageEvents>,
   * }} options
   *   secret, linkRole: of the link the page was opened with (its fragment); the secret is for joins and
   *   the owner's HTTP calls, the role only a hint until the server's `access`
   */
  constructor({ boardId, secret, linkRole, name, status, elements, location, page = {} }) {
    this.boardId = boardId;
    this.secret = secret;
    this.linkRole = linkRole;
    /** What the server's `access` said this link may do; null until the first join is answered. */
    this.role = /** @type {Role | null} */ (null);
    /** Who this page is in presence (from `access`). */
    this.userId = /** @type {string | null} */ (null);
    /** Why the board stopped for good (one of ENDED), or null while it works. */
    this.ended = /** @type {string | null} */ (null);
    /** @type {PageEvents} */
    this.page = { role() {}, title() {}, ended() {}, display() {}, changed() {}, ...page };
    /** The board's display state as last told to the page. @type {import("../wire/protocol.js").Display | null} */
    this.shownDisplay = null;
    this.title = "";
    this.status = status;
    this.titleElement = elements.title;
    this.doc = elements.sections.ownerDocument;
    this.store = new Store();
    this.view = new BoardView(elements.sections);
    this.view.onLostEdit = (kind) => status.toast(lostEditText(kind));
    this.nextOpId = 1;
    const clientId = newClientId();
    // Countdowns are drawn with the server's clock, as estimated from the socket's pings.
    this.clock = new ServerClock();
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.connection = new Connection({
      url: `${scheme}//${location.host}${WS_PATH}?board=${encodeURIComponent(boardId)}`, board: boardId, secret, clientId, name, handler: this.#handler(), clock: this.clock,
    });
    /** The tab's title: the board's name, the nearest running timer, or what finished while hidden. */
    this.tabTitle = new TabTitle(this.doc);
    this.alerts = new TimerAlerts(elements.alerts);
    this.alerts.sound = readStorage(SOUND_KEY) === "on";
    // The browser's permission is asked from the "Notify me" button only; this is whether the user turned them off here.
    this.alerts.notify = readStorage(NOTIFY_KEY) !== "off";
    this.alerts.onHiddenFinish = (title) => this.tabTitle.finishedWhileHidden(title);
    this.countdowns = new CountdownView({
      elements: this.view.elements,
      clock: this.clock,
      onFinished: (timer) => this.alerts.show(timer),
      onCleared: (timerId) => this.alerts.hide(timerId),
      onTick: (now) => this.tabTitle.update(this.countdowns.nearest(), now),
    });
    this.clock.onChange = () => this.countdowns.redraw();
    this.presence = new PresenceView({
      list: elements.presence, myDot: elements.myDot, elements: this.view.elements, describe: (id) => this.describe(id), sync: elements.sync ?? null,
    });
    /** The timer the run keys act on (pages/board.js). */
    this.selection = new TimerSelection(this.view);
    // A big board builds a section's timers when it comes near the screen: they get their run state and marks then.
    this.view.onBuilt = (ids) => {
      this.countdowns.sync(this.store.displayed, ids);
      this.presence.sync(ids);
      this.selection.built(ids);
    };
    this.view.onDropped = (ids) => this.countdowns.detach(ids);
    // This page's own edits, undone and redone through the server (board/undo.js).
    this.undo = new UndoController({
      session: {
        send: (ops) => this.edit(ops, { remember: false }), toast: (text) => status.toast(text), toasts: status.toasts,
        titleOf: (id) => (this.store.displayed.timers.get(id) ?? this.store.displayed.sections.get(id))?.title,
      },
      buttons: elements.undoButtons ?? [], toastMs: TOAST_MS,
    });
  }

  start() {
    this.connection.start();
  }

  /** The page became visible again: reconnect now, and measure the clock again. */
  becameVisible() {
    this.connection.goOnline();
    // Hidden pages get few timer wake-ups, and a sleep may have paused the page's clock.
    this.connection.syncClock();
    this.countdowns.redraw();
    // What finished while the tab was hidden has now been seen (its alerts stay on the page).
    this.tabTitle.seen();
  }

  /** Limits for what the user types (model/fields.js), from the server's welcome. */
  get limits() {
    return this.view.limits;
  }

  /** The board as the page shows it: confirmed + pending edits. */
  get displayed() {
    return this.store.displayed;
  }

  /** @param {string} text */
  toast(text) {
    this.status.toast(text);
  }

  /**
   * The board's name in the header and the tab: first what this device remembers, then what the
   * snapshot or resume says, then each `renamed`. The list of boards opened here keeps it too.
   * @param {string} title
   * @param {{remember?: boolean}} [options] remember: false for the title read from that list
   */
  showTitle(title, { remember = true } = {}) {
    this.title = title;
    const shown = title || UNTITLED_BOARD;
    if (this.titleElement.textContent !== shown) this.titleElement.textContent = shown;
    this.tabTitle.setBoard(shown);
    if (remember && this.role) updateBoards((list) => withTitle(list, this.boardId, title));
    this.page.title(title);
  }

  /** The link this page was opened with, as the server's `access` named its role. */
  get link() {
    return linkPath(this.boardId, this.role ?? this.linkRole, this.secret);
  }

  /** What an id names, for "Ada is editing …": a section's or timer's title, quoted. @param {string} id */
  describe(id) {
    const displayed = this.store.displayed;
    const entity = displayed.sections.get(id) ?? displayed.timers.get(id);
    return entity ? itemText(entity.title) : null;
  }

  // MARK: session: what the socket delivers goes through the store, then to the views

  /** @returns {import("../wire/connection/connection.js").SessionHandler} */
  #handler() {
    return {
      welcome: (message) => {
        this.view.limits = message.limits;
      },
      access: (message) => this.#access(message),
      since: () => this.store.rev,
      snapshot: (message) => {
        this.store.loadSnapshot(message);
        if (message.title !== undefined) this.showTitle(message.title);
        this.refresh();
      },
      resume: (message) => {
        if (message.title !== undefined && message.title !== this.title) this.showTitle(message.title);
      },
      renamed: (message) => this.showTitle(message.title),
      ended: (reason) => this.#ended(reason),
      changes: (message) => {
        const result = this.store.applyChangeset(message);
        if (result.status === "applied") this.refresh();
        if (result.status === "invalid") console.warn("TimerBoard: resyncing after a changeset that did not fit:", result.error);
        return result.status;
      },
      ack: (message) => {
        this.undo.acked(message);
        if (this.store.ack(message.opId, message.rev)) this.refresh();
      },
      // Never a rate_limited one: the connection keeps those pending and sends them again.
      reject: (message) => {
        const edit = this.store.reject(message.opId);
        // An undo the server refused says so itself (board/undo.js).
        const wasUndo = this.undo.rejected(message.opId);
        if (!edit) return;
        this.refresh();
        if (!wasUndo) this.status.toast(rejectText(message, edit.ops));
      },
      slowed: () => this.status.toast(SLOWED),
      serverError: (message) => {
        console.warn("TimerBoard: server error", message.code, message.message);
      },
      presence: (message) => {
        if (message.type === MSG.presence) this.presence.show(message.users, message.more ?? 0);
        else this.presence.change(message.users, message.left, message.more);
      },
      unackedEdits: () => this.store.unackedEdits(),
      status: ({ state, attempt, detail }) => {
        this.status.update({ state, attempt, detail });
        // Off the board, we do not know who is on it: show nobody rather than a stale list.
        if (state !== CONNECTION.live) this.presence.clear();
        // A board that ended has a page of its own that says why.
        if (detail && state === CONNECTION.offline && !this.ended) this.status.toast(connectionDetailText(detail));
      },
    };
  }

  /**
   * The server said what this link may do: the views follow (a view link gets no edit controls),
   * and this browser's list of boards remembers the link under that role.
   * @param {Extract<import("../wire/server_messages.js").ServerMessage, {type: "access"}>} message
   */
  #access({ role, userId }) {
    const first = this.role === null;
    this.userId = userId;
    this.presence.setMe(userId);
    if (role !== this.role) {
      this.role = role;
      this.view.setReadOnly(role === ROLE.view);
      this.page.role(role);
    }
    if (first) {
      const link = this.link;
      updateBoards((list) => withOpened(list, { id: this.boardId, role, link, title: this.title || undefined }, Date.now()));
    }
  }

  /**
   * The board stopped for good (a wrong link, a replaced link, a deleted board): nothing here is
   * live any more, and this browser's list forgets what no longer opens anything.
   * @param {string} reason one of ENDED
   */
  #ended(reason) {
    if (this.ended) return;
    this.ended = reason;
    this.presence.clear();
    // The ended page names the tab; a countdown still ticking must not take it back.
    this.tabTitle.freeze();
    if (reason === ENDED.deleted) updateBoards((list) => withoutBoard(list, this.boardId));
    else updateBoards((list) => withoutLink(list, this.boardId, this.link));
    this.page.ended(reason);
  }

  /**
   * This page ended the board itself (its owner deleted it): the same end as the server's close.
   * @param {string} reason one of ENDED
   */
  end(reason) {
    this.connection.stop(reason);
    this.#ended(reason);
  }

  /** Shows what the store changed since the last refresh: only those ids, in every view. */
  refresh() {
    const touched = this.store.takeTouched();
    const board = this.store.displayed;
    this.view.render(board, touched);
    this.countdowns.sync(board, touched);
    // Clocks and scheduled starts are told in the board's zone, whatever this screen's own.
    this.countdowns.setZone(boardZone(board.display));
    this.presence.sync(touched);
    this.selection.follow(board);
    this.status.update({ pending: this.store.pending.length });
    if (board.display !== this.shownDisplay) this.page.display((this.shownDisplay = board.display));
    this.page.changed();
  }

  // MARK: edits

  /**
   * A local edit: shown at once, sent now or after the next join. No operations: nothing to do.
   * It can be undone unless `remember` is false (an undo itself).
   * @param {Op[]} ops @param {{remember?: boolean}} [options]
   * @returns {string} its opId ("" when there was nothing to send)
   */
  edit(ops, { remember = true } = {}) {
    if (ops.length === 0) return "";
    const opId = String(this.nextOpId++);
    if (remember) this.undo.edited(opId, ops, this.store.displayed);
    this.store.addEdit(opId, ops, Date.now());
    this.refresh();
    this.connection.sendEdit({ opId, ops });
    return opId;
  }

  /** Sound on or off for finished timers, remembered on this device. @param {boolean} on */
  setSound(on) {
    this.alerts.setSound(on);
    writeStorage(SOUND_KEY, on ? "on" : "off");
  }

  /**
   * "Notify me": asks the browser's permission the first time (from this press, never on load),
   * then turns system notifications on or off on this device.
   * @param {import("./alerts.js").NotifyState} shown what the button showed when pressed
   * @returns {Promise<import("./alerts.js").NotifyState>}
   */
  async toggleNotify(shown) {
    const state = await this.alerts.toggleNotify(shown);
    if (state === "on" || state === "off") writeStorage(NOTIFY_KEY, state);
    if (state === "denied" || state === "unsupported") this.toast(NOTIFY_TOASTS[state]);
    return state;
  }

  /** For tests and the console: the displayed board as plain data. */
  state() {
    const { store, connection } = this;
    const displayed = store.displayed;
    return {
      board: store.board,
      role: this.role,
      userId: this.userId,
      ended: this.ended,
      rev: store.rev,
      connection: connection.state,
      attempt: connection.attempt,
      pending: store.pending.map((e) => e.opId),
      sections: orderedSections(displayed).map((s) => ({ ...s, timers: orderedTimers(displayed, s.id) })),
    };
  }
}
