// @ts-check
// protocol.js against the golden fixtures shared with the Swift tests (Tests/Fixtures/protocol/).

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";

import * as protocol from "../../web-static/wire/protocol.js";
import { isValidId, newClientId, newEntityId } from "../../web-static/wire/ids.js";
import { ProtocolError, parseServerMessage } from "../../web-static/wire/server_messages.js";

const FIXTURES = new URL("../../Tests/Fixtures/protocol/", import.meta.url);
/** @param {string} path e.g. "client/hello.json" */
const fixtureText = (path) => readFileSync(new URL(path, FIXTURES), "utf8").trim();
/** @param {string} path */
const fixture = (path) => JSON.parse(fixtureText(path));
/** @param {"client" | "server"} side */
const fixtureNames = (side) => readdirSync(new URL(`${side}/`, FIXTURES)).filter((n) => n.endsWith(".json")).sort();

describe("client message builders", () => {
  const { position } = protocol;
  /** Each builder call, keyed by the fixture it must reproduce. */
  const built = {
    "hello.json": protocol.helloMessage("py-7Hq2xK", "Kitchen script"),
    "join.json": protocol.joinMessage("kT3vQ9mZ2pXa", "Qm9hcmRTZWNyZXRFZGl0MQ"),
    "join-since.json": protocol.joinMessage("kT3vQ9mZ2pXa", "Qm9hcmRTZWNyZXRFZGl0MQ", 42),
    "ping.json": protocol.pingMessage(1763740800123),
    "presence.json": protocol.presenceMessage("sec-prep"),
    "edit-run-timers.json": protocol.editMessage("20", [
      protocol.startTimer({ id: "tim-eggs" }),
      protocol.pauseTimer({ id: "tim-eggs" }),
      protocol.resetTimer({ id: "tim-eggs" }),
      protocol.startSection({ id: "sec-prep" }),
      protocol.pauseSection({ id: "sec-prep" }),
    ]),
    "edit-rename-section.json": protocol.editMessage("17", [protocol.updateSection({ id: "sec-prep", title: "Mise en place" })]),
    // Issue 18.
    "edit-adjust-timer.json": protocol.editMessage("21", [
      protocol.adjustTimer({ id: "tim-eggs", by: 60000 }),
      protocol.adjustTimer({ id: "tim-bread", by: -60000 }),
    ]),
    "edit-sequence.json": protocol.editMessage("22", [
      protocol.addSection({ id: "sec-hiit", title: "Rounds", isExpanded: true, sequence: true, loop: true, position: position.last }),
      protocol.updateSection({ id: "sec-prep", sequence: true, loop: false }),
      protocol.skipSection({ id: "sec-prep" }),
      protocol.restartSection({ id: "sec-hiit" }),
    ]),
    "edit-warn-at.json": protocol.editMessage("23", [
      protocol.addTimer({ id: "tim-tea", sectionID: "sec-prep", title: "Tea", minutes: 4, seconds: 0, warnAt: 60000, position: position.first }),
      protocol.updateTimer({ id: "tim-eggs", warnAt: 0 }),
    ]),
    "presence-clock-error.json": protocol.presenceMessage(null, 12),
    // Issue 32.
    "edit-undo.json": protocol.undoMessage("u-18", "17"),
    // Issues 30 and 35: null clears a start, a target and a finish.
    "edit-time-of-day.json": protocol.editMessage("7", [
      protocol.addTimer({ id: "tim-doors", sectionID: "sec-show", title: "Doors", minutes: 0, seconds: 0, kind: "toTime", targetAt: 1763796600000, position: position.last }),
      protocol.updateTimer({ id: "tim-keynote", startAt: 1763794800000 }),
      protocol.updateTimer({ id: "tim-talk", startAt: null }),
      protocol.updateSection({ id: "sec-breakfast", finishAt: 1763794800000 }),
      protocol.updateSection({ id: "sec-lunch", finishAt: null }),
      protocol.showMessage({ text: "Wrap up", flash: true }),
      protocol.clearMessage(),
      protocol.setBlackout({ on: true }),
      protocol.setTimeZone("Europe/Paris"),
    ]),
    "edit-every-op.json": protocol.editMessage("3", [
      protocol.addSection({ id: "sec-bake", title: "Bake", isExpanded: true, position: position.last }),
      protocol.addTimer({ id: "tim-bread", sectionID: "sec-bake", title: "Bread", minutes: 35, seconds: 0, position: position.first }),
      protocol.moveTimer({ id: "tim-eggs", sectionID: "sec-bake", position: position.after("tim-bread") }),
      protocol.updateTimer({ id: "tim-eggs", title: "Soft eggs", minutes: 6, seconds: 30 }),
      protocol.updateSection({ id: "sec-bake", isExpanded: false }),
      protocol.moveSection({ id: "sec-bake", position: position.before("sec-prep") }),
      protocol.deleteTimer({ id: "tim-bread" }),
      protocol.deleteSection({ id: "sec-prep" }),
    ]),
  };

  test("there is a builder case for every client fixture the page sends", () => {
    // A page never sends `leave`: it leaves a board by closing its socket.
    assert.deepEqual(Object.keys(built).sort(), fixtureNames("client").filter((name) => name !== "leave.json"));
  });

  for (const [name, message] of Object.entries(built)) {
    test(`builds client/${name} exactly`, () => {
      assert.deepStrictEqual(message, fixture(`client/${name}`));
      // Same keys in the same order too, so the bytes match the documented example.
      assert.equal(JSON.stringify(message), fixtureText(`client/${name}`));
    });
  }

  test("join without since and hello without name leave the fields out", () => {
    assert.deepStrictEqual(protocol.joinMessage("b1", "s1", null), { type: "join", board: "b1", secret: "s1" });
    assert.deepStrictEqual(protocol.helloMessage("c1"), { type: "hello", protocol: 1, clientId: "c1" });
    assert.deepStrictEqual(protocol.moveTimer({ id: "t1", position: "last" }), { op: "moveTimer", id: "t1", position: "last" });
  });

  test("presence sends null, not nothing, when the user stops editing", () => {
    assert.equal(JSON.stringify(protocol.presenceMessage(null)), '{"type":"presence","editing":null}');
  });
});

