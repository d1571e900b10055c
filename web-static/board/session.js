// @ts-check
// One board's page: its store (confirmed board + pending edits), its connection, and its views.
// It is the one owner of that board in the page: what the socket delivers goes through the store,
// and the store says which ids it touched, so each message patches only those elements; what the
// user does becomes an edit here (shown at once, sent now or after the next join).

import { CONNECTION, ENDED, ERROR_CODE, KIND, MSG, NOTIFY_KEY, OP, ROLE, RUN, SOUND_KEY, WS_PATH } from "../wire/constants.js";
import { ServerClock } from "../wire/clock.js";
import { BoardView } from "./view.js";
import { CountdownView, timersOfSections } from "./countdowns.js";
import { PresenceView } from "./presence.js";
import * as protocol from "../wire/protocol.js";
import { Connection } from "../wire/connection/connection.js";
import { withOpened, withTitle, withoutBoard, withoutLink } from "../model/board_list.js";
import { linkPath } from "../wire/links.js";
import { readStorage, updateBoards, writeStorage } from "../wire/storage.js";
import { Store, orderedSections, orderedTimers } from "../model/store.js";
import { TabTitle } from "./tab_title.js";
import { TimerAlerts } from "./alerts.js";

/** @typedef {import("../wire/protocol.js").Op} Op */
/** @typedef {import("./status.js").StatusView} StatusView */
/** @typedef {import("../wire/protocol.js").Role} Role */
/**
 * What the page around the board does when the session learns something about the board itself.
 * @typedef {{role(role: Role): void, title(title: string): void, ended(reason: string): void}} PageEvents
 */

/** Said once edits have been held back by the server's rate limit for a while (they are kept, and sent). */
export const SLOWED_TEXT = "Your changes are saved slowly: the server limits how fast one page may edit. They are kept and sent in order.";

/** Operations on a timer (the rest are on a section). */
const TIMER_OPS = new Set([OP.addTimer, OP.updateTimer, OP.moveTimer, OP.deleteTimer, OP.startTimer, OP.pauseTimer, OP.resetTimer, OP.adjustTimer]);

export class BoardSession {
  /**
   * @param {{
   *   boardId: string, secret: string, linkRole: Role, name: string, status: StatusView,
   *   elements: {sections: HTMLElement, presence: HTMLElement, myDot: HTMLElement, alerts: HTMLElement, title: HTMLElement, sync?: HTMLElement | null},
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
    this.page = { role() {}, title() {}, ended() {}, ...page };
    this.title = "";
    this.status = status;
    this.titleElement = elements.title;
    this.doc = elements.sections.ownerDocument;
    this.store = new Store();
    this.view = new BoardView(elements.sections);
    this.view.onLostEdit = (kind) => status.toast(`The ${kind} you were editing was deleted by someone else.`);
    this.nextOpId = 1;
    const clientId = protocol.newClientId();
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
      sectionTimers: (board, ids) => this.#sectionTimers(board, ids),
      onFinished: (timer) => this.alerts.show(timer),
      onCleared: (timerId) => this.alerts.hide(timerId),
      onTick: (now) => this.tabTitle.update(this.countdowns.nearest(), now),
    });
    this.clock.onChange = () => this.countdowns.redraw();
    this.presence = new PresenceView({
      list: elements.presence, myDot: elements.myDot, elements: this.view.elements, describe: (id) => this.describe(id), sync: elements.sync ?? null,
    });
    // A big board builds a section's timers when it comes near the screen: they get their run state and marks then.
    this.view.onBuilt = (ids) => {
      this.countdowns.sync(this.store.displayed, ids);
      this.presence.sync(ids);
    };
    this.view.onDropped = (ids) => this.countdowns.detach(ids);
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

  /** Limits for field parsing (field_edit.js), from the server's welcome. */
  get limits() {
    return this.view.limits;
  }

  /** @param {string} kind @param {string} id @returns {Record<string, unknown> | undefined} */
  current(kind, id) {
    const displayed = this.store.displayed;
    return /** @type {any} */ (kind === KIND.section ? displayed.sections.get(id) : displayed.timers.get(id));
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
    const shown = title || "Untitled board";
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
    return entity ? `“${entity.title}”` : null;
  }

