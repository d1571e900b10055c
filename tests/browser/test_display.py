"""Issue 35 in Chromium: a board's display (/b/ID/display#role=SECRET) shows the current timer as
large as the screen allows, with its title and the next timer; an editor's message from the board
page's Screens control reaches it and survives a server restart; blackout blanks it; nothing
overflows the window in light or dark, on a TV, a laptop or a phone. Every wait is on a condition."""
import pytest
from playwright.sync_api import Page, expect

from conftest import add_section, add_timer, section, timer, wait_synced
from pixels import read_png

# Reconnect attempts back off (0.5 s, 1 s, 2 s, 4 s, ... jittered); a restart of the debug build
# on a busy machine can take a few of them (as in test_server_restart.py).
RECONNECT_TIMEOUT = 45_000
TV = {"width": 1920, "height": 1080}
TV_PORTRAIT = {"width": 1080, "height": 1920}
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def display(browser, server, board):
    """`display(role="view", viewport=TV, color_scheme="light", timer=None)` opens the board's display
    through that role's link in a context of its own and waits until it is live."""
    contexts = []

    def open_display(role="view", viewport=TV, color_scheme="light", timer_id=None):
        context = browser.new_context(viewport=viewport, color_scheme=color_scheme)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.not_found = []
        page.on("pageerror", lambda error: page.errors.append(error))
        page.on("response", lambda response: page.not_found.append(response.url) if response.status == 404 else None)
        path = f"/b/{board}/display" + (f"/{timer_id}" if timer_id else "")
        page.goto(f"{server.http}{path}#{role}={board.secrets[role]}")
        wait_display_live(page)
        return page

    yield open_display
    for context in contexts:
        context.close()


def wait_display_live(page: Page, timeout=10_000):
    expect(page.locator("#display-connection")).to_have_attribute("data-state", "live", timeout=timeout)


def open_screens(page: Page):
    dialog = page.locator("#screens-dialog")
    if not dialog.is_visible():
        page.locator(".screens-open").click()
    expect(dialog).to_be_visible()
    return dialog


def send_message(page: Page, text: str, flash=False):
    """Types a message into the Screens control and shows it, as an editor would."""
    dialog = open_screens(page)
    dialog.locator("[name=text]").fill(text)
    if flash:
        dialog.locator("[name=flash]").check()
    dialog.locator("form.screen-message button[type=submit]").click()
    wait_synced(page)
    return dialog


def start(page: Page, title: str):
    timer(page, title).locator(".timer-toggle").click()
    expect(timer(page, title)).to_have_attribute("data-status", "running")


def box(page: Page, selector: str):
    return page.locator(selector).bounding_box()


def assert_fits(page: Page, what: str):
    """Nothing is wider than the window; the display (a fixed screen) is no taller either."""
    size = page.evaluate("() => ({w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth,"
                         " sh: document.documentElement.scrollHeight})")
    assert size["sw"] <= size["w"], f"{what}: the page is {size['sw']} px wide in a {size['w']} px window"
    if page.locator("#display-page").is_visible():
        assert size["sh"] <= size["h"], f"{what}: the display is {size['sh']} px tall in a {size['h']} px window"
        for part in (".display-countdown", ".display-title", ".display-next"):
            if page.locator(part).is_visible():
                b = box(page, part)
                assert b["x"] >= 0 and b["x"] + b["width"] <= size["w"] + 0.5, f"{what}: {part} overflows: {b}"


def test_display_shows_the_running_timer_as_large_as_the_screen(user, display, server, board):
    editor = user("Ada")
    add_section(editor, "Talks")
    add_timer(editor, "Talks", "Keynote", 20, 0)
    add_timer(editor, "Talks", "Questions", 5, 0)
    # Nothing runs: the first idle timer is shown, the next one under it.
    tv = display()
    expect(tv.locator(".display-title")).to_have_text("Keynote")
    expect(tv.locator(".display-countdown")).to_have_text("20:00")
    expect(tv.locator(".display-next")).to_have_text("Next: Questions")

    start(editor, "Questions")
    expect(tv.locator(".display-title")).to_have_text("Questions")
    expect(tv.locator(".display-section")).to_have_text("Talks")
    expect(tv.locator("#display-page")).to_have_attribute("data-status", "running")
    expect(tv.locator(".display-countdown")).to_have_text("4:59")
    # Nothing idle after it: no "Next".
    expect(tv.locator(".display-next")).to_be_hidden()
    for viewport in (TV, TV_PORTRAIT):
        tv.set_viewport_size(viewport)
        digits = box(tv, ".display-countdown")
        # A person 6 m from a 55-inch screen reads digits 15% of its height.
        assert digits["height"] >= 0.15 * viewport["height"], f"digits {digits['height']} px high at {viewport}"
        assert_fits(tv, f"display at {viewport}")
    # Read only: no field, no button.
    assert tv.locator("#display-page :is(input, button, select, textarea)").count() == 0
    # One timer by its address, whatever runs.
    keynote = editor.evaluate("() => window.timerboard.state().sections[0].timers.find(t => t.title === 'Keynote').id")
    one = display(timer_id=keynote)
    expect(one.locator(".display-title")).to_have_text("Keynote")
    expect(one.locator(".display-countdown")).to_have_text("20:00")
    for viewport in (TV, TV_PORTRAIT):
        one.set_viewport_size(viewport)
        assert box(one, ".display-countdown")["height"] >= 0.15 * viewport["height"], f"20:00 at {viewport}"
        assert_fits(one, f"20:00 at {viewport}")
    assert tv.errors == [] and one.errors == [] and editor.errors == []


