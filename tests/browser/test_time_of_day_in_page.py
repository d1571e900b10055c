"""Time of day in the page (issue 30): a new board takes its maker's zone; the owner sets another;
a start picked in the Times dialog starts the timer at that instant on another page, whose screen
is in another zone and shows the same wall-clock times; kinds are picked and drawn; three timers
of different lengths finish together at a picked time."""
import re
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from conftest import DESKTOP, add_section, add_timer, board_path, converged, section, timer, toast, wait_live, wait_synced

ZONE = "Asia/Tokyo"


def open_in_zone(browser, server, board, name, zone, role="edit"):
    """A user whose screen is in `zone` (Playwright's timezone_id), on the board through `role`."""
    context = browser.new_context(viewport=DESKTOP, timezone_id=zone)
    context.add_init_script(f"localStorage.setItem('timerboard.name', {name!r})")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(error))
    page.goto(server.http + board_path(board, role))
    wait_live(page)
    return page


def wall(ms, zone, seconds=True):
    return datetime.fromtimestamp(ms / 1000, ZoneInfo(zone)).strftime("%H:%M:%S" if seconds else "%H:%M")


def picker_value(ms, zone):
    """What a user picks in a datetime-local input for instant `ms` on the board's clock."""
    return datetime.fromtimestamp(ms / 1000, ZoneInfo(zone)).strftime("%Y-%m-%dT%H:%M:%S")


def page_timer(page, title):
    return page.evaluate("""title => window.timerboard.state().sections.flatMap(s => s.timers).find(t => t.title === title)""", title)


def set_zone(owner, zone):
    owner.locator(".owner-open").click()
    field = owner.locator("form.time-zone-form [name=timeZone]")
    field.fill(zone)
    owner.locator("form.time-zone-form button[type=submit]").click()
    owner.locator("#owner-dialog .dialog-close").click()
    wait_synced(owner)


def open_times(page, section_title):
    section(page, section_title).locator(".section-time").click()
    expect(page.locator("#time-dialog")).to_be_visible()


def test_a_new_board_takes_the_zone_of_the_screen_that_made_it(browser, server):
    context = browser.new_context(viewport=DESKTOP, timezone_id="Europe/Paris")
    page = context.new_page()
    page.goto(server.http + "/")
    page.locator("form.new-board [name=title]").fill("Paris show")
    page.locator("form.new-board button[type=submit]").click()
    page.wait_for_url("**/b/**")
    wait_live(page)
    board_id = page.evaluate("window.timerboard.state().board")
    status, snapshot = server.request("GET", f"/api/boards/{board_id}", secret=page.evaluate("location.hash.split('=')[1]"))
    assert status == 200 and snapshot["display"]["timeZone"] == "Europe/Paris"
    context.close()


