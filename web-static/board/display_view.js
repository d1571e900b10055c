// @ts-check
// What a display draws (pages/display.js): the shown timer's countdown as large as the screen
// allows, its title and section, a progress bar, the next timer, the board's message and the
// blackout. The timer is picked from the board (model/display_pick.js); its face (text, amber,
// red, "Done") is the board page's (model/timer_face.js). One timeout, set for when the face next
// changes by itself (at most a second away while it runs, so the bar moves too).
//
// Stable selectors: #display-page[data-phase=""|warn|over|done][data-status=idle|running|paused|finished]
// [data-blackout=true|false], .display-countdown, .display-title, .display-section, .display-place
// (in a sequence, "2 of 5"), .display-next
// (.display-next-title), .display-state (a word under the countdown: "Paused", "Starts at 14:00"),
// .display-progress-bar, .display-message[data-flash=true|false][data-long=true|false], .display-blackout.

import { setText } from "../dom/kit.js";
import { pickDisplayed } from "../model/display_pick.js";
import { DISPLAY_WORDS, STATE_WORDS, placeText } from "../model/sentences.js";
import { msUntilChange, progressOf, timerFace } from "../model/timer_face.js";
import { boardZone, formatWallTime } from "../model/wall_clock.js";
import { RUN } from "../wire/constants.js";

/** @typedef {import("../model/board.js").BoardReader} BoardReader */
/** @typedef {import("../model/display_pick.js").DisplayPick} DisplayPick */
/** @typedef {import("../wire/protocol.js").Display} Display */

/** A running bar moves at least this often, between the countdown's own seconds. */
const BAR_STEP_MS = 1000;
/**
 * The first countdown waits this long at most for the server's clock (the first pong): drawn with
 * the screen's own clock, one three hours off showed a red overtime for half a second.
 */
const FIRST_SYNC_WAIT_MS = 1000;
/** A message longer than this is set in smaller type (display.css): "Wrap up" stays large. */
const LONG_MESSAGE_CHARS = 48;

/**
 * The width of a countdown's text in em, a little over what common sans-serif fonts draw
 * (bold tabular digits are 0.55 to 0.7 em wide), so it never overflows the screen.
 * @param {string} text
 */
export function emWidth(text) {
  let em = 0;
  for (const char of text) em += char === ":" ? 0.4 : char === "+" ? 0.9 : 0.72;
  return Math.round(em * 100) / 100;
}

/**
 * The word under a timer's countdown: "Paused", or an idle timer's scheduled start in the board's
 * zone ("Starts at 14:00"), or "" for none.
 * @param {import("../wire/protocol.js").Timer} timer @param {string} zone
 */
function stateWord(timer, zone) {
  if (timer.run.status === RUN.paused) return STATE_WORDS.paused;
  if (timer.run.status === RUN.idle && timer.startAt != null) {
    return DISPLAY_WORDS.startsAt(formatWallTime(timer.startAt, zone, { seconds: timer.startAt % 60_000 !== 0 }));
  }
  return "";
}

export class DisplayView {
  /**
   * @param {{page: HTMLElement, clock: {serverNow(): number, synced?: boolean}, timerId: string | null}} options
   *   timerId: the one timer the address names (/display/TIMER), or null for the board's current one
   */
  constructor({ page, clock, timerId }) {
    this.page = page;
    this.clock = clock;
    this.timerId = timerId;
    const part = (/** @type {string} */ name) => /** @type {HTMLElement} */ (page.querySelector(name));
    this.countdown = part(".display-countdown");
    this.state = part(".display-state");
    this.title = part(".display-title");
    this.section = part(".display-section");
    this.place = part(".display-place");
    this.next = part(".display-next");
    this.nextTitle = part(".display-next-title");
    this.progress = part(".display-progress");
    this.bar = part(".display-progress-bar");
    this.message = part(".display-message");
    this.blackout = part(".display-blackout");
    /** @type {DisplayPick} */
    this.pick = { timer: null, section: null, next: null, movedOn: false, missing: false, place: null };
    /** @type {Display | null} the display state last drawn */
    this.display = null;
    /** The board's time zone: a clock and a scheduled start are told in it, not in the screen's. */
    this.zone = "UTC";
    /** The timer whose fill the bar shows, or null: another one's is set at once, not animated. */
    this.barFor = /** @type {string | null} */ (null);
    /** Until when (performance.now()) the first draw waits for the server's clock. */
    this.holdUntil = performance.now() + FIRST_SYNC_WAIT_MS;
    /** The one pending wake-up, or null. */
    this.wakeUp = /** @type {any} */ (null);
  }

