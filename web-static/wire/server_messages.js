// @ts-check
// What the server sends (docs/protocol.md), read and checked: a validating parser for every server
// message, whose errors name the field at fault. Pure: no DOM, no socket, no state.

import { BOARD_CHANGE, CHANGE, DEFAULT_LIMITS, DISPLAY, FIELD, KIND, MSG, PRESENCE, ROLES, RUN, TIMER_KINDS } from "./constants.js";
import { isValidId } from "./ids.js";
import { defaultDisplay, idleRun, withoutUndefined } from "./protocol.js";

/** @typedef {import("./protocol.js").Section} Section */
/** @typedef {import("./protocol.js").Timer} Timer */
/** @typedef {import("./protocol.js").Run} Run */
/** @typedef {import("./protocol.js").Change} Change */
/** @typedef {import("./protocol.js").Kind} Kind */
/** @typedef {import("./protocol.js").Role} Role */
/** @typedef {import("./protocol.js").Limits} Limits */
/** @typedef {import("./protocol.js").PresenceUser} PresenceUser */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage */
/** @typedef {import("./protocol.js").Display} Display */

/** A server message that does not follow docs/protocol.md. */
export class ProtocolError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ProtocolError";
  }
}

// MARK: server messages

/**
 * Parses and validates one server message. Returns null for a message type this client does not
 * know, so a newer server can add messages without breaking older pages.
 * @param {string | unknown} data the frame's text, or an already parsed object
 * @returns {ServerMessage | null}
 * @throws {ProtocolError} when the message is not valid JSON or breaks the protocol
 */
export function parseServerMessage(data) {
  let value = data;
  if (typeof data === "string") {
    try {
      value = JSON.parse(data);
    } catch {
      throw new ProtocolError("the message is not valid JSON");
    }
  }
  const r = new Reader(value, () => "message");
  const parse = SERVER_PARSERS[r.string("type")];
  return parse ? parse(r) : null;
}

/** @type {Record<string, (r: Reader) => ServerMessage>} */
const SERVER_PARSERS = {
  [MSG.welcome]: (r) => ({
    type: MSG.welcome,
    protocol: r.int("protocol"),
    serverTime: r.number("serverTime"),
    limits: parseLimits(r.object("limits")),
  }),
  [MSG.snapshot]: (r) => withoutUndefined({
    type: MSG.snapshot,
    board: r.string("board"),
    title: r.optional("title", "string"),
    rev: r.int("rev"),
    sections: r.array("sections").map(parseSection),
    timers: r.array("timers").map(parseTimer),
    // Absent: the defaults (no message, no blackout, UTC).
    display: r.has(DISPLAY.key) ? parseDisplay(r.object(DISPLAY.key)) : undefined,
  }),
  [MSG.access]: (r) => {
    const role = r.string("role");
    if (!ROLES.includes(role)) throw new ProtocolError(`${r.path}.role must be one of ${ROLES.join(", ")}`);
    return { type: MSG.access, board: r.string("board"), role: /** @type {Role} */ (role), userId: r.id(PRESENCE.userId) };
  },
  // `title` is optional: a server from before links sent none.
  [MSG.resume]: (r) => withoutUndefined({
    type: MSG.resume, board: r.string("board"), title: r.optional("title", "string"), since: r.int("since"), rev: r.int("rev"),
  }),
  [MSG.renamed]: (r) => ({ type: MSG.renamed, title: r.string("title") }),
  [MSG.changes]: (r) => ({ type: MSG.changes, rev: r.int("rev"), changes: r.array("changes").map(parseChange) }),
  [MSG.ack]: (r) => withoutUndefined({
    type: MSG.ack,
    opId: r.string("opId"),
    rev: r.int("rev"),
    duplicate: r.optional("duplicate", "bool") ?? false,
    // It changed nothing (the board had its values; an undo whose every field was changed since).
    unchanged: r.optional("unchanged", "bool") ?? false,
    // An undo's: what it left as it was, because someone changed it since.
    skipped: r.has(FIELD.skipped) ? r.array(FIELD.skipped).map((item) => withoutUndefined({ id: item.optional(FIELD.id, "string"), field: item.string("field") })) : undefined,
  }),
  [MSG.reject]: (r) => {
    const current = r.optional("current", "object");
    return withoutUndefined({
      type: MSG.reject,
      opId: r.string("opId"),
      code: r.string("code"),
      message: r.string("message"),
      op: r.optional("op", "int"),
      current: current ? parseEntity(current) : undefined,
      // With rate_limited: how long to wait before sending the same edit again.
      retryAfterMs: r.optional("retryAfterMs", "int"),
    });
  },
  [MSG.pong]: (r) => ({ type: MSG.pong, t: r.number("t"), serverTime: r.number("serverTime") }),
  [MSG.error]: (r) => withoutUndefined({
    type: MSG.error,
    code: r.string("code"),
    message: r.string("message"),
    // With rate_limited (a join over the budget): how long to wait before joining again.
    retryAfterMs: r.optional("retryAfterMs", "int"),
  }),
  // more: how many are on the board unlisted (a list names at most 100); absent: none, or, in a
  // presenceChanged, as many as before.
  [MSG.presence]: (r) => withoutUndefined({
    type: MSG.presence,
    users: r.array(PRESENCE.users).map(parsePresenceUser),
    more: r.optional(PRESENCE.more, "int"),
  }),
  [MSG.presenceChanged]: (r) => withoutUndefined({
    type: MSG.presenceChanged,
    users: r.array(PRESENCE.users).map(parsePresenceUser),
    left: parseUserIds(r, PRESENCE.left),
    more: r.optional(PRESENCE.more, "int"),
  }),
};

