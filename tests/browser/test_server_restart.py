"""The server restarts: both browsers show the disconnect, reconnect by themselves and catch up,
with no page reload and no lost edit; edits made while the server is down are resent and land."""
import re

from playwright.sync_api import expect

from conftest import add_section, add_timer, commit, converged, section, timer, wait_live, wait_synced

# Reconnect attempts back off (0.5 s, 1 s, 2 s, 4 s, ... jittered); a restart of the debug build
# on a busy machine can take a few of them.
RECONNECT_TIMEOUT = 45_000


def test_server_restart_reconnects_and_resends(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob")
    add_section(a, "Prep")
    add_section(a, "Bake")
    add_timer(a, "Prep", "Eggs", 7, 30)
    converged(server, board, a, b)
    for page in (a, b):
        # Survives only if the page is never reloaded; the element stays only if it is never rebuilt.
        page.evaluate("() => { window.__sameDocument = true; window.__prep = document.querySelector('[data-kind=section]') }")

    server.stop()
    for page in (a, b):
        expect(page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
        expect(page.locator("#connection .connection-label")).to_have_text(re.compile(r"^Reconnecting"))
    # Nobody is shown as present while we cannot know who is.
    expect(b.locator("#presence > li")).to_have_count(0)

    # Edits while the server is down show at once and wait.
    commit(section(b, "Prep").locator(".section-title"), "Prep (offline)")
    commit(timer(a, "Eggs").locator(".timer-minutes"), "8")
    expect(section(b, "Prep (offline)")).to_have_count(1)
    expect(b.locator("#connection .connection-pending")).to_have_text("1 edit pending")
    expect(a.locator("#connection")).to_have_attribute("data-pending", "1")
    screenshot(b, "reconnecting")

    server.start()
    for page in (a, b):
        wait_live(page, timeout=RECONNECT_TIMEOUT)
        wait_synced(page)
    shown = converged(server, board, a, b)
    assert shown == [["Prep (offline)", True, [["Eggs", 8, 30]]], ["Bake", True, []]]
    for page in (a, b):
        assert page.evaluate("() => window.__sameDocument === true"), "the page was reloaded"
        assert page.evaluate("() => window.__prep === document.querySelector('[data-kind=section]')"), "the board was rebuilt"
    expect(b.locator("#presence > li")).to_have_count(1)

    # Live again in both directions.
    add_timer(b, "Bake", "Bread", 35, 0)
    converged(server, board, a, b)
    screenshot(b, "after")
    assert a.errors == [] and b.errors == []
