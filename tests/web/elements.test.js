// @ts-check
// The board's elements on a fake DOM (fake_dom.js): a section (board/section_element.js), a timer's
// row (board/timer_row.js), its fields (board/field.js), placing one (dom/kit.js) and an editing
// mark (board/presence.js). Each touch is small, text goes in as text, and the field the user is
// typing in keeps their text, focus and caret.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { placeElement } from "../../web-static/dom/kit.js";
import { acceptField, fieldOf, isDirty, revertField, setFieldValue } from "../../web-static/board/field.js";
import { PresenceView } from "../../web-static/board/presence.js";
import { createSectionElement } from "../../web-static/board/section_element.js";
import { createTimerElement, renderRunState } from "../../web-static/board/timer_row.js";
import { FakeDocument } from "./fake_dom.js";

// The views ask whether an element is an input; in the fake DOM, by its tag.
Object.assign(globalThis, { HTMLInputElement: class { static [Symbol.hasInstance](/** @type {any} */ x) { return x?.tagName === "INPUT"; } } });

const LIMITS = { maxTitleLength: 200, maxMinutes: 999, maxSeconds: 59 };
const idle = { status: "idle", elapsed: 0 };

/** @param {any} element @returns {number} the element and all its descendants */
function count(element) {
  return 1 + element.children.reduce((/** @type {number} */ n, /** @type {any} */ child) => n + count(child), 0);
}

function timer(doc = new FakeDocument(), title = "Eggs") {
  const element = /** @type {any} */ (createTimerElement(/** @type {any} */ (doc), /** @type {any} */ ({
    id: "t1", sectionID: "s1", title, minutes: 7, seconds: 5, createdDate: 0, order: "a0", run: idle,
  }), LIMITS));
  doc.body.append(element);
  doc.takeMutations();
  return { doc, element, title: /** @type {any} */ (fieldOf(element, "title")) };
}

