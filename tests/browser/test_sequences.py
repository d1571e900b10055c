"""Issue 18 in Chromium: a section runs as a sequence from its header, on two pages. Each hand-over
(the server's, at the previous timer's deadline) starts the next timer on both pages; the header
says where the sequence is ("2 of 3"), the timers it moved past read "Done", the last one counts
overtime; Skip, Restart and Loop work from the header. Every wait is on a condition."""
import re

from playwright.sync_api import Page, expect

from conftest import add_section, add_timer, section, timer, wait_synced


def server_timers(server, board):
    return {t["title"]: t for t in server.snapshot(board)["timers"]}


def progress(page: Page, title: str):
    return section(page, title).locator(".section-progress")


def expect_running(pages, title: str):
    for page in pages:
        expect(timer(page, title)).to_have_attribute("data-status", "running")


def test_a_sequence_runs_one_timer_after_another_on_two_pages(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob")
    add_section(a, "Rounds")
    # In the order typed: display order is Work, Rest, Cool.
    # Long enough that each state is seen on both pages on a busy machine.
    add_timer(a, "Rounds", "Work", 0, 3)
    add_timer(a, "Rounds", "Rest", 0, 3)
    add_timer(a, "Rounds", "Cool", 0, 2)

    # An ordinary section shows no sequence controls; the toggle turns it into a sequence for everyone.
    for page in (a, b):
        expect(section(page, "Rounds").locator(".section-skip")).to_be_hidden()
        expect(section(page, "Rounds").locator(".section-run-label")).to_have_text("Start all")
    section(a, "Rounds").locator(".section-sequence").click()
    wait_synced(a)
    assert server.snapshot(board)["sections"][0].get("sequence") is True
    for page in (a, b):
        expect(section(page, "Rounds")).to_have_attribute("data-sequence", "true")
        expect(section(page, "Rounds").locator(".section-sequence")).to_have_attribute("aria-pressed", "true")
        expect(section(page, "Rounds").locator(".section-run-label")).to_have_text("Start")
        expect(progress(page, "Rounds")).to_have_text("3 timers, ready")

    # B starts the sequence: only the first timer runs.
    b.get_by_role("button", name="Start the sequence Rounds").click()
    expect_running((a, b), "Work")
    # The server hands over to Rest at Work's deadline: both pages show it, and where the sequence is.
    expect_running((a, b), "Rest")
    for page in (a, b):
        expect(progress(page, "Rounds")).to_have_text("2 of 3")
        expect(timer(page, "Work")).to_have_attribute("data-phase", "done")
        expect(timer(page, "Work").locator(".timer-status")).to_have_text("Done")
        expect(timer(page, "Work").locator(".timer-countdown")).to_have_text("0:00")
    screenshot(b, "second")
    expect_running((a, b), "Cool")
    for page in (a, b):
        expect(progress(page, "Rounds")).to_have_text("3 of 3")
    # The end: the last one counts overtime, the others read Done.
    for page in (a, b):
        expect(timer(page, "Cool")).to_have_attribute("data-status", "finished")
        expect(progress(page, "Rounds")).to_have_text("3 of 3, done")
        expect(timer(page, "Cool").locator(".timer-countdown")).to_have_text(re.compile(r"^\+0:0[1-9]$"))
        expect(timer(page, "Cool")).to_have_attribute("data-phase", "over")
        for title in ("Work", "Rest"):
            expect(timer(page, title)).to_have_attribute("data-phase", "done")
    timers = server_timers(server, board)
    # No gap: each started at the instant the one before it ended.
    assert timers["Rest"]["run"]["finishedAt"] == timers["Cool"]["run"]["finishedAt"] - 2_000
    assert timers["Work"]["run"]["finishedAt"] == timers["Rest"]["run"]["finishedAt"] - 3_000
    screenshot(a, "ended")
    assert a.errors == [] and b.errors == []


def test_skip_restart_and_loop_from_the_header(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob")
    add_section(a, "Talks")
    add_timer(a, "Talks", "First", 5, 0)
    add_timer(a, "Talks", "Second", 5, 0)
    add_timer(a, "Talks", "Third", 5, 0)
    section(a, "Talks").locator(".section-sequence").click()
    for page in (a, b):
        expect(section(page, "Talks")).to_have_attribute("data-sequence", "true")
        # Nothing current: nothing to skip.
        expect(section(page, "Talks").locator(".section-skip")).to_have_attribute("aria-disabled", "true")
    a.get_by_role("button", name="Start the sequence Talks").click()
    expect_running((a, b), "First")
    expect(section(b, "Talks").locator(".section-skip")).to_have_attribute("aria-disabled", "false")

    # Skip (from B): First is done now, Second runs; both pages agree.
    b.get_by_role("button", name="Skip Talks").click()
    expect_running((a, b), "Second")
    for page in (a, b):
        expect(timer(page, "First")).to_have_attribute("data-phase", "done")
        expect(progress(page, "Talks")).to_have_text("2 of 3")
    timers = server_timers(server, board)
    assert timers["First"]["run"]["finishedAt"] == timers["Second"]["run"]["startedAt"]

    # Pause the sequence, then start it again: the paused timer resumes.
    a.get_by_role("button", name="Pause the sequence Talks").click()
    for page in (a, b):
        expect(timer(page, "Second")).to_have_attribute("data-status", "paused")
        expect(progress(page, "Talks")).to_have_text("2 of 3, paused")
    a.get_by_role("button", name="Start the sequence Talks").click()
    expect_running((a, b), "Second")

    # Restart: every timer back, the first runs.
    b.get_by_role("button", name="Restart Talks").click()
    expect_running((a, b), "First")
    for page in (a, b):
        for title in ("Second", "Third"):
            expect(timer(page, title)).to_have_attribute("data-status", "idle")
        expect(progress(page, "Talks")).to_have_text("1 of 3")

    # Loop is shared too.
    section(b, "Talks").locator(".section-loop").click()
    wait_synced(b)
    assert server.snapshot(board)["sections"][0].get("loop") is True
    expect(section(a, "Talks").locator(".section-loop")).to_have_attribute("aria-pressed", "true")
    screenshot(a, "loop")
    assert a.errors == [] and b.errors == []
