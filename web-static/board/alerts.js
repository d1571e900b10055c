// @ts-check
// The alerts of finished timers: on the page, their beep (opt-in per device), and while the tab is
// hidden a system notification (opt-in, asked from a button, never on load) and the tab's title.
//
// Stable selectors: #timer-alerts > .timer-alert[data-timer-id=ID] ("… is done", role=alert;
// .alert-dismiss closes it): one alert however many timers finished (several become one, named
// by the latest, data-timer-id its id), in the page's flow above the board, so it never covers a
// control; #sound-toggle (beep when a timer finishes, off by default);
// #notify-toggle[data-state=default|on|off|denied|unsupported] ("Notify me": asks on click only).

import { BEEP_COUNT, BEEP_HZ, BEEP_MS } from "../wire/constants.js";
import { h, setAttribute, setText } from "../dom/kit.js";
import { NOTIFICATION_BODY, NOTIFY_WORDS, dismissText, finishedManyText, finishedText } from "../model/sentences.js";

/** @typedef {import("../wire/protocol.js").Timer} Timer */

/**
 * What this page may do with system notifications: the browser's permission, and whether the
 * user wants them here.
 * @typedef {"unsupported" | "default" | "denied" | "on" | "off"} NotifyState
 */

/**
 * The platform, injectable so the alerts run without a browser.
 * @typedef {{Notification: typeof Notification | undefined, hidden: () => boolean}} AlertEnvironment
 */

/**
 * The alerts of finished timers (visible until dismissed, or until the timer is started or reset
 * again), and the optional beep. Sound is off unless the user turns it on; the audio context is
 * made on that click, as browsers only let a page start sound after a user gesture.
 * While the tab is hidden, a finished timer also makes a system notification (when the browser
 * allows them and the user did not turn them off here) and is told to `onHiddenFinish` (the tab
 * title shows it until the tab is seen again).
 */
export class TimerAlerts {
  /**
   * @param {HTMLElement} area #timer-alerts
   * @param {Partial<AlertEnvironment>} [env]
   */
  constructor(area, env = {}) {
    this.area = area;
    /** @type {AlertEnvironment} */
    this.env = {
      Notification: globalThis.Notification,
      hidden: () => globalThis.document?.visibilityState === "hidden",
      ...env,
    };
    this.sound = false;
    /** Notifications wanted on this device (the browser's permission is asked separately, from a button). */
    this.notify = true;
    /** @type {AudioContext | null} */
    this.audio = null;
    /** How many beeps were asked for (for tests: headless browsers play to no speaker). */
    this.beeps = 0;
    /** A timer finished while the tab was hidden: its title. */
    this.onHiddenFinish = (/** @type {string} */ _title) => {};
    /** @type {Map<string, string>} the finished timers the alert stands for, id → title, in the order they finished */
    this.finished = new Map();
  }

  /** @param {Timer} timer */
  show(timer) {
    const text = finishedText(timer.title);
    this.finished.delete(timer.id);
    this.finished.set(timer.id, timer.title);
    this.#draw();
    if (this.sound) this.#beep();
    if (!this.env.hidden()) return;
    this.onHiddenFinish(timer.title);
    if (this.notifyState() === "on") this.#notify(timer, text);
  }

  /** @returns {NotifyState} */
  notifyState() {
    const N = this.env.Notification;
    if (!N) return "unsupported";
    if (N.permission === "granted") return this.notify ? "on" : "off";
    return N.permission === "denied" ? "denied" : "default";
  }

  /**
   * The "Notify me" button was pressed while it showed `shown`: "on" turns notifications off on
   * this device; anything else turns them on, asking the browser's permission first when it was
   * never asked (this press is the user gesture browsers want). The state shown decides, not the
   * permission now: it may have been granted since the button was drawn.
   * @param {NotifyState} shown
   * @returns {Promise<NotifyState>} the state after
   */
  async toggleNotify(shown) {
    const N = this.env.Notification;
    if (!N) return "unsupported";
    this.notify = shown !== "on";
    if (this.notify && N.permission === "default") await N.requestPermission();
    return this.notifyState();
  }

