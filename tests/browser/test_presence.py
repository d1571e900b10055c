"""Presence: each browser shows who else is on the board (name and colour) and which title someone
else is editing right now. Presence is never stored, and it goes when a user leaves or drops."""
import json

from playwright.sync_api import expect

from conftest import add_section, add_timer, converged, section, timer
from raw_websocket import RawClient

COLOR = "el => getComputedStyle(el).getPropertyValue('--user-color').trim()"
BACKGROUND = "el => getComputedStyle(el).backgroundColor"


def client_id(page):
    return page.evaluate("window.timerboard.socket.clientId")


def user_id(page):
    """Who `page` is in presence: the userId of its `access`."""
    return page.evaluate("window.timerboard.session.userId")


def someone(page, other):
    """`other`'s entry in `page`'s list of the others on the board."""
    return page.locator(f"#presence > li[data-user-id=\"{user_id(other)}\"]")


def test_presence_shows_who_is_here_and_what_they_edit(user, server, board, screenshot):
    a, b, c = user("Ada"), user("Bob"), user("Cyd", gate=True)
    add_section(a, "Prep")
    add_timer(a, "Prep", "Eggs", 7, 30)
    converged(server, board, a, b, c)

    # Everyone sees the two others, by name, in the colour the server gave them (the one each
    # user's own dot shows), and not themselves.
    for page, others in ((a, (b, c)), (b, (a, c)), (c, (a, b))):
        expect(page.locator("#presence > li")).to_have_count(2)
        for other in others:
            entry = someone(page, other)
            expect(entry.locator(".presence-name")).to_have_text(other.locator("#user-name").input_value())
            own_color = other.locator(".me-dot").evaluate(COLOR)
            assert own_color.startswith("#") and entry.evaluate(COLOR) == own_color
            # The colour is really painted.
            assert entry.locator(".user-dot").evaluate(BACKGROUND) == other.locator(".me-dot").evaluate(BACKGROUND) != "rgba(0, 0, 0, 0)"
    ada_color = a.locator(".me-dot").evaluate(COLOR)

    # Ada edits the section title: B sees it on that section, in her colour, and in the list.
    section(a, "Prep").locator(".section-title").focus()
    header = section(b, "Prep").locator(".section-header")
    expect(header).to_have_attribute("data-editing-by", "Ada")
    assert header.evaluate("el => el.style.getPropertyValue('--editor-color')") == ada_color
    expect(b.get_by_role("listitem", name="Ada, editing “Prep”")).to_be_visible()
    screenshot(b, "editing-section")

    # Then a timer's title; then nothing.
    timer(a, "Eggs").locator(".timer-title").focus()
    expect(timer(b, "Eggs")).to_have_attribute("data-editing-by", "Ada")
    expect(header).not_to_have_attribute("data-editing-by", "Ada")
    expect(b.get_by_role("listitem", name="Ada, editing “Eggs”")).to_be_visible()
    # Two people on one title: both names.
    timer(c, "Eggs").locator(".timer-title").focus()
    expect(timer(b, "Eggs")).to_have_attribute("data-editing-by", "Ada, Cyd")
    screenshot(b, "editing-timer")
    a.locator("#add-section-title").focus()
    c.locator("#add-section-title").focus()
    expect(b.locator("[data-editing-by]")).to_have_count(0)
    expect(someone(b, a)).not_to_have_attribute("data-editing", "true")

    # Never stored: the board the server keeps has no trace of who was there.
    snapshot = json.dumps(server.snapshot(board))
    for trace in ("Ada", "Cyd", client_id(a), user_id(a), "editing", "presence"):
        assert trace not in snapshot

    # A user who leaves (closes the tab) goes; so does one whose connection drops.
    section(a, "Prep").locator(".section-title").focus()
    expect(header).to_have_attribute("data-editing-by", "Ada")
    ada = user_id(a)
    # The clientId is a secret of its page: presence never shows it.
    assert client_id(a) not in b.locator("#presence").evaluate("el => el.outerHTML")
    a.close()
    expect(b.locator(f"#presence > li[data-user-id=\"{ada}\"]")).to_have_count(0)
    expect(header).not_to_have_attribute("data-editing-by", "Ada")
    timer(c, "Eggs").locator(".timer-title").focus()
    expect(timer(b, "Eggs")).to_have_attribute("data-editing-by", "Cyd")
    c.gate.drop()
    expect(b.locator("#presence > li")).to_have_count(0)
    expect(b.locator("[data-editing-by]")).to_have_count(0)
    expect(c.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    screenshot(b, "alone")
    assert b.errors == [] and c.errors == []


def test_a_crowded_board_shows_a_dozen_names_and_counts_everyone_else(user, server, board, screenshot):
    # A stage's phones: 101 viewers on raw sockets, then Ada's and Bob's pages: 103 users. The
    # server lists 100 and counts 3; the header shows 12 of the others by name, Bob (who edits)
    # among them, and counts the rest.
    crowd = []
    for n in range(101):
        viewer = RawClient(server.port, None)
        viewer.hello_and_join(f"phone-{n:04d}-0123456789", board, role="view")
        crowd.append(viewer)
    ada, bob = user("Ada"), user("Bob")
    add_section(bob, "Act one")
    section(bob, "Act one").locator(".section-title").focus()
    expect(ada.locator("#presence > li[data-user-id]")).to_have_count(12)
    expect(ada.get_by_role("listitem", name="Bob, editing “Act one”")).to_be_visible()
    expect(ada.locator("#presence > li.presence-more")).to_have_text("+90")
    screenshot(ada, "crowd")
    # Three phones leave: the server lists everyone again, and the count follows.
    for viewer in crowd[:3]:
        viewer.close()
    expect(ada.locator("#presence > li.presence-more")).to_have_text("+87")
    expect(ada.locator("#presence > li[data-user-id]")).to_have_count(12)
    for viewer in crowd[3:]:
        viewer.close()

