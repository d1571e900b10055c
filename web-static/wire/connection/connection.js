// @ts-check
// The WebSocket session of one board: hello → welcome → join {board, secret, since} → access, then
// snapshot or resume, then changes/ack/reject. It keeps the connection alive (heartbeat), reconnects with jittered
// exponential backoff, rejoins from the last applied revision and resends unacked edits with
// their original opIds (the server deduplicates by clientId + opId). It holds no board state: the
// handler (main.js, over the store) applies what arrives and says what to resend.
//
// Joining is a handshake of its own, on a new socket and on a live one alike (a gap, a resume from
// the wrong revision, a changeset that did not fit): every `join` starts the handshake timer, and
// until its `snapshot` or `resume` arrives the state is not `live` (`joining` on a socket that was
// live), edits wait and changes of the old subscription are ignored. An `error` while a join is
// unanswered is that join's answer (nothing else we send then can earn one: edits get `reject`s,
// presence waits for the join): the join is sent again after a jittered backoff on the same
// socket, with the attempt and the server's reason shown. No answer within the handshake timeout
// means the socket is no good: it is dropped and a new one made, with the same backoff.
//
// An edit over the connection's budget is answered `rate_limited` with `retryAfterMs`: nothing changed,
// and the same edit (same opId) will be applied when sent again. It is not the handler's to roll
// back: it stays pending, in its place, and goes out again after the wait (jittered). Order is kept:
// from that reject on, no edit goes out during the wait, and after it edits go out one at a time,
// each once the one before is answered, until none is left unanswered; so no later edit can reach
// the server before an earlier limited one. (Edits already on their way when the first limit came
// are answered by the server as they arrive; a token that refilled meanwhile can let one of them in
// before the limited one: the protocol gives a client no way to prevent that.) The handler hears of
// limits only once edits have been held back for RATE_LIMIT_WARN_MS.
//
// Some ends are final, and no reconnect follows: a join answered `board_not_found` (a wrong link:
// the server answers a wrong secret exactly as an unknown board), and the server closing the socket
// with 4403 (the link was replaced) or 4410 (the board was deleted). The handler is told why.

import { ServerClock, localNow } from "../clock.js";
import {
  BACKOFF_BASE_MS, BACKOFF_JITTER, BACKOFF_MAX_MS, CLOCK_ERROR_INTERVAL_MS, CLOCK_ERROR_MAX_MS, CLOCK_ERROR_STEP_MS,
  CLOCK_SYNC_PINGS, CLOSE_CODE, CONNECTION, ENDED, ERROR_CODE,
  HANDSHAKE_TIMEOUT_MS, MSG, PING_INTERVAL_MS, PONG_TIMEOUT_MS, RATE_LIMIT_DEFAULT_RETRY_MS, RATE_LIMIT_JITTER,
  RATE_LIMIT_WARN_MS, ROLE,
} from "../constants.js";
import {
  editMessage, helloMessage, joinMessage, parseServerMessage, pingMessage, presenceMessage, ProtocolError,
} from "../protocol.js";

/** @typedef {import("../protocol.js").ServerMessage} ServerMessage */
/** @typedef {Extract<ServerMessage, {type: "changes"}>} ChangesMessage */
/**
 * What the session needs from the rest of the page.
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
/** @typedef {{state: string, attempt: number, detail?: string}} ConnectionStatus */
/**
 * The platform, injectable so the session can run without a browser.
 * @typedef {{
 *   WebSocket: typeof WebSocket,
 *   setTimeout: (f: () => void, ms: number) => any,
 *   clearTimeout: (handle: any) => void,
 *   random: () => number,
 *   now: () => number,
 * }} Environment
 */

/** The delay before reconnect attempt `attempt` (1, 2, …): exponential, capped, jittered down. */
export function backoffDelay(/** @type {number} */ attempt, /** @type {number} */ random) {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  // Random spread, so the clients of a restarted server do not all come back at the same instant.
  return Math.round(ceiling * (1 - BACKOFF_JITTER * random));
}

