// @ts-check
// Every sentence the page says that index.html does not: the labels of the elements it builds, the
// states in words, what it tells in toasts, errors and dialogs, the tab's title. One place, so the
// page keeps one voice and a translation has one file to follow. Pure: strings, and functions that
// put values into them.

import { DETAIL, ENDED, ERROR_CODE, KIND, OP } from "../wire/constants.js";

/** @typedef {import("../wire/protocol.js").Op} Op */

// MARK: the elements the board builds (board/section_element.js, board/timer_row.js)

export const SECTION_LABELS = Object.freeze({
  title: "Section title",
  toggle: "Show or hide this section's timers",
  skip: "Skip", skipTip: "Skip to the next timer",
  restart: "Restart", restartTip: "Restart the sequence from its first timer",
  sequence: "Sequence", sequenceTip: "Run the timers one after another",
  loop: "Loop", loopTip: "Start the sequence again after its last timer",
  moveUp: "Move section up", moveDown: "Move section down", delete: "Delete section",
  timers: "Timers", noTimers: "No timers yet.",
  addTimer: "Add a timer", newTitle: "New timer title", newTitlePlaceholder: "Add a timer…",
  newMinutes: "New timer minutes", newSeconds: "New timer seconds", add: "Add",
});

export const TIMER_LABELS = Object.freeze({
  title: "Timer title", minutes: "Minutes", seconds: "Seconds", length: "Length",
  warnAt: "Warning point: minutes:seconds left (empty: none)", warnAtPlaceholder: "warn",
  warnAtTip: "Turns amber with this much left (m:ss); empty: no warning",
  moveTo: "Move timer to another section", moveToPrompt: "Move to…", noOtherSection: "(no other section)",
  moveUp: "Move timer up", moveDown: "Move timer down", delete: "Delete timer", reset: "Reset",
  less: "−1 min", lessTip: "One minute less", more: "+1 min", moreTip: "One minute more",
});

/**
 * A timer's run button in each state: its verb (with the title it names the button, "Pause
 * Eggs"). What it does (data-action) and its icon belong to the row (board/timer_row.js).
 */
export const TOGGLE_VERBS = Object.freeze({ idle: "Start", running: "Pause", paused: "Resume", finished: "Restart" });

/**
 * A section's run button: its label ("Start all", or "Start" in a sequence) and its name, before
 * the section's title ("Start all timers in Prep", "Pause the sequence Prep").
 * @param {boolean} running any of its timers runs @param {boolean} sequence
 */
export function sectionRunWords(running, sequence) {
  const verb = running ? "Pause" : "Start";
  return sequence ? { label: verb, name: `${verb} the sequence` } : { label: `${verb} all`, name: `${verb} all timers in` };
}

/** The state in words next to the countdown (the state is never told by colour alone). */
export const STATE_WORDS = Object.freeze({
  idle: "Ready", running: "Running", paused: "Paused", warn: "Warning", over: "Time's up", done: "Done", clock: "Time of day",
});

/**
 * A sequence's progress (model/sequence.js), for its header: "2 of 5", "2 of 5, paused",
 * "5 of 5, done", "5 timers, ready".
 * @param {import("./sequence.js").SequenceProgress} progress
 */
export function progressText({ state, position, total }) {
  switch (state) {
    case "empty": return "No timers yet";
    case "ready": return `${total} ${total === 1 ? "timer" : "timers"}, ready`;
    case "running": return placeText(position, total);
    case "paused": return `${placeText(position, total)}, paused`;
    case "ended": return `${placeText(position, total)}, done`;
  }
}

/**
 * Which timer of a sequence: "2 of 5" (a sequence's header, and a display next to the section's name).
 * @param {number} position 1-based @param {number} total
 */
export function placeText(position, total) {
  return `${position} of ${total}`;
}

/** The title of a field someone else changed while the user typed in it. */
export const REMOTE_CHANGED = "Someone else changed this while you were editing. Enter keeps yours; Escape shows theirs.";

// MARK: what the user typed (model/fields.js, model/intents.js)

