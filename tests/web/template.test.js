// @ts-check
// dom/template.js, and the rows and sections the board stamps from it (board/timer_row.js,
// board/section_element.js): each copy carries its own id everywhere the shape named the item, and
// shares nothing with the others.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { ElementTemplate, ITEM_ID } from "../../web-static/dom/template.js";
import { fieldOf } from "../../web-static/board/field.js";
import { createSectionElement } from "../../web-static/board/section_element.js";
import { createTimerElement } from "../../web-static/board/timer_row.js";
import { FakeDocument } from "./fake_dom.js";

Object.assign(globalThis, { HTMLInputElement: class { static [Symbol.hasInstance](/** @type {any} */ x) { return x?.tagName === "INPUT"; } } });

const LIMITS = { maxTitleLength: 200, maxMinutes: 999, maxSeconds: 59 };

/** @param {any} element @returns {[string, string, string][]} [tag, attribute, value] of the element and its descendants, in document order */
function attributesOf(element) {
  return [element, ...element.querySelectorAll("*")].flatMap((/** @type {any} */ e) =>
    e.getAttributeNames().map((/** @type {string} */ name) => [e.tagName, name, e.getAttribute(name)]));
}

/** @param {any} doc @param {string} id */
function timerOf(doc, id, title = "Eggs") {
  return /** @type {any} */ (createTimerElement(doc, /** @type {any} */ ({
    id, sectionID: "s1", title, minutes: 7, seconds: 5, createdDate: 0, order: "a0", run: { status: "idle", elapsed: 0 },
  }), LIMITS));
}

describe("ElementTemplate", () => {
  test("a stamp writes the id wherever the shape named the item, and only there", () => {
    const doc = new FakeDocument();
    const shape = doc.createElement("li");
    shape.setAttribute("data-id", ITEM_ID);
    shape.setAttribute("class", "row");
    const button = doc.createElement("button");
    button.setAttribute("aria-labelledby", `label-${ITEM_ID} title-${ITEM_ID}`);
    shape.append(button, "text");
    const template = new ElementTemplate(/** @type {any} */ (shape));

    const copy = /** @type {any} */ (template.stamp("t7"));
    assert.deepEqual(attributesOf(copy), [["LI", "data-id", "t7"], ["LI", "class", "row"], ["BUTTON", "aria-labelledby", "label-t7 title-t7"]]);
    assert.equal(copy.textContent, "text");
    assert.equal(shape.getAttribute("data-id"), ITEM_ID, "the shape itself is untouched");
  });

  test("copies share no node: changing one changes neither the others nor the next stamp", () => {
    const doc = new FakeDocument();
    const a = timerOf(doc, "a"), b = timerOf(doc, "b");
    fieldOf(a, "title")?.setAttribute("maxlength", "3");
    a.querySelector(".timer-countdown").textContent = "1:00";
    assert.equal(fieldOf(b, "title")?.getAttribute("maxlength"), "200");
    assert.equal(b.querySelector(".timer-countdown").textContent, "");
    assert.equal(fieldOf(timerOf(doc, "c"), "title")?.getAttribute("maxlength"), "200");
  });
});

describe("rows and sections from templates", () => {
  test("a timer row: no placeholder left, its ids its own, its labels pointing at them", () => {
    const doc = new FakeDocument();
    const one = timerOf(doc, "t1", "Eggs"), two = timerOf(doc, "t2", "Tea");
    for (const [tag, name, value] of [...attributesOf(one), ...attributesOf(two)]) assert.ok(!value.includes(ITEM_ID), `${tag} ${name}`);
    assert.equal(one.dataset.id, "t1");
    assert.equal(fieldOf(one, "title")?.id, "timer-title-t1");
    assert.equal(fieldOf(two, "title")?.id, "timer-title-t2");
    assert.equal(one.querySelector(".timer-toggle").getAttribute("aria-labelledby"), "timer-toggle-label-t1 timer-title-t1");
    assert.equal(two.querySelector(".timer-reset").getAttribute("aria-labelledby"), "timer-reset-label-t2 timer-title-t2");
    assert.deepEqual([fieldOf(one, "title")?.value, fieldOf(two, "title")?.value], ["Eggs", "Tea"]);
    const ids = [...one.querySelectorAll("[id]"), ...two.querySelectorAll("[id]")].map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, "no id twice");
  });

  test("a section: every id and reference carries the section's id", () => {
    const doc = new FakeDocument();
    const section = /** @type {any} */ (createSectionElement(/** @type {any} */ (doc), /** @type {any} */ ({
      id: "s9", title: "Prep", isExpanded: false, createdDate: 0, order: "a0", sequence: true,
    }), 200));
    for (const [tag, name, value] of attributesOf(section)) assert.ok(!value.includes(ITEM_ID), `${tag} ${name}`);
    assert.equal(section.getAttribute("aria-labelledby"), "section-title-s9");
    assert.equal(section.querySelector(".section-toggle").getAttribute("aria-controls"), "section-body-s9");
    assert.equal(section.querySelector("label").getAttribute("for"), "add-timer-title-s9");
    assert.equal(fieldOf(section, "title")?.value, "Prep");
    assert.equal(section.dataset.expanded, "false");
    assert.equal(section.dataset.sequence, "true");
  });
});
