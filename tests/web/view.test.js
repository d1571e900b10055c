// @ts-check
// BoardView (board/view.js, board/nearby.js) and the board's elements on a fake DOM (fake_dom.js),
// driven by a real Store: each render looks only at the ids the store touched and changes only
// their elements.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { RENDER_MARGIN, RENDER_WHEN_IDLE } from "../../web-static/board/nearby.js";
import { BoardView, BUILD_AT_ONCE, BUILD_FIRST, BUILD_MARGIN, BUILD_SLICE, DROP_MARGIN, ROW_HEIGHT } from "../../web-static/board/view.js";
import { CountdownView } from "../../web-static/board/countdowns.js";
import { compareByOrder } from "../../web-static/model/order.js";
import * as protocol from "../../web-static/wire/protocol.js";
import { parseServerMessage } from "../../web-static/wire/server_messages.js";
import { Store } from "../../web-static/model/store.js";
import { FakeDocument, FakeIntersectionObserver } from "./fake_dom.js";

// The views ask whether the focused element is an input; in the fake DOM, by its tag.
Object.assign(globalThis, { HTMLInputElement: class { static [Symbol.hasInstance](/** @type {any} */ x) { return x?.tagName === "INPUT"; } } });

const NOW = 1763740800000;
const idle = { status: "idle", elapsed: 0 };

/**
 * A board of `sections` sections with `timers` timers each, ids s0, s0t0, …, in display order.
 * @param {number} sections @param {number} timers
 */
function snapshot(sections, timers) {
  const order = (/** @type {number} */ i) => `V${1000 + i}1`;
  return {
    board: "kT3vQ9mZ2pXa", rev: 1,
    sections: Array.from({ length: sections }, (_, s) => ({ id: `s${s}`, title: `Section ${s}`, isExpanded: true, createdDate: NOW, order: order(s) })),
    timers: Array.from({ length: sections * timers }, (_, i) => {
      const s = Math.floor(i / timers), t = i % timers;
      return { id: `s${s}t${t}`, sectionID: `s${s}`, title: `Timer ${s}.${t}`, minutes: 1, seconds: 0, createdDate: NOW, order: order(t), run: idle };
    }),
  };
}

/** A page: a store, a BoardView on a fake document, and `apply` for the server's changesets. */
function page({
  sections = 3, timers = 2, IntersectionObserver = /** @type {any} */ (null), schedule = (/** @type {() => void} */ f) => f(),
  idle = (/** @type {() => void} */ _f) => {}, screenHeight = /** @type {number | undefined} */ (undefined),
} = {}) {
  const doc = new FakeDocument();
  const container = doc.createElement("div");
  doc.body.append(container);
  const store = new Store();
  const view = new BoardView(/** @type {any} */ (container), { IntersectionObserver, schedule, idle, screenHeight });
  const render = () => view.render(store.displayed, store.takeTouched());
  store.loadSnapshot(/** @type {any} */ (snapshot(sections, timers)));
  render();
  doc.takeMutations();
  /** @param {any[]} changes */
  const apply = (changes) => {
    const message = parseServerMessage(JSON.stringify({ type: "changes", rev: /** @type {number} */ (store.rev) + 1, changes }));
    assert.equal(store.applyChangeset(/** @type {any} */ (message)).status, "applied");
    render();
  };
  /** What the DOM shows: [section title, [timer titles]] in DOM order. */
  const shown = () => container.children.map((s) => [
    /** @type {any} */ (s.querySelector(".section-title")).value,
    /** @type {any} */ (s.querySelector(".timers")).children.map((t) => /** @type {any} */ (t.querySelector(".timer-title")).value),
  ]);
  return { doc, container, store, view, render, apply, shown };
}

