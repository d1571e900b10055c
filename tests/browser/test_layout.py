"""Screenshots of a populated board and the start page, wide and phone-sized (390x844), for a
person to look at; and what a machine can check about them: nothing is wider than the window."""
import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, add_section, add_timer, board_path, converged, section, timer, wait_live

OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_board_layout(user, server, board, screenshot, viewport):
    a = user("Ada")
    add_section(a, "Bake")
    add_section(a, "Prep")
    add_timer(a, "Prep", "Soft-boiled eggs for the whole table", 7, 30)
    add_timer(a, "Prep", "Rice", 12, 0)
    add_timer(a, "Bake", "Sourdough loaf", 45, 0)
    page = user("Bob with a rather long name", viewport=viewport)
    converged(server, board, a, page)
    section(a, "Prep").locator(".section-title").focus()
    expect(section(page, "Prep").locator(".section-header")).to_have_attribute("data-editing-by", "Ada")
    assert page.evaluate(OVERFLOW) <= 0, "the board is wider than the window"
    screenshot(page)


# Each row's title width, and the left edges of its reset button and right edges of its countdown.
ROWS = """() => [...document.querySelectorAll('.timer')].map(row => ({
    title: row.querySelector('.timer-title').getBoundingClientRect().width,
    reset: Math.round(row.querySelector('.timer-reset').getBoundingClientRect().left),
    countdown: Math.round(row.querySelector('.timer-countdown').getBoundingClientRect().right),
}))"""


# The section headers' controls that stick out of their card: a right-aligned row wider than the
# card overflows to the left, where no scroll bar shows it.
OUTSIDE_THEIR_SECTION = """() => [...document.querySelectorAll('.section')].flatMap(card => {
    const box = card.getBoundingClientRect();
    return [...card.querySelectorAll('.section-header :is(button, select, input)')]
        .filter(control => control.getClientRects().length > 0)
        .filter(control => {
            const edges = control.getBoundingClientRect();
            return edges.left < box.left - 0.5 || edges.right > box.right + 0.5;
        })
        .map(control => control.textContent.trim() || control.getAttribute('aria-label') || control.className);
})"""


@pytest.mark.parametrize("width", [360, 390, 768, 1024, 1100])
def test_timer_rows_show_their_titles_and_line_up(user, server, board, screenshot, width):
    """An editor sees some 17 characters of every title at any width, a section's too (at 1,100 px
    a row once left its title 115 px), and the rows' columns line up: a running row's "+1 min"
    buttons, or a shorter countdown, move nothing (on a phone the reset button once sat on the
    first line of one row and the second of the next). A sequence's header controls stay inside
    its card (on a 360 px phone "Times…" once began 20 px left of the screen)."""
    a = user("Ada")
    add_section(a, "Prep")
    add_timer(a, "Prep", "Soft-boiled eggs for the whole table", 7, 30)
    add_timer(a, "Prep", "Rice", 12, 0)
    add_timer(a, "Prep", "Tea", 3, 0)
    timer(a, "Soft-boiled eggs for the whole table").locator(".timer-toggle").click()
    # A sequence's header has the most controls: at 768 px they once left its title 10 characters.
    add_section(a, "Rounds of the morning")
    section(a, "Rounds of the morning").locator(".section-sequence").click()
    page = user("Bob", viewport={"width": width, "height": 800})
    converged(server, board, a, page)
    expect(timer(page, "Soft-boiled eggs for the whole table")).to_have_attribute("data-status", "running")
    expect(section(page, "Rounds of the morning").locator(".section-skip")).to_be_visible()
    # Some 17 characters; at 360 px, the narrowest phones in common use, some 15.
    shortest_title = 150 if width >= 390 else 120
    assert section(page, "Rounds of the morning").locator(".section-title").bounding_box()["width"] >= shortest_title
    rows = page.evaluate(ROWS)
    assert len(rows) == 3
    assert min(row["title"] for row in rows) >= shortest_title, rows
    assert len({row["reset"] for row in rows}) == 1, rows
    assert len({row["countdown"] for row in rows}) == 1, rows
    assert page.evaluate(OVERFLOW) <= 0, "the board is wider than the window"
    assert page.evaluate(OUTSIDE_THEIR_SECTION) == [], "a section's controls stick out of its card"
    screenshot(page)