def test_a_picked_start_starts_the_timer_at_that_instant_on_a_screen_in_another_zone(browser, server, board):
    owner = open_in_zone(browser, server, board, "Ada", "Europe/London", role="owner")
    viewer = open_in_zone(browser, server, board, "Bob", "America/New_York", role="view")
    set_zone(owner, ZONE)
    add_section(owner, "Stage")
    add_timer(owner, "Stage", "Doors", 0, 30)

    # A start an hour away: both screens say it on the board's clock, whatever their own.
    later = (int(time.time()) // 60 + 61) * 60_000
    open_times(owner, "Stage")
    expect(owner.locator("#time-dialog .time-zone-name")).to_have_text(ZONE)
    owner.locator("#time-start").fill(picker_value(later, ZONE))
    owner.locator("form.timer-time-form button[type=submit]").click()
    wait_synced(owner)
    assert server.snapshot(board)["timers"][0]["startAt"] == later
    for page in (owner, viewer):
        expect(timer(page, "Doors").locator(".timer-status")).to_contain_text(f"starts at {wall(later, ZONE, seconds=False)}, in ")

    # Another pick, a few seconds away: the timer starts at that very instant.
    soon = (int(time.time()) + 10) * 1000
    owner.locator("#time-start").fill(picker_value(soon, ZONE))
    owner.locator("form.timer-time-form button[type=submit]").click()
    viewer.wait_for_function("""() => window.timerboard.state().sections[0].timers[0].run.status === 'running'""", timeout=20_000)
    assert page_timer(viewer, "Doors")["run"]["startedAt"] == soon
    assert server.snapshot(board)["timers"][0]["run"]["startedAt"] == soon
    assert owner.errors == [] and viewer.errors == []


def test_no_scheduled_start_clears_the_start(browser, server, board):
    owner = open_in_zone(browser, server, board, "Ada", "UTC", role="owner")
    add_section(owner, "Stage")
    add_timer(owner, "Stage", "Doors", 0, 30)
    open_times(owner, "Stage")
    owner.locator("#time-start").fill(picker_value((int(time.time()) + 3600) * 1000, "UTC"))
    owner.locator("form.timer-time-form button[type=submit]").click()
    wait_synced(owner)
    assert server.snapshot(board)["timers"][0].get("startAt") is not None
    owner.locator(".start-clear").click()
    wait_synced(owner)
    assert server.snapshot(board)["timers"][0].get("startAt") is None
    expect(timer(owner, "Doors").locator(".timer-status")).to_have_text("Ready")


def test_kinds_are_picked_and_drawn_on_the_boards_clock(browser, server, board):
    owner = open_in_zone(browser, server, board, "Ada", "UTC", role="owner")
    viewer = open_in_zone(browser, server, board, "Bob", "America/Los_Angeles", role="view")
    set_zone(owner, ZONE)
    add_section(owner, "Stage")
    add_timer(owner, "Stage", "Lap", 1, 0)
    add_timer(owner, "Stage", "Wall", 0, 0)
    add_timer(owner, "Stage", "Doors", 0, 0)

    open_times(owner, "Stage")
    picks = {"Lap": ("countUp", None), "Wall": ("clock", None), "Doors": ("toTime", (int(time.time()) + 7200) * 1000)}
    for title, (kind, target) in picks.items():
        owner.locator("#time-timer").select_option(label=title)
        owner.locator("#time-kind").select_option(kind)
        if target:
            owner.locator("#time-target").fill(picker_value(target, ZONE))
        owner.locator("form.timer-time-form button[type=submit]").click()
        wait_synced(owner)
    timers = {t["title"]: t for t in server.snapshot(board)["timers"]}
    assert {title: timers[title].get("kind") for title in picks} == {"Lap": "countUp", "Wall": "clock", "Doors": "toTime"}
    assert timers["Doors"]["targetAt"] == picks["Doors"][1]

    owner.locator("#time-dialog .dialog-close").click()
    # A clock shows the board's time of day, the same on a screen in another zone.
    owner_clock = timer(owner, "Wall").locator(".timer-countdown")
    expect(owner_clock).to_have_text(re.compile(r"^\d\d:\d\d:\d\d$"))
    hour = datetime.now(ZoneInfo(ZONE)).strftime("%H")
    expect(timer(viewer, "Wall").locator(".timer-countdown")).to_contain_text(hour + ":")
    # Counting to a time two hours away reads about two hours, as a clock does (h:mm:ss, not
    # "119:59"), not the timer's 0:00 length.
    expect(timer(viewer, "Doors").locator(".timer-countdown")).to_have_text(re.compile(r"^(1:59|2:00):\d\d$"))
    # A stopwatch starts from 0:00 and counts up, not down from its minute.
    timer(owner, "Lap").locator(".timer-toggle").click()
    expect(timer(viewer, "Lap")).to_have_attribute("data-status", "running")
    expect(timer(viewer, "Lap").locator(".timer-countdown")).to_have_text(re.compile(r"^0:0\d$"))
    assert owner.errors == [] and viewer.errors == []


def test_three_timers_of_different_lengths_finish_together_at_the_picked_time(browser, server, board):
    owner = open_in_zone(browser, server, board, "Ada", "Europe/Berlin", role="owner")
    add_section(owner, "Breakfast")
    for title, seconds in [("Eggs", 3), ("Toast", 2), ("Coffee", 1)]:
        add_timer(owner, "Breakfast", title, 0, seconds)
    finish = (int(time.time()) + 15) * 1000
    open_times(owner, "Breakfast")
    owner.locator("#finish-at").fill(picker_value(finish, "UTC"))
    owner.locator("form.finish-form button[type=submit]").click()
    wait_synced(owner)
    assert server.snapshot(board)["sections"][0]["finishAt"] == finish
    owner.wait_for_function("""() => window.timerboard.state().sections[0].timers.every(t => t.run.status === 'finished')""", timeout=20_000)
    runs = [t["run"] for t in server.snapshot(board)["timers"]]
    assert [run["finishedAt"] for run in runs] == [finish] * 3
    assert owner.errors == []


def test_a_sequence_says_it_runs_behind_its_plan_by_the_minute_added(user, server, board):
    ada = user("Ada")
    add_section(ada, "Show")
    add_timer(ada, "Show", "Talk", 1, 0)
    add_timer(ada, "Show", "Intro", 0, 1)
    section(ada, "Show").locator(".section-sequence").click()
    section(ada, "Show").locator(".section-run").click()
    # The intro hands over to the talk on time: the show is on plan.
    expect(timer(ada, "Talk")).to_have_attribute("data-status", "running", timeout=15_000)
    times = section(ada, "Show").locator(".section-times")
    expect(times).to_contain_text("on time")
    timer(ada, "Talk").get_by_role("button", name="+1 min Talk").click()
    wait_synced(ada)
    expect(times).to_contain_text("1:00 behind")
    assert ada.errors == []


def test_the_times_dialog_follows_timers_another_editor_deletes_or_renames(browser, server, board):
    # QA: with the dialog open on Rice, another editor deleted Rice: the dialog still offered it and
    # Save did nothing, silently.
    ada = open_in_zone(browser, server, board, "Ada", "UTC")
    bob = open_in_zone(browser, server, board, "Bob", "UTC")
    add_section(ada, "Prep")
    add_timer(ada, "Prep", "Eggs", 5, 0)
    add_timer(ada, "Prep", "Rice", 10, 0)
    open_times(ada, "Prep")
    options = ada.locator("#time-timer option")
    expect(options).to_have_text(["Eggs", "Rice"])
    ada.locator("#time-timer").select_option(label="Rice")
    ada.locator("#time-kind").select_option("countUp")
    timer(bob, "Rice").locator(".timer-delete").click()
    timer(bob, "Eggs").locator(".timer-title").fill("Boiled eggs")
    timer(bob, "Eggs").locator(".timer-title").press("Enter")
    wait_synced(bob)
    # The list is the board's now, and the dialog says what became of the timer Ada had chosen.
    expect(options).to_have_text(["Boiled eggs"])
    expect(ada.locator("#time-status")).to_have_text("“Rice” was deleted by someone else.")
    # What the form shows is the timer it names now; Save changes only that one.
    expect(ada.locator("#time-kind")).to_have_value("countdown")
    ada.locator("#time-kind").select_option("countUp")
    ada.locator("form.timer-time-form button[type=submit]").click()
    wait_synced(ada)
    assert [t.get("kind") for t in server.snapshot(board)["timers"]] == ["countUp"]
    # The section itself goes (a second press confirms): the dialog closes and says why.
    section(bob, "Prep").locator(".section-delete").click()
    section(bob, "Prep").locator(".section-delete").click()
    expect(ada.locator("#time-dialog")).to_have_js_property("open", False)
    expect(toast(ada, "The section whose times you were setting was deleted by someone else.")).to_be_visible()
    assert ada.errors == [] and bob.errors == []
