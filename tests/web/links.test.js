// @ts-check
// links.js (a page's fragment, link paths) and board_list.js (the boards this browser opened).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { parseBoardList, withLinks, withOpened, withTitle, withoutBoard, withoutLink } from "../../web-static/model/board_list.js";
import { BOARDS_MAX } from "../../web-static/wire/constants.js";
import { absoluteLink, boardIdFromPath, displayFromPath, displayLink, linkPath, parseFragment, parseLink } from "../../web-static/wire/links.js";

const S1 = "Qm9hcmRTZWNyZXRFZGl0MQ";
const S2 = "b3duZXJTZWNyZXRfLTEyMw";
const S3 = "dmlld1NlY3JldC1WaWV3MQ";

describe("the fragment of a board page", () => {
  test("each role, with or without the #", () => {
    assert.deepStrictEqual(parseFragment(`#owner=${S2}`), { role: "owner", secret: S2 });
    assert.deepStrictEqual(parseFragment(`#edit=${S1}`), { role: "edit", secret: S1 });
    assert.deepStrictEqual(parseFragment(`view=${S3}`), { role: "view", secret: S3 });
  });

  test("no secret, an empty one, a malformed one or an unknown role: null", () => {
    for (const hash of ["", "#", "#edit", "#edit=", "#edit=short", `#admin=${S1}`, `#edit=${S1}!`, `#edit=${S1.slice(0, 10)} x`, `#EDIT=${S1}`]) {
      assert.equal(parseFragment(hash), null, hash);
    }
  });

  test("several roles: the strongest; other parameters are ignored", () => {
    assert.deepStrictEqual(parseFragment(`#view=${S3}&edit=${S1}`), { role: "edit", secret: S1 });
    assert.deepStrictEqual(parseFragment(`#edit=${S1}&utm_source=chat`), { role: "edit", secret: S1 });
    assert.deepStrictEqual(parseFragment(`#edit=bad&view=${S3}`), { role: "view", secret: S3 }, "an invalid one is skipped");
  });

  test("links: built, read back, made absolute", () => {
    assert.equal(linkPath("kT3vQ9mZ2pXa", "edit", S1), `/b/kT3vQ9mZ2pXa#edit=${S1}`);
    assert.deepStrictEqual(parseLink(`/b/kT3vQ9mZ2pXa#view=${S3}`), { id: "kT3vQ9mZ2pXa", role: "view", secret: S3 });
    for (const bad of [null, 7, "/b/kT3vQ9mZ2pXa", `/x/kT3vQ9mZ2pXa#edit=${S1}`, `/b/kT3vQ9mZ2pXa#nothing=${S1}`]) assert.equal(parseLink(bad), null);
    assert.equal(absoluteLink("http://127.0.0.1:8080", `/b/kT3vQ9mZ2pXa#edit=${S1}`), `http://127.0.0.1:8080/b/kT3vQ9mZ2pXa#edit=${S1}`);
    assert.equal(boardIdFromPath("/b/kT3vQ9mZ2pXa"), "kT3vQ9mZ2pXa");
    assert.equal(boardIdFromPath("/b/kT3vQ9mZ2pXa/"), "kT3vQ9mZ2pXa");
    assert.equal(boardIdFromPath("/"), null);
  });
});