/** @param {Reader} r @returns {PresenceUser} */
function parsePresenceUser(r) {
  return withOptional({
    userId: r.id(PRESENCE.userId),
    name: r.string(PRESENCE.name),
    color: r.string(PRESENCE.color),
    // null (or absent) when they are not editing anything.
    editing: r.value[PRESENCE.editing] === null ? null : r.optional(PRESENCE.editing, "id") ?? null,
  }, PRESENCE.clockError, r.optional(PRESENCE.clockError, "int"));
}

/** @param {Reader} r @param {string} key @returns {string[]} */
function parseUserIds(r, key) {
  const value = r.value[key];
  if (!Array.isArray(value) || !value.every(isValidId)) throw new ProtocolError(`${r.path}.${key} must be an array of user ids`);
  return value;
}

/** @param {Reader} r @returns {Limits} */
function parseLimits(r) {
  /** @type {Record<string, number>} */
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS)) limits[key] = r.optional(key, "int") ?? limits[key];
  return /** @type {Limits} */ (limits);
}

// Entities are built with their optional fields added when present, not deleted when absent: V8
// turns an object it deletes a property from into a slow dictionary, and the store and views read
// these objects all the time.

/** @param {Reader} r @returns {Section} */
function parseSection(r) {
  const section = {
    id: r.id(FIELD.id),
    title: r.string(FIELD.title),
    isExpanded: r.bool(FIELD.isExpanded),
    createdDate: r.number(FIELD.createdDate),
    order: r.string(FIELD.order),
  };
  // sequence and loop only when sent (a server from before issue 18 sends neither): absent is false.
  withOptional(section, FIELD.sequence, r.optional(FIELD.sequence, "bool"));
  withOptional(section, FIELD.finishAt, r.nullable(FIELD.finishAt));
  return withOptional(section, FIELD.loop, r.optional(FIELD.loop, "bool"));
}

/** @param {Reader} r @returns {Timer} */
function parseTimer(r) {
  const timer = {
    id: r.id(FIELD.id),
    sectionID: r.id(FIELD.sectionID),
    title: r.string(FIELD.title),
    minutes: r.int(FIELD.minutes),
    seconds: r.int(FIELD.seconds),
    createdDate: r.number(FIELD.createdDate),
    order: r.string(FIELD.order),
    run: r.has(FIELD.run) ? parseRun(r.object(FIELD.run)) : idleRun(),
  };
  // Time of day (absent: a countdown, no schedule).
  withOptional(timer, FIELD.kind, r.timerKind(FIELD.kind));
  withOptional(timer, FIELD.startAt, r.nullable(FIELD.startAt));
  withOptional(timer, FIELD.targetAt, r.nullable(FIELD.targetAt));
  // Only when sent: absent is 0, no warning.
  return withOptional(timer, FIELD.warnAt, r.optional(FIELD.warnAt, "int"));
}

