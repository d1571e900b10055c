"""Undo and redo in the page (issue 32): a user renames, deletes, resets a running timer, pauses
and adjusts, and undoes each with Ctrl+Z, the Undo button or the Undo of a delete's toast; Ctrl+Shift+Z
redoes. A reset running timer undone runs on from its own start, as the server's run says. The
History panel names who did what in the board's time zone, puts back what someone else deleted,
and downloads the report."""
import re
from datetime import datetime, timezone

from playwright.sync_api import expect

from conftest import DESKTOP, add_section, add_timer, commit, converged, timer, toast, wait_live, wait_synced


def blur(page):
    """Leaves any text field, as a click on the page's heading does: Ctrl+Z is then the page's."""
    page.locator("#board-title").click()


def server_run(server, board, title):
    return next(t for t in server.snapshot(board)["timers"] if t["title"] == title)["run"]


def page_run(page, title):
    return page.evaluate("""title => window.timerboard.state().sections.flatMap(s => s.timers).find(t => t.title === title).run""", title)


def titles(server, board, page):
    """The section's timers as the page and the server agree on them, in any order (where new
    timers go is not this test's business)."""
    return sorted(tuple(t) for t in converged(server, board, page)[0][2])


def test_each_edit_is_undone_by_ctrl_z_and_the_buttons_and_redone_by_ctrl_shift_z(user, server, board):
    ada = user("Ada")
    add_section(ada, "Stage")
    add_timer(ada, "Stage", "Q&A", 5, 0)
    add_timer(ada, "Stage", "Keynote", 10, 0)

    # A rename: Ctrl+Z in the field is the browser's own; outside it, the page's.
    commit(timer(ada, "Keynote").locator(".timer-title"), "Opening")
    wait_synced(ada)
    blur(ada)
    ada.keyboard.press("Control+z")
    expect(toast(ada, "Rename of Keynote undone")).to_be_visible()
    assert titles(server, board, ada) == [("Keynote", 10, 0), ("Q&A", 5, 0)]
    ada.keyboard.press("Control+Shift+Z")
    expect(toast(ada, "Rename of Keynote redone")).to_be_visible()
    assert titles(server, board, ada) == [("Opening", 10, 0), ("Q&A", 5, 0)]
    ada.locator(".undo-button").click()
    expect(toast(ada, "Rename of Keynote undone").last).to_be_visible()
    assert titles(server, board, ada) == [("Keynote", 10, 0), ("Q&A", 5, 0)]

    # A delete: its toast offers Undo at once.
    timer(ada, "Q&A").get_by_role("button", name="Delete timer").click()
    assert titles(server, board, ada) == [("Keynote", 10, 0)]
    ada.locator("#toasts .toast-undo").click()
    expect(toast(ada, "Delete of Q&A undone")).to_be_visible()
    assert titles(server, board, ada) == [("Keynote", 10, 0), ("Q&A", 5, 0)]

    # A running timer: pause, +1 min and reset, each undone back to the very run it had.
    timer(ada, "Keynote").get_by_role("button", name="Start Keynote").click()
    wait_synced(ada)
    started = server_run(server, board, "Keynote")
    assert started["status"] == "running"
    for press, undone in [(lambda: timer(ada, "Keynote").get_by_role("button", name="Pause Keynote").click(), "Pause of Keynote undone"),
                          (lambda: timer(ada, "Keynote").get_by_role("button", name="+1 min Keynote").click(), "+1 min on Keynote undone"),
                          (lambda: timer(ada, "Keynote").get_by_role("button", name="Reset Keynote").click(), "Reset of Keynote undone")]:
        press()
        wait_synced(ada)
        assert server_run(server, board, "Keynote") != started
        blur(ada)
        ada.keyboard.press("Control+z")
        expect(toast(ada, undone)).to_be_visible()
        converged(server, board, ada)
        # As if it had never happened: the same start, the same time counted, as the server has it.
        assert server_run(server, board, "Keynote") == started
        assert page_run(ada, "Keynote") == started
        expect(timer(ada, "Keynote")).to_have_attribute("data-status", "running")
    assert ada.errors == []


