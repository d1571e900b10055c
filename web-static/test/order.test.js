// @ts-check
// order.js: the fractional key midpoint and positions, which must agree with the server's.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { compareByOrder, keyBetween, keyForPosition } from "../order.js";

const VALID_KEY = /^[0-9A-Za-z]*[1-9A-Za-z]$/;

describe("keyBetween", () => {
  // Produced by Sources/BoardCore/OrderKey.swift (OrderKey.between), so client and server agree.
  /** @type {[string | null, string | null, string][]} */
  const fromSwift = [
    [null, null, "V"],
    ["V", null, "l"],
    [null, "V", "G"],
    ["V", "k", "d"],
    ["1", "2", "1V"],
    ["1", "12", "11"],
    ["0001", "0002", "0001V"],
    ["z", null, "zV"],
    ["zz", null, "zzV"],
    [null, "1", "0V"],
    [null, "01", "00V"],
    ["a0V", "a1", "a0l"],
    ["Zz", "a", "ZzV"],
    ["abc", "abd", "abcV"],
    ["x", "xV", "xG"],
    ["y", "z01", "z"],
    ["zzzzz", null, "zzzzzV"],
    [null, "00001", "00000V"],
    ["A", "B", "AV"],
    ["12", "13", "12V"],
  ];
  for (const [lower, upper, expected] of fromSwift) {
    test(`between ${lower} and ${upper} is ${expected}`, () => {
      assert.equal(keyBetween(lower, upper), expected);
    });
  }

  test("equal or inverted bounds give a key after the lower one, as on the server", () => {
    assert.equal(keyBetween("V", "V"), "l");
    assert.equal(keyBetween("k", "V"), keyBetween("k", null));
  });

  test("random insertions keep keys strictly ordered, valid, and never ending in 0", () => {
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
      assert.match(key, VALID_KEY);
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
    { id: "a", order: "G" },
    { id: "b", order: "V" },
    { id: "c", order: "l" },
  ];

  test("first and last", () => {
    assert.equal(keyForPosition("first", siblings, "new"), keyBetween(null, "G"));
    assert.equal(keyForPosition("last", siblings, "new"), keyBetween("l", null));
    assert.equal(keyForPosition("first", [], "new"), "V");
  });

  test("before and after a sibling", () => {
    assert.equal(keyForPosition({ before: "b" }, siblings, "new"), keyBetween("G", "V"));
    assert.equal(keyForPosition({ after: "b" }, siblings, "new"), keyBetween("V", "l"));
    assert.equal(keyForPosition({ before: "a" }, siblings, "new"), keyBetween(null, "G"));
    assert.equal(keyForPosition({ after: "c" }, siblings, "new"), keyBetween("l", null));
  });

  test("the moving item is not its own neighbour", () => {
    // Moving c after a: between a and b, not between a and c's old place.
    assert.equal(keyForPosition({ after: "a" }, siblings, "c"), keyBetween("G", "V"));
    assert.equal(keyForPosition("last", siblings, "c"), keyBetween("V", null));
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
