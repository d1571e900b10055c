// @ts-check
// The parser and the store keep what time of day (issue 30) and undo (issue 32) added to the wire:
// a timer's kind, startAt and targetAt, a section's finishAt (null clears each), the board's
// display and its `{"update":"board"}` changes, and an undo's `skipped`. Fed with the store's
// format-3 fixtures, which hold every one of these fields as the server writes them.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { parseServerMessage } from "../../web-static/wire/server_messages.js";
import { Store } from "../../web-static/model/store.js";

const STORE_FIXTURES = new URL("../../Tests/Fixtures/store/", import.meta.url);
/** @param {string} name */
const fixture = (name) => JSON.parse(readFileSync(new URL(name, STORE_FIXTURES), "utf8"));

function storeOfFormat3() {
  const store = new Store();
  store.loadSnapshot(/** @type {any} */ (parseServerMessage({ type: "snapshot", board: "b1", rev: 1, ...fixture("format3-board.json") })));
  return store;
}

test("a snapshot keeps kind, startAt, targetAt, finishAt and the display", () => {
  const store = storeOfFormat3();
  const board = fixture("format3-board.json");
  assert.deepStrictEqual(store.confirmed.sections.get("s1"), board.sections[0]);
  for (const timer of board.timers) assert.deepStrictEqual(store.confirmed.timers.get(timer.id), timer);
  assert.deepStrictEqual(store.displayed.display, board.display);
  assert.equal(store.displayed.display.timeZone, "Europe/Paris");
});

test("changes set and clear them, and update the board's display", () => {
  const store = storeOfFormat3();
  const result = store.applyChangeset(/** @type {any} */ (parseServerMessage({ type: "changes", rev: 2, changes: fixture("format3-changes.json") })));
  assert.equal(result.status, "applied");
  const board = store.confirmed;
  assert.equal(board.sections.get("s1")?.finishAt, null, "finishAt cleared");
  assert.equal(board.timers.get("t1")?.kind, "clock");
  assert.equal(board.timers.get("t1")?.startAt, null, "startAt cleared");
  assert.equal(board.timers.get("t2")?.targetAt, 1763796900000);
  assert.deepStrictEqual(board.display, { message: null, blackout: true, timeZone: "UTC" });
});

test("a changeset that does not fit puts the display back with the rest", () => {
  const store = storeOfFormat3();
  const before = store.confirmed.display;
  const result = store.applyChangeset(/** @type {any} */ (parseServerMessage({ type: "changes", rev: 2, changes: [
    { update: "board", timeZone: "Asia/Tokyo" }, { delete: "timer", id: "missing" }] })));
  assert.equal(result.status, "invalid");
  assert.equal(store.confirmed.display, before);
});

test("a board without a display reads as the defaults, and a new zone reaches it", () => {
  const store = new Store();
  store.loadSnapshot(/** @type {any} */ (parseServerMessage({ type: "snapshot", board: "b1", rev: 1, sections: [], timers: [] })));
  assert.deepStrictEqual(store.displayed.display, { message: null, blackout: false, timeZone: "UTC" });
  store.applyChangeset(/** @type {any} */ (parseServerMessage({ type: "changes", rev: 2, changes: [{ update: "board", timeZone: "America/New_York" }] })));
  assert.equal(store.displayed.display.timeZone, "America/New_York");
});

test("an undo's ack names what it skipped; a plain ack has no skipped", () => {
  const ack = /** @type {any} */ (parseServerMessage(readFileSync(new URL("../../Tests/Fixtures/protocol/server/ack-undo-skipped.json", import.meta.url), "utf8")));
  assert.deepStrictEqual(ack.skipped, [{ id: "sec-prep", field: "title" }]);
  const display = /** @type {any} */ (parseServerMessage({ type: "ack", opId: "u", rev: 3, skipped: [{ field: "message" }] }));
  assert.deepStrictEqual(display.skipped, [{ field: "message" }]);
  assert.equal("skipped" in /** @type {any} */ (parseServerMessage({ type: "ack", opId: "1", rev: 2 })), false);
});

test("an unknown timer kind is a protocol error, not a silent countdown", () => {
  assert.throws(() => parseServerMessage({ type: "changes", rev: 2, changes: [{ update: "timer", id: "t1", kind: "sundial" }] }), /kind must be one of/);
});
