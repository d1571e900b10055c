// @ts-check
// The HTTP API a page uses (docs/protocol.md, "HTTP API"): creating a board, and the owner's calls
// with the link's secret as `Authorization: Bearer`. The secret goes in that header and nowhere
// else (never in a URL, never in a log or an error message). `fetch` is injectable for tests.

import { API_BOARDS } from "./constants.js";

/** @typedef {import("./protocol.js").Role} Role */

/** An HTTP answer that is not a success: its status and the server's error code, if it sent one. */
export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export class BoardApi {
  /** @param {{fetch?: typeof fetch}} [env] */
  constructor(env = {}) {
    this.fetch = env.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /**
   * @param {string} title may be empty: an untitled board
   * @returns {Promise<{id: string, title: string, url: string, links: Record<Role, string>, secrets: Record<Role, string>}>}
   */
  createBoard(title) {
    return this.#request("POST", API_BOARDS, null, title ? { title } : {});
  }

  /**
   * An edit over HTTP (POST /api/boards/ID/edits), once durable: the server's ack.
   * @param {string} id @param {string} secret an edit or owner secret
   * @param {{opId: string, ops: import("./protocol.js").Op[]}} edit
   */
  edit(id, secret, edit) {
    return this.#request("POST", `${boardPath(id)}/edits`, secret, edit);
  }

  /** @param {string} id @param {string} secret the owner's @returns {Promise<{links: {edit: string, view: string}}>} */
  links(id, secret) {
    return this.#request("GET", `${boardPath(id)}/links`, secret);
  }

  /** @param {string} id @param {string} secret @param {string} title @returns {Promise<{id: string, title: string}>} */
  rename(id, secret, title) {
    return this.#request("PATCH", boardPath(id), secret, { title });
  }

  /**
   * A new link for `role`; the old one stops at once.
   * @param {string} id @param {string} secret @param {"edit" | "view"} role
   * @returns {Promise<{role: Role, secret: string, url: string}>}
   */
  replaceLink(id, secret, role) {
    return this.#request("POST", `${boardPath(id)}/links/${role}`, secret);
  }

  /** @param {string} id @param {string} secret @returns {Promise<null>} */
  deleteBoard(id, secret) {
    return this.#request("DELETE", boardPath(id), secret);
  }

  /**
   * A page of the board's history, newest first (any role's secret).
   * @param {string} id @param {string} secret @param {number | null} [before] the `next` of the page before
   * @returns {Promise<{entries: any[], next: number | null}>} entries as docs/protocol.md shows them
   */
  history(id, secret, before) {
    return this.#request("GET", `${boardPath(id)}/history${before == null ? "" : `?before=${before}`}`, secret);
  }

  /**
   * The report of the board's timer runs, as a CSV file: fetched with the secret in the header
   * (a plain link could not carry it), for the page to hand to the browser as a download.
   * @param {string} id @param {string} secret @returns {Promise<Blob>}
   */
  async reportCsv(id, secret) {
    const response = await this.fetch(`${boardPath(id)}/report.csv`, { headers: { Authorization: `Bearer ${secret}` } });
    if (!response.ok) throw new ApiError(response.status, "", `${response.status} ${response.statusText}`.trim());
    return response.blob();
  }

  /**
   * @param {string} method @param {string} path @param {string | null} secret @param {object} [body]
   * @returns {Promise<any>} the parsed answer, null for an empty one (204)
   */
  async #request(method, path, secret, body) {
    /** @type {Record<string, string>} */
    const headers = { Accept: "application/json" };
    if (secret) headers.Authorization = `Bearer ${secret}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await this.fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    let answer = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      // A proxy's HTML error page, say: the status tells enough.
    }
    if (!response.ok) {
      const code = typeof answer?.code === "string" ? answer.code : "";
      throw new ApiError(response.status, code, typeof answer?.message === "string" ? answer.message : `${response.status} ${response.statusText}`.trim());
    }
    return answer;
  }
}

/** @param {string} id */
function boardPath(id) {
  return `${API_BOARDS}/${encodeURIComponent(id)}`;
}
