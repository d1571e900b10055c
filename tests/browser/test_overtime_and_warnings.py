"""Issue 18 in Chromium: a finished timer counts overtime (+m:ss from the server's finishedAt), a
warning point set in the row turns it amber and then red at zero, on two pages in step, one of
them with its clock 7 s wrong; and +1 min pressed on two pages adds two minutes.

Colours are checked twice: by the row's class and by the pixels of a screenshot of the row (its
background tint). "In step" is checked against the true time: each page records, at the moment its
row turned amber, how much time was truly left by the server's instants; that must be what the
countdown then reads (the warning point, within the page's own stated clock bound). A page that
drew with its own clock would turn 7 s early. No sleeps, no timing thresholds of our own.
"""
import re

from playwright.sync_api import Page, expect

from conftest import add_section, add_timer, clock_script, commit, timer, wait_synced
from pixels import is_amber, is_red, tint

# Records, on the first change of the row's data-phase to each value, the true time then and the
# page's own bound of its server clock (web-static/clock.js).
RECORD_PHASES = """id => {
    const row = document.querySelector(`[data-kind=timer][data-id="${id}"]`);
    window.__phases = {};
    const note = () => {
        const phase = row.dataset.phase ?? '';
        if (!(phase in window.__phases)) {
            window.__phases[phase] = {
                at: (window.__realNow ?? Date.now)(),
                bound: window.timerboard.clock.uncertainty(),
                text: row.querySelector('.timer-countdown').textContent,
                className: row.className,
            };
        }
    };
    note();
    new MutationObserver(note).observe(row, {attributes: true, attributeFilter: ['data-phase']});
}"""


def server_timer(server, board, title):
    return next(t for t in server.snapshot(board)["timers"] if t["title"] == title)


def row_tint(page: Page, title: str, tmp_path, name: str):
    """The background tint of the timer's row, from a screenshot of it alone (saved in tmp_path)."""
    path = tmp_path / f"{name}.png"
    timer(page, title).screenshot(path=str(path))
    return tint(path)


def test_a_finished_timer_counts_overtime_from_the_servers_finished_at(user, server, board, screenshot, tmp_path):
    a, b = user("Ada"), user("Bob")
    add_section(a, "Kitchen")
    add_timer(a, "Kitchen", "Eggs", 0, 1)
    timer(a, "Eggs").locator(".timer-toggle").click()
    for page in (a, b):
        expect(timer(page, "Eggs")).to_have_attribute("data-status", "finished")
    eggs = server_timer(server, board, "Eggs")
    finished_at = eggs["run"]["finishedAt"]
    assert isinstance(finished_at, int) and eggs["run"]["elapsed"] == 1_000, eggs["run"]
    for page in (a, b):
        row = timer(page, "Eggs")
        # It counts up, marked: +0:01, +0:02 ... in red, "Time's up".
        expect(row.locator(".timer-countdown")).to_have_text(re.compile(r"^\+0:0[2-9]$"))
        expect(row).to_have_class(re.compile(r"\btimer-over\b"))
        expect(row).to_have_attribute("data-phase", "over")
        expect(row.locator(".timer-status")).to_have_text("Time's up")
        # What it reads is the server's finishedAt against the true time (read around the text).
        before, text, after = page.evaluate("""id => [Date.now(),
            document.querySelector(`[data-kind=timer][data-id="${id}"] .timer-countdown`).textContent, Date.now()]""", eggs["id"])
        shown = int(text[1:].split(":")[0]) * 60 + int(text.split(":")[1])
        assert (before - finished_at) // 1000 - 1 <= shown <= (after - finished_at) // 1000 + 1, (text, before - finished_at)
        colour = row_tint(page, "Eggs", tmp_path, f"over-{page_name(page)}")
        assert colour and is_red(colour), colour
    screenshot(a, "overtime")

    # Reset: no overtime, no colour.
    timer(b, "Eggs").locator(".timer-reset").click()
    for page in (a, b):
        expect(timer(page, "Eggs").locator(".timer-countdown")).to_have_text("0:01")
        expect(timer(page, "Eggs")).not_to_have_attribute("data-phase", re.compile(".*"))
        colour = row_tint(page, "Eggs", tmp_path, f"reset-{page_name(page)}")
        assert colour is None or not (is_red(colour) or is_amber(colour)), colour
    assert a.errors == [] and b.errors == []


def page_name(page: Page) -> str:
    return page.evaluate("document.getElementById('user-name').value")


