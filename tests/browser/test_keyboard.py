"""The board works from the keyboard alone (add, rename, toggle, delete), and its controls have
accessible names: found here by role and name, as assistive technology finds them."""
import re

from playwright.sync_api import expect

from conftest import converged, snapshot_board

# Interactive roles that must never be nameless in the accessibility tree.
CONTROL_ROLES = r"button|textbox|spinbutton|combobox|checkbox|link|searchbox|slider|switch"


def focused(page):
    """The focused element's role and accessible name, as a locator check would see them."""
    return page.evaluate("""() => { const el = document.activeElement;
        return [el.tagName.toLowerCase(), el.getAttribute('aria-label') ?? el.labels?.[0]?.textContent ?? el.textContent.trim()] }""")


def nameless_controls(page):
    """Lines of the page's ARIA snapshot that show a control without a name."""
    tree = page.locator("body").aria_snapshot()
    return [line for line in tree.splitlines() if re.match(rf"\s*- ({CONTROL_ROLES})(\s*\[[^\]]*\])*\s*(:.*)?$", line)]


def test_keyboard_add_rename_toggle_delete(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob")
    keys = a.keyboard

    # Add two sections: type in the labelled field, Enter.
    a.get_by_label("New section title").focus()
    keys.type("Prep")
    keys.press("Enter")
    prep = a.get_by_role("region", name="Prep")
    expect(prep).to_be_visible()
    expect(a.get_by_label("New section title")).to_be_focused()
    # New sections and timers go at the end, in the order typed (issue 35).
    keys.type("Bake")
    keys.press("Enter")
    expect(a.get_by_role("region", name="Bake")).to_be_visible()

    # Add a timer: title, Tab, minutes, Tab, seconds, Enter. Focus comes back for the next one.
    prep.get_by_role("textbox", name="New timer title").focus()
    keys.type("Rice")
    keys.press("Tab")
    expect(prep.get_by_role("spinbutton", name="New timer minutes")).to_be_focused()
    keys.type("12")
    keys.press("Tab")
    expect(prep.get_by_role("spinbutton", name="New timer seconds")).to_be_focused()
    keys.type("0")
    keys.press("Enter")
    expect(prep.get_by_role("textbox", name="New timer title")).to_be_focused()
    keys.type("Eggs")
    keys.press("Tab")
    keys.type("7")
    keys.press("Tab")
    keys.type("30")
    keys.press("Enter")
    assert converged(server, board, a, b) == [["Prep", True, [["Rice", 12, 0], ["Eggs", 7, 30]]], ["Bake", True, []]]

    # Rename the section: Enter commits, Escape throws away.
    title = prep.get_by_role("textbox", name="Section title")
    title.focus()
    keys.press("End")
    keys.type(" work")
    keys.press("Escape")
    expect(title).to_have_value("Prep")
    keys.press("Control+a")
    keys.type("Mise en place")
    keys.press("Enter")
    section = a.get_by_role("region", name="Mise en place")
    expect(section).to_be_visible()
    # And a timer: its title and minutes.
    eggs_minutes = section.get_by_role("listitem").filter(has=a.locator(".timer-title[data-shown=Eggs]")).get_by_role("spinbutton", name="Minutes")
    eggs_minutes.focus()
    keys.press("Control+a")
    keys.type("8")
    keys.press("Enter")
    assert converged(server, board, a, b)[0] == ["Mise en place", True, [["Rice", 12, 0], ["Eggs", 8, 30]]]

    # Toggle: Shift+Tab from the title reaches the section's toggle; Enter and Space press it.
    title = section.get_by_role("textbox", name="Section title")
    title.focus()
    keys.press("Shift+Tab")
    toggle = section.get_by_role("button", name="Show or hide this section's timers")
    expect(toggle).to_be_focused()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    keys.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(section.get_by_role("list", name="Timers")).to_be_hidden()
    assert converged(server, board, a, b)[0][1] is False
    keys.press(" ")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    assert converged(server, board, a, b)[0][1] is True

    # Delete a timer: the focus moves to the next timer's delete button, not to the page's top.
    rice = section.get_by_role("listitem").filter(has=a.locator(".timer-title[data-shown=Rice]"))
    rice.get_by_role("button", name="Delete timer").focus()
    keys.press("Enter")
    expect(rice).to_have_count(0)
    eggs = section.get_by_role("listitem").filter(has=a.locator(".timer-title[data-shown=Eggs]"))
    expect(eggs.get_by_role("button", name="Delete timer")).to_be_focused()
    screenshot(a, "before-delete")

    # Delete the section, which has a timer: the first Enter asks, the second deletes.
    delete = section.get_by_role("button", name="Delete section")
    delete.focus()
    keys.press("Enter")
    expect(section.get_by_role("button", name="Press again to delete this section and its timer")).to_be_focused()
    expect(a.locator("#toasts")).to_contain_text("Press again to delete this section and its timer.")
    keys.press("Enter")
    expect(section).to_have_count(0)
    expect(a.get_by_role("region", name="Bake").get_by_role("button", name="Delete section")).to_be_focused()
    assert converged(server, board, a, b) == [["Bake", True, []]]
    assert snapshot_board(server.snapshot(board)) == [["Bake", True, []]]
    assert a.errors == [] and b.errors == []


def test_controls_are_labelled(user, server, board):
    a = user("Ada")
    a.get_by_label("New section title").fill("Prep")
    a.get_by_role("button", name="Add section").click()
    prep = a.get_by_role("region", name="Prep")
    prep.get_by_label("New timer title").fill("Eggs")
    prep.get_by_label("New timer minutes").fill("7")
    prep.get_by_role("button", name="Add", exact=True).click()
    converged(server, board, a)

    timer = prep.get_by_role("listitem")
    for role, name in [("button", "Show or hide this section's timers"), ("textbox", "Section title"),
                       ("button", "Move section up"), ("button", "Move section down"), ("button", "Delete section"),
                       ("list", "Timers"), ("form", "Add a timer")]:
        expect(prep.get_by_role(role, name=name, exact=True)).to_have_count(1)
    for role, name in [("textbox", "Timer title"), ("spinbutton", "Minutes"), ("spinbutton", "Seconds"),
                       ("combobox", "Move timer to another section"), ("button", "Move timer up Eggs"),
                       ("button", "Move timer down Eggs"), ("button", "Delete timer Eggs")]:
        expect(timer.get_by_role(role, name=name, exact=True)).to_have_count(1)
    for role, name in [("textbox", "Your name"), ("button", "Share this board"), ("form", "Add a section"),
                       ("link", "TimerBoard: your boards"), ("list", "Also on this board"), ("status", None)]:
        expect(a.get_by_role(role, name=name, exact=True) if name else a.get_by_role(role).first).to_be_attached()
    expect(a.get_by_role("heading", level=1)).to_have_text("Kitchen")
    # No control anywhere on the page is nameless.
    assert nameless_controls(a) == []
    assert a.errors == []
