// @ts-check
// model/sentences.js: a link can be replaced by the board's owner or by the server's operator
// (`timerboard reset-links`), so the page it ends on says that it was replaced, not by whom.

import assert from "node:assert/strict";
import { test } from "node:test";

import { ENDED_WORDS, connectionDetailText } from "../../web-static/model/sentences.js";
import { ENDED } from "../../web-static/wire/constants.js";

test("a replaced link's words name no one as having replaced it", () => {
  const { title, text } = ENDED_WORDS[ENDED.replaced];
  assert.equal(title, "This link was replaced");
  for (const words of [title, text, connectionDetailText({ reason: ENDED.replaced })]) {
    assert.match(words, /replaced/);
    assert.doesNotMatch(words, /owner replaced|replaced by/, words);
  }
});
