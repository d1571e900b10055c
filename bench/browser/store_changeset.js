#!/usr/bin/env node
// @ts-check
// What one changeset costs the browser client's store (no DOM): a one-field update on a board of
// 10,000 timers (and 2,000), with no edit pending and with one, as a page gets them from the socket
// (applyChangeset, then takeTouched for the views). Not a test: it prints figures, asserts nothing.
//
//   node bench/browser/store_changeset.js                        the client in this tree
//   node bench/browser/store_changeset.js --before DIR            and another copy, in the same run
//
// DIR is a copy of web-static/ (for example `git archive <commit> web-static | tar -x -C /tmp/before`
// then --before /tmp/before/web-static). The store module is found in either layout (store.js or
// model/store.js). The clients are measured in turn, round after round, so a machine whose speed
// drifts weighs on both alike; each figure is the median of the rounds.

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
/** @param {string} name @param {string} fallback */
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const here = new URL("../../web-static/", import.meta.url).pathname;
const clients = [...(option("--before", "") ? [["before", option("--before", "")]] : []), [option("--before", "") ? "after" : "client", here]];
const sizes = option("--sizes", "10000,2000").split(",").map(Number);
const rounds = Number(option("--rounds", "7"));
const changesets = Number(option("--changesets", "2000"));

/** @param {string} root */
async function loadStore(root) {
  const path = ["model/store.js", "store.js"].map((p) => resolve(root, p)).find((p) => existsSync(p));
  if (!path) throw new Error(`no store.js under ${root}`);
  return /** @type {{Store: any}} */ (await import(pathToFileURL(path).href)).Store;
}

/** A board of `timers` timers in sections of 40, as a snapshot message holds it. @param {number} timers */
function snapshot(timers) {
  const sections = [], list = [];
  for (let s = 0; s < timers / 40; s += 1) {
    sections.push({ id: `s${s}`, title: `Section ${s}`, isExpanded: true, createdDate: 1, order: `a${String(s).padStart(4, "0")}` });
    for (let t = 0; t < 40; t += 1) {
      list.push({
        id: `s${s}t${t}`, sectionID: `s${s}`, title: `Timer ${s}.${t}`, minutes: t % 60, seconds: 0, createdDate: 1,
        order: `a${String(t).padStart(2, "0")}`, run: { status: "idle", elapsed: 0 },
      });
    }
  }
  return { board: "bench", rev: 1, sections, timers: list };
}

/**
 * µs per changeset: `count` one-field updates (a timer's title, a different timer each time), each
 * applied and its touched ids taken, after `pending` local edits of other timers were queued.
 * @param {any} Store @param {number} timers @param {number} pending @param {number} count
 */
function measure(Store, timers, pending, count) {
  const store = new Store();
  store.loadSnapshot(snapshot(timers));
  store.takeTouched();
  for (let i = 0; i < pending; i += 1) {
    store.addEdit(String(i + 1), [{ op: "updateTimer", id: `s${i}t39`, title: `Mine ${i}` }], 1);
  }
  store.takeTouched();
  const changes = (/** @type {number} */ i) => [{ action: "update", kind: "timer", id: `s${(i * 7) % (timers / 40)}t${i % 39}`, fields: { title: `Theirs ${i}` } }];
  // Warm up the code paths before timing them.
  for (let i = 0; i < 200; i += 1) {
    store.applyChangeset({ rev: store.rev + 1, changes: changes(i) });
    store.takeTouched();
  }
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) {
    const result = store.applyChangeset({ rev: store.rev + 1, changes: changes(i) });
    if (result.status !== "applied") throw new Error(`changeset ${i}: ${result.status}`);
    store.takeTouched();
  }
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const stores = await Promise.all(clients.map(async ([name, root]) => /** @type {const} */ ([name, await loadStore(root)])));
console.log(`node ${process.version}; ${rounds} rounds of ${changesets} changesets each; median µs per one-field changeset`);
for (const timers of sizes) {
  for (const pending of [0, 1]) {
    /** @type {Record<string, number[]>} */
    const figures = Object.fromEntries(stores.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? stores : [...stores].reverse();
      for (const [name, Store] of order) figures[name].push(measure(Store, timers, pending, changesets));
    }
    const line = stores.map(([name]) => `${name} ${median(figures[name]).toFixed(1)} µs (${Math.min(...figures[name]).toFixed(1)}-${Math.max(...figures[name]).toFixed(1)})`);
    console.log(`${timers.toLocaleString("en")} timers, ${pending} edit${pending === 1 ? "" : "s"} pending: ${line.join("; ")}`);
  }
}