/**
 * The wait before sending a rate_limited edit again: what the server asked, jittered up, so the
 * edit is never early and pages limited together do not all come back at once.
 * @param {number | undefined} retryAfterMs @param {number} random
 */
export function retryDelay(retryAfterMs, random) {
  const asked = retryAfterMs !== undefined && retryAfterMs >= 0 ? retryAfterMs : RATE_LIMIT_DEFAULT_RETRY_MS;
  return Math.ceil(asked * (1 + RATE_LIMIT_JITTER * random));
}

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
    /** @type {WebSocket | null} */
    this.ws = null;
    this.state = CONNECTION.connecting;
    /** Reconnect attempts since the connection was last live. */
    this.attempt = 0;
    /** The server's clock, estimated from our pings (for running timers); pings carry its local time. */
    this.clock = clock ?? new ServerClock({ now: env.now ?? localNow });
    /** Pings of the current clock sync still to send, one after each pong. */
    this.syncPings = 0;
    /** Waiting for the answer to a join: changes of the previous subscription are ignored. */
    this.joining = false;
    /** Edits sent on the current socket, so a rejoin on it does not send them twice (a rate_limited one leaves it). */
    this.sent = new Set();
    /** Edits sent on the current socket whose ack or reject has not come yet. */
    this.unanswered = new Set();
    /**
     * Rate limits on the current socket: `paced` while edits go out one at a time after a limit;
     * `since`, when the current streak of limits began (null: none); `told`, whether the handler heard.
     */
    this.limit = { paced: false, since: /** @type {number | null} */ (null), told: false };
    /** The section or timer the user is editing (presence), and what the server was last told. */
    this.editing = /** @type {string | null} */ (null);
    this.toldEditing = /** @type {string | null} */ (null);
    /**
     * The ± bound of our server clock last told in presence on this join (null: not yet), and when
     * (env.now()): the others show how well every screen is in step (presence `clockError`).
     */
    this.toldClockError = /** @type {number | null} */ (null);
    this.clockErrorAt = -Infinity;
    /** Why we stopped for good (board gone, page too old), or null. */
    this.fatal = /** @type {string | null} */ (null);
    /** @type {Record<"reconnect" | "rejoin" | "handshake" | "ping" | "pong" | "sync" | "retry" | "presence", any>} handles of the pending timers */
    this.timers = { reconnect: null, rejoin: null, handshake: null, ping: null, pong: null, sync: null, retry: null, presence: null };
  }

  /** Server clock minus ours, in ms (see clock.js). */
  get clockOffset() {
    return this.clock.offset;
  }

  /**
   * Measures the server's clock again, with a few pings one after another: on each join, and when
   * the page becomes visible again (its clock may have been paused while the computer slept).
   * Until a new pong arrives, the old estimate stays in use. Not live: the next join does it.
   */
  syncClock() {
    this.clock.resync();
    this.syncPings = CLOCK_SYNC_PINGS;
    this.#syncPing();
  }

  start() {
    this.#connect();
  }

  get isLive() {
    return this.state === CONNECTION.live && !this.joining;
  }

  /**
   * A new edit (already queued in the store): sent now if the board is live and no earlier edit
   * waits out a rate limit; otherwise it goes out after the next join, or after the earlier ones.
   * @param {{opId: string, ops: import("../protocol.js").Op[]}} edit
   * @returns {boolean} whether it was sent now
   */
  sendEdit({ opId }) {
    this.#sendPending();
    return this.sent.has(opId);
  }

  /**
   * Sends the store's unacknowledged edits this socket has not sent, in their order: all of them,
   * or, after a rate limit, the next one only when nothing is unanswered. Nothing while not live or
   * while a limited edit waits out its `retryAfterMs`.
   */
  #sendPending() {
    if (!this.isLive || this.timers.retry !== null) return;
    for (const { opId, ops } of this.handler.unackedEdits()) {
      if (this.sent.has(opId)) continue;
      if (this.limit.paced && this.unanswered.size > 0) return;
      if (!this.#send(editMessage(opId, ops))) return;
      this.sent.add(opId);
      this.unanswered.add(opId);
    }
    // Everything went out and was answered: back to sending edits as they come.
    if (this.unanswered.size === 0) this.limit = { paced: false, since: null, told: false };
  }

  /**
   * Tells the others what the user is editing now (a section or timer id, or null). Sent at once
   * when live, else after the next join (the server forgets presence with the connection).
   * @param {string | null} id
   */
  setEditing(id) {
    this.editing = id;
    this.#tellPresence();
  }

  /**
   * The ± bound of this page's estimate of the server's clock, as presence tells it: half the
   * kept sample's round trip, rounded up to whole ms and capped (null before the first pong).
   * @returns {number | null}
   */
  clockError() {
    const best = this.clock.best;
    return best ? Math.min(CLOCK_ERROR_MAX_MS, Math.ceil(best.roundTrip / 2)) : null;
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
    this.#clearTimer("reconnect");
    this.#connect();
  }

  /** Stops for good (the board was deleted from this page): no reconnect. @param {string} detail */
  stop(detail) {
    if (!this.fatal) this.#stopFor(detail);
  }

  /** The browser says the network is gone: stop trying until it is back. */
  goOffline() {
    if (this.fatal) return;
    this.#dropSocket();
    this.#clearTimer("reconnect");
    this.#setState(CONNECTION.offline);
  }

  /** The network is back (or the page became visible): try at once instead of waiting out the backoff. */
  goOnline() {
    if (this.fatal || this.ws) return;
    this.#clearTimer("reconnect");
    this.#connect();
  }

  // MARK: socket lifecycle

  #connect() {
    this.#setState(this.attempt === 0 && this.state === CONNECTION.connecting ? CONNECTION.connecting : CONNECTION.reconnecting);
    const ws = new this.env.WebSocket(this.url);
    this.ws = ws;
    // A new socket has a budget of its own on the server: everything unacked goes out again, at once.
    this.sent = new Set();
    this.unanswered = new Set();
    this.limit = { paced: false, since: null, told: false };
    this.joining = false;
    ws.onopen = () => this.#send(helloMessage(this.clientId, this.name || undefined));
    ws.onmessage = (event) => this.#receive(event.data);
    ws.onclose = (event) => this.#closed(event?.code);
    // An error is always followed by close, which is where we recover.
    ws.onerror = () => {};
    // A socket that never opens, or never answers hello/join, would otherwise hang here.
    this.#startTimer("handshake", HANDSHAKE_TIMEOUT_MS, () => this.#lost());
  }

  /**
   * The server (or the network) closed the socket. Two codes say the link is no good any more;
   * anything else is worth another try.
   * @param {number | undefined} code
   */
  #closed(code) {
    if (code === CLOSE_CODE.linkReplaced) return this.#stopFor("This link was replaced by the board's owner.", ENDED.replaced);
    if (code === CLOSE_CODE.boardDeleted) return this.#stopFor("This board was deleted.", ENDED.deleted);
    this.#lost();
  }

  /** The socket is gone (closed, dead, or hung): try again after a backoff. */
  #lost() {
    this.#dropSocket();
    if (this.fatal || this.state === CONNECTION.offline) return;
    this.attempt += 1;
    this.#setState(CONNECTION.reconnecting);
    const delay = backoffDelay(this.attempt, this.env.random());
    this.#startTimer("reconnect", delay, () => this.#connect());
  }

  #dropSocket() {
    const ws = this.ws;
    this.ws = null;
    this.joining = false;
    for (const name of /** @type {const} */ (["rejoin", "handshake", "ping", "pong", "sync", "retry", "presence"])) this.#clearTimer(name);
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close();
    } catch {
      // Closing a socket that is still connecting can throw in some browsers; it is dropped anyway.
    }
  }

  /** @param {object} message */
  #send(message) {
    if (!this.ws || this.ws.readyState !== this.env.WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /**
   * Joins the board; with `since`, the server answers with only what we missed when it can.
   * @param {number | null} since
   */
  #join(since) {
    this.#clearTimer("rejoin");
    // Off the board until the answer: a page that was live must not say so while it is not.
    if (this.state === CONNECTION.live) this.#setState(CONNECTION.joining);
    this.joining = true;
    // Joining leaves the board first, and the server forgets what we were editing, and our clock's bound.
    this.toldEditing = null;
    this.toldClockError = null;
    this.#send(joinMessage(this.board, this.secret, since));
    // Unanswered, the board would stay silently out of date: after the timeout, a new socket.
    this.#startTimer("handshake", HANDSHAKE_TIMEOUT_MS, () => this.#lost());
  }

  /**
   * The server answered our join with an error that is not final (the board is loading, the
   * server failed): ask again after a backoff, on the same socket, saying why.
   * @param {Extract<ServerMessage, {type: "error"}>} message
   */
  #joinFailed(message) {
    this.#clearTimer("handshake");
    this.attempt += 1;
    this.#setState(CONNECTION.joining, `the server could not open the board (${message.message || message.code})`);
    this.#startTimer("rejoin", backoffDelay(this.attempt, this.env.random()), () => {
      this.timers.rejoin = null;
      this.#join(this.handler.since());
    });
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
    switch (message.type) {
      case MSG.welcome:
        this.handler.welcome(message);
        this.#join(this.handler.since());
        return;
      case MSG.access:
        // The first answer to a join: what this link may do here, and who we are in presence.
        if (!this.joining || message.board !== this.board) return;
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
        if (!this.joining) this.#changes(message);
        return;
      case MSG.ack:
        this.unanswered.delete(message.opId);
        this.handler.ack(message);
        // After a limit, an answer lets the next edit go; otherwise everything went out already.
        if (this.limit.paced) this.#sendPending();
        return;
      case MSG.reject:
        this.unanswered.delete(message.opId);
        if (message.code === ERROR_CODE.rateLimited) return this.#limited(message);
        this.handler.reject(message);
        if (this.limit.paced) this.#sendPending();
        return;
      case MSG.pong:
        this.#pong(message);
        return;
      case MSG.error:
        this.#serverError(message);
        return;
      case MSG.presence:
      case MSG.presenceChanged:
        // A presence list of the previous subscription may still arrive while joining again.
        if (!this.joining) this.handler.presence(message);
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

  /** The join was answered: we are live; send what the server has not acknowledged. */
  #joined() {
    this.joining = false;
    this.#clearTimer("handshake");
    this.#clearTimer("rejoin");
    this.attempt = 0;
    this.#setState(CONNECTION.live);
    this.#sendPending();
    this.#tellPresence();
    if (!this.timers.ping) this.#schedulePing();
    // After what the join replays has gone out: the first pings measure the clock, not the queue.
    this.#startTimer("sync", 0, () => {
      this.timers.sync = null;
      this.syncClock();
    });
  }

  /**
   * An edit over the budget: nothing changed, so it stays pending and is sent again, with its
   * opId, after the wait; until then no edit goes out, and after it one at a time.
   * @param {Extract<ServerMessage, {type: "reject"}>} message
   */
  #limited({ opId, retryAfterMs }) {
    this.sent.delete(opId);
    const now = this.env.now();
    this.limit.paced = true;
    this.limit.since ??= now;
    // The first limit sets the wait; limits of edits sent before it arrive during that wait.
    if (this.timers.retry === null) {
      this.#startTimer("retry", retryDelay(retryAfterMs, this.env.random()), () => {
        this.timers.retry = null;
        this.#sendPending();
      });
    }
    if (!this.limit.told && now - this.limit.since >= RATE_LIMIT_WARN_MS) {
      this.limit.told = true;
      this.handler.slowed(now - this.limit.since);
    }
  }

  /**
   * Tells the board what the user edits, at once when it changed, and our clock's bound
   * (`clockError`) when we first have one and whenever it moved by more than CLOCK_ERROR_STEP_MS,
   * at most once per CLOCK_ERROR_INTERVAL_MS (a bound alone waits out the rest of the interval).
   * Both ride in one presence message; `editing` is always sent, as it is.
   */
  #tellPresence() {
    if (!this.isLive) return;
    // A view link edits nothing: it may only tell its clock, with `editing` null (anything else is `forbidden`).
    const viewer = this.role === ROLE.view;
    const editing = viewer ? null : this.editing;
    const bound = this.clockError();
    const clockDue = bound !== null && (this.toldClockError === null || Math.abs(bound - this.toldClockError) > CLOCK_ERROR_STEP_MS);
    const now = this.env.now();
    const clockWait = clockDue ? this.clockErrorAt + CLOCK_ERROR_INTERVAL_MS - now : Infinity;
    const editingDue = editing !== this.toldEditing;
    const clockError = clockDue && clockWait <= 0 ? /** @type {number} */ (bound) : undefined;
    if (editingDue || clockError !== undefined) {
      if (!this.#send(presenceMessage(editing, clockError))) return;
      this.toldEditing = editing;
      if (clockError !== undefined) {
        this.toldClockError = clockError;
        this.clockErrorAt = now;
        this.#clearTimer("presence");
      }
    }
    // A bound that must wait for the interval goes out when it is over (or with an editing change before).
    if (clockDue && clockError === undefined && this.timers.presence === null) {
      this.#startTimer("presence", clockWait, () => {
        this.timers.presence = null;
        this.#tellPresence();
      });
    }
  }

  /** @param {Extract<ServerMessage, {type: "error"}>} message */
  #serverError(message) {
    switch (message.code) {
      case ERROR_CODE.boardNotFound:
        // A wrong secret gets the answer an unknown board gets: either way this link opens nothing.
        return this.#stopFor("This link does not open a board.", ENDED.wrongLink);
      case ERROR_CODE.versionMismatch:
        return this.#stopFor("This page is out of date. Reload it to continue.");
      case ERROR_CODE.helloRequired:
      case ERROR_CODE.notJoined:
        // The server lost track of our session: start a fresh one.
        return this.#lost();
      default:
        if (this.joining) return this.#joinFailed(message);
        this.handler.serverError(message);
    }
  }

  /** @param {string} detail @param {string} [reason] one of ENDED, for the handler */
  #stopFor(detail, reason) {
    this.fatal = detail;
    this.#dropSocket();
    this.#clearTimer("reconnect");
    // The handler first learns why, so what it shows for the state can say so.
    if (reason) this.handler.ended(reason);
    this.#setState(CONNECTION.offline, detail);
  }

  // MARK: heartbeat

  #schedulePing() {
    this.#startTimer("ping", PING_INTERVAL_MS, () => {
      this.timers.ping = null;
      if (!this.#send(pingMessage(this.clock.now()))) return;
      this.#startTimer("pong", PONG_TIMEOUT_MS, () => this.#lost());
      this.#schedulePing();
    });
  }

  /** @param {Extract<ServerMessage, {type: "pong"}>} message */
  #pong({ t, serverTime }) {
    this.#clearTimer("pong");
    this.clock.addSample(t, serverTime);
    this.#syncPing();
    this.#tellPresence();
  }

  /** The next ping of a clock sync, if any: one at a time, so none waits behind another. */
  #syncPing() {
    if (this.syncPings <= 0 || !this.isLive) return;
    if (this.#send(pingMessage(this.clock.now()))) this.syncPings -= 1;
  }

  // MARK: helpers

  /** @param {string} state @param {string} [detail] */
  #setState(state, detail) {
    this.state = state;
    this.handler.status({ state, attempt: this.attempt, detail });
  }

  /** @param {keyof Connection["timers"]} name @param {number} ms @param {() => void} action */
  #startTimer(name, ms, action) {
    this.#clearTimer(name);
    this.timers[name] = this.env.setTimeout(action, ms);
  }

  /** @param {keyof Connection["timers"]} name */
  #clearTimer(name) {
    if (this.timers[name] !== null) this.env.clearTimeout(this.timers[name]);
    this.timers[name] = null;
  }
}