describe("BoardView", () => {
  test("the first render builds every section and timer in display order", () => {
    const p = page();
    assert.deepEqual(p.shown(), [
      ["Section 0", ["Timer 0.0", "Timer 0.1"]], ["Section 1", ["Timer 1.0", "Timer 1.1"]], ["Section 2", ["Timer 2.0", "Timer 2.1"]],
    ]);
    assert.equal(p.container.dataset.ready, "true");
    assert.equal(p.view.elements.size, 9);
  });

  test("a remote rename touches only that title input", () => {
    const p = page();
    p.apply([{ update: "section", id: "s1", title: "Prep" }]);
    assert.deepEqual(p.doc.takeMutations(), [
      "attributes data-base on #section-title-s1", "value on #section-title-s1", "attributes data-shown on #section-title-s1",
    ]);
    p.apply([{ update: "timer", id: "s2t1", minutes: 7 }]);
    assert.deepEqual(p.doc.takeMutations(), [
      "attributes data-base on input.field.number.timer-minutes", "value on input.field.number.timer-minutes",
      "attributes data-shown on input.field.number.timer-minutes",
    ]);
    assert.equal(/** @type {any} */ (p.view.elements.get("s2t1")?.querySelector(".timer-minutes")).value, "7");
  });

  test("it looks only at the ids it is told about, not at the whole board", () => {
    const p = page();
    // A change the store did not report (as if it had not happened) is not found by a sweep.
    p.store.confirmed.sections.set("s0", { ...p.store.confirmed.sections.get("s0"), title: "Unreported" });
    p.view.render(p.store.displayed, new Set(["s1"]));
    assert.deepEqual(p.doc.takeMutations(), []);
    p.view.render(p.store.displayed, new Set(["s0"]));
    assert.deepEqual(p.doc.takeMutations().length, 3);
  });

  test("a move puts only the moved element in place; an insert and a delete touch only their list", () => {
    const p = page();
    p.apply([{ update: "timer", id: "s0t0", order: "W" }]);
    assert.deepEqual(p.shown()[0], ["Section 0", ["Timer 0.1", "Timer 0.0"]]);
    assert.deepEqual(p.doc.takeMutations(), ["childList on ol.timers", "childList on ol.timers"], "one detach, one insert");
    p.apply([{ update: "timer", id: "s0t0", sectionID: "s2", order: "A" }]);
    assert.deepEqual(p.shown().map(([, timers]) => timers), [["Timer 0.1"], ["Timer 1.0", "Timer 1.1"], ["Timer 0.0", "Timer 2.0", "Timer 2.1"]]);
    p.doc.takeMutations();
    p.apply([{ delete: "timer", id: "s1t0" }, { delete: "timer", id: "s1t1" }, { delete: "section", id: "s1" }]);
    assert.deepEqual(p.shown().map(([title]) => title), ["Section 0", "Section 2"]);
    assert.equal(p.view.elements.has("s1t0"), false);
    p.apply([{ insert: "section", id: "s9", title: "New", isExpanded: true, createdDate: NOW, order: "V10001a" }]);
    assert.deepEqual(p.shown().map(([title]) => title), ["Section 0", "New", "Section 2"]);
  });

  test("a remote value for the field the user is typing in waits; their text and caret stay", () => {
    const p = page();
    const input = /** @type {any} */ (p.view.elements.get("s0")?.querySelector(".section-title"));
    input.focus();
    input.value = "Mine, unsent";
    input.setSelectionRange(4, 4);
    p.apply([{ update: "section", id: "s0", title: "Theirs" }]);
    assert.equal(input.value, "Mine, unsent");
    assert.equal(input.selectionStart, 4);
    assert.equal(input.dataset.base, "Theirs");
    assert.ok(input.classList.contains("remote-changed"));
  });

  test("pending local edits are shown, and only their ids are patched when they settle", () => {
    const p = page();
    p.store.addEdit("1", [protocol.updateSection({ id: "s2", title: "Local" })], NOW);
    p.render();
    assert.equal(p.shown()[2][0], "Local");
    p.doc.takeMutations();
    // Someone else renames another section: the pending edit is re-applied, s2 stays as it is.
    p.apply([{ update: "section", id: "s0", title: "Remote" }]);
    assert.deepEqual(p.doc.takeMutations().filter((m) => !m.endsWith("#section-title-s0")), []);
    assert.deepEqual(p.shown().map(([title]) => title), ["Remote", "Section 1", "Local"]);
  });

  test("a snapshot after a reconnect keeps the elements of what did not change", () => {
    const p = page();
    const kept = p.view.elements.get("s1t1");
    const next = snapshot(3, 2);
    next.rev = 9;
    next.sections[0].title = "Changed while away";
    next.timers = next.timers.filter((t) => t.id !== "s2t0");
    p.store.loadSnapshot(/** @type {any} */ (next));
    p.render();
    assert.equal(p.view.elements.get("s1t1"), kept);
    assert.deepEqual(p.shown(), [
      ["Changed while away", ["Timer 0.0", "Timer 0.1"]], ["Section 1", ["Timer 1.0", "Timer 1.1"]], ["Section 2", ["Timer 2.1"]],
    ]);
  });
});

