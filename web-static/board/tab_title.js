// @ts-check
// The tab's title (issue 18, "Alerts that reach you"): what finished while the tab was hidden
// ("⏰ Eggs done — TimerBoard") until the tab is seen again; else, while timers run, the nearest
// one ("4:59 Eggs — TimerBoard"), redrawn by the countdown tick that already runs; else the
// board's name ("Kitchen — TimerBoard"). The text is pure (`tabTitleText`); `TabTitle` only writes it when it changes.

import { RUN } from "../wire/constants.js";
import { TAB_TITLE } from "../model/sentences.js";
import { countdownText, deadlineOf } from "../model/timer_face.js";

/** @typedef {import("../wire/protocol.js").Timer} Timer */
/** @typedef {Pick<Timer, "id" | "title" | "minutes" | "seconds" | "run">} TitleTimer */

/**
 * The running timer that reaches zero first (ties: the smaller id, so every screen picks the
 * same). Its deadline does not move while it runs, so this is needed only when run states change,
 * never per tick.
 * @template {TitleTimer} T
 * @param {Iterable<T>} timers
 * @returns {T | null}
 */
export function nearestRunning(timers) {
  /** @type {T | null} */
  let nearest = null;
  let best = Infinity;
  for (const timer of timers) {
    if (timer.run.status !== RUN.running) continue;
    const deadline = deadlineOf(timer);
    // A stopwatch has no end to show.
    if (deadline === null) continue;
    if (deadline < best || (deadline === best && nearest !== null && timer.id < nearest.id)) {
      nearest = timer;
      best = deadline;
    }
  }
  return nearest;
}

/**
 * @param {{board: string, finished: string[], nearest: TitleTimer | null, now: number}} state
 *   board: the board's name as shown; finished: titles of the timers that finished while the tab
 *   was hidden, oldest first; nearest: the running timer nearest its end
 */
export function tabTitleText({ board, finished, nearest, now }) {
  if (finished.length > 0) return TAB_TITLE.finished(finished);
  if (nearest) return TAB_TITLE.running(countdownText(nearest, now), nearest.title);
  return TAB_TITLE.board(board);
}

export class TabTitle {
  /** @param {{title: string}} doc the document (its `title` is written) */
  constructor(doc) {
    this.doc = doc;
    this.board = "";
    /** @type {string[]} */
    this.finished = [];
    /** @type {TitleTimer | null} */
    this.nearest = null;
    this.now = 0;
    /** Once the board has ended, its page owns the title: nothing here writes it again. */
    this.frozen = false;
  }

  /** The board ended (a deleted board, a replaced link): leave the title to the page that says so. */
  freeze() {
    this.frozen = true;
  }

  /** @param {string} name the board's name as shown */
  setBoard(name) {
    this.board = name;
    this.#write();
  }

  /**
   * The countdown tick (or a change of run states): the nearest running timer at server time `now`.
   * @param {TitleTimer | null} nearest @param {number} now
   */
  update(nearest, now) {
    this.nearest = nearest;
    this.now = now;
    this.#write();
  }

  /** A timer finished while the tab was hidden. @param {string} title */
  finishedWhileHidden(title) {
    this.finished = [...this.finished.filter((t) => t !== title), title];
    this.#write();
  }

  /** The tab is seen again: what finished meanwhile has been seen (the alerts on the page stay). */
  seen() {
    if (this.finished.length === 0) return;
    this.finished = [];
    this.#write();
  }

  #write() {
    if (this.frozen) return;
    const text = tabTitleText(this);
    if (this.doc.title !== text) this.doc.title = text;
  }
}