@pytest.mark.parametrize("width", [360, 390, 768, 1024, 1100, 1440])
def test_a_running_sequence_keeps_its_title_readable(user, server, board, screenshot, width):
    """A running sequence's header is its widest: progress, its times ("25:00 in all · 0:02 done ·
    …"), Pause, Skip, Restart and the section's controls. At 1,100 px they once left its title 40
    px ("Mor"): the controls now wrap to a line of their own rather than squeeze the title."""
    a = user("Ada")
    add_section(a, "Rounds of the morning")
    section(a, "Rounds of the morning").locator(".section-sequence").click()
    add_timer(a, "Rounds of the morning", "Keynote: the future of timers", 25, 0)
    add_timer(a, "Rounds of the morning", "Questions", 10, 0)
    section(a, "Rounds of the morning").locator(".section-run").click()
    page = user("Bob", viewport={"width": width, "height": 800})
    converged(server, board, a, page)
    header = section(page, "Rounds of the morning").locator(".section-header")
    expect(header.locator(".section-progress")).to_have_text("1 of 2")
    expect(header.locator(".section-run")).to_have_attribute("data-action", "pause")
    shortest_title = 150 if width >= 390 else 120
    assert header.locator(".section-title").bounding_box()["width"] >= shortest_title
    assert page.evaluate(OVERFLOW) <= 0, "the board is wider than the window"
    assert page.evaluate(OUTSIDE_THEIR_SECTION) == [], "a section's controls stick out of its card"
    screenshot(page)


@pytest.mark.parametrize("width", [360, 390, 768, 1100])
def test_run_mode_keeps_the_titles_readable_beside_its_large_countdowns(user, server, board, screenshot, width):
    """Run mode shows the titles and large countdowns: on a phone a running row once left its title
    85 px ("Keynote: th") beside the countdown and the state's pill."""
    a = user("Ada")
    add_section(a, "Show")
    add_timer(a, "Show", "Keynote: the future of timers", 25, 0)
    add_timer(a, "Show", "Questions", 10, 0)
    timer(a, "Keynote: the future of timers").locator(".timer-toggle").click()
    page = user("Bob", viewport={"width": width, "height": 800})
    converged(server, board, a, page)
    page.locator(".mode-toggle").click()
    expect(page.locator(".mode-toggle")).to_have_attribute("aria-pressed", "true")
    expect(timer(page, "Keynote: the future of timers")).to_have_attribute("data-status", "running")
    rows = page.evaluate(ROWS)
    shortest_title = 150 if width >= 390 else 120
    assert min(row["title"] for row in rows) >= shortest_title, rows
    assert len({row["countdown"] for row in rows}) == 1, rows
    assert page.evaluate(OVERFLOW) <= 0, "the board is wider than the window"
    screenshot(page)


@pytest.mark.parametrize("role", ["owner", "view"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_board_layout_by_role(user, server, board, screenshot, viewport, role):
    """The owner's bar has a settings button more, a viewer's a "View only" badge and no edit controls."""
    a = user("Ada")
    add_section(a, "Prep")
    add_timer(a, "Prep", "Soft-boiled eggs for the whole table", 7, 30)
    page = user("Bob with a rather long name", viewport=viewport, role=role)
    converged(server, board, a, page)
    expect(page.locator("#role-badge")).to_be_visible() if role == "view" else expect(page.locator(".owner-open")).to_be_visible()
    assert page.evaluate(OVERFLOW) <= 0, "the board is wider than the window"
    screenshot(page)
    page.get_by_role("button", name="Share this board").click()
    expect(page.get_by_role("dialog", name="Share this board")).to_be_visible()
    assert page.evaluate(OVERFLOW) <= 0, "the share dialog is wider than the window"
    screenshot(page, "share")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_start_page_layout(user, server, board, screenshot, viewport):
    # The start page lists the boards this browser opened: open two first, one of them read-only.
    page = user("Ada", viewport=viewport)
    other = server.create_board("Sunday prep for the whole family, with a long name")
    page.goto(server.http + board_path(other, "view"))
    wait_live(page)
    page.goto(server.http + "/")
    expect(page.get_by_role("list", name="Your boards").get_by_role("link")).to_have_count(2)
    assert page.evaluate(OVERFLOW) <= 0, "the start page is wider than the window"
    screenshot(page)