const RUN_STATUSES = [RUN.idle, RUN.running, RUN.paused, RUN.finished];

/** @param {Reader} r @returns {Run} */
function parseRun(r) {
  const status = r.string(RUN.status);
  if (!RUN_STATUSES.includes(status)) throw new ProtocolError(`${r.path}.${RUN.status} must be one of ${RUN_STATUSES.join(", ")}`);
  const startedAt = status === RUN.running ? r.number(RUN.startedAt) : r.optional(RUN.startedAt, "number");
  // finishedAt: only a finished run has one, and only from a server that knows overtime.
  const finishedAt = status === RUN.finished ? r.optional(RUN.finishedAt, "number") : undefined;
  const run = { status: /** @type {Run["status"]} */ (status), elapsed: r.number(RUN.elapsed) };
  withOptional(run, RUN.startedAt, startedAt);
  return withOptional(run, RUN.finishedAt, finishedAt);
}

/** A reject's `current` is a timer when it has a `sectionID`, else a section. */
function parseEntity(/** @type {Reader} */ r) {
  return r.has(FIELD.sectionID)
    ? { kind: /** @type {Kind} */ (KIND.timer), entity: parseTimer(r) }
    : { kind: /** @type {Kind} */ (KIND.section), entity: parseSection(r) };
}

/** Which fields an update may carry, and their JSON type. */
const UPDATE_FIELDS = {
  [KIND.section]: {
    [FIELD.title]: "string", [FIELD.isExpanded]: "bool", [FIELD.order]: "string", [FIELD.sequence]: "bool", [FIELD.loop]: "bool",
  },
  [KIND.timer]: {
    [FIELD.sectionID]: "id", [FIELD.title]: "string", [FIELD.minutes]: "int", [FIELD.seconds]: "int",
    [FIELD.order]: "string", [FIELD.warnAt]: "int",
  },
};
/** Fields an update may clear with null (time of day). */
const NULLABLE_FIELDS = { [KIND.section]: [FIELD.finishAt], [KIND.timer]: [FIELD.startAt, FIELD.targetAt] };

// MARK: the board's display (docs/protocol.md "Screens")

/** @param {Reader} r @returns {import("./protocol.js").Display} */
function parseDisplay(r) {
  return { ...defaultDisplay(), ...parseDisplayFields(r) };
}

/**
 * The display fields `r` carries (an update carries only those that changed; message null: none).
 * @param {Reader} r @returns {Partial<import("./protocol.js").Display>}
 */
function parseDisplayFields(r) {
  /** @type {Partial<import("./protocol.js").Display>} */
  const fields = {};
  if (r.has(DISPLAY.message)) {
    const message = r.value[DISPLAY.message] === null ? null : r.object(DISPLAY.message);
    fields.message = message && {
      text: message.string(DISPLAY.text), flash: message.optional(DISPLAY.flash, "bool") ?? false, shownAt: message.number(DISPLAY.shownAt),
    };
  }
  const blackout = r.optional(DISPLAY.blackout, "bool");
  if (blackout !== undefined) fields.blackout = blackout;
  const timeZone = r.optional(DISPLAY.timeZone, "string");
  if (timeZone !== undefined) fields.timeZone = timeZone;
  return fields;
}

/** @param {Reader} r @returns {Change} */
function parseChange(r) {
  if (r.value[CHANGE.update] === BOARD_CHANGE) return { action: CHANGE.update, kind: BOARD_CHANGE, fields: parseDisplayFields(r) };
  if (r.has(CHANGE.insert)) {
    const kind = r.kind(CHANGE.insert);
    return kind === KIND.section
      ? { action: CHANGE.insert, kind, entity: parseSection(r) }
      : { action: CHANGE.insert, kind, entity: parseTimer(r) };
  }
  if (r.has(CHANGE.update)) {
    const kind = r.kind(CHANGE.update);
    /** @type {Record<string, any>} */
    const fields = {};
    for (const [key, type] of Object.entries(UPDATE_FIELDS[kind])) {
      const value = r.optional(key, /** @type {FieldType} */ (type));
      if (value !== undefined) fields[key] = value;
    }
    for (const key of NULLABLE_FIELDS[kind]) withOptional(fields, key, r.nullable(key));
    if (kind === KIND.timer) withOptional(fields, FIELD.kind, r.timerKind(FIELD.kind));
    if (kind === KIND.timer && r.has(FIELD.run)) fields[FIELD.run] = parseRun(r.object(FIELD.run));
    return { action: CHANGE.update, kind, id: r.id(FIELD.id), fields };
  }
  if (r.has(CHANGE.delete)) {
    return { action: CHANGE.delete, kind: r.kind(CHANGE.delete), id: r.id(FIELD.id) };
  }
  throw new ProtocolError(`${r.path} must have one of insert, update, delete`);
}