describe("BoardView on a big board", () => {
  beforeEach(() => {
    FakeIntersectionObserver.all = [];
  });
  const sections = 20, timers = 40;
  // A screen of 59 rows: the first section whole, the second cut after 19 rows, the rest shells.
  const screenHeight = 3000, screenRows = Math.ceil(screenHeight / ROW_HEIGHT) + 1;
  /** @param {Parameters<typeof page>[0]} options */
  const bigPage = (options = {}) => page({ sections, timers, IntersectionObserver: FakeIntersectionObserver, screenHeight, ...options });

  test("builds a screenful of timers first; a section's timers when it comes near the screen", () => {
    assert.ok(sections * timers > BUILD_AT_ONCE);
    assert.equal(screenRows, 59);
    const p = bigPage();
    assert.deepEqual(p.shown().map(([, list]) => list.length).slice(0, 3), [timers, screenRows - timers, 0]);
    assert.equal(p.view.elements.get("s0")?.dataset.built, undefined);
    const cut = /** @type {any} */ (p.view.elements.get("s1"));
    assert.equal(cut.dataset.built, "false", "the section the screen ends in is cut, and fills later");
    // Sized for the rows it does not show yet, so that the sections below do not look near the screen.
    assert.equal(cut.style.getPropertyValue("--unbuilt"), String(timers - (screenRows - timers)));
    assert.equal(p.shown().length, sections, "every section is there, as a shell if need be");
    const shell = /** @type {any} */ (p.view.elements.get("s10"));
    assert.equal(shell.dataset.built, "false");
    /** @type {string[][]} */
    const builtIds = [];
    p.view.onBuilt = (ids) => builtIds.push(ids);
    // A change to a shell's timer waits in the store; the shell shows it when built.
    p.apply([{ update: "timer", id: "s10t3", title: "Changed before shown" }]);
    assert.equal(p.view.elements.has("s10t3"), false);
    FakeIntersectionObserver.all[0].show(shell);
    assert.equal(shell.dataset.built, undefined);
    assert.equal(p.shown()[10][1].length, timers);
    assert.equal(p.shown()[10][1][3], "Changed before shown");
    // In slices of at most BUILD_SLICE rows, each naming its section, in display order.
    assert.ok(builtIds.length > 1 && builtIds.every((ids) => ids[0] === "s10" && ids.length - 1 <= BUILD_SLICE), `${builtIds.map((ids) => ids.length)}`);
    assert.deepEqual(builtIds.flatMap((ids) => ids.slice(1)), Array.from({ length: timers }, (_, t) => `s10t${t}`));
  });

  test("without the screen's height, it builds BUILD_FIRST timers first", () => {
    const p = page({ sections, timers, IntersectionObserver: FakeIntersectionObserver });
    assert.equal(p.view.elements.size - sections, BUILD_FIRST);
  });

  test("a section cut by the first screen: its rows are patched in place, the rest come in order when it is near", () => {
    const p = bigPage();
    const s1 = /** @type {any} */ (p.view.elements.get("s1"));
    const kept = p.view.elements.get("s1t2");
    p.apply([
      { update: "timer", id: "s1t2", title: "Renamed while cut" },
      // A shown row moves among the ones not built yet, an unbuilt one moves to the top, and one is added.
      { update: "timer", id: "s1t1", order: "V10301" },
      { update: "timer", id: "s1t30", order: "A" },
      { insert: "timer", id: "s1new", sectionID: "s1", title: "New", minutes: 1, seconds: 0, createdDate: NOW, order: "V100511", run: idle },
    ]);
    assert.equal(p.view.elements.get("s1t2"), kept, "a shown row is patched, not rebuilt");
    assert.equal(p.view.elements.has("s1t30"), false);
    assert.equal(p.view.elements.has("s1new"), false);
    /** @type {string[][]} */
    const builtIds = [];
    p.view.onBuilt = (ids) => builtIds.push(ids);
    observers().near.show(s1);
    assert.equal(s1.dataset.built, undefined);
    assert.equal(s1.style.getPropertyValue("--unbuilt"), "");
    const expected = [...p.store.displayed.timers.values()].filter((t) => t.sectionID === "s1").sort(compareByOrder).map((t) => t.title);
    assert.deepEqual(p.shown()[1][1], expected);
    assert.deepEqual(p.shown()[1][1].slice(0, 7), ["Timer 1.30", "Timer 1.0", "Renamed while cut", "Timer 1.3", "Timer 1.4", "Timer 1.5", "New"]);
    assert.equal(p.shown()[1][1].length, timers + 1);
    assert.equal(p.view.elements.get("s1t2"), kept, "the rows shown before stay");
    assert.equal(builtIds.flatMap((ids) => ids.slice(1)).length, (timers + 1) - (screenRows - timers), "only the rows it did not show");
  });

  test("reveal builds a shell's rows up to the one asked for, and that row renders at once", () => {
    const p = bigPage();
    /** @type {string[][]} */
    const builtIds = [];
    p.view.onBuilt = (ids) => builtIds.push(ids);
    const shell = /** @type {any} */ (p.view.elements.get("s15"));
    const row = /** @type {any} */ (p.view.reveal("s15t5"));
    assert.equal(row, p.view.elements.get("s15t5"));
    assert.deepEqual(p.shown()[15][1], Array.from({ length: 6 }, (_, t) => `Timer 15.${t}`));
    assert.deepEqual(builtIds, [["s15", ...Array.from({ length: 6 }, (_, t) => `s15t${t}`)]]);
    assert.equal(row.dataset.fresh, undefined, "scrolled to next, it must not wait to render");
    assert.equal(shell.dataset.built, "false", "the rest come when it is near the screen");
    // Near the screen, the section gets the rest, after the ones already there.
    FakeIntersectionObserver.all[0].show(shell);
    assert.equal(p.shown()[15][1].length, timers);
    assert.equal(p.view.reveal("s0t0"), p.view.elements.get("s0t0"), "a built row is itself");
    assert.equal(p.view.reveal("nope"), undefined);
  });

  test("a timer moved into a shell leaves the DOM until the shell is built", () => {
    const p = bigPage();
    p.apply([{ update: "timer", id: "s0t0", sectionID: "s15", order: "A" }]);
    assert.equal(p.view.elements.has("s0t0"), false);
    assert.equal(p.shown()[0][1].length, timers - 1);
    FakeIntersectionObserver.all[0].show(p.view.elements.get("s15"));
    assert.equal(p.shown()[15][1][0], "Timer 0.0");
  });

  /** The observer that builds sections near the screen, and the one that drops far ones. */
  const observers = () => {
    const [near, far] = FakeIntersectionObserver.all;
    assert.equal(near.options.rootMargin, BUILD_MARGIN);
    assert.equal(far.options.rootMargin, DROP_MARGIN);
    return { near, far };
  };

  test("a section far from the screen drops its timers' elements, and builds them again when near", () => {
    const p = bigPage();
    const { near, far } = observers();
    const first = /** @type {any} */ (p.view.elements.get("s0"));
    /** @type {string[][]} */
    const dropped = [];
    p.view.onDropped = (ids) => dropped.push(ids);
    far.hide(first);
    assert.equal(first.dataset.built, "false");
    assert.equal(first.style.getPropertyValue("--unbuilt"), String(timers));
    assert.deepEqual(p.shown()[0], ["Section 0", []]);
    assert.equal(p.view.elements.has("s0t0"), false, "the view forgets the dropped elements");
    assert.deepEqual(dropped, [Array.from({ length: timers }, (_, t) => `s0t${t}`)]);
    // A change meanwhile is in the store only, and shows once the section is built again.
    p.apply([{ update: "timer", id: "s0t1", title: "Renamed while far" }]);
    near.show(first);
    assert.equal(p.shown()[0][1].length, timers);
    assert.equal(p.shown()[0][1][1], "Renamed while far");
  });

  test("a section the user is typing in is not dropped", () => {
    const p = bigPage();
    const input = /** @type {any} */ (p.view.elements.get("s0t2")?.querySelector(".timer-title"));
    input.focus();
    input.value = "unsent";
    observers().far.hide(p.view.elements.get("s0"));
    assert.equal(p.view.elements.get("s0t2")?.querySelector(".timer-title"), input);
    assert.equal(input.value, "unsent");
    assert.equal(p.shown()[0][1].length, timers);
  });

  test("sections that come near are built a slice at a time, nearest first", () => {
    /** @type {(() => void)[]} */
    const tasks = [];
    const p = bigPage({ schedule: (f) => tasks.push(f) });
    const { near } = observers();
    const shells = ["s19", "s5", "s6", "s7", "s8"].map((id) => /** @type {any} */ (p.view.elements.get(id)));
    // Entries come with their boxes: s19 is far below, s5-s8 just below the screen.
    near.callback(shells.map((target, i) => ({ target, isIntersecting: true, boundingClientRect: { top: i === 0 ? 9000 : 1000 * i, bottom: 0 } })));
    /** @type {string[]} */
    const order = [];
    p.view.onBuilt = (ids) => order.at(-1) !== ids[0] && order.push(ids[0]);
    assert.equal(tasks.length, 1, "one task is scheduled, nothing is built in the observer's callback");
    /** @type {number[]} */
    const perTask = [];
    while (tasks.length) {
      const count = p.view.elements.size;
      /** @type {() => void} */ (tasks.shift())();
      perTask.push(p.view.elements.size - count);
    }
    assert.ok(perTask.every((n) => n <= BUILD_SLICE), `${perTask}`);
    assert.equal(perTask.reduce((a, b) => a + b), shells.length * timers);
    assert.deepEqual(order, ["s5", "s6", "s7", "s8", "s19"]);
    assert.ok(shells.every((shell) => shell.dataset.built === undefined));
  });

  test("rows built ahead of the screen skip style and layout (data-fresh) until they come near", () => {
    const p = bigPage();
    const shell = /** @type {any} */ (p.view.elements.get("s10"));
    observers().near.show(shell);
    const rows = Array.from({ length: timers }, (_, t) => /** @type {any} */ (p.view.elements.get(`s10t${t}`)));
    assert.ok(rows.every((row) => "fresh" in row.dataset), "built ahead: fresh");
    assert.ok(!("fresh" in /** @type {any} */ (p.view.elements.get("s0t0")).dataset), "the first screen's rows render at once");
    const rowObserver = FakeIntersectionObserver.all[2];
    assert.equal(rowObserver.options.rootMargin, RENDER_MARGIN);
    rowObserver.show(rows[0], rows[1]);
    assert.ok(!("fresh" in rows[0].dataset) && !("fresh" in rows[1].dataset) && "fresh" in rows[2].dataset);
    assert.equal(rowObserver.observed.has(rows[0]), false, "a row that rendered is no longer watched");
    // Dropped far from the screen: no fresh row is left watched.
    observers().far.hide(shell);
    assert.equal(p.view.elements.has("s10t5"), false);
    assert.ok(rows.every((row) => !rowObserver.observed.has(row)));
  });

  test("fresh rows render a few at a time when the page is idle, so none stays out of reach once scrolling stops", () => {
    /** @type {(() => void)[]} */
    const idle = [];
    const p = bigPage({ idle: (f) => idle.push(f) });
    observers().near.show(p.view.elements.get("s10"));
    const fresh = () => [...p.view.elements.values()].filter((e) => "fresh" in e.dataset).length;
    assert.equal(fresh(), timers);
    assert.equal(idle.length, 1, "one idle task at a time");
    /** @type {() => void} */ (idle.shift())();
    assert.equal(fresh(), timers - RENDER_WHEN_IDLE);
    while (idle.length) /** @type {() => void} */ (idle.shift())();
    assert.equal(fresh(), 0);
    assert.equal(FakeIntersectionObserver.all[2].observed.size, 0);
  });

  test("sections gone far are dropped one a slice, in the slices' task, never in the observer's callback", () => {
    /** @type {(() => void)[]} */
    const tasks = [];
    const p = bigPage({ schedule: (f) => tasks.push(f) });
    const { far } = observers();
    far.hide(p.view.elements.get("s0"), p.view.elements.get("s1"));
    assert.equal(p.shown()[0][1].length, timers, "nothing dropped yet");
    assert.equal(tasks.length, 1);
    /** @type {() => void} */ (tasks.shift())();
    assert.deepEqual([p.shown()[0][1].length, p.shown()[1][1].length], [0, screenRows - timers]);
    /** @type {() => void} */ (tasks.shift())();
    assert.deepEqual([p.shown()[0][1].length, p.shown()[1][1].length], [0, 0]);
    assert.equal(tasks.length, 0);
  });

  test("without IntersectionObserver, everything is built at once", () => {
    const p = page({ sections, timers });
    assert.ok(p.shown().every(([, list]) => list.length === timers));
  });
});

