// @ts-check
// One WebSocket at a time: open it, send on it while it is open, drop it (its events then reach
// nobody), and after a loss open the next one after a jittered exponential backoff, counting the
// attempts since the connection was last live.

import { BACKOFF_BASE_MS, BACKOFF_JITTER, BACKOFF_MAX_MS } from "../constants.js";
import { Timers } from "./timers.js";

/** The delay before reconnect attempt `attempt` (1, 2, …): exponential, capped, jittered down. */
export function backoffDelay(/** @type {number} */ attempt, /** @type {number} */ random) {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  // Random spread, so the clients of a restarted server do not all come back at the same instant.
  return Math.round(ceiling * (1 - BACKOFF_JITTER * random));
}

export class Socket {
  /**
   * @param {{
   *   env: {WebSocket: typeof WebSocket, random: () => number} & import("./timers.js").TimerEnvironment,
   *   url: string,
   *   onOpen: () => void,
   *   onMessage: (data: unknown) => void,
   *   onClose: (code: number | undefined) => void,
   * }} options
   */
  constructor({ env, url, onOpen, onMessage, onClose }) {
    this.env = env;
    this.url = url;
    this.onOpen = onOpen;
    this.onMessage = onMessage;
    this.onClose = onClose;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** Attempts since the connection was last live (a lost socket, or a join the server could not answer). */
    this.attempt = 0;
    this.timers = new Timers(env);
  }

  /** Opens a new socket (the caller dropped the old one). */
  open() {
    const ws = new this.env.WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => this.onOpen();
    ws.onmessage = (event) => this.onMessage(event.data);
    ws.onclose = (event) => this.onClose(event?.code);
    // An error is always followed by close, which is where we recover.
    ws.onerror = () => {};
  }

  /** @param {object} message @returns {boolean} false when no socket is open */
  send(message) {
    if (!this.ws || this.ws.readyState !== this.env.WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Closes the socket, if any; nothing it says afterwards reaches us. */
  drop() {
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close();
    } catch {
      // Closing a socket that is still connecting can throw in some browsers; it is dropped anyway.
    }
  }

  /** One more attempt: how long to wait before it (random spread, so a restarted server's clients do not all come back at once). */
  nextDelay() {
    this.attempt += 1;
    return backoffDelay(this.attempt, this.env.random());
  }

  /** A new socket after the next backoff delay. @param {() => void} reconnect */
  reconnectLater(reconnect) {
    this.timers.start("reconnect", this.nextDelay(), reconnect);
  }

  /** No reconnect is waiting (the page asked to try now, or to stop). */
  cancelReconnect() {
    this.timers.clear("reconnect");
  }

  get reconnecting() {
    return this.timers.has("reconnect");
  }
}
