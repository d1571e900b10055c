// @ts-check
// index.html asks for what the first load needs in the order it needs it: every module the page
// imports at once (modulepreload; a module it forgets is fetched only once its importer has arrived
// and been parsed), and early_paint.js before them all.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

const root = new URL("..", import.meta.url);

test("index.html preloads every module main.js imports, directly or not", () => {
  const html = readFileSync(new URL("index.html", root), "utf8");
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="\/([\w.]+)">/g)].map((m) => m[1]));
  /** @type {Set<string>} */
  const imported = new Set();
  const visit = (/** @type {string} */ file) => {
    const source = readFileSync(new URL(file, root), "utf8");
    for (const [, name] of source.matchAll(/^(?:import|export)[^;]*?from "\.\/([\w.]+)"/gm)) {
      if (imported.has(name)) continue;
      imported.add(name);
      visit(name);
    }
  };
  visit("main.js");
  assert.ok(imported.size > 10, "the import scan found the modules");
  assert.deepEqual([...imported].filter((name) => !preloaded.has(name)).sort(), []);
  const modules = readdirSync(root).filter((name) => name.endsWith(".js") && !["main.js", "early_paint.js"].includes(name));
  assert.deepEqual(modules.filter((name) => !imported.has(name)), [], "every module in web-static is used");
});

test("early_paint.js is asked for before the modules, so the page's frame is drawn while they load", () => {
  const html = readFileSync(new URL("index.html", root), "utf8");
  const early = html.indexOf('<link rel="preload" href="/early_paint.js" as="script">');
  assert.ok(early > 0, "early_paint.js is preloaded");
  assert.ok(early < html.indexOf('<script type="module"'), "before main.js");
  assert.ok(early < html.indexOf('rel="modulepreload"'), "before the other modules");
});
