"""B is typing in a section title (focused, caret in the middle, nothing sent yet) while A changes
the board around it, moves that very section and renames it. B keeps focus, caret and text; when
B commits, the last writer (B) wins and both see it."""
import re

from playwright.sync_api import expect

from conftest import add_section, add_timer, commit, converged, dom_board, section, snapshot_board, timer, toast, wait_rev, wait_synced

CARET = 4  # "Mise| en place"
REMOTE_CHANGED = re.compile(r"\bremote-changed\b")


def caret(page):
    return page.evaluate("() => [document.activeElement === window.__typing, document.activeElement.selectionStart, document.activeElement.selectionEnd]")


def test_typing_survives_remote_changes_and_last_writer_wins(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob")
    for title in ["Serve", "Bake", "Prep"]:
        add_section(a, title)
    add_timer(a, "Prep", "Eggs", 7, 30)
    add_timer(a, "Serve", "Rest", 5, 0)
    converged(server, board, a, b)
    section_id = section(b, "Prep").get_attribute("data-id")

    # B types a new title and puts the caret in the middle; nothing is sent (no Enter, no blur).
    field = b.locator(f"#section-title-{section_id}")
    field.click()
    field.press("Control+a")
    b.keyboard.type("Mise en place")
    b.keyboard.press("Home")
    for _ in range(CARET):
        b.keyboard.press("ArrowRight")
    field.evaluate("el => { window.__typing = el }")
    assert caret(b) == [True, CARET, CARET]
    expect(section(a, "Prep").locator(".section-header")).to_have_attribute("data-editing-by", "Bob")
    rev_before = server.snapshot(board)["rev"]

    # A changes a lot elsewhere, moves B's section twice, adds a timer to it, and renames it.
    add_section(a, "Garnish")
    add_timer(a, "Prep", "Toast", 2, 0)
    add_timer(a, "Bake", "Bread", 35, 0)
    commit(section(a, "Bake").locator(".section-title"), "Oven")
    commit(timer(a, "Eggs").locator(".timer-title"), "Soft eggs")
    section(a, "Prep").get_by_role("button", name="Move section down").click()
    section(a, "Serve").get_by_role("button", name="Move section up").click()
    section(a, "Oven").get_by_role("button", name="Show or hide this section's timers").click()
    timer(a, "Rest").get_by_role("button", name="Delete timer").click()
    section(a, "Prep").get_by_role("button", name="Move section up").click()
    commit(section(a, "Prep").locator(".section-title"), "Prep (Ada)")
    wait_synced(a)
    snapshot = server.snapshot(board)
    assert snapshot["rev"] >= rev_before + 10
    wait_rev(b, snapshot["rev"])

    # B: same element focused, same caret, same unsent text; the rename waits in data-base and
    # the field is marked as changed by someone else.
    assert caret(b) == [True, CARET, CARET]
    expect(field).to_have_value("Mise en place")
    expect(field).to_have_attribute("data-base", "Prep (Ada)")
    expect(field).to_have_class(REMOTE_CHANGED)
    # Everything else in B is what the server has.
    expected = snapshot_board(snapshot)
    shown = dom_board(b)
    index = [s[0] for s in expected].index("Prep (Ada)")
    assert shown[index][0] == "Mise en place"
    shown[index][0] = "Prep (Ada)"
    assert shown == expected
    screenshot(b, "typing")

    # B goes on typing at the caret and commits: B's title is the last write, and wins.
    b.keyboard.type("!")
    assert caret(b) == [True, CARET + 1, CARET + 1]
    b.keyboard.press("Enter")
    titles = [s[0] for s in converged(server, board, a, b)]
    assert titles[index] == "Mise! en place"
    expect(field).not_to_have_class(REMOTE_CHANGED)
    assert caret(b)[0] is True
    expect(section(a, "Mise! en place")).to_have_count(1)
    screenshot(a, "outcome")

    # Escape instead of Enter shows the other writer's value and sends nothing.
    oven = b.locator(f"#section-title-{section(b, 'Oven').get_attribute('data-id')}")
    oven.click()
    oven.press("End")
    b.keyboard.type(" hot")
    commit(section(a, "Oven").locator(".section-title"), "Oven 220")
    wait_rev(b, server.snapshot(board)["rev"])
    expect(oven).to_have_value("Oven hot")
    oven.press("Escape")
    expect(oven).to_have_value("Oven 220")
    assert converged(server, board, a, b)[[s[0] for s in dom_board(a)].index("Oven 220")][0] == "Oven 220"
    assert a.errors == [] and b.errors == []


def test_typing_a_new_timer_into_a_section_someone_deletes_is_told(user, server, board):
    # QA: a timer deleted under its editor's caret was told in a toast; a section deleted while
    # someone typed in its "Add a timer…" field took their text with it, and said nothing.
    a, b = user("Ada"), user("Bob")
    add_section(a, "Prep")
    converged(server, board, a, b)
    add_field = section(b, "Prep").locator("form.add-timer [name=title]")
    add_field.click()
    b.keyboard.type("Eggs")
    section(a, "Prep").locator(".section-delete").click()
    expect(section(b, "Prep")).to_have_count(0)
    expect(toast(b, "The section you were editing was deleted by someone else.")).to_be_visible()
    assert a.errors == [] and b.errors == []
