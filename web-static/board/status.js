// @ts-check
// The connection indicator (#connection) and the toasts.

import { TOAST_MS } from "../wire/constants.js";
import { appendToast, renderConnection } from "./dom_patch.js";

export class StatusView {
  /** @param {HTMLElement} indicator #connection @param {HTMLElement} toasts #toasts */
  constructor(indicator, toasts) {
    this.indicator = indicator;
    this.toasts = toasts;
    this.status = { state: "connecting", attempt: 0, detail: /** @type {string | undefined} */ (undefined), pending: 0 };
  }

  /** @param {Partial<StatusView["status"]>} update */
  update(update) {
    this.status = { ...this.status, ...update };
    renderConnection(this.indicator, this.status);
  }

  /**
   * A brief message, read out by screen readers (the area is role=status).
   * @param {string} text
   */
  toast(text) {
    const toast = appendToast(this.toasts, text);
    setTimeout(() => toast.remove(), TOAST_MS);
  }
}
