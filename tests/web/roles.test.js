// @ts-check
// What a link's role changes in the page (issue 13): a view link's read-only board, presence by
// userId, and the owner's HTTP calls with the secret as a Bearer header.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { ApiError, BoardApi } from "../../web-static/wire/api.js";
import { apiErrorText } from "../../web-static/model/sentences.js";
import { renderEnded } from "../../web-static/pages/ended.js";
import { renderBoardLinks } from "../../web-static/pages/start.js";
import { BoardView } from "../../web-static/board/view.js";
import { PresenceView } from "../../web-static/board/presence.js";
import * as protocol from "../../web-static/wire/protocol.js";
import { parseServerMessage } from "../../web-static/wire/server_messages.js";
import { Store } from "../../web-static/model/store.js";
import { FakeDocument } from "./fake_dom.js";

Object.assign(globalThis, { HTMLInputElement: class { static [Symbol.hasInstance](/** @type {any} */ x) { return x?.tagName === "INPUT"; } } });

const FIXTURES = new URL("../../Tests/Fixtures/protocol/", import.meta.url);
/** @param {string} path */
const fixture = (path) => JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8"));
const SECRET = "b3duZXJTZWNyZXRfLTEyMw";

describe("a view link's board", () => {
  test("every field is read-only, also those of sections and timers added later; an edit link's are not", () => {
    const doc = new FakeDocument();
    const container = doc.createElement("div");
    doc.body.append(container);
    const view = new BoardView(/** @type {any} */ (container), { IntersectionObserver: null });
    const store = new Store();
    view.setReadOnly(true);
    store.loadSnapshot(/** @type {any} */ (parseServerMessage(fixture("server/snapshot.json"))));
    view.render(store.displayed, store.takeTouched());
    const fields = () => container.querySelectorAll("input[data-field]").map((input) => /** @type {any} */ (input).readOnly);
    assert.deepEqual(fields(), [true, true, true, true, true], "the section's title; the timer's title, minutes, seconds, warning point");
    const changes = parseServerMessage(fixture("server/changes-mixed.json"));
    store.applyChangeset(/** @type {any} */ ({ ...changes, rev: 4 }));
    view.render(store.displayed, store.takeTouched());
    assert.ok(fields().length > 0 && fields().every((readOnly) => readOnly === true), "added later: read-only too");
    view.setReadOnly(false);
    assert.ok(fields().every((readOnly) => readOnly === false));
  });
});

describe("presence by userId", () => {
  test("the own entry is the one with the userId of access: not listed, its colour on the own dot", () => {
    const doc = new FakeDocument();
    const list = doc.createElement("ul");
    const myDot = doc.createElement("span");
    doc.body.append(list, myDot);
    const presence = new PresenceView({ list: /** @type {any} */ (list), myDot: /** @type {any} */ (myDot), elements: new Map(), describe: () => null });
    const message = /** @type {any} */ (parseServerMessage(fixture("server/presence.json")));
    presence.show(message.users);
    assert.equal(list.children.length, 2, "before access, nobody is known to be us");
    presence.setMe(fixture("server/access.json").userId);
    assert.deepEqual(list.children.map((li) => li.getAttribute("data-user-id")), ["b7Rk2LmQ9xTp4Wz"]);
    assert.equal(myDot.style.getPropertyValue("--user-color"), "#d9480f");
    const changed = /** @type {any} */ (parseServerMessage(fixture("server/presenceChanged.json")));
    presence.change(changed.users, changed.left);
    assert.deepEqual(list.children.map((li) => li.getAttribute("data-user-id")), ["Pz8wQ1nV5kRt3Yc"], "Bob came, the script left");
  });
});