describe("CountdownView", () => {
  test("syncs only the touched timers and their sections' buttons", () => {
    const p = page();
    const countdowns = new CountdownView({
      elements: p.view.elements, clock: { serverNow: () => NOW }, 
      setTimeout: () => 0, clearTimeout: () => {},
    });
    countdowns.sync(p.store.displayed, null);
    p.doc.takeMutations();
    p.apply([{ update: "timer", id: "s1t0", run: { status: "running", startedAt: NOW - 5000, elapsed: 0 } }]);
    countdowns.sync(p.store.displayed, new Set(["s1t0"]));
    // Only s1t0 (its state, countdown, run buttons) and s1's start/pause-all button change.
    const targets = p.doc.takeMutations().map((m) => m.split(" on ")[1]);
    assert.ok(targets.length > 0);
    assert.equal(p.view.elements.get("s1t0")?.dataset.status, "running");
    assert.equal(p.view.elements.get("s1t0")?.querySelector(".timer-countdown")?.textContent, "0:55");
    assert.equal(p.view.elements.get("s1")?.querySelector(".section-run")?.dataset.action, "pause");
    assert.equal(p.view.elements.get("s0")?.querySelector(".section-run")?.dataset.action, "start");
    assert.equal(p.view.elements.get("s1t1")?.dataset.status, "idle", "the other timer is untouched");
  });
});

