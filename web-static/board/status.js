// @ts-check
// What the page says about itself: the connection pill (#connection: its state in words, why when
// it says more, and the edits not yet confirmed) and the toasts.
//
// Stable selectors: #connection[data-state=connecting|live|joining|reconnecting|offline][data-pending=N],
// #toasts (role=status live region for messages).

import { TOAST_MS } from "../wire/constants.js";
import { h } from "../dom/kit.js";
import { CONNECTION_WORDS, connectionDetailText, pendingText } from "../model/sentences.js";

/** @typedef {{state: string, attempt: number, detail?: {reason: string, message?: string}, pending: number}} Status */

export class StatusView {
  /** @param {HTMLElement} indicator #connection @param {HTMLElement} toasts #toasts */
  constructor(indicator, toasts) {
    this.indicator = indicator;
    this.toasts = toasts;
    /** @type {Status} */
    this.status = { state: "connecting", attempt: 0, detail: undefined, pending: 0 };
  }

  /** @param {Partial<Status>} update */
  update(update) {
    this.status = { ...this.status, ...update };
    renderConnection(this.indicator, this.status);
  }

  /** A brief message, read out by screen readers (the area is role=status). @param {string} text */
  toast(text) {
    const toast = h(this.toasts.ownerDocument, "div", { class: "toast" }, [text]);
    this.toasts.append(toast);
    setTimeout(() => toast.remove(), TOAST_MS);
  }
}

/** @param {HTMLElement} indicator #connection @param {Status} status */
function renderConnection(indicator, { state, attempt, detail, pending }) {
  // Written only when they differ: every refresh calls this, and a page at rest should not churn.
  if (indicator.dataset.state !== state) indicator.dataset.state = state;
  if (indicator.dataset.pending !== String(pending)) indicator.dataset.pending = String(pending);
  const label = /** @type {HTMLElement} */ (indicator.querySelector(".connection-label"));
  const text = CONNECTION_WORDS[state]?.(attempt) ?? state;
  const full = detail ? `${text}: ${connectionDetailText(detail)}` : text;
  if (label.textContent !== full) label.textContent = full;
  const pendingElement = /** @type {HTMLElement} */ (indicator.querySelector(".connection-pending"));
  const words = pendingText(pending);
  if (pendingElement.textContent !== words) pendingElement.textContent = words;
}
