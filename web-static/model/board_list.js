// @ts-check
// The boards this browser opened: the start page's list, and the only place a user finds their
// boards again (the server lists boards to its operator only). Each entry keeps every link of the
// board this browser learnt (an owner who opened the view link to look, keeps the owner link) and
// opens the strongest. The list's rules are pure; loadBoards and updateBoards read and write it
// through wire/storage.js.

import { BOARDS_KEY, BOARDS_MAX, ROLES } from "../wire/constants.js";
import { isValidId } from "../wire/ids.js";
import { parseLink, roleRank } from "../wire/links.js";
import { readStorage, writeStorage } from "../wire/storage.js";

/** @typedef {import("../wire/protocol.js").Role} Role */
/** @typedef {Partial<Record<Role, string>>} Links  link paths ("/b/ID#edit=SECRET") by role */
/**
 * @typedef {{id: string, title: string, role: Role, link: string, links: Links, openedAt: number}} BoardEntry
 *   role and link: the strongest link known, the one the list opens
 */

/**
 * The stored list, validated: entries that do not parse, or whose links do not belong to them,
 * are dropped (storage may hold anything). Newest first.
 * @param {string | null} text @returns {BoardEntry[]}
 */
export function parseBoardList(text) {
  let value;
  try {
    value = JSON.parse(text ?? "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  /** @type {BoardEntry[]} */
  const list = [];
  for (const item of value) {
    if (!item || typeof item !== "object" || !isValidId(item.id) || list.some((b) => b.id === item.id)) continue;
    /** @type {Links} */
    const links = {};
    for (const role of ROLES) {
      const parsed = parseLink(item.links?.[role]);
      if (parsed && parsed.id === item.id && parsed.role === role) links[role] = item.links[role];
    }
    const entry = withStrongest({
      id: item.id, title: typeof item.title === "string" ? item.title : "", links,
      openedAt: Number.isFinite(item.openedAt) ? item.openedAt : 0,
    });
    if (entry) list.push(entry);
  }
  return list.sort((a, b) => b.openedAt - a.openedAt);
}

/**
 * The page opened a board with `link` and the server said it gives `role`: the board goes first
 * (opened now), with that link added to the ones already known.
 * @param {BoardEntry[]} list
 * @param {{id: string, role: Role, link: string, title?: string}} opened
 * @param {number} now
 * @returns {BoardEntry[]}
 */
export function withOpened(list, { id, role, link, title }, now) {
  const old = list.find((b) => b.id === id);
  const entry = withStrongest({
    id, title: title ?? old?.title ?? "", links: { ...old?.links, [role]: link }, openedAt: now,
  });
  return entry ? [entry, ...list.filter((b) => b.id !== id)].slice(0, BOARDS_MAX) : list;
}

/**
 * Links learnt without opening them (a board created here; the owner's share dialog or a replaced
 * link): added to a board's entry, or a new entry opened now.
 * @param {BoardEntry[]} list @param {string} id @param {Links} links @param {{title?: string, now: number}} options
 * @returns {BoardEntry[]}
 */
export function withLinks(list, id, links, { title, now }) {
  const old = list.find((b) => b.id === id);
  const entry = withStrongest({
    id, title: title ?? old?.title ?? "", links: { ...old?.links, ...links }, openedAt: old?.openedAt ?? now,
  });
  if (!entry) return list;
  return old ? list.map((b) => (b.id === id ? entry : b)) : [entry, ...list].slice(0, BOARDS_MAX);
}

/** The board's title changed (a snapshot, a resume or `renamed`); its place in the list does not. */
export function withTitle(/** @type {BoardEntry[]} */ list, /** @type {string} */ id, /** @type {string} */ title) {
  return list.map((b) => (b.id === id && b.title !== title ? { ...b, title } : b));
}

/** The user forgot a board, or it was deleted. */
export function withoutBoard(/** @type {BoardEntry[]} */ list, /** @type {string} */ id) {
  return list.filter((b) => b.id !== id);
}

/**
 * A link stopped working (replaced, or refused as wrong): that link goes, and with it the entry
 * when it was the last one. Another link of the same role (already replaced here) stays.
 * @param {BoardEntry[]} list @param {string} id @param {string} link
 * @returns {BoardEntry[]}
 */
export function withoutLink(list, id, link) {
  return list.flatMap((b) => {
    if (b.id !== id) return [b];
    const links = Object.fromEntries(Object.entries(b.links).filter(([, l]) => l !== link));
    const entry = withStrongest({ ...b, links });
    return entry ? [entry] : [];
  });
}

/**
 * @param {{id: string, title: string, links: Links, openedAt: number}} entry
 * @returns {BoardEntry | null} with role and link of its strongest link; null when it has none
 */
function withStrongest(entry) {
  const roles = /** @type {Role[]} */ (Object.keys(entry.links)).filter((r) => entry.links[r]).sort((a, b) => roleRank(a) - roleRank(b));
  if (roles.length === 0) return null;
  const role = roles[0];
  return { id: entry.id, title: entry.title, role, link: /** @type {string} */ (entry.links[role]), links: entry.links, openedAt: entry.openedAt };
}

/** @returns {BoardEntry[]} the boards this browser opened, newest first */
export function loadBoards() {
  return parseBoardList(readStorage(BOARDS_KEY));
}

/**
 * Changes the stored list, read fresh each time: another tab of this browser may have changed it.
 * @param {(list: BoardEntry[]) => BoardEntry[]} change
 */
export function updateBoards(change) {
  const before = loadBoards();
  const after = change(before);
  if (after !== before) writeStorage(BOARDS_KEY, JSON.stringify(after));
}
