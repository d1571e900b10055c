// @ts-check
// index.html asks for what the first load needs in the order it needs it: every module the page
// imports at once (modulepreload; a module it forgets is fetched only once its importer has arrived
// and been parsed), and early_paint.js before them all. And the client's folder holds what the
// browser loads, nothing else: the server serves every file in it.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

const root = new URL("../../web-static/", import.meta.url);
const html = readFileSync(new URL("index.html", root), "utf8");

/** Every module main.js imports, directly or not, as paths from the web root ("wire/protocol.js"). */
function importedModules() {
  /** @type {Set<string>} */
  const imported = new Set();
  const visit = (/** @type {string} */ path) => {
    const url = new URL(path, root);
    const source = readFileSync(url, "utf8");
    for (const [, specifier] of source.matchAll(/^(?:import|export)[^;]*?from "(\.{1,2}\/[\w./]+)"/gm)) {
      const name = new URL(specifier, url).href.slice(root.href.length);
      if (imported.has(name)) continue;
      imported.add(name);
      visit(name);
    }
  };
  visit("main.js");
  return imported;
}

/** @param {URL} folder @param {string} prefix @returns {string[]} every file under the folder, as paths from the web root */
function filesUnder(folder, prefix = "") {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => entry.isDirectory()
    ? filesUnder(new URL(`${entry.name}/`, folder), `${prefix}${entry.name}/`)
    : [`${prefix}${entry.name}`]);
}

test("index.html preloads every module main.js imports, directly or not", () => {
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="\/([\w./]+)">/g)].map((m) => m[1]));
  const imported = importedModules();
  assert.ok(imported.size > 10, "the import scan found the modules");
  assert.deepEqual([...imported].filter((name) => !preloaded.has(name)).sort(), []);
  assert.deepEqual([...preloaded].filter((name) => !imported.has(name)).sort(), [], "nothing preloaded that is never imported");
});

test("the client's folder holds only what the browser loads (the server serves all of it)", () => {
  const loaded = new Set(["index.html", "main.js", ...importedModules()]);
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
