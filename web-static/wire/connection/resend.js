// @ts-check
// Which edits this socket has sent and which of them are unanswered. Every edit the store has not
// seen acknowledged goes out on each new socket, with its original opId (the server deduplicates by
// clientId + opId), in order, and once per socket: a rejoin on a live socket does not send it twice.

import { editMessage } from "../protocol.js";

/** @typedef {{opId: string, ops: import("../protocol.js").Op[]}} Edit */

export class Resend {
  /** @param {(message: object) => boolean} send false when the socket is not open */
  constructor(send) {
    this.send = send;
    /** Edits sent on the current socket (a rate_limited one leaves it: it is to be sent again). */
    this.sent = new Set();
    /** Edits sent on the current socket whose ack or reject has not come yet. */
    this.unanswered = new Set();
  }

  /** A new socket: nothing has been sent on it. */
  fresh() {
    this.sent = new Set();
    this.unanswered = new Set();
  }

  /**
   * Sends, in order, the edits this socket has not sent: all of them, or with `oneAtATime` the next
   * one only when nothing is unanswered.
   * @param {Edit[]} edits every unacknowledged edit, in the order they were made
   * @param {boolean} oneAtATime
   */
  sendUnsent(edits, oneAtATime) {
    for (const { opId, ops } of edits) {
      if (this.sent.has(opId)) continue;
      if (oneAtATime && this.unanswered.size > 0) return;
      if (!this.send(editMessage(opId, ops))) return;
      this.sent.add(opId);
      this.unanswered.add(opId);
    }
  }

  /** @param {string} opId acked or rejected */
  answered(opId) {
    this.unanswered.delete(opId);
  }

  /** @param {string} opId refused as rate_limited: nothing changed, and it is to be sent again */
  refused(opId) {
    this.unanswered.delete(opId);
    this.sent.delete(opId);
  }

  /** @param {string} opId */
  hasSent(opId) {
    return this.sent.has(opId);
  }
}