def test_a_timer_of_hours_reads_as_a_clock_does_and_fits_every_screen(user, display, board):
    """150 minutes typed into a timer read 2:30:00 on the board and the display (not 150:00), as
    large as fits a TV, a portrait screen and a phone."""
    editor = user("Ada")
    add_section(editor, "Day")
    add_timer(editor, "Day", "Workshop", 150, 0)
    expect(timer(editor, "Workshop").locator(".timer-countdown")).to_have_text("2:30:00")
    tv = display()
    expect(tv.locator(".display-countdown")).to_have_text("2:30:00")
    for viewport in (TV, TV_PORTRAIT, PHONE):
        tv.set_viewport_size(viewport)
        digits = box(tv, ".display-countdown")
        # As large as the screen allows: 15% of its height, or, on a narrow one, most of its width.
        assert digits["height"] >= 0.15 * viewport["height"] or digits["width"] >= 0.8 * viewport["width"], f"{digits} at {viewport}"
        assert_fits(tv, f"2:30:00 at {viewport}")
    assert tv.errors == [] and editor.errors == []


def test_a_message_from_the_screens_control_reaches_the_display_and_survives_a_restart(user, display, server, board):
    editor = user("Ada")
    add_section(editor, "Stage")
    add_timer(editor, "Stage", "Talk", 10, 0)
    tv = display()
    message = tv.locator(".display-message")
    expect(message).to_be_hidden()

    dialog = send_message(editor, "Wrap up", flash=True)
    expect(message).to_have_text("Wrap up")
    expect(message).to_have_attribute("data-flash", "true")
    expect(dialog.locator("#screen-message-now")).to_have_text("Showing, flashing: “Wrap up”")
    assert server.snapshot(board)["display"]["message"]["text"] == "Wrap up"

    # The server restarts: the display reconnects by itself and still shows the message.
    tv.evaluate("() => { window.__sameDocument = true }")
    server.stop()
    expect(tv.locator("#display-connection")).not_to_have_attribute("data-state", "live")
    server.start()
    wait_display_live(tv, timeout=RECONNECT_TIMEOUT)
    expect(message).to_have_text("Wrap up")
    assert tv.evaluate("() => window.__sameDocument === true"), "the display was reloaded"

    # One press clears it, on the display too.
    wait_display_live_editor(editor)
    dialog.locator(".screen-clear").click()
    expect(message).to_be_hidden()
    expect(dialog.locator("#screen-message-now")).to_have_text("No message on the screens.")
    assert tv.errors == [] and editor.errors == []


def wait_display_live_editor(page: Page):
    expect(page.locator("#connection")).to_have_attribute("data-state", "live", timeout=RECONNECT_TIMEOUT)


def test_blackout_blanks_every_display(user, display, server, board, tmp_path):
    editor = user("Ada")
    add_section(editor, "Stage")
    add_timer(editor, "Stage", "Talk", 10, 0)
    tv = display(color_scheme="light")
    send_message(editor, "Speak louder")
    expect(tv.locator(".display-message")).to_have_text("Speak louder")

    dialog = open_screens(editor)
    dialog.locator(".screen-blackout").click()
    expect(dialog.locator(".screen-blackout")).to_have_attribute("aria-pressed", "true")
    expect(tv.locator(".display-blackout")).to_be_visible()
    expect(editor.locator(".screens-open")).to_have_attribute("data-blackout", "true")
    # All black: every pixel of the screen, the message and the countdown included.
    shot = tmp_path / "blackout.png"
    tv.screenshot(path=str(shot))
    width, height, rows = read_png(shot)
    assert {rows[y][x] for y in range(0, height, 40) for x in range(0, width, 40)} == {(0, 0, 0)}

    dialog.locator(".screen-blackout").click()
    expect(tv.locator(".display-blackout")).to_be_hidden()
    expect(tv.locator(".display-countdown")).to_have_text("10:00")
    assert tv.errors == [] and editor.errors == []


