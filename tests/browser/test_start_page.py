"""The start page (/) lists the boards (this device's recent ones and all of the server's) and
creates a new one."""
import json
import re
import urllib.request

from playwright.sync_api import expect

from conftest import wait_live


def test_start_page_lists_boards_and_creates_one(user, server, board, screenshot):
    page = user("Ada", path="/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Timers everyone shares")
    all_boards = page.get_by_role("list", name="All boards")
    expect(all_boards.get_by_role("link", name=re.compile(r"^Kitchen"))).to_have_attribute("href", f"/b/{board}")
    expect(page.get_by_role("list", name="Opened on this device")).to_contain_text("Boards you open will show up here.")

    page.get_by_label("Board title").fill("Sunday prep")
    page.get_by_role("button", name="New board").click()
    expect(page).to_have_url(re.compile(r"/b/[0-9A-Za-z]{12}$"))
    wait_live(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Sunday prep")
    created = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(server.http + "/api/boards") as response:
        listed = json.load(response)["boards"]
    assert [(b["id"], b["title"]) for b in listed] == [(created, "Sunday prep"), (board, "Kitchen")]

    # Back on the start page: the new board is first in both lists, and its link opens it.
    page.goto(server.http + "/")
    recent = page.get_by_role("list", name="Opened on this device").get_by_role("link")
    expect(recent).to_have_count(1)
    expect(recent.first).to_contain_text("Sunday prep")
    expect(all_boards.get_by_role("link")).to_have_count(2)
    expect(all_boards.get_by_role("link").first).to_contain_text("Sunday prep")
    screenshot(page)
    recent.first.click()
    expect(page).to_have_url(f"{server.http}/b/{created}")
    wait_live(page)
    assert page.errors == []