  /** The board changed: pick the timer again, and draw what differs. @param {BoardReader} board */
  render(board) {
    this.pick = pickDisplayed(board, this.timerId);
    this.zone = boardZone(board.display);
    const { timer, section, next, missing, place } = this.pick;
    setText(this.title, timer ? timer.title : missing ? DISPLAY_WORDS.missing : DISPLAY_WORDS.noTimers);
    setText(this.section, section ? section.title : "");
    // The board page's sequence header says it in the same words.
    setText(this.place, place ? placeText(place.position, place.total) : "");
    this.place.hidden = !place;
    setText(this.nextTitle, next ? next.title : "");
    this.next.hidden = !next;
    this.countdown.hidden = !timer;
    if (board.display !== this.display) this.#renderScreen(board.display);
    this.tick();
  }

  /** Draws the countdown, its phase and the bar now, and wakes up when they next change. */
  tick() {
    if (this.wakeUp !== null) clearTimeout(this.wakeUp);
    this.wakeUp = null;
    const { timer, movedOn } = this.pick;
    if (!timer) {
      this.progress.hidden = true;
      this.#say("");
      this.barFor = null;
      delete this.page.dataset.phase;
      delete this.page.dataset.status;
      return;
    }
    const wait = this.holdUntil - performance.now();
    if (this.clock.synced === false && wait > 0) {
      // The clock's first pong ends the wait too (the page's onClock ticks again).
      this.wakeUp = setTimeout(() => this.tick(), wait);
      return;
    }
    this.holdUntil = 0;
    const now = this.clock.serverNow();
    const face = timerFace(timer, now, movedOn, this.zone);
    if (this.countdown.textContent !== face.text) {
      this.countdown.textContent = face.text;
      // How wide the text is, in em (display.css sizes the digits by it): "+12:34" needs more room than "9:59".
      this.countdown.style.setProperty("--em", String(emWidth(face.text)));
    }
    if (this.page.dataset.phase !== face.phase) this.page.dataset.phase = face.phase;
    if (this.page.dataset.status !== timer.run.status) this.page.dataset.status = timer.run.status;
    this.countdown.setAttribute("aria-label", `${face.text}, ${face.word}`);
    this.#fill(timer.id, progressOf(timer, now));
    // Said in a word, not only by colour or dimming: a screen across a room shows no tooltip.
    this.#say(stateWord(timer, this.zone));
    const next = Math.min(msUntilChange(timer, now, movedOn), timer.run.status === "running" ? BAR_STEP_MS : Infinity);
    if (Number.isFinite(next)) this.wakeUp = setTimeout(() => this.tick(), Math.max(next, 16));
  }

  /** The word under the countdown ("" for none). @param {string} word */
  #say(word) {
    setText(this.state, word);
    this.state.hidden = word === "";
  }

  /**
   * The bar at `fill` (null: no bar). It glides between a timer's own steps; the first paint of a
   * timer jumps, so a page opened in overtime does not grow a bar from zero.
   * @param {string} timerId @param {number | null} fill
   */
  #fill(timerId, fill) {
    this.progress.hidden = fill === null;
    if (fill === null) return;
    const transform = `scaleX(${fill})`;
    if (this.barFor === timerId) {
      this.bar.style.transform = transform;
      return;
    }
    this.barFor = timerId;
    this.bar.style.transition = "none";
    this.bar.style.transform = transform;
    void this.bar.offsetWidth;
    this.bar.style.transition = "";
  }

  /** The board's message and blackout. @param {Display} display */
  #renderScreen(display) {
    const before = this.display;
    this.display = display;
    const { message, blackout } = display;
    this.page.dataset.blackout = String(blackout);
    this.blackout.hidden = !blackout;
    this.message.hidden = !message;
    if (!message) return;
    setText(this.message, message.text);
    this.message.title = message.text;
    this.message.dataset.long = String([...message.text].length > LONG_MESSAGE_CHARS);
    this.message.dataset.flash = String(message.flash);
    if (!message.flash) this.message.classList.remove("flashing");
    // The same text shown again is a new message (a new shownAt): it flashes from the start again.
    else if (before?.message?.shownAt !== message.shownAt) {
      this.message.classList.remove("flashing");
      void this.message.offsetWidth;
      this.message.classList.add("flashing");
    }
  }
}
