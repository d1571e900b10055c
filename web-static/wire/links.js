// @ts-check
// Board links (docs/protocol.md, "Links and roles"): /b/ID#owner=SECRET, #edit=SECRET, #view=SECRET.
// Reading a page's fragment and building links, and nothing else: pure, no DOM, no storage. The
// secret stays in the fragment, which browsers never send to a server or put in a Referer; the
// page sends it only in `join` and as an `Authorization: Bearer` header.

import { BOARD_PATH_PREFIX, ID_CHARACTERS, ROLES, SECRET_PATTERN } from "./constants.js";
import { isValidId } from "./ids.js";

/** @typedef {import("./protocol.js").Role} Role */
/** @typedef {{role: Role, secret: string}} Key  what a fragment holds */

/** The one place a board page's path is read: /b/ID, with or without a trailing slash. */
const BOARD_ROUTE = new RegExp(`^${BOARD_PATH_PREFIX}(${ID_CHARACTERS})/?$`);

/** @param {string} pathname @returns {string | null} the board id of a board page's path */
export function boardIdFromPath(pathname) {
  return BOARD_ROUTE.exec(pathname)?.[1] ?? null;
}

/** A board's display (docs/protocol.md "Screens"): /b/ID/display, or /b/ID/display/TIMER for one timer. */
const DISPLAY_ROUTE = new RegExp(`^${BOARD_PATH_PREFIX}(${ID_CHARACTERS})/display(?:/(${ID_CHARACTERS}))?/?$`);

/**
 * @param {string} pathname
 * @returns {{board: string, timer: string | null} | null} the board (and timer) of a display's path
 */
export function displayFromPath(pathname) {
  const match = DISPLAY_ROUTE.exec(pathname);
  return match ? { board: match[1], timer: match[2] ?? null } : null;
}

/**
 * The display link of a board link ("/b/ID#edit=S" → "/b/ID/display#edit=S"): the same key, so
 * any role's link opens the display, and the secret stays in the fragment.
 * @param {string} link a link as linkPath builds it, relative or absolute
 */
export function displayLink(link) {
  const hashAt = link.indexOf("#");
  if (hashAt < 0) return link;
  return `${link.slice(0, hashAt).replace(/\/$/, "")}/display${link.slice(hashAt)}`;
}

/**
 * The role and secret in a board page's fragment ("#edit=SECRET"), or null when it holds none (or
 * an invalid one). Should a fragment name several roles, the strongest wins; any other parameter
 * (a chat app appending its own) is ignored.
 * @param {string} hash location.hash, with or without the "#"
 * @returns {Key | null}
 */
export function parseFragment(hash) {
  const params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  for (const role of ROLES) {
    const secret = params.get(role);
    if (secret !== null && SECRET_PATTERN.test(secret)) return { role: /** @type {Role} */ (role), secret };
  }
  return null;
}

/** @param {string} id @param {Role} role @param {string} secret @returns {string} "/b/ID#role=SECRET" */
export function linkPath(id, role, secret) {
  return `${BOARD_PATH_PREFIX}${encodeURIComponent(id)}#${role}=${secret}`;
}

/**
 * A link as a server or the local list gives it ("/b/ID#edit=SECRET"), read back into its parts.
 * @param {unknown} link @returns {{id: string, role: Role, secret: string} | null}
 */
export function parseLink(link) {
  if (typeof link !== "string") return null;
  const hashAt = link.indexOf("#");
  if (hashAt < 0) return null;
  const id = boardIdFromPath(link.slice(0, hashAt));
  const key = parseFragment(link.slice(hashAt));
  return id && isValidId(id) && key ? { id, ...key } : null;
}

/** @param {string} origin location.origin @param {string} path a link as the server gives it @returns {string} */
export function absoluteLink(origin, path) {
  return new URL(path, origin).href;
}

/** @param {Role} role @returns {number} 0 for the strongest */
export function roleRank(role) {
  return ROLES.indexOf(role);
}