describe("CountdownView: alerts (issue 35)", () => {
  /** A page whose section s1 is a sequence (s1t0 then s1t1), and the timers it alerted for. */
  function sequencePage() {
    const p = page();
    /** @type {string[]} */
    const alerted = [];
    const countdowns = new CountdownView({
      elements: p.view.elements, clock: { serverNow: () => NOW }, onFinished: (timer) => alerted.push(timer.id),
      setTimeout: () => 0, clearTimeout: () => {},
    });
    /** @param {any[]} changes */
    const apply = (changes) => {
      const touched = new Set(changes.map((c) => c.id));
      p.apply(changes);
      countdowns.sync(p.store.displayed, touched);
    };
    countdowns.sync(p.store.displayed, null);
    apply([{ update: "section", id: "s1", sequence: true }, { update: "timer", id: "s1t0", run: { status: "running", startedAt: NOW - 60000, elapsed: 0 } }]);
    return { apply, alerted };
  }

  test("a sequence's planned hand-over is no alarm; its last timer's end is", () => {
    const { apply, alerted } = sequencePage();
    apply([
      { update: "timer", id: "s1t0", run: { status: "finished", elapsed: 0, finishedAt: NOW } },
      { update: "timer", id: "s1t1", run: { status: "running", startedAt: NOW, elapsed: 0 } },
    ]);
    assert.deepEqual(alerted, [], "the show goes on: no alert");
    apply([{ update: "timer", id: "s1t1", run: { status: "finished", elapsed: 0, finishedAt: NOW + 60000 } }]);
    assert.deepEqual(alerted, ["s1t1"]);
  });

  test("a timer of an ordinary section alerts when it finishes", () => {
    const { apply, alerted } = sequencePage();
    apply([{ update: "timer", id: "s0t0", run: { status: "finished", elapsed: 0, finishedAt: NOW } }]);
    assert.deepEqual(alerted, ["s0t0"]);
  });
});

