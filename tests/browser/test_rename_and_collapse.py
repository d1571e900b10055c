"""A renames or collapses a section; B shows it without a reload, and B's DOM changes only where
it must: a MutationObserver in B's page records every change outside the presence area."""
from playwright.sync_api import expect

from conftest import add_section, add_timer, converged, dom_changes, section, watch_dom


def two_users(user, server, board):
    """Ada and Bob on a board with two sections of one timer each."""
    a, b = user("Ada"), user("Bob")
    add_section(a, "Bake")
    add_section(a, "Prep")
    add_timer(a, "Prep", "Eggs", 7, 30)
    add_timer(a, "Bake", "Bread", 35, 0)
    converged(server, board, a, b)
    return a, b


def settle(server, board, a, b):
    """A's edits are in and B has applied them."""
    converged(server, board, a, b)


def test_rename_changes_only_the_title(user, server, board, screenshot):
    a, b = two_users(user, server, board)
    title_a = section(a, "Prep").locator(".section-title")
    section_id = section(b, "Prep").get_attribute("data-id")
    # A starts editing first, so B's presence mark is in place before B is watched.
    title_a.focus()
    expect(section(b, "Prep").locator(".section-header")).to_have_attribute("data-editing-by", "Ada")
    title_b = b.locator(f"#section-title-{section_id}")
    title_b.evaluate("el => { window.__titleInput = el }")
    watch_dom(b)

    title_a.fill("Mise en place")
    title_a.press("Enter")
    settle(server, board, a, b)

    expect(title_b).to_have_value("Mise en place")
    assert b.evaluate("el => el === window.__titleInput", title_b.element_handle()), "the title input was replaced"
    changes = dom_changes(b)
    assert changes["created"] == [] and changes["missing"] == []
    # An input's text is its value, which is not in the DOM tree: what the DOM records is the
    # input's data-base/data-shown (the value last shown), on that input and nowhere else.
    title = f"input#section-title-{section_id}.field.section-title of section {section_id}"
    records = changes["records"]
    # Besides the input, only accessible names of that section's own controls that spell its
    # title ("Start all timers in Prep") may follow the rename.
    labels = [r for r in records if r["attribute"] == "aria-label" and r["target"].endswith(f" of section {section_id}")
              and "Prep" in (r["oldValue"] or "")]
    for record in labels:
        assert b.locator(f"[data-id={section_id}] .{record['target'].split(' ')[0].split('.')[-1]}").first.get_attribute("aria-label") == record["oldValue"].replace("Prep", "Mise en place")
    assert {(r["type"], r["target"], r["attribute"]) for r in records if r not in labels} == {
        ("attributes", title, "data-base"),
        ("attributes", title, "data-shown"),
    }, records
    screenshot(b)
    assert a.errors == [] and b.errors == []


def test_collapse_changes_only_that_section(user, server, board, screenshot):
    a, b = two_users(user, server, board)
    section_id = section(b, "Bake").get_attribute("data-id")
    watch_dom(b)

    section(a, "Bake").get_by_role("button", name="Show or hide this section's timers").click()
    settle(server, board, a, b)

    expect(section(b, "Bake").locator(".section-body")).to_be_hidden()
    expect(section(b, "Bake").locator(".section-toggle")).to_have_attribute("aria-expanded", "false")
    expect(section(b, "Prep").locator(".section-body")).to_be_visible()
    changes = dom_changes(b)
    assert changes["created"] == [] and changes["missing"] == []
    of = f"of section {section_id}"
    collapse = {
        ("attributes", f"section.section {of}", "data-expanded"),
        ("attributes", f"button.icon-button.section-toggle {of}", "aria-expanded"),
        ("attributes", f"div#section-body-{section_id}.section-body {of}", "hidden"),
    }
    assert {(r["type"], r["target"], r["attribute"]) for r in changes["records"]} == collapse, changes["records"]
    screenshot(b, "collapsed")

    # And back: the same three attributes, nothing else.
    watch_dom(b)
    section(a, "Bake").get_by_role("button", name="Show or hide this section's timers").click()
    settle(server, board, a, b)
    expect(section(b, "Bake").locator(".section-body")).to_be_visible()
    changes = dom_changes(b)
    assert changes["created"] == [] and changes["missing"] == []
    assert {(r["type"], r["target"], r["attribute"]) for r in changes["records"]} == collapse, changes["records"]
    assert a.errors == [] and b.errors == []


def test_a_timers_icon_buttons_name_the_timer_and_follow_a_remote_rename(user, server, board):
    # QA: Start said "Start Eggs", but Delete and the moves said only "Delete timer" and "Move timer
    # up": a screen reader listing the buttons could not tell one timer's from another's.
    a, b = two_users(user, server, board)
    eggs = b.locator("[data-kind=timer]").filter(has=b.locator(".timer-title[data-shown=Eggs]"))
    for name in ("Move timer up Eggs", "Move timer down Eggs", "Delete timer Eggs"):
        expect(eggs.get_by_role("button", name=name, exact=True)).to_have_count(1)
    title_a = a.locator("[data-kind=timer] .timer-title[data-shown=Eggs]")
    title_a.fill("Boiled eggs")
    title_a.press("Enter")
    settle(server, board, a, b)
    for name in ("Move timer up Boiled eggs", "Move timer down Boiled eggs", "Delete timer Boiled eggs"):
        expect(b.get_by_role("button", name=name, exact=True)).to_have_count(1)
    assert a.errors == [] and b.errors == []
