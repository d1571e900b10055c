// @ts-check
// model/store.js: the confirmed board, changed in place by changesets, and pending edits as an
// overlay of the ids they touch (model/overlay.js), fed with the golden fixtures
// (Tests/Fixtures/protocol/).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import * as protocol from "../../web-static/wire/protocol.js";
import { parseServerMessage } from "../../web-static/wire/server_messages.js";
import { Board, StoreError, applyChanges, orderedSections, orderedTimers, timersBySection } from "../../web-static/model/board.js";
import { Store } from "../../web-static/model/store.js";

const FIXTURES = new URL("../../Tests/Fixtures/protocol/", import.meta.url);
/** Reads a fixture and parses it the way the page does. @param {string} path */
const message = (path) => /** @type {any} */ (parseServerMessage(readFileSync(new URL(path, FIXTURES), "utf8")));
/** @param {string} path */
const raw = (path) => JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8"));

const NOW = 1763740900000;

function storeAtSnapshot() {
  const store = new Store();
  store.loadSnapshot(message("server/snapshot.json"));
  return store;
}

/** A changeset message with the next revision. @param {Store} store @param {any[]} changes wire changes */
function next(store, changes) {
  return /** @type {any} */ (parseServerMessage({ type: "changes", rev: /** @type {number} */ (store.rev) + 1, changes }));
}