  /** @param {Timer} timer @param {string} text */
  #notify(timer, text) {
    const N = /** @type {typeof Notification} */ (this.env.Notification);
    try {
      // One per timer (tag): a timer that finishes again replaces its old notification.
      const notification = new N(text, { body: NOTIFICATION_BODY, tag: `timerboard-${timer.id}` });
      notification.onclick = () => {
        globalThis.focus?.();
        notification.close();
      };
    } catch (error) {
      // Some browsers (Chrome on Android) allow notifications from service workers only: the
      // page's alert and the tab title remain.
      console.warn("TimerBoard: no notification:", /** @type {Error} */ (error).message);
    }
  }

  /** The timer is no longer finished (started or reset again, or gone). @param {string} id a timer's id */
  hide(id) {
    if (this.finished.delete(id)) this.#draw();
  }

  /** The user read the alert ("OK"): it goes, for every timer it stood for. */
  dismiss() {
    this.finished.clear();
    this.#draw();
  }

  #draw() {
    const ids = [...this.finished.keys()];
    drawTimerAlert(this.area, ids[ids.length - 1] ?? null, ids.length ? finishedManyText([...this.finished.values()]) : "");
  }

  /** @param {boolean} on */
  setSound(on) {
    this.sound = on;
    if (on) this.unlock();
  }

  /** Makes or resumes the audio context; call from a user gesture (a click, a key). */
  unlock() {
    if (!this.sound) return;
    try {
      this.audio ??= new AudioContext();
      if (this.audio.state === "suspended") void this.audio.resume();
    } catch (error) {
      // No audio here (or not allowed): the visible alert is what counts.
      console.warn("TimerBoard: no sound:", /** @type {Error} */ (error).message);
      this.audio = null;
    }
  }

  /** A few short sine beeps, faded in and out so they do not click. */
  #beep() {
    this.beeps += 1;
    // No click on this page yet (sound was turned on in an earlier visit): try anyway; the browser may allow it.
    if (!this.audio) this.unlock();
    const audio = this.audio;
    if (!audio) return;
    const start = audio.currentTime + 0.01;
    const length = BEEP_MS / 1000;
    for (let i = 0; i < BEEP_COUNT; i += 1) {
      const at = start + i * length * 2;
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = BEEP_HZ;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + length + 0.02);
    }
  }
}

// MARK: drawing

/**
 * The "Notify me" button (#notify-toggle): data-state, aria-pressed and its words.
 * @param {HTMLElement} button @param {NotifyState} state
 */
export function renderNotify(button, state) {
  const look = NOTIFY_WORDS[state];
  setAttribute(button, "data-state", state);
  setAttribute(button, "aria-pressed", look.pressed);
  setAttribute(button, "title", look.tip);
  setText(/** @type {HTMLElement} */ (button.querySelector(".notify-label") ?? button), look.text);
}

/**
 * The one alert of the finished timers, or none.
 * @param {HTMLElement} area #timer-alerts
 * @param {string | null} id the latest finished timer's id; null: no alert
 * @param {string} text what to say, e.g. “Eggs” is done
 */
function drawTimerAlert(area, id, text) {
  const existing = /** @type {HTMLElement | null} */ (area.querySelector(".timer-alert"));
  if (id === null) {
    existing?.remove();
    return;
  }
  if (existing) {
    setAttribute(existing, "data-timer-id", id);
    setText(/** @type {HTMLElement} */ (existing.querySelector(".timer-alert-text")), text);
    setAttribute(/** @type {HTMLElement} */ (existing.querySelector(".alert-dismiss")), "aria-label", dismissText(text));
    return;
  }
  const doc = area.ownerDocument;
  area.append(h(doc, "div", { class: "timer-alert", role: "alert", "data-timer-id": id, "data-icon": "bell" }, [
    h(doc, "span", { class: "timer-alert-text" }, [text]),
    h(doc, "button", { type: "button", class: "button alert-dismiss", "aria-label": dismissText(text) }, ["OK"]),
  ]));
}
