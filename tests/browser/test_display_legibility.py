"""A display read from across a room, by anyone: its message banner keeps text contrast of at
least 4.5:1 in light and dark, flashing or not, and a flash still shows without motion; titles in
right-to-left and mixed scripts keep their order and are cut at their end; the offline notice is
large enough to read and covers neither the countdown nor the Next line. Boards are set up
through the REST edits endpoint; every wait is on a condition."""
import pytest
from playwright.sync_api import Page, expect

from test_display_faces import SECTION, TV, display, edit, timer_op  # noqa: F401 (display is a fixture)

PHONE = {"width": 390, "height": 844}

# WCAG's contrast ratio of an element's text on its own background, as the page computes them.
CONTRAST = """element => {
  const channels = text => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map(c => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const style = getComputedStyle(element);
  const [a, b] = [luminance(channels(style.color)), luminance(channels(style.backgroundColor))].sort((x, y) => y - x);
  return {ratio: (a + 0.05) / (b + 0.05), color: style.color, background: style.backgroundColor};
}"""


def contrast_at(page: Page, selector: str, ms=None):
    """The contrast of `selector` now, or with its animation held at `ms`."""
    if ms is not None:
        page.locator(selector).evaluate("(element, ms) => element.getAnimations().forEach(a => { a.pause(); a.currentTime = ms; })", ms)
    return page.locator(selector).evaluate(CONTRAST)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_message_banner_reads_at_4_5_to_1_flashing_or_not(server, board, display, scheme):
    edit(server, board, SECTION, timer_op("talk", "Talk", 5), {"op": "showMessage", "text": "Wrap up", "flash": False})
    page = display(color_scheme=scheme)
    message = page.locator(".display-message")
    expect(message).to_have_text("Wrap up")
    still = contrast_at(page, ".display-message")
    assert still["ratio"] >= 4.5, f"{scheme}, not flashing: {still}"
    edit(server, board, {"op": "showMessage", "text": "Wrap up now", "flash": True})
    expect(message).to_have_class("display-message flashing")
    for ms in (0, 500):
        shown = contrast_at(page, ".display-message", ms)
        assert shown["ratio"] >= 4.5, f"{scheme}, flashing at {ms} ms: {shown}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_without_motion_a_flashing_message_still_looks_different(server, board, display, scheme):
    edit(server, board, SECTION, timer_op("talk", "Talk", 5), {"op": "showMessage", "text": "Calm", "flash": False})
    page = display(color_scheme=scheme, reduced_motion="reduce")
    message = page.locator(".display-message")
    expect(message).to_have_text("Calm")
    look = "element => { const s = getComputedStyle(element); return {background: s.backgroundColor, border: s.borderTopWidth, ratio: 0}; }"
    calm = message.evaluate(look)
    edit(server, board, {"op": "showMessage", "text": "Alert", "flash": True})
    expect(message).to_have_text("Alert")
    alert = message.evaluate(look)
    assert alert["background"] != calm["background"], f"{scheme}: a flash without motion looks like a plain message: {alert}"
    assert float(alert["border"].removesuffix("px")) >= 2, f"{scheme}: no border marks the flash: {alert}"
    assert message.evaluate("element => element.getAnimations().length") == 0
    shown = contrast_at(page, ".display-message")
    assert shown["ratio"] >= 4.5, f"{scheme}, flashing without motion: {shown}"


ARABIC = "الكلمة الافتتاحية للمدير التنفيذي حول حالة الشركة ثم حفل توزيع الجوائز السنوي 2025 🎤"
HEBREW_ENGLISH = "סדנה: React 19 ו-TypeScript למתחילים"
DIRECTION = "element => ({dir: getComputedStyle(element).direction, rtl: element.matches(':dir(rtl)')})"


def direction(locator):
    return locator.evaluate(DIRECTION)