describe("confirmed state from the fixtures", () => {
  test("snapshot: every field of every entity", () => {
    const store = storeAtSnapshot();
    assert.equal(store.board, "kT3vQ9mZ2pXa");
    assert.equal(store.rev, 3);
    assert.deepStrictEqual(store.confirmed.sections.get("sec-prep"), raw("server/snapshot.json").sections[0]);
    assert.deepStrictEqual(store.confirmed.timers.get("tim-eggs"), raw("server/snapshot.json").timers[0]);
    assert.equal(store.displayed, store.confirmed, "nothing pending: displayed is the confirmed board");
  });

  test("rename (rev 4) then toggle (rev 5) change one field each", () => {
    const store = storeAtSnapshot();
    const timerBefore = store.confirmed.timers.get("tim-eggs");
    assert.deepEqual(store.applyChangeset(message("server/changes-rename-section.json")), { status: "applied" });
    assert.equal(store.rev, 4);
    assert.deepStrictEqual(store.confirmed.sections.get("sec-prep"), {
      id: "sec-prep", title: "Mise en place", isExpanded: true, createdDate: 1763740800000, order: "a0",
    });
    assert.deepEqual(store.applyChangeset(message("server/changes-toggle-section.json")), { status: "applied" });
    assert.equal(store.rev, 5);
    const section = store.confirmed.sections.get("sec-prep");
    assert.equal(section?.title, "Mise en place");
    assert.equal(section?.isExpanded, false);
    assert.equal(section?.order, "a0");
    assert.equal(store.confirmed.timers.get("tim-eggs"), timerBefore, "an untouched timer is the same object");
  });

  test("mixed changeset (rev 9): delete, insert, move to the new section, section delete, insert", () => {
    const store = new Store();
    const snapshot = raw("server/snapshot.json");
    const milk = { id: "tim-milk", sectionID: "sec-prep", title: "Milk", minutes: 2, seconds: 0, createdDate: 1763740802000, order: "l", run: { status: "idle", elapsed: 0 } };
    // The fixture's board at rev 8, plus the timer the changeset moves.
    store.loadSnapshot({ board: snapshot.board, rev: 8, sections: snapshot.sections, timers: [...snapshot.timers, milk] });
    assert.deepEqual(store.applyChangeset(message("server/changes-mixed.json")), { status: "applied" });
    assert.equal(store.rev, 9);
    const { sections, timers } = store.confirmed;
    assert.deepEqual([...sections.keys()], ["sec-bake"]);
    assert.deepStrictEqual(sections.get("sec-bake"), { id: "sec-bake", title: "Bake", isExpanded: true, createdDate: 1763740805000, order: "a1" });
    assert.equal(timers.has("tim-eggs"), false);
    assert.deepStrictEqual(timers.get("tim-milk"), { ...milk, sectionID: "sec-bake", order: "a0" });
    assert.deepStrictEqual(timers.get("tim-bread"), {
      id: "tim-bread", sectionID: "sec-bake", title: "Bread", minutes: 35, seconds: 0, createdDate: 1763740805000, order: "a1",
      run: { status: "idle", elapsed: 0 },
    });
    assert.deepEqual(orderedTimers(store.confirmed, "sec-bake").map((t) => t.id), ["tim-milk", "tim-bread"]);
    assert.deepEqual([...timersBySection(store.confirmed)].map(([s, ts]) => [s, ts.map((t) => t.id)]), [["sec-bake", ["tim-milk", "tim-bread"]]]);
  });

  test("a changeset already applied is stale; a skipped revision is a gap; neither changes anything", () => {
    const store = storeAtSnapshot();
    store.applyChangeset(message("server/changes-rename-section.json"));
    const before = store.confirmed;
    assert.equal(store.applyChangeset(message("server/changes-rename-section.json")).status, "stale");
    assert.equal(store.applyChangeset(message("server/changes-mixed.json")).status, "gap");
    assert.equal(store.confirmed, before);
    assert.equal(store.rev, 4);
  });

  test("a changeset that does not fit is invalid and leaves the board as it was", () => {
    const store = storeAtSnapshot();
    const before = store.confirmed;
    const result = store.applyChangeset(next(store, [{ update: "section", id: "sec-prep", title: "X" }, { delete: "timer", id: "tim-nope" }]));
    assert.equal(result.status, "invalid");
    assert.match(result.error ?? "", /tim-nope/);
    assert.equal(store.confirmed, before);
    assert.equal(store.confirmed.sections.get("sec-prep")?.title, "Prep");
    assert.equal(store.rev, 3);
  });

  test("a changeset before any snapshot is a gap (join first)", () => {
    assert.equal(new Store().applyChangeset(message("server/changes-rename-section.json")).status, "gap");
  });

  test("a changeset changes the confirmed board in place: the board and every entity it does not name stay the same objects", () => {
    const store = storeAtSnapshot();
    const board = store.confirmed;
    const eggs = board.timers.get("tim-eggs");
    const prep = board.sections.get("sec-prep");
    store.applyChangeset(message("server/changes-rename-section.json"));
    assert.equal(store.confirmed, board, "no copy of the board");
    assert.equal(board.timers.get("tim-eggs"), eggs);
    assert.notEqual(board.sections.get("sec-prep"), prep, "a changed entity is a new object, so views see it changed");
    assert.equal(prep?.title, "Prep", "the old object is not changed");
  });

  test("applyChanges is all or nothing: a change that does not fit puts back every entity the ones before it touched", () => {
    const board = Board.fromSnapshot(raw("server/snapshot.json"));
    const prep = board.sections.get("sec-prep");
    const eggs = board.timers.get("tim-eggs");
    const changes = /** @type {any} */ (next(storeAtSnapshot(), [
      { insert: "section", id: "sec-new", title: "New", isExpanded: true, createdDate: NOW, order: "A" },
      { insert: "timer", id: "tim-tea", sectionID: "sec-new", title: "Tea", minutes: 3, seconds: 0, createdDate: NOW, order: "a0" },
      { update: "timer", id: "tim-eggs", sectionID: "sec-new", order: "a1" },
      { update: "section", id: "sec-prep", title: "Gone soon" },
      { delete: "section", id: "sec-prep" },
      { update: "timer", id: "tim-nope", title: "X" },
    ])).changes;
    assert.throws(() => applyChanges(board, changes), StoreError);
    assert.deepEqual([...board.sections.keys()], ["sec-prep"]);
    assert.deepEqual([...board.timers.keys()], ["tim-eggs"]);
    assert.equal(board.sections.get("sec-prep"), prep);
    assert.equal(board.timers.get("tim-eggs"), eggs);
    assert.deepEqual(board.timersIn("sec-prep").map((t) => t.id), ["tim-eggs"], "the index too");
    assert.deepEqual(board.timersIn("sec-new"), []);
  });

  test("a section's timers come from its index, through moves and deletes", () => {
    const store = storeAtSnapshot();
    store.applyChangeset(next(store, [
      { insert: "section", id: "sec-bake", title: "Bake", isExpanded: true, createdDate: NOW, order: "a1" },
      { insert: "timer", id: "tim-bread", sectionID: "sec-bake", title: "Bread", minutes: 35, seconds: 0, createdDate: NOW, order: "a0" },
      { insert: "timer", id: "tim-tea", sectionID: "sec-prep", title: "Tea", minutes: 3, seconds: 0, createdDate: NOW, order: "a1" },
    ]));
    store.applyChangeset(next(store, [{ update: "timer", id: "tim-eggs", sectionID: "sec-bake", order: "a1" }]));
    assert.deepEqual(orderedTimers(store.confirmed, "sec-bake").map((t) => t.id), ["tim-bread", "tim-eggs"]);
    assert.deepEqual(orderedTimers(store.confirmed, "sec-prep").map((t) => t.id), ["tim-tea"]);
    store.applyChangeset(next(store, [{ delete: "timer", id: "tim-bread" }, { delete: "section", id: "sec-prep" }]));
    assert.deepEqual(store.confirmed.timersIn("sec-bake").map((t) => t.id), ["tim-eggs"]);
    assert.deepEqual([...store.confirmed.timers.keys()], ["tim-eggs"], "the section's delete took its timers");
  });
});

