// @ts-check
// Joining a board is a handshake of its own, on a new socket and on a live one alike (a gap, a
// resume from the wrong revision, a changeset that did not fit): every `join` starts the handshake
// timer, and until its `snapshot` or `resume` arrives the board is not live (edits wait, changes of
// the old subscription are ignored). An `error` while a join is unanswered is that join's answer
// (nothing else we send then can earn one): the join is sent again after a backoff, on the same
// socket. No answer within the handshake timeout means the socket is no good.

import { HANDSHAKE_TIMEOUT_MS } from "../constants.js";
import { joinMessage } from "../protocol.js";
import { Timers } from "./timers.js";

export class JoinHandshake {
  /**
   * @param {{
   *   env: import("./timers.js").TimerEnvironment,
   *   send: (message: object) => boolean,
   *   onTimeout: () => void,
   * }} options
   *   onTimeout: no welcome or no answer to a join in time: the socket is to be dropped
   */
  constructor({ env, send, onTimeout }) {
    this.send = send;
    this.onTimeout = onTimeout;
    this.timers = new Timers(env);
    /** A join is unanswered: changes of the previous subscription are ignored, edits wait. */
    this.joining = false;
  }

  /** A new socket: it must say welcome, and then answer our join, within the handshake timeout. */
  opened() {
    this.joining = false;
    this.timers.start("handshake", HANDSHAKE_TIMEOUT_MS, this.onTimeout);
  }

  /**
   * Asks for the board; with `since`, the server answers with only what we missed when it can.
   * @param {string} board @param {string} secret @param {number | null} since
   */
  join(board, secret, since) {
    this.timers.clear("rejoin");
    this.joining = true;
    this.send(joinMessage(board, secret, since));
    // Unanswered, the board would stay silently out of date: after the timeout, a new socket.
    this.timers.start("handshake", HANDSHAKE_TIMEOUT_MS, this.onTimeout);
  }

  /**
   * The server answered the join with an error that is not final (the board is loading, the
   * server failed): `rejoin` after `delay`, on the same socket.
   * @param {number} delay @param {() => void} rejoin
   */
  retryAfter(delay, rejoin) {
    this.timers.clear("handshake");
    this.timers.start("rejoin", delay, rejoin);
  }

  /** The snapshot or resume came: the board is live. */
  answered() {
    this.joining = false;
    this.timers.clearAll();
  }

  /** The socket is gone. */
  stop() {
    this.joining = false;
    this.timers.clearAll();
  }
}
