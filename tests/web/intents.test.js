// @ts-check
// model/intents.js: what each press, menu and form of the board page means, as operations, read
// against the board as shown (the golden snapshot, with a second section and timer added).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { DEFAULT_LIMITS } from "../../web-static/wire/constants.js";
import { parseServerMessage } from "../../web-static/wire/server_messages.js";
import * as intents from "../../web-static/model/intents.js";
import { Store } from "../../web-static/model/store.js";

const FIXTURES = new URL("../../Tests/Fixtures/protocol/", import.meta.url);

/** prep: eggs (7:30, idle), tea (running); bake: empty. */
function board() {
  const store = new Store();
  store.loadSnapshot(/** @type {any} */ (parseServerMessage(readFileSync(new URL("server/snapshot.json", FIXTURES), "utf8"))));
  store.applyChangeset(/** @type {any} */ (parseServerMessage({
    type: "changes", rev: /** @type {number} */ (store.rev) + 1, changes: [
      { insert: "section", id: "sec-bake", title: "Bake", isExpanded: true, createdDate: 1, order: "a1" },
      { insert: "timer", id: "tim-tea", sectionID: "sec-prep", title: "Tea", minutes: 3, seconds: 0, createdDate: 1, order: "a1", run: { status: "running", startedAt: 1, elapsed: 0 } },
    ],
  })));
  return store.displayed;
}

describe("presses", () => {
  test("a toggle writes the opposite of what the board shows", () => {
    assert.deepEqual(intents.toggleSection(board(), "sec-prep"), [{ op: "updateSection", id: "sec-prep", isExpanded: false }]);
    assert.deepEqual(intents.toggleSequence(board(), "sec-prep"), [{ op: "updateSection", id: "sec-prep", sequence: true }]);
    assert.deepEqual(intents.toggleLoop(board(), "sec-prep"), [{ op: "updateSection", id: "sec-prep", loop: true }]);
  });

  test("a run button sends the intent it showed, whatever the state now", () => {
    assert.deepEqual(intents.runTimer(board(), "tim-tea", "start"), [{ op: "startTimer", id: "tim-tea" }], "running, but the button said start");
    assert.deepEqual(intents.runTimer(board(), "tim-eggs", "pause"), [{ op: "pauseTimer", id: "tim-eggs" }]);
    assert.deepEqual(intents.runSection(board(), "sec-prep", "pause", false), [{ op: "pauseSection", id: "sec-prep" }]);
    assert.deepEqual(intents.runSection(board(), "sec-prep", "start", true), [], "nothing to start");
  });

  test("nothing to do is no operation: a gone item, an idle timer's reset, the edge of a list, no adjustment", () => {
    const b = board();
    for (const ops of [
      intents.toggleSection(b, "gone"), intents.runTimer(b, "gone", "start"), intents.resetTimer(b, "tim-eggs"),
      intents.moveSection(b, "sec-prep", -1), intents.moveSection(b, "sec-bake", 1), intents.moveTimer(b, "tim-eggs", -1),
      intents.adjustTimer(b, "tim-tea", 0), intents.adjustTimer(b, "tim-tea", 0.5), intents.moveTimerToSection(b, "tim-eggs", "gone"),
      intents.skipSection(b, "gone"), intents.runSection(b, "gone", "pause", false),
    ]) assert.deepEqual(ops, []);
  });

  test("moves name their neighbour, or the top of another section", () => {
    const b = board();
    assert.deepEqual(intents.moveSection(b, "sec-prep", 1), [{ op: "moveSection", id: "sec-prep", position: { after: "sec-bake" } }]);
    assert.deepEqual(intents.moveTimer(b, "tim-tea", -1), [{ op: "moveTimer", id: "tim-tea", position: { before: "tim-eggs" } }]);
    assert.deepEqual(intents.moveTimerToSection(b, "tim-eggs", "sec-bake"), [{ op: "moveTimer", id: "tim-eggs", sectionID: "sec-bake", position: "first" }]);
    assert.deepEqual(intents.otherSections(b, "tim-eggs").map((s) => s.id), ["sec-bake"]);
    assert.deepEqual(intents.resetTimer(b, "tim-tea"), [{ op: "resetTimer", id: "tim-tea" }]);
    assert.deepEqual(intents.adjustTimer(b, "tim-tea", -60000), [{ op: "adjustTimer", id: "tim-tea", by: -60000 }]);
  });
});

describe("forms and fields", () => {
  test("a new section or timer goes on top, with an id of its own; empty minutes or seconds are 0", () => {
    const section = intents.addSection("  Prep  ", DEFAULT_LIMITS);
    assert.ok("ops" in section);
    assert.match(String(section.ops[0].id), /^s[A-Za-z0-9]{12}$/);
    assert.deepEqual({ ...section.ops[0], id: "" }, { op: "addSection", id: "", title: "Prep", position: "last" });
    const timer = intents.addTimer("sec-prep", { title: "Eggs", minutes: "7", seconds: "" }, DEFAULT_LIMITS);
    assert.ok("ops" in timer);
    assert.deepEqual({ ...timer.ops[0], id: "" }, { op: "addTimer", id: "", sectionID: "sec-prep", title: "Eggs", minutes: 7, seconds: 0, position: "last" });
    assert.match(/** @type {any} */ (intents.addTimer("sec-prep", { title: "", minutes: "", seconds: "" }, DEFAULT_LIMITS)).error, /empty/);
    assert.match(/** @type {any} */ (intents.addTimer("sec-prep", { title: "Eggs", minutes: "1000", seconds: "" }, DEFAULT_LIMITS)).error, /0 to 999/);
  });

  test("a field typed in place: the update it means, the same value, or why not", () => {
    const b = board();
    const edit = (/** @type {string} */ kind, /** @type {string} */ id, /** @type {string} */ field, /** @type {string} */ text) =>
      intents.editField(b, { kind, id, field, text }, DEFAULT_LIMITS);
    assert.deepEqual(edit("timer", "tim-eggs", "title", "Soft eggs"), { ops: [{ op: "updateTimer", id: "tim-eggs", title: "Soft eggs" }] });
    assert.deepEqual(edit("section", "sec-prep", "title", " Prep "), { same: "Prep" });
    assert.deepEqual(edit("timer", "tim-eggs", "seconds", "30"), { same: "30" });
    assert.deepEqual(edit("timer", "tim-eggs", "seconds", "5"), { ops: [{ op: "updateTimer", id: "tim-eggs", seconds: 5 }] });
    assert.deepEqual(edit("timer", "tim-eggs", "warnAt", "1:00"), { ops: [{ op: "updateTimer", id: "tim-eggs", warnAt: 60000 }] });
    assert.deepEqual(edit("timer", "tim-eggs", "warnAt", ""), { same: "" }, "no warning point is 0, as the board has it");
    assert.match(/** @type {any} */ (edit("timer", "tim-eggs", "warnAt", "8:00")).error, /length/, "7:30 long");
    assert.match(/** @type {any} */ (edit("timer", "tim-eggs", "minutes", "x")).error, /whole number/);
    assert.deepEqual(edit("timer", "gone", "title", "Tea"), { ops: [] }, "deleted meanwhile: nothing to send");
  });
});
