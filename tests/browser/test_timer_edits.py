"""A adds, edits, moves (within a section and across sections) and deletes timers through the UI;
after each step B shows exactly what the server has."""
from playwright.sync_api import expect

from conftest import add_section, add_timer, commit, converged, dom_board, section, timer


def test_timer_edits_reach_the_other_browser(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob")
    add_section(a, "Prep")
    add_section(a, "Bake")

    # Add: at the end, in the order typed (issue 35).
    add_timer(a, "Prep", "Tea", 3, 5)
    add_timer(a, "Prep", "Rice", 12, 0)
    add_timer(a, "Prep", "Eggs", 7, 30)
    add_timer(a, "Bake", "Bread", 35, 0)
    assert converged(server, board, a, b) == [
        ["Prep", True, [["Tea", 3, 5], ["Rice", 12, 0], ["Eggs", 7, 30]]],
        ["Bake", True, [["Bread", 35, 0]]],
    ]
    expect(timer(b, "Tea").locator(".timer-seconds")).to_have_value("05")

    # Edit each field.
    commit(timer(a, "Rice").locator(".timer-title"), "Basmati")
    commit(timer(a, "Basmati").locator(".timer-minutes"), "14")
    commit(timer(a, "Eggs").locator(".timer-seconds"), "45")
    assert converged(server, board, a, b)[0] == ["Prep", True, [["Tea", 3, 5], ["Basmati", 14, 0], ["Eggs", 7, 45]]]

    # Move within the section: Eggs up (above Basmati), then Tea down (below Basmati).
    timer(a, "Eggs").get_by_role("button", name="Move timer up").click()
    assert converged(server, board, a, b)[0][2] == [["Tea", 3, 5], ["Eggs", 7, 45], ["Basmati", 14, 0]]
    timer(a, "Tea").get_by_role("button", name="Move timer down").click()
    assert converged(server, board, a, b)[0][2] == [["Eggs", 7, 45], ["Tea", 3, 5], ["Basmati", 14, 0]]

    # Move across sections with the "move to" menu: it lands first in the other section.
    move = timer(a, "Tea").get_by_label("Move timer to another section")
    move.focus()
    move.select_option(label="Bake")
    assert converged(server, board, a, b) == [
        ["Prep", True, [["Eggs", 7, 45], ["Basmati", 14, 0]]],
        ["Bake", True, [["Tea", 3, 5], ["Bread", 35, 0]]],
    ]
    # B's copy of the moved timer is one element, now in Bake's list.
    expect(section(b, "Bake").locator("[data-kind=timer]")).to_have_count(2)
    expect(b.locator("[data-kind=timer]")).to_have_count(4)

    # Delete.
    timer(a, "Basmati").get_by_role("button", name="Delete timer").click()
    assert converged(server, board, a, b) == [
        ["Prep", True, [["Eggs", 7, 45]]],
        ["Bake", True, [["Tea", 3, 5], ["Bread", 35, 0]]],
    ]
    timer(a, "Eggs").get_by_role("button", name="Delete timer").click()
    converged(server, board, a, b)
    expect(section(b, "Prep").get_by_text("No timers yet.")).to_be_visible()

    # And B edits too: A follows.
    commit(timer(b, "Bread").locator(".timer-title"), "Sourdough")
    assert converged(server, board, a, b)[1] == ["Bake", True, [["Tea", 3, 5], ["Sourdough", 35, 0]]]
    assert dom_board(a) == dom_board(b)
    screenshot(b)
    assert a.errors == [] and b.errors == []
