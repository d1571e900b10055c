// @ts-check
// The page's undo and redo (issue 32), without a browser: model/undo_stack.js (which edits, which
// undos), model/edit_words.js (what an edit did, in words), model/restore.js (putting back what
// someone deleted, from a history entry) and the Ctrl+Z decision of board/undo.js.

import assert from "node:assert/strict";
import { test } from "node:test";

import { UndoStack } from "../../web-static/model/undo_stack.js";
import { editLabel, historyAction, historyText, isDestructive, restorable, titlesBefore, undoneText } from "../../web-static/model/edit_words.js";
import { restoreOps } from "../../web-static/model/restore.js";
import { Board } from "../../web-static/model/board.js";
import { undoKey } from "../../web-static/board/undo.js";

const run = { status: "idle", elapsed: 0 };
function board() {
  return Board.fromSnapshot({
    sections: [{ id: "s", title: "Stage", isExpanded: true, createdDate: 1, order: "a0" }, { id: "s2", title: "Later", isExpanded: true, createdDate: 1, order: "a2" }],
    timers: [
      { id: "k", sectionID: "s", title: "Keynote", minutes: 10, seconds: 0, createdDate: 1, order: "a1", run: /** @type {any} */ (run) },
      { id: "q", sectionID: "s", title: "Q&A", minutes: 5, seconds: 0, createdDate: 1, order: "a3", run: /** @type {any} */ (run) },
    ],
  });
}

test("undo takes the last edit, redo undoes that undo, and a new edit ends the redos", () => {
  const stack = new UndoStack();
  stack.edited("1", "Rename of Keynote");
  stack.edited("2", "Reset of Keynote");
  const last = stack.takeUndo();
  assert.deepEqual(last, { opId: "2", label: "Reset of Keynote" });
  stack.sent("undo", "3", /** @type {any} */ (last));
  assert.equal(stack.canRedo, false, "a redo waits for the undo's ack");
  assert.equal(stack.acked("3", false)?.kind, "undo");
  // Redo is an undo of the undo edit "3".
  const redo = stack.takeRedo();
  assert.deepEqual(redo, { opId: "3", label: "Reset of Keynote" });
  stack.sent("redo", "4", /** @type {any} */ (redo));
  stack.acked("4", false);
  // Undoing again undoes the redo edit.
  assert.deepEqual(stack.takeUndo(), { opId: "4", label: "Reset of Keynote" });
  stack.sent("undo", "5", { opId: "4", label: "Reset of Keynote" });
  stack.acked("5", false);
  stack.edited("6", "Delete of Q&A");
  assert.equal(stack.canRedo, false);
  assert.deepEqual(stack.done.map((e) => e.opId), ["1", "6"]);
});

test("a toast's Undo undoes its own edit, not the last; a rejected edit or undo is forgotten", () => {
  const stack = new UndoStack();
  stack.edited("1", "Delete of Keynote");
  stack.edited("2", "Rename of Q&A");
  assert.deepEqual(stack.takeUndo("1"), { opId: "1", label: "Delete of Keynote" });
  stack.edited("3", "Rename of Stage");
  assert.equal(stack.rejected("3"), null, "a plain edit");
  assert.deepEqual(stack.done.map((e) => e.opId), ["2"]);
  stack.sent("undo", "4", /** @type {any} */ (stack.takeUndo()));
  assert.equal(stack.rejected("4")?.kind, "undo");
  assert.equal(stack.canUndo || stack.canRedo, false);
});

test("an undo acked unchanged changed nothing: there is nothing to redo", () => {
  const stack = new UndoStack();
  stack.edited("1", "Rename of Keynote");
  stack.sent("undo", "2", /** @type {any} */ (stack.takeUndo()));
  assert.equal(stack.acked("2", true)?.changed, false);
  assert.equal(stack.canRedo || stack.canUndo, false);
  stack.edited("3", "Rename of Q&A");
  stack.sent("undo", "4", /** @type {any} */ (stack.takeUndo()));
  assert.equal(stack.acked("4", false)?.changed, true);
  assert.equal(stack.canRedo, true);
});

test("the stack keeps the server's depth of edits, oldest forgotten first", () => {
  const stack = new UndoStack(2);
  for (const opId of ["1", "2", "3"]) stack.edited(opId, opId);
  assert.deepEqual(stack.done.map((e) => e.opId), ["2", "3"]);
});

test("an edit in words names what it touched as it was before the edit", () => {
  const b = board();
  assert.equal(editLabel([{ op: "resetTimer", id: "k" }], b), "Reset of Keynote");
  assert.equal(editLabel([{ op: "updateTimer", id: "k", title: "Opening" }], b), "Rename of Keynote");
  assert.equal(editLabel([{ op: "deleteSection", id: "s" }], b), "Delete of Stage");
  assert.equal(editLabel([{ op: "adjustTimer", id: "k", by: 60000 }], b), "+1 min on Keynote");
  assert.equal(editLabel([{ op: "updateTimer", id: "k", startAt: 5 }], b), "Start time of Keynote");
  assert.ok(isDestructive([{ op: "resetTimer", id: "k" }]) && isDestructive([{ op: "deleteTimer", id: "k" }]));
  assert.ok(!isDestructive([{ op: "updateTimer", id: "k", title: "x" }]));
  assert.equal(undoneText("Reset of Keynote", "undo"), "Reset of Keynote undone");
  const titleOf = (/** @type {string} */ id) => b.timers.get(id)?.title ?? b.sections.get(id)?.title;
  assert.equal(undoneText("Rename of Stage", "undo", { changed: false, skipped: [{ id: "s", field: "title" }], titleOf }),
    "Rename of Stage could not be undone: someone else changed it since.");
  assert.equal(undoneText("Adding Keynote", "redo", { changed: false }), "Adding Keynote could not be redone: someone else changed it since.");
  // What was left is named as the user knows it: a whole item by kind and title, a length once.
  assert.equal(undoneText("Adding Stage", "undo", { skipped: [{ id: "k", field: "timer" }, { id: "s", field: "section" }], titleOf }),
    "Adding Stage undone, but not the timer Keynote and the section Stage: someone else changed them since.");
  assert.equal(undoneText("Length of Keynote", "undo", { skipped: [{ id: "k", field: "minutes" }, { id: "k", field: "seconds" }], titleOf }),
    "Length of Keynote undone, but not the length of Keynote: someone else changed it since.");
  assert.equal(undoneText("Delete of Stage", "undo", { skipped: [{ id: "gone", field: "timer" }], titleOf }),
    "Delete of Stage undone, but not a timer: someone else changed it since.");
});