export const FIELD_ERRORS = Object.freeze({
  emptyTitle: "A title cannot be empty.",
  /** @param {number} max */
  longTitle: (max) => `A title can have at most ${max} characters.`,
  controlCharacters: "A title cannot contain control characters.",
  /** @param {string} field "minutes" or "seconds" @param {number} max */
  number: (field, max) => `${field[0].toUpperCase()}${field.slice(1)} must be a whole number from 0 to ${max}.`,
  /** @param {number} maxMinutes */
  warnAt: (maxMinutes) => `A warning point is minutes:seconds left, such as 1:00 (up to ${maxMinutes}:59), or empty for none.`,
  warnAtTooLate: "A warning point cannot be more than the timer's length.",
});

/** @param {number} count a section's timers @returns {string} what an armed delete button says */
export function deleteSectionPrompt(count) {
  return `Press again to delete this section and its ${count === 1 ? "timer" : `${count} timers`}`;
}

// MARK: what the board tells (board/session.js, board/alerts.js, board/presence.js, board/tab_title.js)

/** Edits held back by the server's rate limit for a while (they are kept, and sent). */
export const SLOWED = "Your changes are saved slowly: the server limits how fast one page may edit. They are kept and sent in order.";

/** @param {string} kind "section" or "timer" */
export function lostEditText(kind) {
  return `The ${kind} you were editing was deleted by someone else.`;
}

/** Operations on a timer (the rest are on a section). */
const TIMER_OPS = new Set([OP.addTimer, OP.updateTimer, OP.moveTimer, OP.deleteTimer, OP.startTimer, OP.pauseTimer, OP.resetTimer, OP.adjustTimer]);

/**
 * Why an edit was refused, in words: the usual reason is that someone else deleted what it was
 * about while it was on its way.
 * @param {{code: string, message: string, op?: number, current?: {kind: string}}} reject @param {Op[]} ops
 */
export function rejectText(reject, ops) {
  const op = ops[reject.op ?? 0] ?? ops[0];
  if (reject.code === "not_found" && op) {
    // A move to another section names the timer; `current` says the timer is still there, so it
    // was the target section that went.
    const movedIntoGone = op.op === OP.moveTimer && op.sectionID !== undefined && reject.current?.kind === KIND.timer;
    const what = op.op === OP.addTimer ? "its section was" : movedIntoGone ? "the section it was moving to was"
      : TIMER_OPS.has(op.op) ? "the timer was" : "the section was";
    return `Your change was not saved: ${what} deleted by someone else.`;
  }
  if (reject.code === ERROR_CODE.forbidden) return "Your change was not saved: this link can only view the board.";
  return `Your change was not saved: ${reject.message}`;
}

export const UNTITLED_BOARD = "Untitled board";

/** @param {string} title */
export function finishedText(title) {
  return `“${title}” is done`;
}

/**
 * The one alert of several finished timers: the latest by name, the others counted.
 * @param {string[]} titles in the order they finished
 */
export function finishedManyText(titles) {
  const last = titles[titles.length - 1];
  const more = titles.length - 1;
  return more === 0 ? finishedText(last) : `“${last}” and ${more} other ${more === 1 ? "timer are" : "timers are"} done`;
}

/** @param {string} text an alert's */
export function dismissText(text) {
  return `Dismiss: ${text}`;
}

export const NOTIFICATION_BODY = "TimerBoard";

/** The "Notify me" button in each state: its words, whether it reads as pressed, its tip. */
export const NOTIFY_WORDS = Object.freeze({
  unsupported: { text: "No notifications", pressed: "false", tip: "This browser cannot show notifications" },
  default: { text: "Notify me", pressed: "false", tip: "Get a system notification when a timer finishes while this tab is hidden" },
  denied: { text: "Notifications blocked", pressed: "false", tip: "Notifications are blocked for this site in the browser's settings" },
  on: { text: "Notifying", pressed: "true", tip: "A system notification when a timer finishes while this tab is hidden (press to stop)" },
  off: { text: "Notify me", pressed: "false", tip: "Get a system notification when a timer finishes while this tab is hidden" },
});