describe("the owner's HTTP calls", () => {
  /** A fetch that records each request and answers with `status` and `body`. */
  function fakeFetch(status = 200, body = /** @type {unknown} */ ({})) {
    /** @type {{url: string, init: any}[]} */
    const calls = [];
    const fetch = async (/** @type {any} */ url, /** @type {any} */ init) => {
      calls.push({ url, init });
      const text = body === null ? "" : JSON.stringify(body);
      return /** @type {any} */ ({ ok: status < 400, status, statusText: "", text: async () => text });
    };
    return { calls, api: new BoardApi({ fetch: /** @type {any} */ (fetch) }) };
  }

  test("each sends the secret as a Bearer header, never in the URL; bodies are JSON", async () => {
    const { calls, api } = fakeFetch();
    await api.links("kT3vQ9mZ2pXa", SECRET);
    await api.rename("kT3vQ9mZ2pXa", SECRET, "Kitchen, Saturday");
    await api.replaceLink("kT3vQ9mZ2pXa", SECRET, "edit");
    await api.deleteBoard("kT3vQ9mZ2pXa", SECRET);
    assert.deepEqual(calls.map((c) => [c.init.method, c.url]), [
      ["GET", "/api/boards/kT3vQ9mZ2pXa/links"],
      ["PATCH", "/api/boards/kT3vQ9mZ2pXa"],
      ["POST", "/api/boards/kT3vQ9mZ2pXa/links/edit"],
      ["DELETE", "/api/boards/kT3vQ9mZ2pXa"],
    ]);
    for (const { url, init } of calls) {
      assert.equal(init.headers.Authorization, `Bearer ${SECRET}`);
      assert.ok(!url.includes(SECRET));
    }
    assert.equal(calls[1].init.headers["Content-Type"], "application/json");
    assert.equal(calls[1].init.body, '{"title":"Kitchen, Saturday"}');
    assert.equal(calls[0].init.body, undefined);
  });

  test("creating a board: JSON with its content type, and no secret at all", async () => {
    const { calls, api } = fakeFetch(201, { id: "kT3vQ9mZ2pXa" });
    assert.deepEqual(await api.createBoard("Kitchen"), { id: "kT3vQ9mZ2pXa" });
    await api.createBoard("");
    assert.deepEqual(calls.map((c) => [c.init.method, c.url, c.init.headers["Content-Type"], c.init.body, c.init.headers.Authorization]), [
      ["POST", "/api/boards", "application/json", '{"title":"Kitchen"}', undefined],
      ["POST", "/api/boards", "application/json", "{}", undefined],
    ]);
  });

  test("204 is null; an error answer is an ApiError with the server's code, in words without the secret", async () => {
    assert.equal(await fakeFetch(204, null).api.deleteBoard("kT3vQ9mZ2pXa", SECRET), null);
    for (const [status, code, words] of [[403, "forbidden", /only the board's owner/], [404, "board_not_found", /no longer opens/]]) {
      const { api } = fakeFetch(/** @type {number} */ (status), { type: "error", code, message: "m" });
      const error = await api.rename("kT3vQ9mZ2pXa", SECRET, "x").catch((e) => e);
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, code);
      assert.match(apiErrorText(error), /** @type {RegExp} */ (words));
      assert.ok(!apiErrorText(error).includes(SECRET));
    }
  });
});

describe("the start page's list and the ended page", () => {
  test("each board opens through its stored link, says its role, and has a Forget button; text only", () => {
    const doc = new FakeDocument();
    const list = doc.createElement("ul");
    doc.body.append(list);
    const link = "/b/kT3vQ9mZ2pXa#view=Qm9hcmRTZWNyZXRFZGl0MQ";
    renderBoardLinks(/** @type {any} */ (list), [{ id: "kT3vQ9mZ2pXa", title: "<b>Kitchen</b>", role: "view", link, openedAt: 0 }], "none");
    const item = list.children[0];
    assert.equal(item.getAttribute("data-id"), "kT3vQ9mZ2pXa");
    assert.equal(/** @type {any} */ (item.querySelector("a")).getAttribute("href"), link);
    assert.equal(/** @type {any} */ (item.querySelector(".board-link-title")).textContent, "<b>Kitchen</b>");
    assert.equal(/** @type {any} */ (item.querySelector(".board-link-meta")).textContent, "View only");
    assert.equal(/** @type {any} */ (item.querySelector(".board-forget")).getAttribute("aria-label"), "Forget <b>Kitchen</b> on this device");
    renderBoardLinks(/** @type {any} */ (list), [], "Nothing yet.");
    assert.equal(/** @type {any} */ (list.children[0]).textContent, "Nothing yet.");
  });

  test("the ended page names what happened for each reason", () => {
    const doc = new FakeDocument();
    const page = doc.createElement("div");
    const title = doc.createElement("h1");
    const text = doc.createElement("p");
    title.setAttribute("id", "ended-title");
    text.setAttribute("id", "ended-text");
    page.append(title, text);
    page.hidden = true;
    doc.body.append(page);
    /** @type {[string, RegExp][]} */
    const cases = [["no-secret", /incomplete/], ["wrong-link", /does not open a board/], ["replaced", /was replaced/], ["deleted", /was deleted/]];
    for (const [reason, words] of cases) {
      renderEnded(/** @type {any} */ (page), reason);
      assert.equal(page.dataset.reason, reason);
      assert.match(title.textContent, words);
      assert.ok(text.textContent.length > 20);
      assert.equal(page.hidden, false);
    }
  });
});