describe("the boards this browser opened", () => {
  const ID = "kT3vQ9mZ2pXa", OTHER = "zZ9yY8xX7wW6";
  const edit = linkPath(ID, "edit", S1), owner = linkPath(ID, "owner", S2), view = linkPath(ID, "view", S3);

  test("opening a board puts it first, with its title, role, link and time", () => {
    let list = withOpened([], { id: OTHER, role: "view", link: linkPath(OTHER, "view", S3), title: "Other" }, 1000);
    list = withOpened(list, { id: ID, role: "edit", link: edit, title: "Kitchen" }, 2000);
    assert.deepStrictEqual(list[0], { id: ID, title: "Kitchen", role: "edit", link: edit, links: { edit }, openedAt: 2000 });
    assert.deepEqual(list.map((b) => b.id), [ID, OTHER]);
    list = withOpened(list, { id: OTHER, role: "view", link: linkPath(OTHER, "view", S3) }, 3000);
    assert.deepEqual(list.map((b) => [b.id, b.title]), [[OTHER, "Other"], [ID, "Kitchen"]], "reopened: first again, title kept");
  });

  test("the strongest link known is the one the list opens; weaker ones are kept", () => {
    let list = withLinks([], ID, { owner, edit, view }, { title: "Kitchen", now: 1000 });
    assert.equal(list[0].role, "owner");
    list = withOpened(list, { id: ID, role: "view", link: view }, 2000);
    assert.equal(list[0].link, owner, "the owner who looked through the view link keeps the owner link");
    assert.deepEqual(list[0].links, { owner, edit, view });
  });

  test("a replaced link is swapped; a refused one goes, and the board with its last link", () => {
    const newEdit = linkPath(ID, "edit", "bmV3RWRpdFNlY3JldC0wMDE");
    let list = withLinks([], ID, { owner, edit }, { now: 1000 });
    list = withLinks(list, ID, { edit: newEdit }, { now: 2000 });
    assert.deepEqual(list[0].links, { owner, edit: newEdit });
    assert.equal(list[0].openedAt, 1000, "learning a link is not opening the board");
    list = withOpened([], { id: ID, role: "edit", link: edit }, 1000);
    list = withOpened(list, { id: OTHER, role: "view", link: linkPath(OTHER, "view", S3) }, 2000);
    assert.deepEqual(withoutLink(list, ID, newEdit), list, "a link it does not hold changes nothing");
    assert.deepEqual(withoutLink(list, ID, edit).map((b) => b.id), [OTHER]);
    const both = withOpened(list, { id: ID, role: "view", link: view }, 3000);
    assert.deepStrictEqual(withoutLink(both, ID, view)[0], { id: ID, title: "", role: "edit", link: edit, links: { edit }, openedAt: 3000 });
  });

  test("renamed keeps the place; forgotten is gone", () => {
    let list = withOpened([], { id: ID, role: "edit", link: edit, title: "Kitchen" }, 1000);
    list = withOpened(list, { id: OTHER, role: "view", link: linkPath(OTHER, "view", S3), title: "Other" }, 2000);
    list = withTitle(list, ID, "Kitchen, Saturday");
    assert.deepEqual(list.map((b) => [b.id, b.title]), [[OTHER, "Other"], [ID, "Kitchen, Saturday"]]);
    assert.deepEqual(withoutBoard(list, OTHER).map((b) => b.id), [ID]);
  });

  test("stored text: round trip, newest first; garbage and foreign links are dropped", () => {
    const list = withOpened(withOpened([], { id: ID, role: "edit", link: edit, title: "Kitchen" }, 1000),
      { id: OTHER, role: "view", link: linkPath(OTHER, "view", S3), title: "Other" }, 2000);
    assert.deepStrictEqual(parseBoardList(JSON.stringify([...list].reverse())), list);
    for (const text of [null, "", "{nope", "{}", "7"]) assert.deepEqual(parseBoardList(text), [], String(text));
    const stored = [
      { id: "has space", title: "x", links: { edit }, openedAt: 1 },
      { id: ID, title: "Kitchen", openedAt: 5 }, // the old list: no link, opens nothing now
      { id: OTHER, title: 7, links: { edit, view: linkPath(OTHER, "edit", S1), owner: `javascript:alert(1)#owner=${S2}` }, openedAt: 3 },
      { id: OTHER, title: "Other", links: { view: linkPath(OTHER, "view", S3) }, openedAt: 9 },
      { id: OTHER, title: "a duplicate", links: { view: linkPath(OTHER, "view", S3) }, openedAt: 10 },
    ];
    // Dropped: a bad id, no link, another board's link, a link under the wrong role, a script URL, a duplicate.
    assert.deepEqual(parseBoardList(JSON.stringify(stored)).map((b) => [b.id, b.title, Object.keys(b.links)]), [[OTHER, "Other", ["view"]]]);
  });

  test("the list is capped, dropping the boards opened longest ago", () => {
    let list = /** @type {import("../../web-static/model/board_list.js").BoardEntry[]} */ ([]);
    for (let i = 0; i < BOARDS_MAX + 5; i += 1) {
      const id = `board${String(i).padStart(4, "0")}`;
      list = withOpened(list, { id, role: "edit", link: linkPath(id, "edit", S1) }, i);
    }
    assert.equal(list.length, BOARDS_MAX);
    assert.equal(list[0].id, `board${String(BOARDS_MAX + 4).padStart(4, "0")}`);
    assert.equal(list.at(-1)?.id, "board0005");
  });
});

describe("display links", () => {
  test("a display's path names its board, and its timer when it shows one", () => {
    assert.deepEqual(displayFromPath("/b/kT3vQ9mZ2pXa/display"), { board: "kT3vQ9mZ2pXa", timer: null });
    assert.deepEqual(displayFromPath("/b/kT3vQ9mZ2pXa/display/"), { board: "kT3vQ9mZ2pXa", timer: null });
    assert.deepEqual(displayFromPath("/b/kT3vQ9mZ2pXa/display/tim-eggs"), { board: "kT3vQ9mZ2pXa", timer: "tim-eggs" });
    assert.equal(displayFromPath("/b/kT3vQ9mZ2pXa"), null);
    assert.equal(displayFromPath("/b/kT3vQ9mZ2pXa/displays"), null);
    assert.equal(boardIdFromPath("/b/kT3vQ9mZ2pXa/display"), null, "a display is not the board's page");
  });

  test("a board link's display link keeps its key in the fragment", () => {
    assert.equal(displayLink("/b/kT3/#view=abc"), "/b/kT3/display#view=abc");
    assert.equal(displayLink("https://x.example/b/kT3#edit=abc"), "https://x.example/b/kT3/display#edit=abc");
  });
});
