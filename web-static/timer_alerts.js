// @ts-check
// The alerts of finished timers, and their beep.

import { BEEP_COUNT, BEEP_HZ, BEEP_MS } from "./constants.js";
import { removeTimerAlert, showTimerAlert } from "./dom_patch.js";

/** @typedef {import("./protocol.js").Timer} Timer */

/**
 * The alerts of finished timers (visible until dismissed, or until the timer is started or reset
 * again), and the optional beep. Sound is off unless the user turns it on; the audio context is
 * made on that click, as browsers only let a page start sound after a user gesture.
 */
export class TimerAlerts {
  /** @param {HTMLElement} area #timer-alerts */
  constructor(area) {
    this.area = area;
    this.sound = false;
    /** @type {AudioContext | null} */
    this.audio = null;
    /** How many beeps were asked for (for tests: headless browsers play to no speaker). */
    this.beeps = 0;
  }

  /** @param {Timer} timer */
  show(timer) {
    showTimerAlert(this.area, timer.id, `“${timer.title}” is done`);
    if (this.sound) this.#beep();
  }

  /** @param {string} id a timer's id */
  hide(id) {
    removeTimerAlert(this.area, id);
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
