// @ts-check
// Every wire name and every tunable of the browser client, in one place (docs/protocol.md is the
// contract these names come from). Other modules never spell a wire key as a bare string.

/** The protocol version this client speaks (`hello.protocol`). */
export const PROTOCOL_VERSION = 1;

/** Message types, both directions. */
export const MSG = Object.freeze({
  // client → server
  hello: "hello",
  join: "join",
  edit: "edit",
  ping: "ping",
  leave: "leave",
  presence: "presence",
  // server → client
  welcome: "welcome",
  access: "access",
  snapshot: "snapshot",
  resume: "resume",
  changes: "changes",
  ack: "ack",
  reject: "reject",
  pong: "pong",
  error: "error",
  presenceChanged: "presenceChanged",
  renamed: "renamed",
});

/** Operation names of an edit's `ops`. */
export const OP = Object.freeze({
  addSection: "addSection",
  updateSection: "updateSection",
  moveSection: "moveSection",
  deleteSection: "deleteSection",
  addTimer: "addTimer",
  updateTimer: "updateTimer",
  moveTimer: "moveTimer",
  deleteTimer: "deleteTimer",
  startTimer: "startTimer",
  pauseTimer: "pauseTimer",
  resetTimer: "resetTimer",
  startSection: "startSection",
  pauseSection: "pauseSection",
  /** More (by > 0) or less time left on a running or paused timer; composes with concurrent ones. */
  adjustTimer: "adjustTimer",
  /** A sequence section: its current timer finishes now and the next starts. */
  skipSection: "skipSection",
  /** A sequence section: every timer back to idle, the first starts now. */
  restartSection: "restartSection",
  /** Undoes this client's own earlier edit, named by its opId (redo: an undo of the undo). */
  undo: "undo",
  /** The board's time zone (an IANA name): every screen shows wall-clock times in it. */
  setTimeZone: "setTimeZone",
  /** What every display shows (docs/protocol.md "Screens"): a message, a blackout. */
  showMessage: "showMessage",
  clearMessage: "clearMessage",
  setBlackout: "setBlackout",
});

/** The key that names a change's action, and the entity kinds it applies to. */
export const CHANGE = Object.freeze({ insert: "insert", update: "update", delete: "delete" });
export const KIND = Object.freeze({ section: "section", timer: "timer" });
/** `{"update":"board", …}`: a change of the board's own state (its `display`), with no id. */
export const BOARD_CHANGE = "board";

/** The board's `display` (docs/protocol.md "Screens") and its fields, as spelled on the wire. */
export const DISPLAY = Object.freeze({
  key: "display",
  message: "message",
  text: "text",
  flash: "flash",
  shownAt: "shownAt",
  blackout: "blackout",
  timeZone: "timeZone",
  on: "on",
  /** What a board without `display` in its snapshot shows. */
  defaultTimeZone: "UTC",
});

/** Entity fields, as spelled on the wire. */
export const FIELD = Object.freeze({
  id: "id",
  sectionID: "sectionID",
  title: "title",
  isExpanded: "isExpanded",
  minutes: "minutes",
  seconds: "seconds",
  createdDate: "createdDate",
  order: "order",
  run: "run",
  position: "position",
  /** A timer's warning point: ms of time left at which it turns amber (0 or absent: none). */
  warnAt: "warnAt",
  /** A section whose timers run one after another, and whether it starts over after the last. */
  sequence: "sequence",
  loop: "loop",
  /** adjustTimer's amount, in ms (positive: more time left). */
  by: "by",
  /** Time of day (docs/protocol.md): a timer's kind, its scheduled start, its target instant; a section's finish. */
  kind: "kind",
  startAt: "startAt",
  targetAt: "targetAt",
  finishAt: "finishAt",
  /** An undo's ack: what it left alone because someone changed it since. */
  skipped: "skipped",
});

/** A timer's kinds (absent on the wire: countdown). */
export const TIMER_KIND = Object.freeze({ countdown: "countdown", countUp: "countUp", toTime: "toTime", clock: "clock" });
export const TIMER_KINDS = Object.freeze(Object.values(TIMER_KIND));
/** A board's time zone until it says otherwise. */
export const DEFAULT_TIME_ZONE = "UTC";