def test_warning_colours_in_step_on_two_pages_one_with_a_skewed_clock(user, user_with_script, server, board, screenshot, tmp_path):
    skew = 7_000
    a = user("Ada")
    b = user_with_script("Bob", clock_script(skew))
    add_section(a, "Kitchen")
    add_timer(a, "Kitchen", "Tea", 0, 10)
    # The warning point is set in the row: 0:08 left. Eight seconds of amber leave time for two
    # screenshots on a loaded machine; a page 7 s early would be amber from the start.
    commit(timer(a, "Tea").locator(".timer-warnAt"), "0:08")
    wait_synced(a)
    tea = server_timer(server, board, "Tea")
    assert tea["warnAt"] == 8_000, tea
    for page in (a, b):
        expect(timer(page, "Tea").locator(".timer-warnAt")).to_have_value("0:08")
        page.wait_for_function("() => window.timerboard.clock.synced")
        page.evaluate(RECORD_PHASES, tea["id"])

    timer(b, "Tea").locator(".timer-toggle").click()
    for page in (a, b):
        expect(timer(page, "Tea")).to_have_attribute("data-phase", "warn")
        expect(timer(page, "Tea").locator(".timer-status")).to_have_text("Warning")
    tea = server_timer(server, board, "Tea")
    run = tea["run"]
    if run["status"] == "running":
        deadline = run["startedAt"] + 10_000 - run["elapsed"]
    else:
        deadline = run["finishedAt"]
    colours = [row_tint(page, "Tea", tmp_path, f"warn-{page_name(page)}") for page in (a, b)]
    assert all(c and is_amber(c) for c in colours), colours
    screenshot(b, "warning-skewed")

    for page in (a, b):
        expect(timer(page, "Tea")).to_have_attribute("data-phase", "over")
        expect(timer(page, "Tea")).to_have_attribute("data-status", "finished")
    assert server_timer(server, board, "Tea")["run"]["finishedAt"] == deadline
    for page in (a, b):
        phases = page.evaluate("window.__phases")
        warn, over = phases["warn"], phases["over"]
        # Amber when 8 s were truly left (the text then reads the warning point), never 7 s early.
        left = deadline - warn["at"]
        assert warn["text"] == "0:08", (page_name(page), warn)
        assert 7_000 - warn["bound"] < left <= 8_000 + warn["bound"], (page_name(page), left, warn)
        # Red at zero: not before the deadline by more than the page's bound.
        assert over["at"] >= deadline - over["bound"], (page_name(page), over["at"] - deadline, over)
        assert "timer-warn" in warn["className"] and "timer-over" in over["className"]
        colour = row_tint(page, "Tea", tmp_path, f"over-{page_name(page)}")
        assert colour and is_red(colour), colour
    assert a.errors == [] and b.errors == []


def test_plus_one_minute_on_two_pages_adds_two_minutes(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob")
    add_section(a, "Kitchen")
    add_timer(a, "Kitchen", "Stock", 5, 0)
    start = timer(a, "Stock").locator(".timer-toggle")
    expect(start).to_have_attribute("data-action", "start")
    start.click()
    expect(timer(b, "Stock")).to_have_attribute("data-status", "running")
    # The same button now says pause, and pauses.
    expect(timer(b, "Stock").locator(".timer-toggle")).to_have_attribute("data-action", "pause")
    timer(b, "Stock").locator(".timer-toggle").click()
    for page in (a, b):
        expect(timer(page, "Stock")).to_have_attribute("data-status", "paused")
    elapsed = server_timer(server, board, "Stock")["run"]["elapsed"]
    rev = server.snapshot(board)["rev"]

    # Both press +1 min (neither waits for the other's change): two minutes more, not one.
    for page in (a, b):
        expect(page.get_by_role("button", name="+1 min Stock")).to_be_visible()
    a.get_by_role("button", name="+1 min Stock").click()
    b.get_by_role("button", name="+1 min Stock").click()
    for page in (a, b):
        wait_synced(page)
    run = server_timer(server, board, "Stock")["run"]
    assert run["status"] == "paused" and run["elapsed"] == elapsed - 120_000, (elapsed, run)
    assert server.snapshot(board)["rev"] == rev + 2
    left = 300_000 - run["elapsed"]
    text = f"{-(-left // 1000) // 60}:{-(-left // 1000) % 60:02d}"
    for page in (a, b):
        expect(timer(page, "Stock").locator(".timer-countdown")).to_have_text(text)
    # −1 min takes one away.
    b.get_by_role("button", name="−1 min Stock").click()
    wait_synced(b)
    assert server_timer(server, board, "Stock")["run"]["elapsed"] == run["elapsed"] + 60_000
    screenshot(a, "adjusted")
    assert a.errors == [] and b.errors == []