def test_history_names_who_did_what_puts_back_another_persons_delete_and_downloads_the_report(user, server, board):
    ada, bob = user("Ada"), user("Bob")
    add_section(ada, "Stage")
    add_timer(ada, "Stage", "Keynote", 10, 0)
    timer(ada, "Keynote").get_by_role("button", name="Delete timer").click()
    converged(server, board, ada, bob)

    bob.locator(".history-open").click()
    entries = bob.locator("#history-list .history-entry")
    status, history = server.request("GET", f"/api/boards/{board}/history", secret=board.view)
    assert status == 200
    deleted = history["entries"][0]
    # The board's zone is UTC until its owner sets another.
    at = datetime.fromtimestamp(deleted["time"] / 1000, timezone.utc).strftime("%H:%M:%S")
    expect(entries.first.locator(".history-text")).to_have_text(f"Ada deleted Keynote at {at}")
    expect(entries.filter(has_text="Ada added Stage")).to_have_count(1)

    # Bob cannot undo Ada's edit, but can put back what she deleted: with its id.
    entries.first.locator(".history-restore").click()
    assert converged(server, board, ada, bob) == [["Stage", True, [["Keynote", 10, 0]]]]
    assert [t["id"] for t in server.snapshot(board)["timers"]] == [deleted["changes"][0]["id"]]

    with bob.expect_download() as download:
        bob.locator(".history-report").click()
    report = open(download.value.path(), encoding="utf-8").read()
    assert report.splitlines()[0].startswith("timer,section,planned_seconds")
    assert bob.errors == [] and ada.errors == []


def test_history_names_a_deleted_timer_by_its_title_and_starts_with_the_boards_creation_in_its_zone(browser, server):
    # A board made on the start page by a screen in Berlin: the page sets the board's zone over
    # HTTP right after creating it.
    context = browser.new_context(viewport=DESKTOP, timezone_id="Europe/Berlin")
    context.add_init_script("localStorage.setItem('timerboard.name', 'Ada')")
    ada = context.new_page()
    ada.errors = []
    ada.on("pageerror", lambda error: ada.errors.append(error))
    ada.goto(server.http + "/")
    ada.locator("form.new-board [name=title]").fill("Workshop")
    ada.locator("form.new-board button[type=submit]").click()
    ada.wait_for_url("**/b/**")
    wait_live(ada)
    add_section(ada, "Morning")
    add_timer(ada, "Morning", "Warmup", 0, 1)
    timer(ada, "Warmup").get_by_role("button", name="Start Warmup").click()
    expect(timer(ada, "Warmup")).to_have_attribute("data-status", "finished")
    timer(ada, "Warmup").get_by_role("button", name="Delete timer").click()
    expect(timer(ada, "Warmup")).to_have_count(0)
    wait_synced(ada)

    ada.locator(".history-open").click()
    at = r" at \d\d:\d\d:\d\d$"
    # Newest first; the timer is gone, and each line still names it.
    expect(ada.locator("#history-list .history-entry .history-text")).to_have_text([re.compile("^" + line + at) for line in [
        "Ada deleted Warmup", "TimerBoard finished Warmup", "Ada started Warmup", "Ada added Warmup", "Ada added Morning",
        "Board created in the time zone Europe/Berlin",
    ]])
    assert ada.errors == []
    context.close()


def test_an_undo_of_what_someone_else_changed_since_says_nothing_was_undone_and_offers_no_redo(user, server, board):
    ada, bob = user("Ada"), user("Bob")
    add_section(ada, "Stage")
    add_timer(ada, "Stage", "Keynote", 10, 0)
    commit(timer(ada, "Keynote").locator(".timer-title"), "Opening")
    converged(server, board, ada, bob)
    commit(timer(bob, "Opening").locator(".timer-title"), "Welcome")
    converged(server, board, ada, bob)
    blur(ada)
    ada.keyboard.press("Control+z")
    expect(toast(ada, "Rename of Keynote could not be undone: someone else changed it since.")).to_be_visible()
    # The server changed nothing, so it has nothing to redo: the page offers no Redo.
    expect(ada.locator(".redo-button")).to_have_attribute("aria-disabled", "true")
    # Bob's later title stays.
    assert converged(server, board, ada, bob) == [["Stage", True, [["Welcome", 10, 0]]]]

    # A timer Ada added and Bob has started since stays, running.
    add_timer(ada, "Stage", "Pasta", 9, 0)
    converged(server, board, ada, bob)
    timer(bob, "Pasta").get_by_role("button", name="Start Pasta").click()
    converged(server, board, ada, bob)
    blur(ada)
    ada.keyboard.press("Control+z")
    expect(toast(ada, "Adding Pasta could not be undone: someone else changed it since.")).to_be_visible()
    expect(ada.locator(".redo-button")).to_have_attribute("aria-disabled", "true")
    ada.keyboard.press("Control+Shift+z")
    expect(toast(ada, "Nothing to redo.")).to_be_visible()
    expect(timer(ada, "Pasta")).to_have_attribute("data-status", "running")
    assert ada.errors == [] and bob.errors == []