/** A timer's running state (`run`, docs/protocol.md "Timers that run"). */
export const RUN = Object.freeze({
  status: "status",
  startedAt: "startedAt",
  elapsed: "elapsed",
  /** When a finished timer reached zero (its deadline), in server ms: overtime counts from it. */
  finishedAt: "finishedAt",
  idle: "idle",
  running: "running",
  paused: "paused",
  finished: "finished",
});

/** Fields of a presence message's users. */
export const PRESENCE = Object.freeze({
  users: "users",
  left: "left",
  /** How many on the board the list does not name. */
  more: "more",
  userId: "userId",
  name: "name",
  color: "color",
  editing: "editing",
  /** The ± bound, in ms, of a screen's estimate of the server's clock (absent: not reported). */
  clockError: "clockError",
});

/** Fields a change may carry, per kind (inserts carry all of them, plus `id` and `createdDate`). */
export const SECTION_FIELDS = Object.freeze([FIELD.title, FIELD.isExpanded, FIELD.order, FIELD.sequence, FIELD.loop, FIELD.finishAt]);
export const TIMER_FIELDS = Object.freeze([FIELD.sectionID, FIELD.title, FIELD.minutes, FIELD.seconds, FIELD.order, FIELD.run, FIELD.warnAt, FIELD.kind, FIELD.startAt, FIELD.targetAt]);

/** Positions of an added or moved item among its siblings. */
export const POSITION = Object.freeze({ first: "first", last: "last", before: "before", after: "after" });

/** Error codes the client treats specially (the rest are shown as their message). */
export const ERROR_CODE = Object.freeze({
  boardNotFound: "board_not_found",
  versionMismatch: "version_mismatch",
  helloRequired: "hello_required",
  notJoined: "not_joined",
  forbidden: "forbidden",
  /** An edit over the connection's budget: nothing changed, send it again after `retryAfterMs`. */
  rateLimited: "rate_limited",
});

/** What a link lets its holder do (docs/protocol.md, "Links and roles"), strongest first. */
export const ROLE = Object.freeze({ owner: "owner", edit: "edit", view: "view" });
export const ROLES = Object.freeze([ROLE.owner, ROLE.edit, ROLE.view]);
/** A link's secret as this client accepts it (the server makes 22 of these characters). */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** Close codes the server ends a board's sockets with: no reconnect after these. */
export const CLOSE_CODE = Object.freeze({ linkReplaced: 4403, boardDeleted: 4410 });

/** Why a board page stopped for good, as shown by #ended-page[data-reason]. */
export const ENDED = Object.freeze({
  /** The page was opened without a secret in its fragment. */
  noSecret: "no-secret",
  /** The join was answered board_not_found: a wrong secret, or no such board. */
  wrongLink: "wrong-link",
  /** Close 4403: the owner replaced the link this page joined with. */
  replaced: "replaced",
  /** Close 4410: the owner deleted the board. */
  deleted: "deleted",
});

/** Why the connection says more than its state (besides ENDED): the page speaks an older protocol; a join the server could not answer yet. */
export const DETAIL = Object.freeze({ outdated: "outdated", joinFailed: "join-failed" });

/** Limits assumed until the server's `welcome` says otherwise (the protocol's defaults). */
export const DEFAULT_LIMITS = Object.freeze({
  maxMessageBytes: 65536,
  maxOpsPerEdit: 100,
  maxTitleLength: 200,
  maxMinutes: 999,
  maxSeconds: 59,
  maxSections: 1000,
  maxTimers: 10000,
});

/** Ids: 1 to 64 of these characters; ours are a kind prefix plus ID_RANDOM_LENGTH base62 chars. */
export const ID_CHARACTERS = "[A-Za-z0-9_-]{1,64}";
export const ID_PATTERN = new RegExp(`^${ID_CHARACTERS}$`);
export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const ID_RANDOM_LENGTH = 12;
// A client id is "web" and 12 characters: 15 bytes, which the server keeps inside each
// connection's own string, with no heap allocation (16 cost 64 bytes per idle connection).
export const ID_PREFIX = Object.freeze({ section: "s", timer: "t", client: "web" });

/** Order keys: digits in ASCII order, so byte order is sort order (docs/protocol.md, "Changes"). */
export const ORDER_DIGITS = BASE62;

