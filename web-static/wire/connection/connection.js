// @ts-check
// The WebSocket session of one board: hello → welcome → join {board, secret, since} → access, then
// snapshot or resume, then changes/ack/reject. It holds no board state: the handler (the board's
// session, over the store) applies what arrives and says what to resend. This file owns the socket
// and the connection's state (connecting, live, joining, reconnecting, offline: the page shows it),
// and hands each job to its part:
//   socket.js      one WebSocket at a time, and reconnecting after a jittered exponential backoff
//   join.js        the join handshake, its timeout and its retries on the same socket
//   resend.js      which edits this socket has sent; every unacknowledged one goes out on a new one
//   pacing.js      edits after a rate limit: wait, then one at a time
//   presence.js    what the user edits and this screen's clock bound, told at a bounded pace
//   heartbeat.js   pings that keep the socket alive and measure the server's clock
//
// Some ends are final, and no reconnect follows: a join answered `board_not_found` (a wrong link:
// the server answers a wrong secret exactly as an unknown board), and the server closing the socket
// with 4403 (the link was replaced) or 4410 (the board was deleted). The handler is told why.

import { ServerClock, localNow } from "../clock.js";
import { CLOSE_CODE, CONNECTION, DETAIL, ENDED, ERROR_CODE, MSG, ROLE } from "../constants.js";
import { helloMessage } from "../protocol.js";
import { ProtocolError, parseServerMessage } from "../server_messages.js";
import { Heartbeat } from "./heartbeat.js";
import { JoinHandshake } from "./join.js";
import { EditPacing } from "./pacing.js";
import { PresenceTeller } from "./presence.js";
import { Resend } from "./resend.js";
import { Socket } from "./socket.js";

/** @typedef {import("../server_messages.js").ServerMessage} ServerMessage */
/** @typedef {Extract<ServerMessage, {type: "changes"}>} ChangesMessage */
/**
 * What the connection needs from the page (the board's session).
 * @typedef {{
 *   welcome(message: Extract<ServerMessage, {type: "welcome"}>): void,
 *   access(message: Extract<ServerMessage, {type: "access"}>): void,
 *   since(): number | null,
 *   snapshot(message: Extract<ServerMessage, {type: "snapshot"}>): void,
 *   resume(message: Extract<ServerMessage, {type: "resume"}>): void,
 *   renamed(message: Extract<ServerMessage, {type: "renamed"}>): void,
 *   changes(message: ChangesMessage): "applied" | "stale" | "gap" | "invalid",
 *   ack(message: Extract<ServerMessage, {type: "ack"}>): void,
 *   reject(message: Extract<ServerMessage, {type: "reject"}>): void,
 *   slowed(heldMs: number): void,
 *   serverError(message: Extract<ServerMessage, {type: "error"}>): void,
 *   presence(message: Extract<ServerMessage, {type: "presence"} | {type: "presenceChanged"}>): void,
 *   unackedEdits(): {opId: string, ops: import("../protocol.js").Op[]}[],
 *   status(status: ConnectionStatus): void,
 *   ended(reason: string): void,
 * }} SessionHandler
 *   reject: a refused edit, to drop; never a rate_limited one (those are sent again here)
 *   slowed: edits have been held back by rate limits for `heldMs` (at least RATE_LIMIT_WARN_MS); once a streak
 *   ended: the session stopped for good, for one of the ENDED reasons (constants.js)
 */
/**
 * What the connection is doing, and why when it says more than its state: a final stop (one of
 * ENDED, or DETAIL.outdated: the page speaks an older protocol), or a join the server could not
 * answer (DETAIL.joinFailed, with the server's message). The page puts it in words (model/sentences.js).
 * @typedef {{reason: string, message?: string}} StatusDetail
 * @typedef {{state: string, attempt: number, detail?: StatusDetail}} ConnectionStatus
 */
/**
 * The platform, injectable so the session can run without a browser (tests/web/socket.test.js).
 * @typedef {{WebSocket: typeof WebSocket, setTimeout: (f: () => void, ms: number) => any,
 *   clearTimeout: (handle: any) => void, random: () => number, now: () => number}} Environment
 */