describe("server message parser", () => {
  for (const name of fixtureNames("server")) {
    test(`parses server/${name}`, () => {
      const message = parseServerMessage(fixtureText(`server/${name}`));
      assert.ok(message, "a known message type");
      assert.equal(message.type, fixture(`server/${name}`).type);
    });
  }

  test("snapshot keeps every field of sections and timers", () => {
    const message = parseServerMessage(fixture("server/snapshot.json"));
    assert.deepStrictEqual(message, {
      type: "snapshot",
      board: "kT3vQ9mZ2pXa",
      title: "Kitchen",
      rev: 3,
      sections: [{ id: "sec-prep", title: "Prep", isExpanded: true, createdDate: 1763740800000, order: "a0" }],
      timers: [{
        id: "tim-eggs", sectionID: "sec-prep", title: "Eggs", minutes: 7, seconds: 30, createdDate: 1763740801000, order: "a0",
        run: { status: "idle", elapsed: 0 },
      }],
    });
  });

  test("changes are normalised to action, kind, id and fields", () => {
    const message = parseServerMessage(fixture("server/changes-mixed.json"));
    assert.deepStrictEqual(message, {
      type: "changes",
      rev: 9,
      changes: [
        { action: "delete", kind: "timer", id: "tim-eggs" },
        { action: "insert", kind: "section", entity: { id: "sec-bake", title: "Bake", isExpanded: true, createdDate: 1763740805000, order: "a1" } },
        { action: "update", kind: "timer", id: "tim-milk", fields: { sectionID: "sec-bake", order: "a0" } },
        { action: "delete", kind: "section", id: "sec-prep" },
        {
          action: "insert", kind: "timer",
          entity: {
            id: "tim-bread", sectionID: "sec-bake", title: "Bread", minutes: 35, seconds: 0, createdDate: 1763740805000, order: "a1",
            run: { status: "idle", elapsed: 0 },
          },
        },
      ],
    });
  });

  test("an update carries only the fields it names", () => {
    const message = parseServerMessage(fixture("server/changes-toggle-section.json"));
    assert.deepStrictEqual(message, { type: "changes", rev: 5, changes: [{ action: "update", kind: "section", id: "sec-prep", fields: { isExpanded: false } }] });
  });

  test("ack: duplicate and unchanged default to false", () => {
    assert.deepStrictEqual(parseServerMessage(fixture("server/ack.json")), { type: "ack", opId: "17", rev: 4, duplicate: false, unchanged: false });
    assert.deepStrictEqual(parseServerMessage(fixture("server/ack-duplicate.json")), { type: "ack", opId: "17", rev: 4, duplicate: true, unchanged: false });
    assert.deepStrictEqual(parseServerMessage(fixture("server/ack-undo-unchanged.json")), {
      type: "ack", opId: "u-19", rev: 5, duplicate: false, unchanged: true, skipped: [{ id: "sec-prep", field: "title" }],
    });
  });

  test("reject: current is a timer when it has a sectionID; op and current are optional", () => {
    const reject = parseServerMessage(fixture("server/reject.json"));
    assert.deepStrictEqual(reject, {
      type: "reject", opId: "18", code: "invalid_field", message: "minutes must be between 0 and 999", op: 0,
      current: { kind: "timer", entity: fixture("server/reject.json").current },
    });
    const limited = parseServerMessage(fixture("server/reject-rate-limited.json"));
    assert.deepStrictEqual(limited, fixture("server/reject-rate-limited.json"), "rate_limited keeps its retryAfterMs");
    const notFound = parseServerMessage(fixture("server/reject-not-found.json"));
    assert.deepStrictEqual(notFound, { type: "reject", opId: "19", code: "not_found", message: "no timer with id tim-gone", op: 0 });
  });

  test("welcome: the announced limits", () => {
    const welcome = parseServerMessage(fixture("server/welcome.json"));
    assert.equal(welcome?.type, "welcome");
    assert.deepStrictEqual(welcome.limits, fixture("server/welcome.json").limits);
  });

  test("resume, pong and error keep their fields", () => {
    assert.deepStrictEqual(parseServerMessage(fixture("server/resume.json")), fixture("server/resume.json"));
    assert.deepStrictEqual(parseServerMessage(fixture("server/pong.json")), fixture("server/pong.json"));
    assert.deepStrictEqual(parseServerMessage(fixture("server/error.json")), fixture("server/error.json"));
  });

  test("an unknown message type is skipped, not an error (newer servers may add some)", () => {
    assert.equal(parseServerMessage('{"type":"typing","people":[]}'), null);
  });

  test("presence: everyone on the board, editing null or an id", () => {
    assert.deepStrictEqual(parseServerMessage(fixture("server/presence.json")), fixture("server/presence.json"));
  });

  test("presenceChanged: who arrived or changed, and who left", () => {
    assert.deepStrictEqual(parseServerMessage(fixture("server/presenceChanged.json")), fixture("server/presenceChanged.json"));
    assert.throws(() => parseServerMessage('{"type":"presenceChanged","users":[],"left":[7]}'), /left must be an array of user ids/);
  });

  test("a full presence list counts the users it does not name (more)", () => {
    assert.deepStrictEqual(parseServerMessage(fixture("server/presence-more.json")), fixture("server/presence-more.json"));
    assert.deepStrictEqual(parseServerMessage(fixture("server/presenceChanged-more.json")), fixture("server/presenceChanged-more.json"));
    assert.equal("more" in /** @type {object} */ (parseServerMessage(fixture("server/presence.json"))), false);
    assert.throws(() => parseServerMessage('{"type":"presence","users":[],"more":"many"}'), /more/);
  });

  test("presence users are named by userId (issue 13), never by clientId", () => {
    const users = parseServerMessage(fixture("server/presence.json"));
    assert.deepEqual(users?.type === "presence" && users.users.map((u) => u.userId), ["Xq3v9KpL2mTa8Rw", "b7Rk2LmQ9xTp4Wz"]);
    assert.throws(() => parseServerMessage({ type: "presence", users: [{ clientId: "web-x", name: "Ada", color: "#d9480f", editing: null }] }), /userId is missing/);
  });

  test("access: the board, the role and the userId", () => {
    assert.deepStrictEqual(parseServerMessage(fixture("server/access.json")),
      { type: "access", board: "kT3vQ9mZ2pXa", role: "edit", userId: "Xq3v9KpL2mTa8Rw" });
    for (const role of ["owner", "view"]) {
      assert.equal(/** @type {any} */ (parseServerMessage({ ...fixture("server/access.json"), role }))?.role, role);
    }
    assert.throws(() => parseServerMessage({ ...fixture("server/access.json"), role: "admin" }), /role must be one of owner, edit, view/);
    assert.throws(() => parseServerMessage({ ...fixture("server/access.json"), userId: "has space" }), ProtocolError);
  });

  test("renamed: the new title", () => {
    assert.deepStrictEqual(parseServerMessage(fixture("server/renamed.json")), { type: "renamed", title: "Kitchen, Saturday" });
    assert.throws(() => parseServerMessage({ type: "renamed" }), /title is missing/);
  });

  test("resume carries the title now, and a resume without one (an older server) still parses", () => {
    assert.equal(/** @type {any} */ (parseServerMessage(fixture("server/resume.json")))?.title, "Kitchen");
    const { title, ...old } = fixture("server/resume.json");
    assert.deepStrictEqual(parseServerMessage(old), { type: "resume", board: "kT3vQ9mZ2pXa", since: 42, rev: 44 });
  });

  test("run: a timer's running state, in snapshots, inserts and updates", () => {
    const start = parseServerMessage(fixture("server/changes-start-timer.json"));
    assert.deepStrictEqual(start?.type === "changes" && start.changes, [
      { action: "update", kind: "timer", id: "tim-eggs", fields: { run: { status: "running", startedAt: 1763740802000, elapsed: 0 } } },
    ]);
    const finished = parseServerMessage(fixture("server/changes-timer-finished.json"));
    assert.deepStrictEqual(finished?.type === "changes" && finished.changes[0], {
      action: "update", kind: "timer", id: "tim-eggs", fields: { run: { status: "finished", elapsed: 450000 } },
    });
    const snapshot = fixture("server/snapshot.json");
    const { run, ...withoutRun } = snapshot.timers[0];
    const old = parseServerMessage({ ...snapshot, timers: [withoutRun] });
    assert.deepStrictEqual(old?.type === "snapshot" && old.timers[0].run, { status: "idle", elapsed: 0 }, "a timer without run is idle");
  });

  // MARK: issue 18

  test("a sequence snapshot: sequence and loop on the section, warnAt on a timer, finishedAt on a finished run, a negative elapsed", () => {
    const message = parseServerMessage(fixture("server/snapshot-sequence.json"));
    assert.ok(message?.type === "snapshot");
    assert.deepStrictEqual(message.sections, [
      { id: "sec-hiit", title: "Rounds", isExpanded: true, createdDate: 1763740800000, order: "a0", sequence: true, loop: true },
    ]);
    assert.deepStrictEqual(message.timers.map((t) => [t.id, t.warnAt, t.run]), [
      ["tim-work", 10000, { status: "finished", elapsed: 45000, finishedAt: 1763740845000 }],
      ["tim-rest", undefined, { status: "running", startedAt: 1763740845000, elapsed: -60000 }],
    ]);
  });

  test("updates carry the new fields, back to their defaults too", () => {
    const section = parseServerMessage(fixture("server/changes-sequence-section.json"));
    assert.deepStrictEqual(section?.type === "changes" && section.changes,
      [{ action: "update", kind: "section", id: "sec-prep", fields: { sequence: true, loop: false } }]);
    const warn = parseServerMessage(fixture("server/changes-warn-at.json"));
    assert.deepStrictEqual(warn?.type === "changes" && warn.changes, [{ action: "update", kind: "timer", id: "tim-eggs", fields: { warnAt: 60000 } }]);
    const finished = parseServerMessage(fixture("server/changes-timer-finished-at.json"));
    assert.deepStrictEqual(finished?.type === "changes" && finished.changes[0],
      { action: "update", kind: "timer", id: "tim-eggs", fields: { run: { status: "finished", elapsed: 450000, finishedAt: 1763741252000 } } });
    const adjusted = parseServerMessage(fixture("server/changes-adjust-timer.json"));
    assert.deepStrictEqual(adjusted?.type === "changes" && adjusted.changes[0],
      { action: "update", kind: "timer", id: "tim-eggs", fields: { run: { status: "running", startedAt: 1763740802000, elapsed: -60000 } } });
  });

  test("a hand-over is one changeset: the finished timer's finishedAt is the next one's startedAt", () => {
    const message = parseServerMessage(fixture("server/changes-sequence-hand-over.json"));
    assert.ok(message?.type === "changes");
    const [done, next] = message.changes.map((c) => /** @type {any} */ (c).fields.run);
    assert.equal(done.status, "finished");
    assert.equal(next.status, "running");
    assert.equal(done.finishedAt, next.startedAt);
  });

  test("presence users carry clockError when they reported one", () => {
    assert.deepStrictEqual(parseServerMessage(fixture("server/presence-clock-error.json")), fixture("server/presence-clock-error.json"));
    assert.deepStrictEqual(parseServerMessage(fixture("server/presenceChanged-clock-error.json")), fixture("server/presenceChanged-clock-error.json"));
    assert.throws(() => parseServerMessage({ type: "presence", users: [{ userId: "a", name: "A", color: "#000", editing: null, clockError: 1.5 }] }), ProtocolError);
  });

  test("invalid_state and a refused warning point are rejects like any other", () => {
    for (const name of ["reject-invalid-state.json", "reject-warn-at.json"]) {
      const reject = parseServerMessage(fixture(`server/${name}`));
      assert.ok(reject?.type === "reject" && reject.current?.kind === "timer", name);
    }
  });

  /** @type {[string, unknown][]} */
  const broken = [
    ["not JSON", "{nope"],
    ["not an object", "[1,2]"],
    ["no type", { rev: 1 }],
    ["changes without rev", { type: "changes", changes: [] }],
    ["a fractional rev", { type: "changes", rev: 1.5, changes: [] }],
    ["changes not an array", { type: "changes", rev: 1, changes: {} }],
    ["a change with no action", { type: "changes", rev: 1, changes: [{ id: "a" }] }],
    ["a change of an unknown kind", { type: "changes", rev: 1, changes: [{ update: "folder", id: "a" }] }],
    ["an update with a wrong field type", { type: "changes", rev: 1, changes: [{ update: "section", id: "a", isExpanded: "yes" }] }],
    ["an invalid id", { type: "changes", rev: 1, changes: [{ delete: "timer", id: "has space" }] }],
    ["an insert missing a field", { type: "changes", rev: 1, changes: [{ insert: "section", id: "a", title: "A", createdDate: 1, order: "V" }] }],
    ["a snapshot timer with string minutes", { ...fixture("server/snapshot.json"), timers: [{ ...fixture("server/snapshot.json").timers[0], minutes: "7" }] }],
    ["an ack without opId", { type: "ack", rev: 1 }],
    ["a reject with a broken current", { ...fixture("server/reject.json"), current: { id: "x" } }],
    ["presence without users", { type: "presence", people: [] }],
    ["a presence user without a userId", { type: "presence", users: [{ name: "Ada", color: "#d9480f", editing: null }] }],
    ["a presence user editing a bad id", { type: "presence", users: [{ userId: "a", name: "Ada", color: "#d9480f", editing: "no way" }] }],
    ["an access without a role", { type: "access", board: "kT3vQ9mZ2pXa", userId: "Xq3v9KpL2mTa8Rw" }],
    ["a renamed with a numeric title", { type: "renamed", title: 7 }],
    ["a run of an unknown status", { type: "changes", rev: 1, changes: [{ update: "timer", id: "t", run: { status: "late", elapsed: 0 } }] }],
    ["a running run without startedAt", { type: "changes", rev: 1, changes: [{ update: "timer", id: "t", run: { status: "running", elapsed: 0 } }] }],
  ];
  for (const [what, message] of broken) {
    test(`refuses ${what}`, () => {
      assert.throws(() => parseServerMessage(message), ProtocolError);
    });
  }

  test("says where in the message the fault is, down to the item of a list", () => {
    const snapshot = fixture("server/snapshot.json");
    const timer = snapshot.timers[0];
    const badRun = { ...snapshot, timers: [timer, { ...timer, id: "t2", run: { status: "late", elapsed: 0 } }] };
    assert.throws(() => parseServerMessage(badRun), /^ProtocolError: message\.timers\[1\]\.run\.status must be one of/);
    const noTitle = { ...snapshot, sections: [{ ...snapshot.sections[0], title: undefined }] };
    assert.throws(() => parseServerMessage(JSON.stringify(noTitle)), /^ProtocolError: message\.sections\[0\]\.title is missing/);
    assert.throws(() => parseServerMessage({ ...snapshot, timers: [timer, 7] }), /^ProtocolError: message\.timers\[1\] must be an object/);
  });
});

describe("ids", () => {
  test("entity ids: kind prefix + 12 base62 characters, valid on the wire", () => {
    const section = newEntityId("section");
    const timer = newEntityId("timer");
    assert.match(section, /^s[0-9A-Za-z]{12}$/);
    assert.match(timer, /^t[0-9A-Za-z]{12}$/);
    assert.ok(isValidId(section) && isValidId(timer));
  });

  test("ids do not repeat", () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newEntityId("timer")));
    assert.equal(ids.size, 2000);
    assert.notEqual(newClientId(), newClientId());
  });

  test("a client id is 15 characters, which the server keeps without a heap allocation", () => {
    const id = newClientId();
    assert.match(id, /^web[0-9A-Za-z]{12}$/);
    assert.ok(isValidId(id));
  });

  test("id validity follows the protocol: 1 to 64 of A-Z a-z 0-9 _ -", () => {
    assert.ok(isValidId("a"));
    assert.ok(isValidId("x".repeat(64)));
    assert.ok(isValidId("sec_prep-2"));
    assert.ok(!isValidId(""));
    assert.ok(!isValidId("x".repeat(65)));
    assert.ok(!isValidId("é"));
    assert.ok(!isValidId(7));
  });
});