// MARK: reading fields with their paths in the error messages

/** @typedef {"string" | "int" | "number" | "bool" | "id" | "object"} FieldType */

/** @type {Record<FieldType, (v: unknown) => boolean>} */
const CHECKS = {
  string: (v) => typeof v === "string",
  int: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  bool: (v) => typeof v === "boolean",
  id: isValidId,
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
};

class Reader {
  /**
   * @param {unknown} value
   * @param {() => string} pathOf where `value` is in the message ("message.timers[3].run"), for
   *   error messages: made only when one is thrown, not for each of a snapshot's 10,000 timers
   */
  constructor(value, pathOf) {
    if (!CHECKS.object(value)) throw new ProtocolError(`${pathOf()} must be an object`);
    this.value = /** @type {Record<string, unknown>} */ (value);
    this.pathOf = pathOf;
  }

  get path() {
    return this.pathOf();
  }

  /** @param {string} key */
  has(key) {
    return Object.hasOwn(this.value, key);
  }

  /** @param {string} key @param {FieldType} type */
  required(key, type) {
    if (!this.has(key)) throw new ProtocolError(`${this.path}.${key} is missing`);
    return this.optional(key, type);
  }

  /**
   * @param {string} key @param {FieldType} type
   * @returns {any} the value (undefined when absent), of the JSON type `type`; a Reader for objects
   */
  optional(key, type) {
    const value = this.value[key];
    if (value === undefined) return undefined;
    if (!CHECKS[type](value)) throw new ProtocolError(`${this.path}.${key} must be a valid ${type}`);
    return type === "object" ? new Reader(value, () => `${this.path}.${key}`) : value;
  }

  /** @param {string} key @returns {string} */ string(key) { return this.required(key, "string"); }
  /** @param {string} key @returns {number} */ int(key) { return this.required(key, "int"); }
  /** @param {string} key @returns {number} */ number(key) { return this.required(key, "number"); }
  /** @param {string} key @returns {boolean} */ bool(key) { return this.required(key, "bool"); }
  /** @param {string} key @returns {string} */ id(key) { return this.required(key, "id"); }
  /** @param {string} key @returns {Reader} */ object(key) { return this.required(key, "object"); }

  /** @param {string} key @returns {Reader[]} */
  array(key) {
    const value = this.value[key];
    if (!Array.isArray(value)) throw new ProtocolError(`${this.path}.${key} must be an array`);
    return value.map((item, index) => new Reader(item, () => `${this.path}.${key}[${index}]`));
  }

  /** A number, null (cleared) or undefined (absent). @param {string} key @returns {number | null | undefined} */
  nullable(key) {
    return this.value[key] === null ? null : this.optional(key, "number");
  }

  /** A timer's kind, or undefined when absent. @param {string} key */
  timerKind(key) {
    const kind = this.optional(key, "string");
    if (kind !== undefined && !TIMER_KINDS.includes(kind)) throw new ProtocolError(`${this.path}.${key} must be one of ${TIMER_KINDS.join(", ")}`);
    return /** @type {Timer["kind"]} */ (kind);
  }

  /** @param {string} key @returns {Kind} */
  kind(key) {
    const kind = this.string(key);
    if (kind !== KIND.section && kind !== KIND.timer) {
      throw new ProtocolError(`${this.path}.${key} must be section or timer`);
    }
    return kind;
  }
}

/**
 * `object` with `key` set to `value` when it is defined.
 * @template {Record<string, unknown>} T
 * @param {T} object @param {string} key @param {unknown} value
 * @returns {T}
 */
function withOptional(object, key, value) {
  if (value !== undefined) /** @type {Record<string, unknown>} */ (object)[key] = value;
  return object;
}