export class Connection {
  /**
   * @param {{url: string, board: string, secret: string, clientId: string, name?: string, handler: SessionHandler, env?: Partial<Environment>, clock?: ServerClock}} options
   *   secret: the link's, sent in every join and nowhere else;
   *   clock: where pongs go (by default one on `env.now`, else on the page's monotonic clock)
   */
  constructor({ url, board, secret, clientId, name, handler, env = {}, clock }) {
    this.url = url;
    this.board = board;
    this.secret = secret;
    /** What the server's last `access` said this link may do; null before the first. */
    this.role = /** @type {import("../protocol.js").Role | null} */ (null);
    this.clientId = clientId;
    /** What `hello.name` tells the others. */
    this.name = name;
    this.handler = handler;
    /** @type {Environment} */
    this.env = {
      WebSocket: globalThis.WebSocket,
      setTimeout: (f, ms) => globalThis.setTimeout(f, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle),
      random: Math.random,
      now: Date.now,
      ...env,
    };
    this.state = CONNECTION.connecting;
    /** The server's clock, estimated from our pings (for running timers); pings carry its local time. */
    this.clock = clock ?? new ServerClock({ now: env.now ?? localNow });
    /** Why we stopped for good (one of ENDED, or DETAIL.outdated), or null. */
    this.fatal = /** @type {string | null} */ (null);
    this.socket = new Socket({
      env: this.env, url, onOpen: () => this.socket.send(helloMessage(this.clientId, this.name || undefined)),
      onMessage: (data) => this.#receive(data), onClose: (code) => this.#closed(code),
    });
    const send = (/** @type {object} */ message) => this.socket.send(message);
    const live = () => this.isLive;
    this.handshake = new JoinHandshake({ env: this.env, send, onTimeout: () => this.#lost() });
    this.resend = new Resend(send);
    this.pacing = new EditPacing({ env: this.env, onRetry: () => this.#sendPending(), onSlowed: (ms) => this.handler.slowed(ms) });
    this.presence = new PresenceTeller({ env: this.env, send, live, viewer: () => this.role === ROLE.view, bound: () => this.clock.errorBound() });
    this.heartbeat = new Heartbeat({ env: this.env, clock: this.clock, send, live, onDead: () => this.#lost() });
  }

  /** Attempts since the connection was last live. */
  get attempt() {
    return this.socket.attempt;
  }

  /** The open socket, if any. */
  get ws() {
    return this.socket.ws;
  }

  /** Measures the server's clock again (after a sleep, say); see Heartbeat.syncClock. */
  syncClock() {
    this.heartbeat.syncClock();
  }

  start() {
    this.#connect();
  }

  /** Joined, and no join is unanswered. */
  get isLive() {
    return this.state === CONNECTION.live && !this.handshake.joining;
  }

  /**
   * A new edit (already queued in the store): sent now if the board is live and no earlier edit
   * waits out a rate limit; otherwise it goes out after the next join, or after the earlier ones.
   * @param {{opId: string, ops: import("../protocol.js").Op[]}} edit
   * @returns {boolean} whether it was sent now
   */
  sendEdit({ opId }) {
    this.#sendPending();
    return this.resend.hasSent(opId);
  }

  /**
   * Sends the store's unacknowledged edits this socket has not sent, in their order (one at a time
   * after a rate limit). Nothing while not live or while a limited edit waits out its wait.
   */
  #sendPending() {
    if (!this.isLive || this.pacing.waiting) return;
    this.resend.sendUnsent(this.handler.unackedEdits(), this.pacing.paced);
    // Everything went out and was answered: back to sending edits as they come.
    if (this.resend.unanswered.size === 0) this.pacing.reset();
  }

  /**
   * Tells the others what the user is editing now (a section or timer id, or null). Sent at once
   * when live, else after the next join (the server forgets presence with the connection).
   * @param {string | null} id
   */
  setEditing(id) {
    this.presence.setEditing(id);
  }

  /**
   * A new display name. The server takes the name from `hello` only, so this starts a fresh
   * session on a new socket (pending edits are resent and deduplicated as after any reconnect).
   * @param {string} name
   */
  rename(name) {
    if (name === this.name) return;
    this.name = name;
    if (this.fatal || !this.ws) return;
    this.#dropSocket();
    this.#connect();
  }

  /** Stops for good (the board was deleted from this page): no reconnect. @param {string} reason one of ENDED */
  stop(reason) {
    if (!this.fatal) this.#stopFor(reason, false);
  }

  /** The browser says the network is gone: stop trying until it is back. */
  goOffline() {
    if (this.fatal) return;
    this.#dropSocket();
    this.#setState(CONNECTION.offline);
  }

  /** The network is back (or the page became visible): try at once instead of waiting out the backoff. */
  goOnline() {
    if (this.fatal || this.ws) return;
    this.socket.cancelReconnect();
    this.#connect();
  }

  // MARK: the socket

  #connect() {
    this.#setState(this.attempt === 0 && this.state === CONNECTION.connecting ? CONNECTION.connecting : CONNECTION.reconnecting);
    this.socket.open();
    // A new socket has a budget of its own on the server: everything unacked goes out again, at once.
    this.resend.fresh();
    this.pacing.reset();
    // A socket that never opens, or never answers hello/join, would otherwise hang here.
    this.handshake.opened();
  }

  /**
   * The server (or the network) closed the socket. Two codes say the link is no good any more;
   * anything else is worth another try.
   * @param {number | undefined} code
   */
  #closed(code) {
    if (code === CLOSE_CODE.linkReplaced) return this.#stopFor(ENDED.replaced);
    if (code === CLOSE_CODE.boardDeleted) return this.#stopFor(ENDED.deleted);
    this.#lost();
  }

  /** The socket is gone (closed, dead, or hung): try again after a backoff. */
  #lost() {
    this.#dropSocket();
    if (this.fatal || this.state === CONNECTION.offline) return;
    this.socket.reconnectLater(() => this.#connect());
    this.#setState(CONNECTION.reconnecting);
  }

  /** No socket, and nothing of it running: no handshake, pings, waits or reconnect. */
  #dropSocket() {
    this.socket.drop();
    this.socket.cancelReconnect();
    this.handshake.stop();
    this.pacing.stop();
    this.presence.stop();
    this.heartbeat.stop();
  }

  /**
   * Stops for good: no socket, no reconnect.
   * @param {string} reason one of ENDED, or DETAIL.outdated @param {boolean} [tell] whether the handler hears it as the board's end
   */
  #stopFor(reason, tell = reason !== DETAIL.outdated) {
    this.fatal = reason;
    this.#dropSocket();
    // The handler first learns why, so what it shows for the state can say so.
    if (tell) this.handler.ended(reason);
    this.#setState(CONNECTION.offline, { reason });
  }

  // MARK: joining

  /** @param {number | null} since */
  #join(since) {
    // Off the board until the answer: a page that was live must not say so while it is not.
    if (this.state === CONNECTION.live) this.#setState(CONNECTION.joining);
    // Joining leaves the board first, and the server forgets what we were editing, and our clock's bound.
    this.presence.forget();
    this.handshake.join(this.board, this.secret, since);
  }

