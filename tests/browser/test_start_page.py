"""The start page (/) lists the boards this browser opened, and no others: the server lists boards
to its operator only. Creating a board keeps its three links here and opens the owner link."""
import re

from playwright.sync_api import expect

from conftest import board_path, wait_live


def stored_boards(page):
    return page.evaluate("JSON.parse(localStorage.getItem('timerboard.boards') ?? '[]')")


def test_start_page_lists_the_boards_this_browser_opened(user, server, board, screenshot):
    unseen = server.create_board("Someone else's board")
    page = user("Ada", path="/")
    api_calls = []
    page.on("request", lambda request: api_calls.append((request.method, request.url)) if "/api/" in request.url else None)
    expect(page.get_by_role("heading", level=1)).to_have_text("Timers everyone shares")
    boards = page.get_by_role("list", name="Your boards")
    expect(boards).to_contain_text("Boards you create or open in this browser show up here.")

    # A board opened through its edit link is remembered, with that link and its role.
    page.goto(server.http + board_path(board))
    wait_live(page)
    page.goto(server.http + "/")
    expect(boards.get_by_role("link")).to_have_count(1)
    expect(boards.get_by_role("link").first).to_have_attribute("href", board_path(board))
    expect(boards.get_by_role("link").first).to_contain_text("Kitchen")
    expect(boards.get_by_role("link").first).to_contain_text("Can edit")

    # Creating one: POSTed as JSON, its owner link opened, its three links kept.
    page.get_by_label("Board title").fill("Sunday prep")
    page.get_by_role("button", name="New board").click()
    expect(page).to_have_url(re.compile(r"/b/[0-9A-Za-z]{12}#owner=[A-Za-z0-9_-]{22}$"))
    wait_live(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Sunday prep")
    assert page.evaluate("window.timerboard.session.role") == "owner"
    created = page.url.split("/b/", 1)[1].split("#", 1)[0]
    kept = next(b for b in stored_boards(page) if b["id"] == created)
    assert set(kept["links"]) == {"owner", "edit", "view"} and kept["role"] == "owner"
    assert server.board_count() == 3
    owner_secret = kept["links"]["owner"].split("#owner=", 1)[1]
    assert server.request("GET", f"/api/boards/{created}", secret=owner_secret)[1]["title"] == "Sunday prep"

    # Back on the start page: the boards this browser opened, newest first, and not the other one.
    page.goto(server.http + "/")
    links = boards.get_by_role("link")
    expect(links).to_have_count(2)
    expect(links.first).to_contain_text("Sunday prep")
    expect(links.first).to_contain_text("Owner")
    expect(links.nth(1)).to_contain_text("Kitchen")
    expect(boards).not_to_contain_text("Someone else's board")
    screenshot(page)
    # The page never asked the server for a list of boards: its one API call created a board.
    assert api_calls == [("POST", server.http + "/api/boards")]

    # Forget: a second press forgets it here (the board itself stays).
    forget = boards.get_by_role("listitem").filter(has_text="Kitchen").get_by_role("button")
    forget.click()
    expect(links).to_have_count(2)
    forget.click()
    expect(links).to_have_count(1)
    assert server.request("GET", f"/api/boards/{board}", secret=board.view)[0] == 200

    links.first.click()
    expect(page).to_have_url(re.compile(rf"/b/{created}#owner="))
    wait_live(page)
    assert page.errors == []