def test_a_view_link_opens_the_display_and_has_no_screens_control(user, display, board):
    viewer = user("Vic", role="view")
    expect(viewer.locator(".screens-open")).to_be_hidden()
    tv = display(role="view")
    expect(tv.locator(".display-title")).to_have_text("No timers yet")
    # Share gives the viewer its link's display.
    viewer.locator(".share-open").click()
    expect(viewer.locator("#share-view-display")).to_have_value(f"{viewer.url.split('/b/')[0]}/b/{board}/display#view={board.view}")


def test_the_favicon_is_served_and_no_first_load_has_a_404(user, display, server):
    editor = user("Ada")
    tv = display()
    response = editor.request.get(f"{server.http}/favicon.svg")
    assert response.status == 200 and b"<svg" in response.body()
    # The browser asks for the icon index.html names; nothing the page or the display loads is missing.
    expect(editor.locator("link[rel=icon]")).to_have_attribute("href", "/favicon.svg")
    assert tv.not_found == [], tv.not_found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_fit_the_window(user, display, server, board, tmp_path, scheme):
    editor = user("Ada")
    add_section(editor, "Kitchen")
    add_timer(editor, "Kitchen", "Rice", 12, 0)
    add_timer(editor, "Kitchen", "Eggs with a rather long name for a small screen", 7, 30)
    start(editor, "Rice")
    send_message(editor, "Dinner at eight", flash=False)
    editor.keyboard.press("Escape")
    tv = display(color_scheme=scheme)
    expect(tv.locator(".display-message")).to_have_text("Dinner at eight")
    editor.emulate_media(color_scheme=scheme)
    for viewport in (TV, LAPTOP, PHONE):
        for page, what in ((tv, "display"), (editor, "board")):
            page.set_viewport_size(viewport)
            path = tmp_path / f"{what}-{viewport['width']}x{viewport['height']}-{scheme}.png"
            page.screenshot(path=str(path))
            assert path.stat().st_size > 0
            assert_fits(page, f"{what} at {viewport['width']}x{viewport['height']}, {scheme}")
    assert tv.errors == [] and editor.errors == []


def test_a_sequence_typed_in_order_runs_in_that_order_with_no_alarm_at_hand_overs(user, display, server, board):
    editor = user("Ada")
    add_section(editor, "Warm-up")
    add_section(editor, "Rounds")
    # Sections too stay in the order typed.
    expect(editor.locator("#sections > [data-kind=section] .section-title")).to_have_count(2)
    assert [s["title"] for s in sorted(server.snapshot(board)["sections"], key=lambda s: s["order"].encode())] == ["Warm-up", "Rounds"]
    for title in ("Round 1", "Round 2", "Round 3"):
        add_timer(editor, "Rounds", title, 0, 3)
    rows = section(editor, "Rounds").locator(".timers > [data-kind=timer] .timer-title")
    expect(rows).to_have_count(3)
    assert [rows.nth(i).input_value() for i in range(3)] == ["Round 1", "Round 2", "Round 3"]

    tv = display()
    section(editor, "Rounds").locator(".section-sequence").click()
    wait_synced(editor)
    editor.get_by_role("button", name="Start the sequence Rounds").click()
    for title, next_title in (("Round 1", "Next: Round 2"), ("Round 2", "Next: Round 3")):
        expect(timer(editor, title)).to_have_attribute("data-status", "running")
        expect(tv.locator(".display-title")).to_have_text(title)
        expect(tv.locator(".display-next")).to_have_text(next_title)
    # The hand-over from Round 1 was planned: no alarm.
    expect(timer(editor, "Round 1")).to_have_attribute("data-phase", "done")
    expect(editor.locator("#timer-alerts .timer-alert")).to_have_count(0)
    expect(timer(editor, "Round 3")).to_have_attribute("data-status", "running")
    expect(tv.locator(".display-title")).to_have_text("Round 3")
    # The end of the sequence is an alert: one, and it covers no control.
    alert = editor.locator("#timer-alerts .timer-alert")
    expect(alert).to_have_count(1)
    expect(alert).to_contain_text("Round 3")
    expect(tv.locator("#display-page")).to_have_attribute("data-phase", "over")
    a = alert.bounding_box()
    for control in editor.locator("#sections button:visible, #sections input:visible").all():
        b = control.bounding_box()
        overlap = a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]
        assert not overlap, f"the alert covers a control at {b}"
    assert editor.errors == [] and tv.errors == []