  /** @param {Extract<ServerMessage, {type: "error"}>} message an error answering our join, not final */
  #joinFailed(message) {
    const delay = this.socket.nextDelay();
    this.#setState(CONNECTION.joining, { reason: DETAIL.joinFailed, message: message.message || message.code });
    this.handshake.retryAfter(delay, () => this.#join(this.handler.since()));
  }

  /** The join was answered: we are live; send what the server has not acknowledged. */
  #joined() {
    this.handshake.answered();
    this.socket.attempt = 0;
    this.#setState(CONNECTION.live);
    this.#sendPending();
    this.presence.tell();
    this.heartbeat.joined();
  }

  // MARK: messages

  /** @param {unknown} data */
  #receive(data) {
    /** @type {ServerMessage | null} */
    let message;
    try {
      message = parseServerMessage(data);
    } catch (error) {
      // A malformed message is skipped; if it was a changeset, the next one shows a gap and we rejoin.
      if (error instanceof ProtocolError) console.warn("TimerBoard: ignored a server message:", error.message);
      else throw error;
      return;
    }
    if (message) this.#handle(message);
  }

  /** @param {ServerMessage} message */
  #handle(message) {
    const joining = this.handshake.joining;
    switch (message.type) {
      case MSG.welcome:
        this.handler.welcome(message);
        this.#join(this.handler.since());
        return;
      case MSG.access:
        // The first answer to a join: what this link may do here, and who we are in presence.
        if (!joining || message.board !== this.board) return;
        this.role = message.role;
        this.handler.access(message);
        return;
      case MSG.snapshot:
        this.handler.snapshot(message);
        this.#joined();
        return;
      case MSG.resume:
        // The server resumes from the revision we asked for; anything else means we are confused.
        if (message.since !== this.handler.since()) return this.#join(null);
        this.handler.resume(message);
        this.#joined();
        return;
      case MSG.renamed:
        this.handler.renamed(message);
        return;
      case MSG.changes:
        if (!joining) this.#changes(message);
        return;
      case MSG.ack:
        this.resend.answered(message.opId);
        this.handler.ack(message);
        // After a limit, an answer lets the next edit go; otherwise everything went out already.
        if (this.pacing.paced) this.#sendPending();
        return;
      case MSG.reject:
        if (message.code === ERROR_CODE.rateLimited) {
          this.resend.refused(message.opId);
          this.pacing.limited(message.retryAfterMs);
          return;
        }
        this.resend.answered(message.opId);
        this.handler.reject(message);
        if (this.pacing.paced) this.#sendPending();
        return;
      case MSG.pong:
        this.heartbeat.pong(message);
        this.presence.tell();
        return;
      case MSG.error:
        this.#serverError(message);
        return;
      case MSG.presence:
      case MSG.presenceChanged:
        // A presence list of the previous subscription may still arrive while joining again.
        if (!joining) this.handler.presence(message);
        return;
    }
  }

  /** @param {ChangesMessage} message */
  #changes(message) {
    const status = this.handler.changes(message);
    if (status === "gap") this.#join(this.handler.since());
    // A changeset that does not fit means our copy is wrong: start again from a snapshot.
    if (status === "invalid") this.#join(null);
  }

  /** @param {Extract<ServerMessage, {type: "error"}>} message */
  #serverError(message) {
    switch (message.code) {
      case ERROR_CODE.boardNotFound:
        // A wrong secret gets the answer an unknown board gets: either way this link opens nothing.
        return this.#stopFor(ENDED.wrongLink);
      case ERROR_CODE.versionMismatch:
        return this.#stopFor(DETAIL.outdated);
      case ERROR_CODE.helloRequired:
      case ERROR_CODE.notJoined:
        // The server lost track of our session: start a fresh one.
        return this.#lost();
      default:
        if (this.handshake.joining) return this.#joinFailed(message);
        this.handler.serverError(message);
    }
  }

  /** @param {string} state @param {StatusDetail} [detail] */
  #setState(state, detail) {
    this.state = state;
    this.handler.status({ state, attempt: this.attempt, detail });
  }
}
