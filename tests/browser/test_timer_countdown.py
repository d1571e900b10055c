"""Running timers in the browser: countdowns drawn with the server's clock (the same on every screen,
whatever the page's own clock says), one DOM write per shown change, the server's "finished" shown
with an alert, and start / pause / reset / start-all / pause-all from the keyboard.

What a countdown should show is computed from the server's run state (`startedAt`, `elapsed`, read
over REST) and the true time. The server runs on this machine, so its clock is the true clock;
pages whose clock is skewed keep the true one as window.__realNow (conftest.clock_script).
Every wait is on a condition; none orders events by time.
"""
import re

from playwright.sync_api import Page, expect

from conftest import add_section, add_timer, clock_script, commit, section, timer, wait_synced

# The text the page shows for `id` equals what the server's run state gives at the true time now,
# while time is left (so it is checked while the timer runs, not once it is over).
SHOWS_SERVER_TIME = """({id, startedAt, elapsed, length}) => {
    const left = Math.max(0, length - elapsed - ((window.__realNow ?? Date.now)() - startedAt));
    const seconds = Math.ceil(left / 1000);
    const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    const shown = document.querySelector(`[data-kind=timer][data-id="${id}"] .timer-countdown`).textContent;
    return left > 0 && shown === text;
}"""

# Records every write to a countdown's text, with the text written.
RECORD_WRITES = """id => {
    const countdown = document.querySelector(`[data-kind=timer][data-id="${id}"] .timer-countdown`);
    window.__writes = [];
    new MutationObserver(records => {
        for (const r of records) window.__writes.push(r.type === 'characterData' ? r.target.data : countdown.textContent);
    }).observe(countdown, {childList: true, characterData: true, subtree: true});
}"""


# A finished timer reads "Time's up" and, from a server that sends finishedAt (issue 18), counts
# overtime: 0:00 for the first second, then +0:01 and on (test_overtime.py follows that part).
FINISHED = "Time's up"
AT_ZERO_OR_OVER = re.compile(r"^(0:00|\+\d+:\d\d)$")


def run_without_finished_at(run: dict) -> dict:
    """A finished run as a server from before overtime wrote it (the rest of this file checks that part)."""
    return {key: value for key, value in run.items() if key != "finishedAt"}


RECORD_TEXTS = """id => {
    const row = document.querySelector(`[data-kind=timer][data-id="${id}"]`);
    window.__shown = [];
    const note = () => {
        const text = row.querySelector('.timer-countdown').textContent;
        if (window.__shown.at(-1) !== text) window.__shown.push(text);
    };
    note();
    new MutationObserver(note).observe(row, {subtree: true, childList: true, characterData: true});
}"""


def countdown(page: Page, title: str):
    return timer(page, title).locator(".timer-countdown")


def server_timer(server, board: str, title: str) -> dict:
    return next(t for t in server.snapshot(board)["timers"] if t["title"] == title)


def length_ms(t: dict) -> int:
    return (t["minutes"] * 60 + t["seconds"]) * 1000


