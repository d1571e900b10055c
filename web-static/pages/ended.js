// @ts-check
// The page a board ends on, for good: a wrong or incomplete link, a replaced link, a deleted board.
// It says what happened and what to do (it links back to the start page), instead of a board that
// would try to reconnect forever.
//
// Stable selectors: #ended-page[data-reason=no-secret|wrong-link|replaced|deleted]: #ended-title, #ended-text.

import { ENDED } from "../wire/constants.js";
import { setText } from "../dom/kit.js";
import { ENDED_WORDS, TAB_TITLE } from "../model/sentences.js";

/** The board's page goes, and the ended page says why. @param {Document} doc @param {string} reason one of ENDED */
export function showEnded(doc, reason) {
  /** @type {HTMLElement} */ (doc.getElementById("board-page")).hidden = true;
  for (const dialog of doc.querySelectorAll("dialog")) if (/** @type {HTMLDialogElement} */ (dialog).open) /** @type {HTMLDialogElement} */ (dialog).close();
  doc.title = TAB_TITLE.ended(renderEnded(/** @type {HTMLElement} */ (doc.getElementById("ended-page")), reason));
}

/**
 * @param {HTMLElement} page #ended-page @param {string} reason one of ENDED
 * @returns {string} its title
 */
export function renderEnded(page, reason) {
  const words = ENDED_WORDS[reason] ?? ENDED_WORDS[ENDED.wrongLink];
  page.dataset.reason = reason;
  setText(/** @type {HTMLElement} */ (page.querySelector("#ended-title")), words.title);
  setText(/** @type {HTMLElement} */ (page.querySelector("#ended-text")), words.text);
  page.hidden = false;
  return words.title;
}
