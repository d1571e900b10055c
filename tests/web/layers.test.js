// @ts-check
// The client's folders depend downwards only (docs/architecture.md, "The browser client"): each
// module imports from its own folder or from the folders below it, and no module reaches itself
// through its imports.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

const root = new URL("../../web-static/", import.meta.url);

/** What each folder may import, besides itself ("." is the web root: main.js). */
const BELOW = {
  wire: [],
  dom: [],
  // Third-party code, kept as its authors wrote it: it imports nothing of ours.
  vendor: [],
  model: ["wire"],
  board: ["model", "dom", "wire", "vendor"],
  pages: ["board", "model", "dom", "wire"],
  ".": ["pages", "board", "model", "dom", "wire"],
};

/** @param {URL} folder @param {string} prefix @returns {string[]} the modules under it, as paths from the web root */
function modules(folder, prefix = "") {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => entry.isDirectory()
    ? modules(new URL(`${entry.name}/`, folder), `${prefix}${entry.name}/`)
    : entry.name.endsWith(".js") && entry.name !== "early_paint.js" ? [`${prefix}${entry.name}`] : []);
}

/** @param {string} path @returns {string[]} the modules it imports, at once or on demand, as paths from the web root */
function importsOf(path) {
  const url = new URL(path, root);
  const source = readFileSync(url, "utf8");
  return [...source.matchAll(/^(?:import|export)[^;]*?from "(\.{1,2}\/[\w./]+)"/gm), ...source.matchAll(/import\("(\.{1,2}\/[\w./]+)"\)/g)]
    .map(([, specifier]) => new URL(specifier, url).href.slice(root.href.length));
}

/** @param {string} path */
const folderOf = (path) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : ".");

test("every module imports from its own folder or from the folders below it", () => {
  const all = modules(root);
  assert.ok(all.length > 30, "the scan found the modules");
  /** @type {string[]} */
  const upwards = [];
  for (const path of all) {
    const folder = /** @type {keyof typeof BELOW} */ (folderOf(path));
    assert.ok(folder in BELOW, `${path}: a folder the floors do not name`);
    for (const target of importsOf(path)) {
      const to = folderOf(target);
      if (to !== folder && !BELOW[folder].includes(/** @type {never} */ (to))) upwards.push(`${path} -> ${target}`);
    }
  }
  assert.deepEqual(upwards, []);
});

test("no module reaches itself through its imports", () => {
  const graph = new Map(modules(root).map((path) => [path, importsOf(path)]));
  /** @type {Map<string, "visiting" | "done">} */
  const state = new Map();
  /** @type {string[][]} */
  const cycles = [];
  /** @param {string} path @param {string[]} trail */
  const visit = (path, trail) => {
    if (state.get(path) === "done") return;
    if (state.get(path) === "visiting") return void cycles.push([...trail.slice(trail.indexOf(path)), path]);
    state.set(path, "visiting");
    for (const next of graph.get(path) ?? []) visit(next, [...trail, path]);
    state.set(path, "done");
  };
  for (const path of graph.keys()) visit(path, []);
  assert.deepEqual(cycles, []);
});