/** Connection states shown by `#connection[data-state]`. */
export const CONNECTION = Object.freeze({
  connecting: "connecting",
  live: "live",
  /** On an open socket, waiting for the answer to a join (after a gap, or a join the server refused). */
  joining: "joining",
  reconnecting: "reconnecting",
  offline: "offline",
});

// MARK: tunables

/** Where the WebSocket lives, relative to the page's host. */
export const WS_PATH = "/ws";
/**
 * A heartbeat keeps proxies from closing an idle socket and notices a dead one: a network that
 * drops silently (no close reaches the browser) is noticed within PING + PONG, 10 s, so a wall
 * screen says it is offline instead of showing a stale board (it was 25 s). The cost is one small
 * message each way every 5 s.
 */
export const PING_INTERVAL_MS = 5000;
/** No pong this long after a ping: the socket is dead even if the browser has not noticed. */
export const PONG_TIMEOUT_MS = 5000;
/** No welcome this long after opening: give up on this socket and try again. */
export const HANDSHAKE_TIMEOUT_MS = 10000;
/** Reconnect delays grow from BASE to MAX; each is scaled by a random factor in [1 - JITTER, 1]. */
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 15000;
export const BACKOFF_JITTER = 0.5;
/**
 * A rate_limited edit is sent again after the server's `retryAfterMs`, scaled by a random factor in
 * [1, 1 + JITTER] (never earlier than asked, and not in step with other pages); DEFAULT when a
 * reject says no wait. The user is told only once edits have been held back for WARN_MS.
 */
export const RATE_LIMIT_JITTER = 0.25;
export const RATE_LIMIT_DEFAULT_RETRY_MS = 1000;
export const RATE_LIMIT_WARN_MS = 10000;
/** How long a toast stays on screen. */
export const TOAST_MS = 5000;
/** What `hello.name` says about us: the name the user chose, else "Guest" and a number. */
export const NAME_MAX_LENGTH = 40;
export const GUEST_NAME_PREFIX = "Guest ";
/** Clock sync (clock.js): pings sent one after another when joining and when the page shows again. */
export const CLOCK_SYNC_PINGS = 4;
/** How fast a kept clock sample loses trust, in ms per ms of age (two clocks drift up to ~100 ppm). */
export const CLOCK_DRIFT_RATE = 1e-4;
/** How long the "timer finished" beep lasts, and its pitch, when sound is on. */
export const BEEP_MS = 180;
export const BEEP_HZ = 880;
export const BEEP_COUNT = 3;
/** What the "+1 min" and "−1 min" buttons add to or take from a running or paused timer. */
export const ADJUST_MS = 60000;
/**
 * Clock sync shown to everyone (presence `clockError`): this page tells its bound again when it
 * moved by more than STEP_MS, at most once per INTERVAL_MS; screens above OFF_MS are named.
 */
export const CLOCK_ERROR_STEP_MS = 5;
export const CLOCK_ERROR_INTERVAL_MS = 1000;
export const CLOCK_ERROR_MAX_MS = 60000;
export const CLOCK_ERROR_OFF_MS = 50;

// MARK: HTTP and local storage

export const API_BOARDS = "/api/boards";
/** A board's page is /b/ID (links.js reads it; early_paint.js only looks for the prefix). */
export const BOARD_PATH_PREFIX = "/b/";
/**
 * The boards this browser opened, with their links (secrets included): the only list of boards a
 * user has, since the server lists boards to its operator only. A new key: entries of the old
 * "timerboard.recentBoards" hold no secret and open nothing now.
 */
export const BOARDS_KEY = "timerboard.boards";
/** Generous, since forgetting an owner link loses the board's settings for good. */
export const BOARDS_MAX = 100;
/** The display name the user chose (or was given), shared by every board on this device. */
export const NAME_KEY = "timerboard.name";
/** Whether a finished timer beeps on this device ("on"; off unless the user turned it on). */
export const SOUND_KEY = "timerboard.sound";
/** Whether system notifications are wanted on this device ("off" once turned off; the browser's permission decides the rest). */
export const NOTIFY_KEY = "timerboard.notify";
/** Whether this device shows boards in run mode (large countdowns, no lengths, moves or deletes): "run" or absent. */
export const MODE_KEY = "timerboard.mode";
