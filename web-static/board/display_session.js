// @ts-check
// A display's session: the board's store and its connection, read-only. The same wire code as
// the board page (wire/connection/, the store, the clock), with none of its editing: it never
// sends an edit, and everything the socket delivers ends in one call, `onBoard`, with the board as
// it is now. Rejoins, resumes and snapshots are the connection's, so a display that lost its socket
// catches up (its message and blackout included) like any other page.

import { CONNECTION, WS_PATH } from "../wire/constants.js";
import { ServerClock } from "../wire/clock.js";
import { Connection } from "../wire/connection/connection.js";
import { newClientId } from "../wire/ids.js";
import { DISPLAY_WORDS, connectionDetailText } from "../model/sentences.js";
import { Store } from "../model/store.js";

/** @typedef {import("../model/board.js").BoardReader} BoardReader */
/** @typedef {import("./status.js").StatusView} StatusView */

export class DisplaySession {
  /**
   * @param {{
   *   boardId: string, secret: string, status: StatusView, location: {protocol: string, host: string},
   *   onBoard: (board: BoardReader) => void, onClock: () => void, onEnded: (reason: string) => void,
   * }} options
   *   onBoard: the board changed (a snapshot or a changeset); onClock: the server clock's estimate
   *   moved, so countdowns are drawn again; onEnded: the link no longer opens the board
   */
  constructor({ boardId, secret, status, location, onBoard, onClock, onEnded }) {
    this.boardId = boardId;
    this.status = status;
    this.store = new Store();
    this.clock = new ServerClock();
    this.clock.onChange = onClock;
    this.onBoard = onBoard;
    /** Why the board stopped for good (one of ENDED), or null. */
    this.ended = /** @type {string | null} */ (null);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const shown = () => onBoard(this.store.displayed);
    this.connection = new Connection({
      url: `${scheme}//${location.host}${WS_PATH}?board=${encodeURIComponent(boardId)}`,
      board: boardId, secret, clientId: newClientId(), name: DISPLAY_WORDS.presenceName, clock: this.clock,
      handler: {
        welcome() {},
        access() {},
        since: () => this.store.rev,
        snapshot: (message) => {
          this.store.loadSnapshot(message);
          shown();
        },
        resume() {},
        renamed() {},
        changes: (message) => {
          const result = this.store.applyChangeset(message);
          if (result.status === "applied") shown();
          return result.status;
        },
        ack() {},
        reject() {},
        slowed() {},
        serverError: (message) => console.warn("TimerBoard: server error", message.code, message.message),
        presence() {},
        unackedEdits: () => [],
        status: ({ state, attempt, detail }) => {
          status.update({ state, attempt, detail });
          if (detail && state === CONNECTION.offline && !this.ended) status.toast(connectionDetailText(detail));
        },
        ended: (reason) => {
          if (this.ended) return;
          this.ended = reason;
          onEnded(reason);
        },
      },
    });
  }

  start() {
    this.connection.start();
  }

  /** The page became visible again: reconnect now, and measure the clock again. */
  becameVisible() {
    this.connection.goOnline();
    this.connection.syncClock();
  }
}
