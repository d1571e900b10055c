// @ts-check
// A section header's times (.section-times): total, done and left, and a sequence's ahead or
// behind (model/section_times.js says what). Written only when the words change.

import { setText } from "../dom/kit.js";
import { compareByOrder } from "../model/order.js";
import { sectionTimesText } from "../model/section_times.js";

/** @typedef {import("../wire/protocol.js").Timer} Timer */

/**
 * @param {HTMLElement} element [data-kind=section] @param {Timer[]} timers the section's, in any order
 * @param {boolean} sequence @param {number} now server ms
 */
export function renderSectionTimes(element, timers, sequence, now) {
  const times = /** @type {HTMLElement | null} */ (element.querySelector(".section-times"));
  if (times) setText(times, sectionTimesText([...timers].sort(compareByOrder), sequence, now));
}