describe("pending edits", () => {
  test("an edit shows at once and leaves the confirmed board alone", () => {
    const store = storeAtSnapshot();
    store.addEdit("1", [protocol.updateSection({ id: "sec-prep", title: "Mine" })], NOW);
    assert.equal(store.displayed.sections.get("sec-prep")?.title, "Mine");
    assert.equal(store.confirmed.sections.get("sec-prep")?.title, "Prep");
    assert.deepEqual(store.unackedEdits().map((e) => e.opId), ["1"]);
  });

  test("every op of edit-every-op.json, applied locally, gives what the server would", () => {
    const store = storeAtSnapshot();
    store.addEdit("3", raw("client/edit-every-op.json").ops, NOW);
    const { sections, timers } = store.displayed;
    assert.deepEqual([...sections.keys()], ["sec-bake"]);
    assert.deepStrictEqual(sections.get("sec-bake"), { id: "sec-bake", title: "Bake", isExpanded: false, createdDate: NOW, order: "Zz" });
    assert.deepEqual([...timers.keys()], ["tim-eggs"]);
    assert.deepStrictEqual(timers.get("tim-eggs"), {
      id: "tim-eggs", sectionID: "sec-bake", title: "Soft eggs", minutes: 6, seconds: 30, createdDate: 1763740801000, order: "a1",
      run: { status: "idle", elapsed: 0 },
    });
  });

  test("ack: the edit's changes arrive, then the ack drops it", () => {
    const store = storeAtSnapshot();
    store.addEdit("17", raw("client/edit-rename-section.json").ops, NOW);
    store.applyChangeset(message("server/changes-rename-section.json"));
    assert.equal(store.pending.length, 1, "still pending until the ack");
    assert.equal(store.displayed.sections.get("sec-prep")?.title, "Mise en place");
    const ack = message("server/ack.json");
    assert.equal(store.ack(ack.opId, ack.rev)?.opId, "17");
    assert.equal(store.pending.length, 0);
    assert.equal(store.displayed, store.confirmed);
    assert.equal(store.ack("17", 4), null, "a second ack (a resend's duplicate) is ignored");
  });

  test("an ack ahead of the confirmed revision keeps the edit shown until its changes arrive", () => {
    const store = storeAtSnapshot();
    store.addEdit("17", raw("client/edit-rename-section.json").ops, NOW);
    store.ack("17", 4);
    assert.equal(store.pending.length, 1);
    assert.deepEqual(store.unackedEdits(), [], "acked: not to be resent");
    assert.equal(store.displayed.sections.get("sec-prep")?.title, "Mise en place");
    store.applyChangeset(message("server/changes-rename-section.json"));
    assert.equal(store.pending.length, 0);
    assert.equal(store.displayed, store.confirmed);
  });

  test("reject: the edit is dropped and the field rolls back to the confirmed value", () => {
    const store = storeAtSnapshot();
    store.addEdit("18", [protocol.updateTimer({ id: "tim-eggs", minutes: 1000 })], NOW);
    assert.equal(store.displayed.timers.get("tim-eggs")?.minutes, 1000);
    const reject = message("server/reject.json");
    assert.equal(store.reject(reject.opId)?.opId, "18");
    assert.equal(store.pending.length, 0);
    assert.equal(store.displayed.timers.get("tim-eggs")?.minutes, 7);
    assert.equal(store.reject("18"), null);
  });

  test("reject of one edit keeps the others", () => {
    const store = storeAtSnapshot();
    store.addEdit("1", [protocol.updateTimer({ id: "tim-eggs", title: "Boiled eggs" })], NOW);
    store.addEdit("2", [protocol.updateTimer({ id: "tim-eggs", minutes: 1000 })], NOW);
    store.reject("2");
    assert.equal(store.displayed.timers.get("tim-eggs")?.title, "Boiled eggs");
    assert.equal(store.displayed.timers.get("tim-eggs")?.minutes, 7);
  });

  test("rebase: a remote change to another field shows along with the pending edit", () => {
    const store = storeAtSnapshot();
    store.addEdit("1", [protocol.updateSection({ id: "sec-prep", title: "Mine" })], NOW);
    store.applyChangeset(next(store, [{ update: "section", id: "sec-prep", isExpanded: false }]));
    assert.deepEqual(
      { title: store.displayed.sections.get("sec-prep")?.title, isExpanded: store.displayed.sections.get("sec-prep")?.isExpanded },
      { title: "Mine", isExpanded: false },
    );
    assert.equal(store.confirmed.sections.get("sec-prep")?.title, "Prep");
  });

  test("rebase: a remote value for a field with a pending edit does not show (no flicker); the server's order decides", () => {
    const store = storeAtSnapshot();
    store.addEdit("1", [protocol.updateSection({ id: "sec-prep", title: "Mine" })], NOW);
    store.applyChangeset(next(store, [{ update: "section", id: "sec-prep", title: "Theirs" }]));
    assert.equal(store.displayed.sections.get("sec-prep")?.title, "Mine", "ours still shows while pending");
    // The server applies ours after theirs: ours wins.
    store.applyChangeset(next(store, [{ update: "section", id: "sec-prep", title: "Mine" }]));
    store.ack("1", /** @type {number} */ (store.rev));
    assert.equal(store.displayed.sections.get("sec-prep")?.title, "Mine");
    // Someone writes after us: theirs wins.
    store.applyChangeset(next(store, [{ update: "section", id: "sec-prep", title: "Theirs again" }]));
    assert.equal(store.displayed.sections.get("sec-prep")?.title, "Theirs again");
  });

  test("our own insert confirmed before its ack is not inserted twice; the server's key wins", () => {
    const store = storeAtSnapshot();
    store.addEdit("5", [protocol.addSection({ id: "s-new", title: "New" })], NOW);
    assert.equal(store.displayed.sections.get("s-new")?.order, "Zz", "optimistic: first");
    store.applyChangeset(next(store, [{ insert: "section", id: "s-new", title: "New", isExpanded: true, createdDate: NOW + 5, order: "A" }]));
    assert.equal(store.pending.length, 1);
    assert.equal(store.displayed.sections.size, 2);
    assert.deepStrictEqual(store.displayed.sections.get("s-new"), { id: "s-new", title: "New", isExpanded: true, createdDate: NOW + 5, order: "A" });
  });

  test("a pending edit of an entity deleted remotely is skipped, then rejected", () => {
    const store = storeAtSnapshot();
    store.addEdit("19", [protocol.updateTimer({ id: "tim-eggs", title: "Gone soon" })], NOW);
    store.applyChangeset(next(store, [{ delete: "timer", id: "tim-eggs" }]));
    assert.equal(store.displayed.timers.has("tim-eggs"), false);
    assert.equal(store.pending.length, 1);
    store.reject("19");
    assert.equal(store.displayed, store.confirmed);
  });

  test("a pending timer added to a section deleted remotely disappears with it", () => {
    const store = storeAtSnapshot();
    store.addEdit("1", [protocol.addTimer({ id: "t-new", sectionID: "sec-prep", title: "Tea", minutes: 3, seconds: 0 })], NOW);
    assert.equal(store.displayed.timers.get("t-new")?.sectionID, "sec-prep");
    store.applyChangeset(next(store, [{ delete: "timer", id: "tim-eggs" }, { delete: "section", id: "sec-prep" }]));
    assert.equal(store.displayed.timers.size, 0);
    assert.equal(store.displayed.sections.size, 0);
  });

  test("a pending move relative to a sibling deleted remotely is skipped; the item stays put", () => {
    const store = storeAtSnapshot();
    store.applyChangeset(next(store, [{ insert: "timer", id: "tim-tea", sectionID: "sec-prep", title: "Tea", minutes: 3, seconds: 0, createdDate: NOW, order: "a1" }]));
    store.addEdit("1", [protocol.moveTimer({ id: "tim-eggs", position: protocol.position.after("tim-tea") })], NOW);
    assert.deepEqual(orderedTimers(store.displayed, "sec-prep").map((t) => t.id), ["tim-tea", "tim-eggs"]);
    store.applyChangeset(next(store, [{ delete: "timer", id: "tim-tea" }]));
    assert.equal(store.displayed.timers.get("tim-eggs")?.order, "a0");
  });

  test("a pending section delete also hides a timer someone else just added to it", () => {
    const store = storeAtSnapshot();
    store.addEdit("1", [protocol.deleteSection({ id: "sec-prep" })], NOW);
    store.applyChangeset(next(store, [{ insert: "timer", id: "tim-tea", sectionID: "sec-prep", title: "Tea", minutes: 3, seconds: 0, createdDate: NOW, order: "a1" }]));
    assert.equal(store.displayed.sections.size, 0);
    assert.equal(store.displayed.timers.size, 0);
    assert.equal(store.confirmed.timers.size, 2);
  });

  test("pending edits are re-applied over a new snapshot (a rejoin the server could not resume)", () => {
    const store = storeAtSnapshot();
    store.addEdit("1", [protocol.updateTimer({ id: "tim-eggs", seconds: 45 })], NOW);
    const snapshot = raw("server/snapshot.json");
    store.loadSnapshot({ ...snapshot, rev: 50, sections: [{ ...snapshot.sections[0], title: "Renamed while away" }] });
    assert.equal(store.rev, 50);
    assert.equal(store.displayed.sections.get("sec-prep")?.title, "Renamed while away");
    assert.equal(store.displayed.timers.get("tim-eggs")?.seconds, 45);
    assert.deepEqual(store.unackedEdits().map((e) => e.opId), ["1"]);
  });

  test("pending moves order like the server: newest first, then as asked", () => {
    const store = storeAtSnapshot();
    store.addEdit("1", [protocol.addSection({ id: "s-a", title: "A" })], NOW);
    store.addEdit("2", [protocol.addSection({ id: "s-b", title: "B", position: "last" })], NOW);
    store.addEdit("3", [protocol.moveSection({ id: "sec-prep", position: protocol.position.before("s-a") })], NOW);
    assert.deepEqual(orderedSections(store.displayed).map((s) => s.id), ["sec-prep", "s-a", "s-b"]);
  });
});

