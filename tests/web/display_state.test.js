// @ts-check
// The board's display state (docs/protocol.md "Screens"): read from snapshots and from
// `{"update":"board", …}` changes, kept by the store, and replaced (never changed in place) so views
// see by identity that it changed. The examples are the protocol document's own.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as protocol from "../../web-static/wire/protocol.js";
import { parseServerMessage } from "../../web-static/wire/server_messages.js";
import { Store } from "../../web-static/model/store.js";

const SECTION = { id: "sec-prep", title: "Prep", isExpanded: true, createdDate: 1763740800000, order: "a0" };
const DISPLAY = { message: { text: "Wrap up", flash: true, shownAt: 1763740950000 }, blackout: false, timeZone: "Europe/Paris" };

/** @param {object} [extra] */
function snapshot(extra = {}) {
  return /** @type {any} */ (parseServerMessage({ type: "snapshot", board: "kT3vQ9mZ2pXa", rev: 3, sections: [SECTION], timers: [], ...extra }));
}

/** @param {number} rev @param {any[]} changes */
function changes(rev, changes) {
  return /** @type {any} */ (parseServerMessage({ type: "changes", rev, changes }));
}

describe("the board's display on the wire", () => {
  test("a snapshot without display reads as the defaults", () => {
    const store = new Store();
    store.loadSnapshot(snapshot());
    assert.deepStrictEqual(store.displayed.display, { message: null, blackout: false, timeZone: "UTC" });
  });

  test("a snapshot's display is kept whole", () => {
    const message = snapshot({ display: DISPLAY });
    assert.deepStrictEqual(message.display, DISPLAY);
    const store = new Store();
    store.loadSnapshot(message);
    assert.deepStrictEqual(store.displayed.display, DISPLAY);
  });

  test("update board changes only the fields it carries; message null clears it", () => {
    const store = new Store();
    store.loadSnapshot(snapshot());
    const parsed = changes(4, [{ update: "board", message: { text: "Wrap up", flash: true, shownAt: 1763740950000 } }]);
    assert.deepStrictEqual(parsed.changes, [{ action: "update", kind: "board", fields: { message: DISPLAY.message } }]);
    const before = store.displayed.display;
    assert.deepEqual(store.applyChangeset(parsed), { status: "applied" });
    const shown = store.displayed.display;
    assert.notEqual(shown, before, "a new object: views compare by identity");
    assert.deepStrictEqual(shown, { message: DISPLAY.message, blackout: false, timeZone: "UTC" });
    store.applyChangeset(changes(5, [{ update: "board", blackout: true }]));
    assert.deepStrictEqual(store.displayed.display, { message: DISPLAY.message, blackout: true, timeZone: "UTC" });
    store.applyChangeset(changes(6, [{ update: "board", message: null }]));
    assert.deepStrictEqual(store.displayed.display, { message: null, blackout: true, timeZone: "UTC" });
    assert.deepEqual([...store.takeTouched() ?? []], [], "no section or timer id is touched");
  });

  test("a flash left out of a message is false", () => {
    const parsed = changes(4, [{ update: "board", message: { text: "Hi", shownAt: 1 } }]);
    assert.deepStrictEqual(parsed.changes[0].fields, { message: { text: "Hi", flash: false, shownAt: 1 } });
  });

  test("a changeset that does not fit puts the display back as it was", () => {
    const store = new Store();
    store.loadSnapshot(snapshot({ display: DISPLAY }));
    const before = store.confirmed.display;
    const result = store.applyChangeset(changes(4, [{ update: "board", blackout: true }, { delete: "timer", id: "tim-none" }]));
    assert.equal(result.status, "invalid");
    assert.equal(store.confirmed.display, before);
  });

  test("pending edits show the confirmed display", () => {
    const store = new Store();
    store.loadSnapshot(snapshot({ display: DISPLAY }));
    store.addEdit("1", [protocol.showMessage({ text: "Louder", flash: false })], 1);
    assert.notEqual(store.displayed, store.confirmed, "an overlay");
    assert.equal(store.displayed.display, store.confirmed.display);
  });

  test("screen operations are built as the protocol documents them", () => {
    assert.equal(JSON.stringify(protocol.showMessage({ text: "Wrap up", flash: true })), '{"op":"showMessage","text":"Wrap up","flash":true}');
    assert.equal(JSON.stringify(protocol.clearMessage()), '{"op":"clearMessage"}');
    assert.equal(JSON.stringify(protocol.setBlackout({ on: true })), '{"op":"setBlackout","on":true}');
  });
});
