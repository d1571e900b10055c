// @ts-check
// order.js: the fractional key midpoint and positions, which must agree with the server's.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { compareByOrder, isCanonical, keyBetween, keyForPosition } from "../../web-static/model/order.js";

describe("keyBetween", () => {
  // The table Tests/BoardCoreTests/OrderKeyTests.swift checks OrderKey.between against too,
  // so client and server make the same keys.
  /** @type {{lower: string | null, upper: string | null, between: string}[]} */
  const shared = JSON.parse(readFileSync(new URL("../../Tests/Fixtures/order-keys.json", import.meta.url), "utf8"));
  for (const { lower, upper, between } of shared) {
    test(`between ${lower} and ${upper} is ${between}`, () => {
      assert.equal(keyBetween(lower, upper), between);
    });
  }

  test("adding 10,000 times at the top or the bottom keeps keys at 4 characters", () => {
    let first = keyBetween(null, null);
    let last = first;
    for (let i = 0; i < 10_000; i += 1) {
      first = keyBetween(null, first);
      last = keyBetween(last, null);
    }
    assert.ok(first.length <= 4 && last.length <= 4, `${first} ${last}`);
  });

  test("equal or inverted bounds give a key after the lower one, as on the server", () => {
    assert.equal(keyBetween("a1", "a1"), "a2");
    assert.equal(keyBetween("a2", "a1"), keyBetween("a2", null));
  });

  test("random insertions keep keys strictly ordered and of the server's form", () => {
    // Park-Miller: deterministic, so a failure can be replayed.
    let seed = 42;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    /** @type {string[]} */
    const keys = [];
    for (let i = 0; i < 2000; i += 1) {
      const index = Math.floor(random() * (keys.length + 1));
      const key = keyBetween(keys[index - 1] ?? null, keys[index] ?? null);
      if (index > 0) assert.ok(keys[index - 1] < key, `${keys[index - 1]} < ${key}`);
      if (index < keys.length) assert.ok(key < keys[index], `${key} < ${keys[index]}`);
      assert.ok(isCanonical(key), key);
      keys.splice(index, 0, key);
    }
    assert.deepEqual([...keys].sort(), keys);
  });

  test("always inserting first or last stays short", () => {
    let first = keyBetween(null, null);
    let last = first;
    for (let i = 0; i < 100; i += 1) {
      first = keyBetween(null, first);
      last = keyBetween(last, null);
    }
    assert.ok(first.length <= 25 && last.length <= 25, `${first} ${last}`);
  });
});

describe("keyForPosition", () => {
  const siblings = [
    { id: "a", order: "a0" },
    { id: "b", order: "a1" },
    { id: "c", order: "a2" },
  ];

  test("first and last", () => {
    assert.equal(keyForPosition("first", siblings, "new"), keyBetween(null, "a0"));
    assert.equal(keyForPosition("last", siblings, "new"), keyBetween("a2", null));
    assert.equal(keyForPosition("first", [], "new"), "a0");
  });

  test("before and after a sibling", () => {
    assert.equal(keyForPosition({ before: "b" }, siblings, "new"), keyBetween("a0", "a1"));
    assert.equal(keyForPosition({ after: "b" }, siblings, "new"), keyBetween("a1", "a2"));
    assert.equal(keyForPosition({ before: "a" }, siblings, "new"), keyBetween(null, "a0"));
    assert.equal(keyForPosition({ after: "c" }, siblings, "new"), keyBetween("a2", null));
  });

  test("the moving item is not its own neighbour", () => {
    // Moving c after a: between a and b, not between a and c's old place.
    assert.equal(keyForPosition({ after: "a" }, siblings, "c"), keyBetween("a0", "a1"));
    assert.equal(keyForPosition("last", siblings, "c"), keyBetween("a1", null));
  });

  test("an anchor that is gone, or the item itself, does not apply", () => {
    assert.equal(keyForPosition({ before: "gone" }, siblings, "new"), null);
    assert.equal(keyForPosition({ after: "b" }, siblings, "b"), null);
  });
});

test("compareByOrder: by key, then by id", () => {
  const items = [
    { id: "b", order: "V" },
    { id: "a", order: "V" },
    { id: "z", order: "G" },
  ];
  assert.deepEqual(items.sort(compareByOrder).map((i) => i.id), ["z", "a", "b"]);
});
