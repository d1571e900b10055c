// @ts-check
// Which timer a display shows (docs/protocol.md "Screens", README "Display"), and which comes next.
// Pure: derived from the board alone, so every display of a board shows the same timer, and one
// opened late shows it too.
//
// The shown timer: the one its address names (/display/TIMER); else the first running one in
// display order (a sequence's current timer runs); else the first paused one; else the timer that
// finished last and still counts overtime (it is what the room must see); else the first idle one.
// The next timer: in a sequence, the one after the shown timer (the first again when it loops);
// elsewhere, the first idle timer after it in display order that can run (a clock never does:
// "Next: Local time" said what would never come).

import { RUN, TIMER_KIND } from "../wire/constants.js";
import { orderedSections, orderedTimers } from "./board.js";
import { isSequence, movedOnIds } from "./sequence.js";

/** @typedef {import("./board.js").BoardReader} BoardReader */
/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {import("../wire/protocol.js").Section} Section */
/**
 * @typedef {{timer: Timer | null, section: Section | null, next: Timer | null, movedOn: boolean, missing: boolean,
 *   place: {position: number, total: number} | null}} DisplayPick
 *   movedOn: the shown timer is a finished timer of a sequence that moved on (it reads "Done");
 *   missing: the address named a timer the board does not have (any more);
 *   place: where the shown timer is in its sequence (1-based), or null outside a sequence
 */

/**
 * @param {BoardReader} board @param {string | null} [timerId] the timer the address names, if any
 * @returns {DisplayPick}
 */
export function pickDisplayed(board, timerId = null) {
  /** @type {{timer: Timer, section: Section, index: number, ordered: Timer[]}[]} */
  const all = [];
  for (const section of orderedSections(board)) {
    const ordered = orderedTimers(board, section.id);
    ordered.forEach((timer, index) => all.push({ timer, section, index, ordered }));
  }
  let at = -1;
  if (timerId !== null) {
    at = all.findIndex((entry) => entry.timer.id === timerId);
    if (at < 0) return { timer: null, section: null, next: null, movedOn: false, missing: true, place: null };
  } else {
    at = all.findIndex((entry) => entry.timer.run.status === RUN.running);
    if (at < 0) at = all.findIndex((entry) => entry.timer.run.status === RUN.paused);
    if (at < 0) at = lastOvertime(all);
    if (at < 0) at = all.findIndex((entry) => entry.timer.run.status === RUN.idle);
  }
  if (at < 0) return { timer: null, section: null, next: null, movedOn: false, missing: false, place: null };
  const { timer, section, index, ordered } = all[at];
  const sequence = isSequence(section);
  const movedOn = sequence && movedOnIds(ordered).has(timer.id);
  const place = sequence ? { position: index + 1, total: ordered.length } : null;
  return { timer, section, next: nextOf(all, at), movedOn, missing: false, place };
}

/**
 * The finished timer with the latest `finishedAt` that still counts overtime (not one a sequence
 * moved on from), or -1.
 * @param {{timer: Timer, section: Section, ordered: Timer[]}[]} all
 */
function lastOvertime(all) {
  let best = -1;
  all.forEach(({ timer, section, ordered }, index) => {
    const at = timer.run.finishedAt;
    if (timer.run.status !== RUN.finished || at === undefined) return;
    if (isSequence(section) && movedOnIds(ordered).has(timer.id)) return;
    if (best < 0 || at > /** @type {number} */ (all[best].timer.run.finishedAt)) best = index;
  });
  return best;
}

/**
 * @param {{timer: Timer, section: Section, index: number, ordered: Timer[]}[]} all
 * @param {number} at the shown timer's place in `all`
 * @returns {Timer | null}
 */
function nextOf(all, at) {
  const { section, index, ordered } = all[at];
  if (isSequence(section)) {
    if (index + 1 < ordered.length) return ordered[index + 1];
    return section.loop && ordered.length > 1 ? ordered[0] : null;
  }
  return all.slice(at + 1).find(({ timer }) => timer.run.status === RUN.idle && timer.kind !== TIMER_KIND.clock)?.timer ?? null;
}