export const NOTIFY_TOASTS = Object.freeze({
  denied: "Notifications are blocked for this site: allow them in the browser's site settings.",
  unsupported: "This browser cannot show notifications.",
});

/**
 * How well the screens agree on the server's clock: "4 screens within ±20 ms", and a line for
 * each screen that is off.
 */
export const SYNC_WORDS = Object.freeze({
  /** @param {number} count @param {number} worst ms */
  within: (count, worst) => `${count} ${count === 1 ? "screen" : "screens"} within ±${worst} ms`,
  /** @param {string | null} name null: this screen @param {number} ms */
  off: (name, ms) => `${name === null ? "Your" : `${name}'s`} screen is off by up to ±${ms} ms`,
});

/** The app's name after what a tab shows, the same way in every state: "Kitchen — TimerBoard". */
const inTab = (/** @type {string} */ what) => `${what} — TimerBoard`;

/** What the tab's title says: what finished while it was hidden, the nearest timer, or the board. */
export const TAB_TITLE = Object.freeze({
  /** @param {string[]} titles */
  finished: (titles) => inTab(`⏰ ${titles.join(", ")} done`),
  /** @param {string} countdown @param {string} title */
  running: (countdown, title) => inTab(`${countdown} ${title}`),
  /** @param {string} board */
  board: (board) => inTab(board),
  /** @param {string} title an ended page's */
  ended: (title) => inTab(title),
});

/** What someone editing an item is shown as: the item's title, quoted. @param {string} title */
export function itemText(title) {
  return `“${title}”`;
}

/** @param {string} name @param {string | null} editing what they edit, in words (itemText) */
export function presenceTip(name, editing) {
  return editing ? `${name}, editing ${editing}` : name;
}

/** @param {string} editing */
export function presenceEditing(editing) {
  return `, editing ${editing}`;
}

/** The end of a full presence list: how many more are on the board. @param {number} count */
export function presenceMore(count) {
  return `+${count.toLocaleString("en-US")}`;
}

/** @param {number} count */
export function presenceMoreTip(count) {
  return `${count.toLocaleString("en-US")} more on the board`;
}

// MARK: the connection (board/status.js)

/** The connection pill's words in each state. @type {Record<string, (attempt: number) => string>} */
export const CONNECTION_WORDS = {
  connecting: () => "Connecting…",
  live: () => "Live",
  joining: (attempt) => (attempt > 0 ? `Joining again (attempt ${attempt})…` : "Catching up…"),
  reconnecting: (attempt) => (attempt > 0 ? `Reconnecting (attempt ${attempt})…` : "Reconnecting…"),
  offline: () => "Offline",
};

/** @param {number} pending edits the server has not confirmed */
export function pendingText(pending) {
  return pending === 0 ? "" : pending === 1 ? "1 edit pending" : `${pending} edits pending`;
}

/**
 * Why the connection says more than its state (wire/connection/connection.js, StatusDetail).
 * @param {{reason: string, message?: string}} detail
 */
export function connectionDetailText({ reason, message }) {
  switch (reason) {
    case ENDED.wrongLink: return "This link does not open a board.";
    // Its owner or the server's operator (reset-links) may have replaced it: say not who.
    case ENDED.replaced: return "This link was replaced.";
    case ENDED.deleted: return "This board was deleted.";
    case DETAIL.outdated: return "This page is out of date. Reload it to continue.";
    case DETAIL.joinFailed: return `the server could not open the board (${message ?? ""})`;
    default: return reason;
  }
}

// MARK: pages and dialogs (pages/, board/share_dialog.js, board/owner_panel.js)

/** A dialog whose code never reached the page (it went offline before the code was fetched). */
export const DIALOG_UNLOADED = "This could not be loaded: the server cannot be reached. Try again once the page is back online.";

