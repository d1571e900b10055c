// @ts-check
// index.html asks for what a board's first load needs in the order it needs it: every module the
// board's page imports at once (modulepreload; a module it forgets is fetched only once its importer
// has arrived and been parsed), and early_paint.js before them all. And the client's folder holds
// what the browser loads, at once or on demand, nothing else: the server serves every file in it.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

const root = new URL("../../web-static/", import.meta.url);
const html = readFileSync(new URL("index.html", root), "utf8");

/**
 * The modules `entry` imports, directly or not, as paths from the web root ("wire/protocol.js"), and
 * the modules they load on demand (`import("...")`) with what those import.
 * @param {string} entry
 */
function moduleGraph(entry) {
  /** @type {Set<string>} */
  const imported = new Set();
  /** @type {Set<string>} */
  const onDemand = new Set();
  const visit = (/** @type {string} */ path, /** @type {Set<string>} */ into) => {
    const url = new URL(path, root);
    const source = readFileSync(url, "utf8");
    const name = (/** @type {string} */ specifier) => new URL(specifier, url).href.slice(root.href.length);
    for (const [, specifier] of source.matchAll(/^(?:import|export)[^;]*?from "(\.{1,2}\/[\w./]+)"/gm)) {
      if (into.has(name(specifier)) || imported.has(name(specifier))) continue;
      into.add(name(specifier));
      visit(name(specifier), into);
    }
    for (const [, specifier] of source.matchAll(/import\("(\.{1,2}\/[\w./]+)"\)/g)) {
      if (onDemand.has(name(specifier)) || imported.has(name(specifier))) continue;
      onDemand.add(name(specifier));
      visit(name(specifier), onDemand);
    }
  };
  visit(entry, imported);
  return { imported, onDemand };
}

/** What a board's page loads at once: main.js's imports (the board page is one of them). */
function boardPageModules() {
  const modules = moduleGraph("main.js").imported;
  assert.ok(modules.has("pages/board.js"), "main.js imports the board page at once");
  return modules;
}

/** @param {URL} folder @param {string} prefix @returns {string[]} every file under the folder, as paths from the web root */
function filesUnder(folder, prefix = "") {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => entry.isDirectory()
    ? filesUnder(new URL(`${entry.name}/`, folder), `${prefix}${entry.name}/`)
    : [`${prefix}${entry.name}`]);
}

test("index.html preloads every module a board's page imports at once, and nothing else", () => {
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="\/([\w./]+)">/g)].map((m) => m[1]));
  const imported = boardPageModules();
  assert.ok(imported.size > 30, "the import scan found the modules");
  assert.deepEqual([...imported].filter((name) => !preloaded.has(name)).sort(), []);
  assert.deepEqual([...preloaded].filter((name) => !imported.has(name)).sort(), [], "nothing preloaded that the board page does not import at once");
});

test("the client's folder holds only what the browser loads (the server serves all of it)", () => {
  const { imported, onDemand } = moduleGraph("main.js");
  // The HTTP API's OpenAPI document is served from here for scripts, not loaded by a page.
  // A vendored library's licence travels with it (vendor/qrcode).
  const loaded = new Set(["index.html", "main.js", "api/openapi.json", "vendor/qrcode/LICENSE", ...imported, ...onDemand]);
  for (const [, path] of html.matchAll(/(?:href|src)="\/([\w./-]+)"/g)) loaded.add(path);
  assert.deepEqual(filesUnder(root).filter((path) => !loaded.has(path)).sort(), [],
    "tests, package.json and unused modules live outside web-static/");
});

test("early_paint.js is asked for before the modules, so the page's frame is drawn while they load", () => {
  const early = html.indexOf('<link rel="preload" href="/early_paint.js" as="script">');
  assert.ok(early > 0, "early_paint.js is preloaded");
  assert.ok(early < html.indexOf('<script type="module"'), "before main.js");
  assert.ok(early < html.indexOf('rel="modulepreload"'), "before the other modules");
});