def test_share_gives_each_link_its_display_link_and_a_qr_code_drawn_in_the_browser(user, board):
    owner = user("Olga", role="owner")
    # Nothing leaves the page to draw a code: every request stays on the board's own server.
    origin = owner.url.split("/b/")[0]
    requests = []
    owner.on("request", lambda request: requests.append(request.url))
    owner.locator(".share-open").click()
    for role in ("owner", "edit", "view"):
        expect(owner.locator(f"#share-{role}-link")).to_have_value(f"{origin}/b/{board}#{role}={board.secrets[role]}")
        expect(owner.locator(f"#share-{role}-display")).to_have_value(f"{origin}/b/{board}/display#{role}={board.secrets[role]}")
    owner.locator("button.qr-field[data-qr=share-view-display]").click()
    qr = owner.locator("#share-qr")
    expect(qr).to_be_visible()
    expect(qr.locator("figcaption")).to_have_text("Can view: display")
    assert qr.locator("img").evaluate("img => img.src.startsWith('data:image/gif')")
    owner.wait_for_function("() => document.querySelector('#share-qr img').naturalWidth > 100")
    assert all(url.startswith(origin) or url.startswith("data:") for url in requests), requests
    assert owner.errors == []


def test_on_a_phone_the_top_bar_is_one_line_that_scrolls_away_and_every_target_is_44_px(user):
    editor = user("Ada", viewport=PHONE)
    add_section(editor, "Kitchen")
    add_timer(editor, "Kitchen", "Rice", 12, 0)
    start(editor, "Rice")
    bar = editor.locator("#board-page > .topbar")
    # One line: every item of the bar on one row (it scrolls sideways), less than two 44-px targets high.
    tops = bar.evaluate("""e => [e, e.querySelector('.topbar-tools')].flatMap(p => [...p.children])
        .filter(c => c.offsetParent !== null && !c.matches('.topbar-tools'))
        .map(c => { const r = c.getBoundingClientRect(); return r.top + r.height / 2 })""")
    assert max(tops) - min(tops) < 10, tops
    assert bar.bounding_box()["height"] < 88, bar.bounding_box()
    assert bar.evaluate("e => getComputedStyle(e).position") not in ("sticky", "fixed")
    # Scrolled down, the bar has left the screen with the page.
    editor.evaluate("() => { document.body.style.minHeight = '3000px'; window.scrollTo(0, 400) }")
    assert bar.bounding_box()["y"] + bar.bounding_box()["height"] <= 0
    small = editor.evaluate("""() => [...document.querySelectorAll('#board-page :is(button, input, select, a)')]
        .filter(e => e.offsetParent !== null && !e.closest('dialog, label'))
        .map(e => { const r = e.getBoundingClientRect(); return [e.className, Math.round(r.width), Math.round(r.height)] })
        .filter(([, w, h]) => w < 44 || h < 44)""")
    assert small == [], small
    assert_fits(editor, "board on a phone")


def test_the_owners_open_a_display_gives_the_wall_the_view_link(user, board):
    # QA: the owner's "Open a display" carried the owner's secret, so a wall TV opened from it kept
    # the owner's rights. A display needs only to see the board; an editor, who has no view link,
    # opens it with their own.
    owner = user("Olga", role="owner")
    link = open_screens(owner).locator("#screen-display-link")
    expect(link).to_have_attribute("href", f"{owner.url.split('/b/')[0]}/b/{board}/display#view={board.view}")
    with owner.expect_popup() as popup:
        link.click()
    wait_display_live(popup.value)
    expect(popup.value.locator(".display-title")).to_have_text("No timers yet")
    editor = user("Ed")
    expect(open_screens(editor).locator("#screen-display-link")).to_have_attribute(
        "href", f"{editor.url.split('/b/')[0]}/b/{board}/display#edit={board.edit}")
    assert owner.errors == [] and editor.errors == []


def test_clearing_the_message_from_the_keyboard_keeps_the_focus_in_the_dialog(user):
    # QA: "Clear the message" disables itself once the message is gone, and the focus fell to
    # <body>: the next Tab started again at the top of the page, behind the dialog.
    editor = user("Ada")
    dialog = send_message(editor, "Wrap up")
    clear = dialog.locator(".screen-clear")
    expect(clear).to_be_enabled()
    clear.focus()
    editor.keyboard.press("Enter")
    expect(dialog.locator("#screen-message-now")).to_have_text("No message on the screens.")
    expect(clear).to_be_disabled()
    # The next message is typed where the focus went.
    expect(dialog.locator("[name=text]")).to_be_focused()
    assert editor.errors == []
