"""Issue 35: the board page's run keys. With no field or button focused, the arrows select a timer,
Space starts or pauses it, + and − add or take a minute, N skips to a sequence's next timer."""
import re

from playwright.sync_api import expect

from conftest import add_section, add_timer, section, timer, wait_synced


def sequence_of(a, name, timers):
    """Adds section `name` with `timers` ((title, seconds), ...), makes it a sequence, and clicks
    away from any field or button so the keys are the board's. Returns the keyboard."""
    add_section(a, name)
    for title, seconds in timers:
        add_timer(a, name, title, seconds // 60, seconds % 60)
    section(a, name).locator(".section-sequence").click()
    wait_synced(a)
    a.locator("#board-title").click()
    return a.keyboard


def test_run_keys_select_start_adjust_and_skip(user, server, board):
    a = user("Ada")
    keys = sequence_of(a, "Rounds", (("Round 1", 300), ("Round 2", 300)))

    keys.press("ArrowDown")
    expect(timer(a, "Round 1")).to_have_attribute("data-selected", "true")
    keys.press(" ")
    expect(timer(a, "Round 1")).to_have_attribute("data-status", "running")
    countdown = timer(a, "Round 1").locator(".timer-countdown")
    keys.press("+")
    expect(countdown).to_have_text(re.compile(r"^5:5\d$"))
    keys.press("-")
    expect(countdown).to_have_text(re.compile(r"^4:5\d$"))
    keys.press("ArrowDown")
    expect(timer(a, "Round 2")).to_have_attribute("data-selected", "true")
    expect(timer(a, "Round 1")).not_to_have_attribute("data-selected", "true")
    # N: the sequence goes on to its next timer.
    keys.press("n")
    expect(timer(a, "Round 2")).to_have_attribute("data-status", "running")
    expect(timer(a, "Round 1")).to_have_attribute("data-status", "finished")
    keys.press(" ")
    expect(timer(a, "Round 2")).to_have_attribute("data-status", "paused")
    wait_synced(a)
    # Typing in a field is typing: a space there starts nothing.
    timer(a, "Round 1").locator(".timer-title").focus()
    keys.press(" ")
    expect(timer(a, "Round 2")).to_have_attribute("data-status", "paused")
    assert a.errors == []


def test_run_mode_shows_large_countdowns_and_hides_what_edits_until_edit_mode(user, board):
    a = user("Ada")
    add_section(a, "Show")
    add_timer(a, "Show", "Opening", 5, 0)
    row = timer(a, "Opening")
    expect(row.locator(".timer-minutes")).to_be_visible()
    edit_size = row.locator(".timer-countdown").bounding_box()["height"]
    mode = a.locator(".mode-toggle")
    mode.click()
    expect(mode).to_have_attribute("aria-pressed", "true")
    for hidden in (".timer-minutes", ".timer-warnAt", ".timer-delete", "form.add-timer"):
        expect(a.locator(f"[data-kind=section] {hidden}").first).to_be_hidden()
    expect(a.locator("form.add-section")).to_be_hidden()
    expect(row.locator(".timer-toggle")).to_be_visible()
    assert row.locator(".timer-countdown").bounding_box()["height"] > edit_size
    # This device remembers it.
    a.reload()
    expect(a.locator(".mode-toggle")).to_have_attribute("aria-pressed", "true")
    expect(timer(a, "Opening").locator(".timer-minutes")).to_be_hidden()
    a.locator(".mode-toggle").click()
    expect(timer(a, "Opening").locator(".timer-minutes")).to_be_visible()
    assert a.errors == []


def test_the_selection_follows_a_sequence_that_moves_on(user, board):
    # QA: after N (or Skip, or a hand-over) the selection stayed on the timer that had run, so the
    # next Space, meant as "pause", started that one again and two timers of the sequence ran.
    a = user("Ada")
    keys = sequence_of(a, "Talks", (("Talk 1", 300), ("Talk 2", 300), ("Talk 3", 1), ("Talk 4", 300)))
    keys.press("ArrowDown")
    keys.press(" ")
    expect(timer(a, "Talk 1")).to_have_attribute("data-status", "running")
    # N moves the sequence on: the selection goes with it, so Space pauses the timer now running.
    keys.press("n")
    expect(timer(a, "Talk 2")).to_have_attribute("data-selected", "true")
    expect(timer(a, "Talk 1")).not_to_have_attribute("data-selected", "true")
    keys.press(" ")
    expect(timer(a, "Talk 2")).to_have_attribute("data-status", "paused")
    expect(timer(a, "Talk 1")).to_have_attribute("data-status", "finished")
    # A paused timer stays selected; Space runs it again.
    keys.press(" ")
    expect(timer(a, "Talk 2")).to_have_attribute("data-status", "running")
    # The header's Skip, then the server's hand-over when Talk 3's second is up: the selection follows both.
    section(a, "Talks").locator(".section-skip").click()
    a.locator("#board-title").click()
    expect(timer(a, "Talk 4")).to_have_attribute("data-status", "running")
    expect(timer(a, "Talk 4")).to_have_attribute("data-selected", "true")
    keys.press(" ")
    expect(timer(a, "Talk 4")).to_have_attribute("data-status", "paused")
    for title in ("Talk 1", "Talk 2", "Talk 3"):
        expect(timer(a, title)).to_have_attribute("data-status", "finished")
    wait_synced(a)
    assert a.errors == []