def test_right_to_left_and_mixed_titles_keep_their_direction_on_the_display(server, board, display):
    edit(server, board, {"op": "addSection", "id": "s", "title": "قاعة المؤتمرات", "position": "last"},
         timer_op("ar", ARABIC, 12), timer_op("he", HEBREW_ENGLISH, 5),
         {"op": "showMessage", "text": "انتهى الوقت", "flash": False})
    for viewport in (TV, PHONE):
        page = display("ar", viewport=viewport)
        expect(page.locator(".display-title")).to_have_text(ARABIC)
        expect(page.locator(".display-next")).to_contain_text(HEBREW_ENGLISH)
        # An Arabic title reads right to left, so a long one is cut at its end (the left).
        for part in (".display-title", ".display-section", ".display-message"):
            assert direction(page.locator(part)) == {"dir": "rtl", "rtl": True}, f"{part} at {viewport}"
        # "Next:" stays left to right, the Hebrew title in it right to left, each in its own order.
        assert direction(page.locator(".display-next")) == {"dir": "ltr", "rtl": False}
        assert direction(page.locator(".display-next-title")) == {"dir": "rtl", "rtl": True}
        title = page.locator(".display-title").evaluate("e => ({scroll: e.scrollWidth, client: e.clientWidth})")
        assert viewport is TV or title["scroll"] > title["client"], "the phone's title should be long enough to be cut"


def test_right_to_left_titles_keep_their_direction_on_the_board_page(server, board, user):
    edit(server, board, {"op": "addSection", "id": "s", "title": "قاعة المؤتمرات", "position": "last"},
         timer_op("ar", ARABIC, 12), timer_op("he", HEBREW_ENGLISH, 5))
    page = user("Ada")
    title = page.locator("[data-kind=timer][data-id=ar] .timer-title")
    expect(title).to_have_value(ARABIC)
    assert direction(title) == {"dir": "rtl", "rtl": True}
    assert direction(page.locator("[data-kind=timer][data-id=he] .timer-title")) == {"dir": "rtl", "rtl": True}
    assert direction(page.locator("[data-kind=section][data-id=s] .section-title")) == {"dir": "rtl", "rtl": True}
    # What a user types into a new title follows the text too.
    field = page.locator("#add-section-title")
    field.fill(HEBREW_ENGLISH)
    assert direction(field) == {"dir": "rtl", "rtl": True}


UHD = {"width": 3840, "height": 2160}
NOTICE = """() => {
  const notice = document.getElementById('display-connection');
  const r = notice.getBoundingClientRect();
  const label = notice.querySelector('.connection-label');
  const overlaps = selector => { const e = document.querySelector(selector); if (!e || e.hidden) return false;
    const o = e.getBoundingClientRect(); return !(r.right <= o.left || r.left >= o.right || r.bottom <= o.top || r.top >= o.bottom); };
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {state: notice.dataset.state, labelPx: parseFloat(getComputedStyle(label).fontSize), height: innerHeight,
          countdown: overlaps('.display-countdown'), next: overlaps('.display-next'), onTop: notice.contains(top)};
}"""


def test_the_offline_notice_reads_across_a_room_above_the_blackout_and_covers_nothing(server, board, display):
    edit(server, board, SECTION, timer_op("talk", "Talk", 20),
         timer_op("qa", "Questions from the audience and closing remarks", 5), {"op": "startTimer", "id": "talk"})
    for viewport in (UHD, TV, PHONE):
        page = display(viewport=viewport)
        expect(page.locator(".display-next")).to_be_visible()
        page.context.set_offline(True)
        expect(page.locator("#display-connection")).to_have_attribute("data-state", "offline")
        notice = page.evaluate(NOTICE)
        # A display's line of text is some 3% of its height (the Next line is 4.5vmin); the notice at least 2.5%.
        assert notice["labelPx"] >= min(0.025 * viewport["height"], 0.025 * viewport["width"]) - 0.5, f"{viewport}: {notice}"
        assert not notice["countdown"] and not notice["next"], f"{viewport}: the notice covers the display: {notice}"
        assert notice["onTop"], f"{viewport}: {notice}"
        page.context.set_offline(False)
        expect(page.locator("#display-connection")).to_have_attribute("data-state", "live")
    # Blacked out: the screen is black, but whoever runs it still learns that it is offline.
    edit(server, board, {"op": "setBlackout", "on": True})
    expect(page.locator(".display-blackout")).to_be_visible()
    page.context.set_offline(True)
    expect(page.locator("#display-connection")).to_have_attribute("data-state", "offline")
    assert page.evaluate(NOTICE)["onTop"], "the blackout covers the offline notice"