describe("the board's elements", () => {
  test("a timer row: its id, its fields' values, and few elements (icons are drawn by CSS)", () => {
    const { element } = timer();
    assert.equal(element.dataset.id, "t1");
    assert.equal(element.dataset.kind, "timer");
    assert.equal(fieldOf(element, "title")?.value, "Eggs");
    assert.equal(fieldOf(element, "seconds")?.value, "05");
    assert.ok(count(element) <= 20, `${count(element)} elements`);
    assert.equal(element.querySelectorAll("svg").length, 0);
    assert.equal(element.querySelector(".timer-delete").dataset.icon, "delete");
  });

  test("a section element: its title, and its body shown or hidden as it is expanded", () => {
    const doc = new FakeDocument();
    const section = /** @type {any} */ (createSectionElement(/** @type {any} */ (doc), /** @type {any} */ ({
      id: "s1", title: "Prep", isExpanded: false, createdDate: 0, order: "a0",
    }), 200));
    assert.equal(fieldOf(section, "title")?.value, "Prep");
    assert.equal(section.dataset.expanded, "false");
    assert.equal(section.querySelector(".section-body").hidden, true);
    // 31: the moves and delete in a group of their own, which a phone wraps to a line together.
    assert.ok(count(section) <= 31, `${count(section)} elements`);
  });

  test("a title with markup is text, never parsed", () => {
    const { element } = timer(new FakeDocument(), "<img src=x onerror=alert(1)>");
    assert.equal(fieldOf(element, "title")?.value, "<img src=x onerror=alert(1)>");
    assert.equal(element.querySelectorAll("img").length, 0);
  });

  test("a new value for a field nobody types in is written, and only that field is touched", () => {
    const { doc, title } = timer();
    setFieldValue(title, "Toast");
    assert.equal(title.value, "Toast");
    assert.deepEqual(doc.takeMutations(), ["attributes data-base on #timer-title-t1", "value on #timer-title-t1", "attributes data-shown on #timer-title-t1"]);
  });

  test("a new value for the field the user is typing in waits: their text and caret stay, and it is marked", () => {
    const { title } = timer();
    title.focus();
    title.value = "Eggs, soft";
    title.setSelectionRange(4, 4);
    setFieldValue(title, "Toast");
    assert.equal(title.value, "Eggs, soft");
    assert.equal(title.selectionStart, 4);
    assert.ok(title.classList.contains("remote-changed"));
    assert.ok(isDirty(title));
    // Escape shows theirs.
    revertField(title);
    assert.equal(title.value, "Toast");
    assert.equal(title.classList.contains("remote-changed"), false);
  });

  test("a committed field is no longer unsent", () => {
    const { title } = timer();
    title.focus();
    title.value = "Eggs, soft";
    acceptField(title);
    assert.equal(isDirty(title), false);
  });

  test("moving the element that holds the focus keeps focus and caret", () => {
    const doc = new FakeDocument();
    const list = doc.createElement("ol");
    doc.body.append(list);
    const a = timer(doc).element, b = /** @type {any} */ (doc.createElement("li"));
    list.append(a, b);
    const title = fieldOf(a, "title");
    title?.focus();
    title?.setSelectionRange(2, 3);
    placeElement(/** @type {any} */ (list), a, null);
    assert.equal(list.children[1], a);
    assert.equal(doc.activeElement, title);
    assert.deepEqual([title?.selectionStart, title?.selectionEnd], [2, 3]);
  });

  test("a run state touches only what differs: the same state twice is no write", () => {
    const { doc, element } = timer();
    renderRunState(element, "running");
    assert.equal(element.dataset.status, "running");
    assert.equal(element.querySelector(".timer-toggle").dataset.icon, "pause");
    assert.ok(doc.takeMutations().length > 0);
    renderRunState(element, "running");
    assert.deepEqual(doc.takeMutations(), []);
  });

  test("an editing mark goes on the timer's row only, and comes off", () => {
    const { doc, element } = timer();
    const list = doc.createElement("ul");
    const presence = new PresenceView({ list: /** @type {any} */ (list), myDot: /** @type {any} */ (doc.createElement("span")), elements: new Map([["t1", element]]), describe: () => null });
    const ada = { userId: "u-ada", name: "Ada", color: "#e4572e", editing: "t1" };
    presence.show([ada]);
    assert.equal(element.dataset.editingBy, "Ada");
    const marks = doc.takeMutations().filter((m) => !m.endsWith("ul.") && !m.includes("presence"));
    assert.ok(marks.length > 0 && marks.every((m) => m.endsWith("li.timer")), `${marks}`);
    presence.show([{ ...ada, editing: null }]);
    assert.equal(element.hasAttribute("data-editing-by"), false);
  });

  test("a full presence list ends with how many more are on the board, and follows their count", () => {
    const { doc, element } = timer();
    const list = doc.createElement("ul");
    const presence = new PresenceView({ list: /** @type {any} */ (list), myDot: /** @type {any} */ (doc.createElement("span")), elements: new Map([["t1", element]]), describe: () => null });
    const ada = { userId: "u-ada", name: "Ada", color: "#e4572e", editing: null };
    presence.show([ada], 9998);
    assert.deepEqual(list.children.map((li) => li.textContent), ["Ada", "+9,998"]);
    presence.change([], [], 12000);
    assert.equal(list.querySelector(".presence-more").textContent, "+12,000");
    presence.change([{ ...ada, userId: "u-abe", name: "Abe" }], ["u-ada"]);
    assert.deepEqual(list.children.map((li) => li.textContent), ["Abe", "+12,000"]);
    presence.change([], [], 0);
    assert.equal(list.querySelector(".presence-more"), null);
  });

  test("the header names a dozen others, whoever edits first, and counts the rest", () => {
    const { doc, element } = timer();
    const list = doc.createElement("ul");
    const presence = new PresenceView({ list: /** @type {any} */ (list), myDot: /** @type {any} */ (doc.createElement("span")), elements: new Map([["t1", element]]), describe: () => null });
    const phones = Array.from({ length: 29 }, (_, n) => ({ userId: `u-${String(n).padStart(2, "0")}`, name: "Guest", color: "#e4572e", editing: null }));
    const zoe = { userId: "u-zoe", name: "Zoe", color: "#1971c2", editing: "t1" };
    presence.show([...phones, zoe], 5);
    const names = list.children.map((li) => li.textContent);
    assert.equal(names.length, 12 + 1);
    assert.ok(names.includes("Zoe"), "the one who edits is named");
    assert.equal(names.at(-1), "+23");
    assert.equal(element.dataset.editingBy, "Zoe");
  });
});