def clock_text(ms_left: int) -> str:
    """What a countdown shows for `ms_left` (whole seconds, rounded up)."""
    seconds = max(0, -(-ms_left // 1000))
    return f"{seconds // 60}:{seconds % 60:02d}"


def press(page: Page, label: str, key="Enter"):
    """Focuses the button named `label` and presses `key` on it, as a keyboard user does."""
    button = page.get_by_role("button", name=label, exact=True)
    button.focus()
    expect(button).to_be_focused()
    page.keyboard.press(key)


def expect_status(pages, title: str, status: str, words: str):
    for page in pages:
        expect(timer(page, title)).to_have_attribute("data-status", status)
        expect(timer(page, title).locator(".timer-status")).to_have_text(words)


def wait_clock_synced(page: Page):
    page.wait_for_function("() => window.timerboard.clock.synced")


def expect_matches_server(page: Page, t: dict):
    """The page's countdown of `t` shows what the server's run state gives now, while it runs."""
    run = t["run"]
    page.wait_for_function(SHOWS_SERVER_TIME, arg={
        "id": t["id"], "startedAt": run["startedAt"], "elapsed": run["elapsed"], "length": length_ms(t)})


def test_countdown_runs_in_step_on_two_pages_and_finishes(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob")
    add_section(a, "Kitchen")
    add_timer(a, "Kitchen", "Eggs", 0, 3)
    for page in (a, b):
        expect(countdown(page, "Eggs")).to_have_text("0:03")
        expect_status([page], "Eggs", "idle", "Ready")
        wait_clock_synced(page)
    eggs_id = timer(a, "Eggs").get_attribute("data-id")
    for page in (a, b):
        page.evaluate(RECORD_WRITES, eggs_id)
    # Sound is off by default; A turns it on from the keyboard (B leaves it off).
    for page in (a, b):
        expect(page.get_by_role("checkbox", name="Sound when a timer finishes")).not_to_be_checked()
    a.get_by_role("checkbox", name="Sound when a timer finishes").focus()
    a.keyboard.press("Space")
    expect(a.get_by_role("checkbox", name="Sound when a timer finishes")).to_be_checked()

    press(a, "Start Eggs")
    expect_status((a, b), "Eggs", "running", "Running")
    eggs = server_timer(server, board, "Eggs")
    assert eggs["run"]["status"] == "running" and eggs["run"]["elapsed"] == 0
    # Both pages show the time the server's startedAt gives, each by its own estimate of the server's clock.
    for page in (a, b):
        expect_matches_server(page, eggs)
    expect(a.get_by_role("button", name="Pause Eggs", exact=True)).to_be_focused()
    screenshot(a, "running")

    # The server finishes it; both pages say so, with an alert.
    expect_status((a, b), "Eggs", "finished", FINISHED)
    assert run_without_finished_at(server_timer(server, board, "Eggs")["run"]) == {"status": "finished", "elapsed": 3000}
    for page in (a, b):
        expect(countdown(page, "Eggs")).to_have_text(AT_ZERO_OR_OVER)
        alert = page.locator("#timer-alerts .timer-alert")
        expect(alert).to_have_count(1)
        expect(alert).to_be_visible()
        expect(alert).to_have_attribute("role", "alert")
        expect(alert).to_contain_text("Eggs")
        expect(alert).to_have_attribute("data-timer-id", eggs_id)
        # One write per change of the shown text: each value once, in order, nothing in between.
        writes = page.evaluate("window.__writes")
        assert writes[:3] == ["0:02", "0:01", "0:00"] and all(w.startswith("+") for w in writes[3:]), writes
    # A beeped (headless Chromium has no speaker, so count what was asked for); B did not.
    assert (a.evaluate("window.timerboard.alerts.beeps"), b.evaluate("window.timerboard.alerts.beeps")) == (1, 0)
    screenshot(b, "finished")

    # Restart from the keyboard: the alert goes on both pages; dismissing works too.
    press(b, "Restart Eggs")
    expect_status((a, b), "Eggs", "running", "Running")
    for page in (a, b):
        expect(page.locator("#timer-alerts .timer-alert")).to_have_count(0)
    expect_status((a, b), "Eggs", "finished", FINISHED)
    press(a, "Dismiss: “Eggs” is done")
    expect(a.locator("#timer-alerts .timer-alert")).to_have_count(0)
    expect(b.locator("#timer-alerts .timer-alert")).to_have_count(1)
    assert a.errors == [] and b.errors == []


def test_pause_reset_and_section_controls_from_the_keyboard(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob")
    add_section(a, "Kitchen")
    add_timer(a, "Kitchen", "Rice", 2, 0)
    add_timer(a, "Kitchen", "Bread", 1, 0)
    expect(timer(b, "Bread")).to_have_count(1)

    # Start, then pause with the same button (it keeps the focus and now says "Pause Bread").
    press(a, "Start Bread")
    expect_status((a, b), "Bread", "running", "Running")
    expect(a.get_by_role("button", name="Pause Bread", exact=True)).to_be_focused()
    a.keyboard.press("Space")
    expect_status((a, b), "Bread", "paused", "Paused")
    bread = server_timer(server, board, "Bread")
    assert bread["run"]["status"] == "paused" and 0 < bread["run"]["elapsed"] < 60_000
    paused_text = clock_text(60_000 - bread["run"]["elapsed"])
    for page in (a, b):
        expect(countdown(page, "Bread")).to_have_text(paused_text)
    expect(a.get_by_role("button", name="Resume Bread", exact=True)).to_be_focused()

    # A new length keeps the time counted (docs/protocol.md); B edits it, both pages follow.
    commit(timer(b, "Bread").locator(".timer-minutes"), "2")
    wait_synced(b)
    bread = server_timer(server, board, "Bread")
    assert bread["minutes"] == 2 and bread["run"]["status"] == "paused"
    for page in (a, b):
        expect(countdown(page, "Bread")).to_have_text(clock_text(120_000 - bread["run"]["elapsed"]))
        expect(timer(page, "Bread").locator(".timer-minutes")).to_have_value("2")

    # Reset: reachable by Tab from the toggle (past the title), pressed with Enter.
    a.get_by_role("button", name="Resume Bread", exact=True).focus()
    a.keyboard.press("Tab")
    expect(timer(a, "Bread").locator(".timer-title")).to_be_focused()
    a.keyboard.press("Tab")
    expect(a.get_by_role("button", name="Reset Bread", exact=True)).to_be_focused()
    a.keyboard.press("Enter")
    expect_status((a, b), "Bread", "idle", "Ready")
    assert server_timer(server, board, "Bread")["run"] == {"status": "idle", "elapsed": 0}
    for page in (a, b):
        expect(countdown(page, "Bread")).to_have_text("2:00")

    # Start all, then pause all, per section.
    press(a, "Start all timers in Kitchen")
    for title in ("Bread", "Rice"):
        expect_status((a, b), title, "running", "Running")
    expect(section(b, "Kitchen").locator(".section-run")).to_have_accessible_name("Pause all timers in Kitchen")
    snapshot = server.snapshot(board)
    assert {t["title"]: t["run"]["status"] for t in snapshot["timers"]} == {"Bread": "running", "Rice": "running"}
    for page in (a, b):
        expect_matches_server(page, server_timer(server, board, "Rice"))
    screenshot(a, "running")
    narrow = user("Cleo", viewport={"width": 390, "height": 844})
    expect_status([narrow], "Rice", "running", "Running")
    screenshot(narrow, "390")
    expect(a.get_by_role("button", name="Pause all timers in Kitchen", exact=True)).to_be_focused()
    a.keyboard.press("Enter")
    for title in ("Bread", "Rice"):
        expect_status((a, b), title, "paused", "Paused")
    assert {t["run"]["status"] for t in server.snapshot(board)["timers"]} == {"paused"}

    # A length already counted finishes the timer at once, with the alert.
    commit(timer(b, "Rice").locator(".timer-minutes"), "0")
    expect_status((a, b), "Rice", "finished", FINISHED)
    assert run_without_finished_at(server_timer(server, board, "Rice")["run"]) == {"status": "finished", "elapsed": 0}
    for page in (a, b):
        expect(page.locator("#timer-alerts .timer-alert")).to_contain_text("Rice")
    screenshot(narrow, "390-finished")
    assert a.errors == [] and b.errors == [] and narrow.errors == []


def test_a_page_with_a_skewed_clock_shows_the_same_time(user, user_with_script, server, board, screenshot):
    skew = 7_000
    a = user("Ada")
    b = user_with_script("Bob", clock_script(skew))
    # The skew is real: B's clock (the one clock.js reads) is 7 s ahead of the true one.
    b_ahead = b.evaluate("() => [Date.now() - __realNow(), performance.timeOrigin + performance.now() - __realNow()]")
    assert all(abs(ahead - skew) < 1_000 for ahead in b_ahead), b_ahead
    add_section(a, "Kitchen")
    add_timer(a, "Kitchen", "Tea", 0, 5)
    expect(timer(b, "Tea")).to_have_count(1)
    for page in (a, b):
        wait_clock_synced(page)
    # B measured that the server is 7 s behind it.
    offsets = [page.evaluate("window.timerboard.clock.offset") for page in (a, b)]
    assert abs((offsets[1] - offsets[0]) + skew) < 1_000, offsets

    # Every text each page shows, recorded in the page: a check from here, one page after the
    # other, could miss a second that passed while it looked at the other page.
    for page in (a, b):
        page.evaluate(RECORD_TEXTS, server_timer(server, board, "Tea")["id"])
    press(b, "Start Tea", key="Space")
    expect_status((a, b), "Tea", "running", "Running")
    tea = server_timer(server, board, "Tea")
    for page in (a, b):
        expect_matches_server(page, tea)
    screenshot(b, "skewed")
    expect_status((a, b), "Tea", "finished", FINISHED)
    for page in (a, b):
        expect(countdown(page, "Tea")).to_have_text(AT_ZERO_OR_OVER)
        # The same values on both, the skewed page too: 0:03, which each must reach, then 0:02.
        shown = page.evaluate("window.__shown")
        assert [text for text in shown if text in ("0:03", "0:02")] == ["0:03", "0:02"], shown
        expect(page.locator("#timer-alerts .timer-alert")).to_contain_text("Tea")
    assert a.errors == [] and b.errors == []