test("a history entry in words, and what it deleted put back with its id and place", () => {
  const b = board();
  const titleOf = (/** @type {string} */ id) => b.timers.get(id)?.title ?? b.sections.get(id)?.title;
  assert.equal(historyAction({ rev: 3, time: 0, by: "Ada", changes: [{ update: "timer", id: "k", run: { status: "idle", elapsed: 0 } }] }, titleOf), "reset Keynote");
  const deleted = {
    rev: 4, time: 0, by: "Bob",
    changes: [{ delete: "timer", id: "m" }],
    replaced: [{ insert: "timer", id: "m", sectionID: "s", title: "Break", minutes: 15, seconds: 0, createdDate: 1, order: "a2", run: { status: "running", startedAt: 9, elapsed: 0 } }],
  };
  assert.equal(historyAction(deleted, titleOf), "deleted Break");
  assert.deepEqual(restoreOps(restorable(deleted), b), [
    { op: "addTimer", id: "m", sectionID: "s", title: "Break", minutes: 15, seconds: 0, position: { before: "q" } },
  ]);
  // A section with its timers: the section goes back between its old neighbours, its timers after each other.
  const section = {
    rev: 5, time: 0, by: "Bob", changes: [{ delete: "timer", id: "t1" }, { delete: "section", id: "s1" }],
    replaced: [{ insert: "timer", id: "t1", sectionID: "s1", title: "Tea", minutes: 3, seconds: 0, order: "a0" },
      { insert: "section", id: "s1", title: "Drinks", isExpanded: false, order: "a1" }],
  };
  assert.equal(historyAction(section, titleOf), "deleted the section Drinks");
  assert.deepEqual(restoreOps(restorable(section), b), [
    { op: "addSection", id: "s1", title: "Drinks", isExpanded: false, position: { before: "s2" } },
    { op: "addTimer", id: "t1", sectionID: "s1", title: "Tea", minutes: 3, seconds: 0, position: "last" },
  ]);
  assert.deepEqual(restoreOps(restorable({ ...deleted, replaced: [{ ...deleted.replaced[0], id: "k" }], changes: [{ delete: "timer", id: "k" }] }), b), [], "its id is in use again");
});

test("history lines name a deleted item by the title it had, and the maker's zone as the board's creation", () => {
  // Newest first: the delete says what the timer was called before the older lines need it.
  const entries = [
    { rev: 6, time: 0, by: "Ada", changes: [{ delete: "timer", id: "w" }], replaced: [{ insert: "timer", id: "w", sectionID: "s", title: "Warm-up", minutes: 1, seconds: 0 }] },
    { rev: 5, time: 0, by: "Ada", changes: [{ update: "timer", id: "w", title: "Warm-up" }], replaced: [{ update: "timer", id: "w", title: "Warmup" }] },
    { rev: 4, time: 0, by: null, changes: [{ update: "timer", id: "w", run: { status: "finished", elapsed: 1000 } }] },
    { rev: 1, time: 0, by: "HTTP", changes: [{ update: "board", timeZone: "Europe/Berlin" }], replaced: [{ update: "board", timeZone: "UTC" }] },
  ];
  /** @type {Map<string, string>} */
  const titles = new Map();
  const lines = entries.map((entry) => {
    const line = historyText(entry, (id) => titles.get(id));
    for (const [id, title] of titlesBefore(entry)) titles.set(id, title);
    return line;
  });
  assert.deepEqual(lines, ["Ada deleted Warm-up", "Ada renamed Warmup to Warm-up", "TimerBoard finished Warmup", "Board created in the time zone Europe/Berlin"]);
  // Any other zone change over HTTP is HTTP's.
  assert.equal(historyText({ ...entries[3], rev: 9 }, () => undefined), "HTTP set the time zone to Europe/Berlin");
  assert.equal(historyText({ ...entries[3], by: "Ada" }, () => undefined), "Ada set the time zone to Europe/Berlin");
});

test("Ctrl+Z and Ctrl+Shift+Z are the page's outside text fields, the browser's inside them", () => {
  const key = (/** @type {Record<string, any>} */ e) => undoKey(/** @type {any} */ ({ ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, isComposing: false, target: null, ...e }));
  const field = { isContentEditable: false, matches: () => true };
  const button = { isContentEditable: false, matches: () => false };
  assert.equal(key({ ctrlKey: true, key: "z", target: button }), "undo");
  assert.equal(key({ ctrlKey: true, shiftKey: true, key: "Z", target: button }), "redo");
  assert.equal(key({ metaKey: true, key: "z", target: button }), "undo");
  assert.equal(key({ ctrlKey: true, key: "z", target: field }), null);
  assert.equal(key({ key: "z", target: button }), null);
});
