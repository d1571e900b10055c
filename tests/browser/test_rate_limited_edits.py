"""Edits over the connection's budget (rate_limited with retryAfterMs) are not lost and not rolled
back: the page keeps showing them, sends each again with its opId after the wait, in the order the
user made them, and says nothing about a short limit.

The server here allows one edit every two seconds with a burst of 3, so a handful of renames is
over the budget even when a loaded machine types them slowly; the page's socket frames show that the server did limit it. Every wait is on the
page's own state (nothing pending) or on the server's, never a sleep."""
import json

import pytest
from playwright.sync_api import expect

from conftest import add_section, commit, converged, wait_live, wait_synced


@pytest.fixture
def server(server_factory):
    return server_factory(["--edits-per-second", "0.5", "--edit-burst", "3"]).start()


def test_limited_edits_are_kept_and_land_in_order(user, server, board, screenshot):
    a = user("Ada")
    rejects = []
    a.on("websocket", lambda ws: ws.on("framereceived", lambda frame: rejects.append(json.loads(frame))
                                        if '"reject"' in frame else None))
    # The listener sees sockets opened from now on: load the page again (its link is kept).
    a.reload()
    wait_live(a)
    add_section(a, "Prep")
    title = a.locator("[data-kind=section] .section-title")
    names = [f"Prep {n}" for n in range(1, 8)]
    for name in names:
        commit(title, name)
    # Shown at once, whatever the server says about the pace.
    expect(title).to_have_value(names[-1])
    expect(a.locator("#connection")).not_to_have_attribute("data-pending", "0")
    screenshot(a, "pending")

    wait_synced(a, timeout=40_000)
    assert rejects, "the server never limited this page: the test proves nothing"
    assert {r["code"] for r in rejects} == {"rate_limited"}, rejects
    assert all(r["retryAfterMs"] > 0 for r in rejects)
    # In the user's order: the last rename is the title the server keeps.
    assert converged(server, board, a) == [[names[-1], True, []]]
    assert server.snapshot(board)["rev"] == 1 + len(names), "every rename applied once"
    expect(title).to_have_value(names[-1])
    expect(a.locator("#toasts .toast")).to_have_count(0)
    assert not a.errors
    screenshot(a)