/** What a page that stopped for good says, by ENDED reason. */
export const ENDED_WORDS = Object.freeze({
  [ENDED.noSecret]: {
    title: "This link is incomplete",
    text: "A board link ends with #edit=…, #view=… or #owner=… and a key. Open the whole link you were given, or ask the board's owner to share it again.",
  },
  [ENDED.wrongLink]: {
    title: "This link does not open a board",
    text: "Its key is wrong or was replaced, or the board was deleted. Check that you copied the whole link, or ask the board's owner for the current one.",
  },
  [ENDED.replaced]: {
    title: "This link was replaced",
    text: "The link you used was replaced, so it no longer opens the board. Ask the board's owner for the new link.",
  },
  [ENDED.deleted]: {
    title: "This board was deleted",
    text: "Its owner deleted it, with all its sections and timers. There is nothing left to open.",
  },
});

/** What a stored link lets this browser do, on the start page. */
export const ROLE_WORDS = Object.freeze({ owner: "Owner", edit: "Can edit", view: "View only" });

export const START_WORDS = Object.freeze({
  empty: "Boards you create or open in this browser show up here.",
  /** @param {string} date */
  opened: (date) => ` · opened ${date}`,
  forget: "Forget", forgetTip: "Forget it on this device",
  /** @param {string} title */
  forgetLabel: (title) => `Forget ${title} on this device`,
  forgetPrompt: "Press again to forget this board on this device",
  /** @param {string} message */
  createFailed: (message) => `Could not create the board: ${message}`,
});

export const SHARE_WORDS = Object.freeze({
  copied: "Link copied.",
  selected: "The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.",
  loading: "Loading the links…",
  /** @param {unknown} error */
  loadFailed: (error) => `Could not load the links: ${apiErrorText(error)}.`,
});

export const OWNER_WORDS = Object.freeze({
  working: "Working…",
  renamed: "Renamed.",
  renameFailed: "Could not rename the board",
  replaceFailed: "Could not replace the link",
  deleteFailed: "Could not delete the board",
  typeDelete: "Type delete in the box to confirm.",
  /** @param {string} failure @param {unknown} error */
  failed: (failure, error) => `${failure}: ${apiErrorText(error)}.`,
  /** @param {"edit" | "view"} role */
  replaceConfirm: (role) => `Replace the ${role} link? The current ${role} link stops working at once, ` +
    `and everyone who has the board open with it is disconnected. You then share the new link with whoever should keep access.`,
  /** @param {"edit" | "view"} role */
  newLink: (role) => (role === "edit" ? "New edit link" : "New view link"),
  /** @param {"edit" | "view"} role */
  replaced: (role) => `The old ${role} link no longer works. Share the new one.`,
});

/**
 * An owner call that failed, in words for a toast or a dialog. An answer that was no success
 * carries its HTTP status and the server's code (wire/api.js, ApiError); anything else means the
 * server could not be reached.
 * @param {unknown} error
 */
export function apiErrorText(error) {
  const answer = /** @type {{status?: unknown, code?: unknown, message?: unknown}} */ (error ?? {});
  if (typeof answer.status !== "number") return "the server could not be reached";
  if (answer.code === "forbidden" || answer.status === 403) return "only the board's owner can do that";
  if (answer.code === "board_not_found" || answer.status === 404) return "this link no longer opens the board";
  return String(answer.message);
}

/** What a display says around its countdown (pages/display.js, board/display_view.js). */
export const DISPLAY_WORDS = Object.freeze({
  /** Under an idle timer's countdown, its scheduled start in the board's zone. @param {string} time */
  startsAt: (time) => `Starts at ${time}`,
  noTimers: "No timers yet",
  missing: "This timer is not on the board any more",
  /** The name others see for a display in presence. */
  presenceName: "Display",
});

/** What the board page's Screens control says (board/screens_panel.js). */
export const SCREENS_WORDS = Object.freeze({
  noMessage: "No message on the screens.",
  /** @param {string} text @param {boolean} flash */
  showing: (text, flash) => `Showing${flash ? ", flashing" : ""}: “${text}”`,
  // What pressing the toggle does (aria-pressed says whether the screens are black).
  blackoutOn: "End the blackout",
  blackoutOff: "Black out the screens",
  /** @param {unknown} error */
  displayLinkFailed: (error) => `Could not load the display's link: ${apiErrorText(error)}.`,
});