describe("CountdownView on a big board", () => {
  beforeEach(() => {
    FakeIntersectionObserver.all = [];
  });

  test("a far section's Start all reads its timers from the board, not from the timers shown", () => {
    const p = page({ sections: 20, timers: 40, IntersectionObserver: FakeIntersectionObserver });
    const countdowns = new CountdownView({ elements: p.view.elements, clock: { serverNow: () => NOW }, setTimeout: () => 0, clearTimeout: () => {} });
    countdowns.sync(p.store.displayed, null);
    const button = () => /** @type {any} */ (p.view.elements.get("s10")?.querySelector(".section-run"));
    assert.equal(p.view.elements.get("s10")?.dataset.built, "false", "s10 is a shell");
    assert.equal(button().getAttribute("aria-disabled"), "false", "its idle timers can be started");
    p.apply([{ update: "timer", id: "s10t3", run: { status: "running", startedAt: NOW - 5000, elapsed: 0 } }]);
    countdowns.sync(p.store.displayed, new Set(["s10t3"]));
    assert.equal(button().dataset.action, "pause", "one of its timers runs");
  });
});

describe("CountdownView: issue 18 (overtime, warnings, sequences, the tab's nearest timer)", () => {
  /** @param {any} p */
  const countdownsOf = (p, /** @type {any[]} */ finished = []) => {
    /** @type {() => void} */
    let tick = () => {};
    const countdowns = new CountdownView({
      elements: p.view.elements, clock: { serverNow: () => p.now }, onFinished: (timer) => finished.push(timer.id),
      setTimeout: (/** @type {() => void} */ f) => { tick = f; return 1; }, clearTimeout: () => {},
    });
    countdowns.sync(p.store.displayed, null);
    return { countdowns, tick: () => tick() };
  };
  /** @param {any} p @param {any[]} changes */
  const change = (p, countdowns, changes) => {
    p.apply(changes);
    countdowns.sync(p.store.displayed, new Set(changes.map((c) => c.id)));
  };
  const face = (/** @type {any} */ p, /** @type {string} */ id) => {
    const element = p.view.elements.get(id);
    return [element.querySelector(".timer-countdown").textContent, element.dataset.phase ?? "", element.querySelector(".timer-status").textContent];
  };

  test("a sequence: the finished timer reads Done once the next one runs; the last one counts overtime; progress in the header", () => {
    const p = Object.assign(page(), { now: NOW });
    const { countdowns } = countdownsOf(p);
    change(p, countdowns, [{ update: "section", id: "s1", sequence: true }]);
    assert.equal(p.view.elements.get("s1")?.dataset.sequence, "true");
    assert.equal(p.view.elements.get("s1")?.querySelector(".section-progress")?.textContent, "2 timers, ready");
    // The server's hand-over: s1t0 finished at NOW - 5 s, s1t1 started then, in one changeset.
    change(p, countdowns, [
      { update: "timer", id: "s1t0", run: { status: "finished", elapsed: 60_000, finishedAt: NOW - 5000 } },
      { update: "timer", id: "s1t1", run: { status: "running", startedAt: NOW - 5000, elapsed: 0 } },
    ]);
    assert.deepEqual(face(p, "s1t0"), ["0:00", "done", "Done"]);
    assert.deepEqual(face(p, "s1t1"), ["0:55", "", "Running"]);
    assert.equal(p.view.elements.get("s1")?.querySelector(".section-progress")?.textContent, "2 of 2");
    assert.ok(p.view.elements.get("s1t0")?.classList.contains("timer-done"));
    // The last one ends: it counts overtime; the first still reads Done.
    change(p, countdowns, [{ update: "timer", id: "s1t1", run: { status: "finished", elapsed: 60_000, finishedAt: NOW - 2000 } }]);
    assert.deepEqual(face(p, "s1t1"), ["+0:02", "over", "Time's up"]);
    assert.deepEqual(face(p, "s1t0"), ["0:00", "done", "Done"]);
    // Not a sequence any more: the first one counts overtime too.
    change(p, countdowns, [{ update: "section", id: "s1", sequence: false }]);
    assert.deepEqual(face(p, "s1t0"), ["+0:05", "over", "Time's up"]);
    assert.equal(p.view.elements.get("s1")?.querySelector(".section-progress")?.textContent, "");
  });

  test("overtime and warnings move with the tick, and a tick writes only what changed on the timers that tick", () => {
    const p = Object.assign(page(), { now: NOW });
    const { countdowns, tick } = countdownsOf(p);
    change(p, countdowns, [
      { update: "timer", id: "s0t0", warnAt: 30_000, run: { status: "running", startedAt: NOW - 29_500, elapsed: 0 } },
      { update: "timer", id: "s2t1", run: { status: "finished", elapsed: 60_000, finishedAt: NOW - 500 } },
    ]);
    assert.deepEqual(face(p, "s0t0"), ["0:31", "", "Running"]);
    assert.deepEqual(face(p, "s2t1"), ["0:00", "over", "Time's up"]);
    assert.deepEqual([...countdowns.ticking.keys()].sort(), ["s0t0", "s2t1"]);
    p.doc.takeMutations();
    p.now = NOW + 500;
    tick();
    assert.deepEqual(face(p, "s0t0"), ["0:30", "warn", "Warning"]);
    assert.deepEqual(face(p, "s2t1"), ["+0:01", "over", "Time's up"]);
    const touched = new Set(p.doc.takeMutations().map((/** @type {string} */ m) => m.split(" on ")[1]));
    // And the header times of the running timer's section (issue 30: done and left move with it).
    assert.ok([...touched].every((target) => /s0t0|s2t1|timer-countdown|timer-status|li\.timer|section-times/.test(target ?? "")), [...touched].join("; "));
    p.now = NOW + 501;
    tick();
    assert.deepEqual(p.doc.takeMutations(), [], "nothing changed: nothing written");
  });

  test("a timer that finishes off screen (a big board's unbuilt section) still alerts; the tab follows the nearest running timer of the whole board", () => {
    FakeIntersectionObserver.all = [];
    const p = Object.assign(page({ sections: 20, timers: 40, IntersectionObserver: FakeIntersectionObserver }), { now: NOW });
    /** @type {string[]} */
    const finished = [];
    const { countdowns } = countdownsOf(p, finished);
    assert.equal(p.view.elements.get("s15t3"), undefined, "not built");
    change(p, countdowns, [
      { update: "timer", id: "s15t3", run: { status: "running", startedAt: NOW, elapsed: 30_000 } },
      { update: "timer", id: "s0t0", run: { status: "running", startedAt: NOW, elapsed: 0 } },
    ]);
    assert.equal(countdowns.nearest()?.id, "s15t3", "30 s left, against a minute");
    change(p, countdowns, [{ update: "timer", id: "s15t3", run: { status: "finished", elapsed: 60_000, finishedAt: NOW + 30_000 } }]);
    assert.deepEqual(finished, ["s15t3"]);
    assert.equal(countdowns.nearest()?.id, "s0t0");
  });
});