describe("pending edits are an overlay of the ids they touch", () => {
  test("the overlay holds what the edits set or deleted, and the confirmed board is never touched", () => {
    const store = storeAtSnapshot();
    const eggs = store.confirmed.timers.get("tim-eggs");
    store.addEdit("1", [protocol.updateTimer({ id: "tim-eggs", title: "Mine" })], NOW);
    store.addEdit("2", [protocol.addSection({ id: "s-new", title: "New" })], NOW);
    assert.deepEqual(store.overlay?.ids().sort(), ["s-new", "tim-eggs"]);
    assert.equal(store.confirmed.timers.get("tim-eggs"), eggs);
    assert.equal(store.displayed.timers.get("tim-eggs")?.title, "Mine");
    assert.deepEqual([...store.displayed.sections.keys()], ["sec-prep", "s-new"]);
    assert.equal(store.displayed.sections.size, 2);
    // A changeset elsewhere shows through, and the edits stay on top.
    store.applyChangeset(next(store, [{ update: "section", id: "sec-prep", title: "Theirs" }]));
    assert.equal(store.displayed.sections.get("sec-prep")?.title, "Theirs");
    assert.equal(store.displayed.timers.get("tim-eggs")?.title, "Mine");
  });

  test("what a changeset touches is its ids and the pending edits', never the whole board", () => {
    const store = storeAtSnapshot();
    store.takeTouched();
    store.addEdit("1", [protocol.updateTimer({ id: "tim-eggs", title: "Mine" })], NOW);
    assert.deepEqual([...(store.takeTouched() ?? [])], ["tim-eggs"]);
    store.applyChangeset(next(store, [{ update: "section", id: "sec-prep", isExpanded: false }]));
    assert.deepEqual([...(store.takeTouched() ?? [])].sort(), ["sec-prep", "tim-eggs"]);
    store.reject("1");
    assert.deepEqual([...(store.takeTouched() ?? [])], ["tim-eggs"]);
    assert.equal(store.overlay, null);
  });

  test("a pending delete hides an entity and its section's timers: sizes, lists and lookups agree", () => {
    const store = storeAtSnapshot();
    store.applyChangeset(next(store, [{ insert: "section", id: "sec-bake", title: "Bake", isExpanded: true, createdDate: NOW, order: "a1" }]));
    store.addEdit("1", [protocol.deleteSection({ id: "sec-prep" }), protocol.addTimer({ id: "t-new", sectionID: "sec-bake", title: "Tea", minutes: 3, seconds: 0 })], NOW);
    const shown = store.displayed;
    assert.equal(shown.sections.size, 1);
    assert.equal(shown.timers.size, 1);
    assert.equal(shown.timers.has("tim-eggs"), false);
    assert.equal(shown.timers.get("tim-eggs"), undefined);
    assert.deepEqual([...shown.timers.values()].map((t) => t.id), ["t-new"]);
    assert.deepEqual(shown.timersIn("sec-bake").map((t) => t.id), ["t-new"]);
    assert.deepEqual(shown.timersIn("sec-prep"), []);
    assert.deepEqual([...timersBySection(shown)].map(([id, ts]) => [id, ts.map((t) => t.id)]), [["sec-bake", ["t-new"]]]);
  });
});