  /**
   * Sections' timers for their run buttons. A built section shows all its timers, so its view's
   * list is the board's; a far section's timers are only in the store: one pass over it, for all
   * such sections at once (after a snapshot, or a change to a section off screen).
   * @param {import("../model/store.js").Board} board @param {Set<string>} ids
   */
  #sectionTimers(board, ids) {
    /** @type {Map<string, import("../wire/protocol.js").Timer[]>} */
    const result = new Map();
    const shells = new Set();
    for (const id of ids) {
      if (this.view.isBuilt(id)) result.set(id, this.view.timersIn(id));
      else shells.add(id);
    }
    if (shells.size) for (const [id, timers] of timersOfSections(board, shells)) result.set(id, timers);
    return result;
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
        if (this.store.ack(message.opId, message.rev)) this.refresh();
      },
      // Never a rate_limited one: the connection keeps those pending and sends them again.
      reject: (message) => {
        const edit = this.store.reject(message.opId);
        if (!edit) return;
        this.refresh();
        this.status.toast(rejectText(message, edit.ops));
      },
      slowed: () => this.status.toast(SLOWED_TEXT),
      serverError: (message) => {
        console.warn("TimerBoard: server error", message.code, message.message);
      },
      presence: (message) => {
        if (message.type === MSG.presence) this.presence.show(message.users);
        else this.presence.change(message.users, message.left);
      },
      unackedEdits: () => this.store.unackedEdits(),
      status: ({ state, attempt, detail }) => {
        this.status.update({ state, attempt, detail });
        // Off the board, we do not know who is on it: show nobody rather than a stale list.
        if (state !== CONNECTION.live) this.presence.clear();
        // A board that ended has a page of its own that says why.
        if (detail && state === CONNECTION.offline && !this.ended) this.status.toast(detail);
      },
    };
  }

  /**
   * The server said what this link may do: the views follow (a view link gets no edit controls),
   * and this browser's list of boards remembers the link under that role.
   * @param {Extract<import("../wire/protocol.js").ServerMessage, {type: "access"}>} message
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
    this.connection.stop("This board was deleted.");
    this.#ended(reason);
  }

  /** Shows what the store changed since the last refresh: only those ids, in every view. */
  refresh() {
    const touched = this.store.takeTouched();
    const board = this.store.displayed;
    this.view.render(board, touched);
    this.countdowns.sync(board, touched);
    this.presence.sync(touched);
    this.status.update({ pending: this.store.pending.length });
  }

  // MARK: edits

  /**
   * A local edit: shown at once, sent now or after the next join.
   * @param {Op[]} ops
   */
  edit(ops) {
    const opId = String(this.nextOpId++);
    this.store.addEdit(opId, ops, Date.now());
    this.refresh();
    this.connection.sendEdit({ opId, ops });
  }

  /** @param {string} id */
  toggleSection(id) {
    const section = this.store.displayed.sections.get(id);
    if (section) this.edit([protocol.updateSection({ id, isExpanded: !section.isExpanded })]);
  }

  /**
   * The run button was pressed: it sends the intent it showed (its data-action), not a toggle of
   * the state now, so two screens pressing Start at once mean start twice, which the server
   * applies once (docs/protocol.md).
   * @param {string} id @param {string | undefined} action "start" or "pause"
   */
  runTimer(id, action) {
    if (!this.store.displayed.timers.has(id)) return;
    if (action === "pause") this.edit([protocol.pauseTimer({ id })]);
    else if (action === "start") this.edit([protocol.startTimer({ id })]);
  }

  /**
   * "+1 min" / "−1 min": an adjustment the server composes with concurrent ones (two `+1 min`
   * give two minutes). Shown when the server's changeset comes, as every run change is.
   * @param {string} id @param {number} by ms
   */
  adjustTimer(id, by) {
    const timer = this.store.displayed.timers.get(id);
    if (timer && by !== 0 && Number.isSafeInteger(by)) this.edit([protocol.adjustTimer({ id, by })]);
  }

  /** The section's "Sequence" toggle. @param {string} id */
  toggleSequence(id) {
    const section = this.store.displayed.sections.get(id);
    if (section) this.edit([protocol.updateSection({ id, sequence: section.sequence !== true })]);
  }

  /** The section's "Loop" toggle. @param {string} id */
  toggleLoop(id) {
    const section = this.store.displayed.sections.get(id);
    if (section) this.edit([protocol.updateSection({ id, loop: section.loop !== true })]);
  }

  /** A sequence's "Skip": its current timer finishes now and the next starts. @param {string} id */
  skipSection(id) {
    if (this.store.displayed.sections.has(id)) this.edit([protocol.skipSection({ id })]);
  }

  /** A sequence's "Restart": every timer back to idle, the first starts now. @param {string} id */
  restartSection(id) {
    if (this.store.displayed.sections.has(id)) this.edit([protocol.restartSection({ id })]);
  }

  /** @param {string} id */
  resetTimer(id) {
    const timer = this.store.displayed.timers.get(id);
    if (timer && timer.run.status !== RUN.idle) this.edit([protocol.resetTimer({ id })]);
  }

  /** @param {string} id @param {number} delta -1 or 1 */
  moveSection(id, delta) {
    const position = stepPosition(orderedSections(this.store.displayed), id, delta);
    if (position) this.edit([protocol.moveSection({ id, position })]);
  }

  /** @param {string} id @param {number} delta -1 or 1 */
  moveTimer(id, delta) {
    const timer = this.store.displayed.timers.get(id);
    if (!timer) return;
    const position = stepPosition(orderedTimers(this.store.displayed, timer.sectionID), id, delta);
    if (position) this.edit([protocol.moveTimer({ id, position })]);
  }

  /** @param {string} id @param {string} sectionID */
  moveTimerToSection(id, sectionID) {
    if (!sectionID || !this.store.displayed.sections.has(sectionID)) return;
    this.edit([protocol.moveTimer({ id, sectionID, position: protocol.position.first })]);
  }

  /** @param {string} id @returns {{id: string, title: string}[]} the sections a timer can move to, in display order */
  otherSections(id) {
    const timer = this.store.displayed.timers.get(id);
    return timer ? orderedSections(this.store.displayed).filter((s) => s.id !== timer.sectionID) : [];
  }

  /** @param {string} id @returns {number} how many timers a section holds */
  timerCount(id) {
    return orderedTimers(this.store.displayed, id).length;
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
    if (state === "denied") this.toast("Notifications are blocked for this site: allow them in the browser's site settings.");
    if (state === "unsupported") this.toast("This browser cannot show notifications.");
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

/**
 * Up or down one place among its siblings: before the previous one, or after the next one.
 * @param {{id: string}[]} siblings in display order @param {string} id @param {number} delta -1 or 1
 * @returns {import("../wire/protocol.js").Position | null} null at the edge
 */
function stepPosition(siblings, id, delta) {
  const neighbour = siblings[siblings.findIndex((s) => s.id === id) + delta];
  if (!neighbour) return null;
  return delta < 0 ? protocol.position.before(neighbour.id) : protocol.position.after(neighbour.id);
}

/**
 * Why an edit was refused, in words: the usual reason is that someone else deleted what it was
 * about while it was on its way.
 * @param {{code: string, message: string, op?: number, current?: {kind: string}}} reject @param {Op[]} ops
 */
export function rejectText(reject, ops) {
  const op = ops[reject.op ?? 0] ?? ops[0];
  if (reject.code === "not_found" && op) {
    // A move to another section names the timer; `current` says the timer is still there, so it
    // was the target section that went.
    const movedIntoGone = op.op === OP.moveTimer && op.sectionID !== undefined && reject.current?.kind === KIND.timer;
    const what = op.op === OP.addTimer ? "its section was" : movedIntoGone ? "the section it was moving to was"
      : TIMER_OPS.has(op.op) ? "the timer was" : "the section was";
    return `Your change was not saved: ${what} deleted by someone else.`;
  }
  if (reject.code === ERROR_CODE.forbidden) return "Your change was not saved: this link can only view the board.";
  return `Your change was not saved: ${reject.message}`;
}
