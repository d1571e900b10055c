// @ts-check
// Sections that run their timers one after another (issue 18, docs/protocol.md "Sequences"): what
// the section header says about its progress (in words: sentences.js), and which finished timers read "Done" rather than
// overtime. Pure: derived from the board's timers alone, never from anything the page remembers,
// so every screen says the same, and a page opened late says it too.

import { RUN } from "../wire/constants.js";

/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {import("../wire/protocol.js").Section} Section */
/** @typedef {Pick<Timer, "id" | "run">} SequenceTimer */

/** @param {Pick<Section, "sequence"> | undefined} section */
export function isSequence(section) {
  return section?.sequence === true;
}

/**
 * The finished timers of a sequence that moved on: a later timer of the section (in display
 * order) is running, paused or finished. They read "Done"; the last one to finish, with nothing
 * after it started, reads overtime (the protocol's display rule).
 * @param {SequenceTimer[]} ordered the section's timers in display order
 * @returns {Set<string>} their ids
 */
export function movedOnIds(ordered) {
  const ids = new Set();
  let laterStarted = false;
  for (let index = ordered.length - 1; index >= 0; index -= 1) {
    const { status } = ordered[index].run;
    if (status === RUN.finished && laterStarted) ids.add(ordered[index].id);
    if (status !== RUN.idle) laterStarted = true;
  }
  return ids;
}

/**
 * @typedef {{state: "empty" | "ready" | "running" | "paused" | "ended", position: number, total: number}} SequenceProgress
 *   position: 1-based, of the current timer (running or paused), or of the last finished one
 *   when none is current ("ended"); 0 when none has run ("ready")
 */

/**
 * Where a sequence is, from its timers' run states: the current timer is the one running (or
 * else paused); with none, the last finished one says how far it went.
 * @param {SequenceTimer[]} ordered the section's timers in display order
 * @returns {SequenceProgress}
 */
export function sequenceProgress(ordered) {
  const total = ordered.length;
  if (total === 0) return { state: "empty", position: 0, total };
  const running = ordered.findIndex((t) => t.run.status === RUN.running);
  if (running >= 0) return { state: "running", position: running + 1, total };
  const paused = ordered.findIndex((t) => t.run.status === RUN.paused);
  if (paused >= 0) return { state: "paused", position: paused + 1, total };
  for (let index = total - 1; index >= 0; index -= 1) {
    if (ordered[index].run.status === RUN.finished) return { state: "ended", position: index + 1, total };
  }
  return { state: "ready", position: 0, total };
}
