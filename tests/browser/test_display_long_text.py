"""Long words on a display leave the countdown most of the screen: a long message takes at most
about a quarter of its height in smaller type (the whole text still in the element), a short one
looks as it always did; a long title wraps to two lines and a long section name to at most two,
cut at their end. Measured as a person sees them: font sizes, heights, visible lines. Boards are
set up through the REST edits endpoint; every wait is on a condition."""
import re

import pytest
from playwright.sync_api import Page, expect

from test_display_faces import SECTION, TV, display, edit, timer_op  # noqa: F401 (display is a fixture)

PORTRAIT = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
LONG_MESSAGE = ("Please wrap up now: the next speaker is waiting backstage and the room must be cleared by 11:30 "
                "for the lunch service; questions can continue in the foyer after the session, thank you!")
LONG_TITLE = ("Opening keynote by the Chief Executive Officer on the state of the company, followed by the annual "
              "awards ceremony and a surprise 🎉🎂")
LONG_SECTION = "Ballroom A — " + "very long section name " * 6

# What a person sees of an element: its box, its font, how many lines of it show, and how much of
# its text lies inside its box (characters drawn inside it, over all of them).
SEEN = """element => {
  const style = getComputedStyle(element);
  const box = element.getBoundingClientRect();
  const lineHeight = parseFloat(style.lineHeight);
  const inner = box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let shown = 0, all = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i += 1) {
      if (/\\s/.test(node.data[i])) continue;
      all += 1;
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      if (r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1) shown += 1;
    }
  }
  return {fontPx: parseFloat(style.fontSize), height: box.height, lines: Math.round(inner / lineHeight),
          shown: all ? shown / all : 0, text: element.textContent, title: element.title};
}"""


def seen(page: Page, selector: str):
    return page.locator(selector).evaluate(SEEN)


def countdown_px(page: Page):
    return seen(page, ".display-countdown")["fontPx"]


def shown_message(page: Page, text: str):
    message = page.locator(".display-message")
    expect(message).to_have_text(text)
    expect(message).to_be_visible()
    return seen(page, ".display-message")


@pytest.mark.parametrize("viewport, keeps", [(TV, 0.75), (LANDSCAPE, 0.6), (PORTRAIT, 0.95)])
def test_a_long_message_leaves_the_countdown_most_of_the_screen(server, board, display, viewport, keeps):
    edit(server, board, SECTION, timer_op("talk", "Talk", 20), timer_op("next", "Next talk", 20), {"op": "startTimer", "id": "talk"})
    page = display(viewport=viewport)
    expect(page.locator(".display-countdown")).to_have_text(re.compile(r"\d"))
    alone = countdown_px(page)
    # A short message looks as it always did: 8% of the screen's smaller side (at least 1.4rem), one line.
    edit(server, board, {"op": "showMessage", "text": "Wrap up", "flash": False})
    short = shown_message(page, "Wrap up")
    smaller_side = min(viewport["width"], viewport["height"])
    assert short["fontPx"] == pytest.approx(max(22.4, 0.08 * smaller_side), abs=0.5), short
    assert short["lines"] == 1 and short["shown"] == 1, short
    with_short = countdown_px(page)
    # A long one (184 characters): at most about a quarter of the height, and the countdown keeps most of its size.
    edit(server, board, {"op": "showMessage", "text": LONG_MESSAGE, "flash": False})
    long = shown_message(page, LONG_MESSAGE)
    with_long = countdown_px(page)
    print(f"\n{viewport}: countdown {alone:.0f}px alone, {with_short:.0f}px with 'Wrap up', {with_long:.0f}px with the long message; "
          f"message {long['height']:.0f}px ({long['height'] / viewport['height']:.0%} of the height), {long['lines']} lines, "
          f"{long['fontPx']:.0f}px, {long['shown']:.0%} of it shown")
    assert long["height"] <= 0.27 * viewport["height"], long
    assert with_long >= keeps * alone, (alone, with_long)
    # Readable still: no smaller than 1rem, more than half of it on the screen, the whole text in the element.
    assert long["fontPx"] >= 16 and long["shown"] >= 0.5, long
    assert long["text"] == LONG_MESSAGE and long["title"] == LONG_MESSAGE, long


def test_a_long_title_wraps_to_two_lines_and_a_long_section_name_to_at_most_two(server, board, display):
    edit(server, board, {**SECTION, "title": LONG_SECTION}, timer_op("long", LONG_TITLE, 12), timer_op("short", "Talk", 12),
         timer_op("end", "Close", 12), {"op": "startTimer", "id": "long"})
    tv = display("short")
    expect(tv.locator(".display-countdown")).to_have_text(re.compile(r"\d"))
    short_title_px = countdown_px(tv)
    tv = display("long")
    expect(tv.locator(".display-countdown")).to_have_text(re.compile(r"\d"))
    title = seen(tv, ".display-title")
    print(f"\nTV: title {title['lines']} lines, {title['shown']:.0%} shown, countdown {countdown_px(tv):.0f}px (short title {short_title_px:.0f}px)")
    assert title["lines"] == 2 and title["shown"] >= 0.6, title
    assert title["text"] == LONG_TITLE
    # The countdown keeps its size on a TV, whatever the title.
    assert countdown_px(tv) >= 0.9 * short_title_px
    phone = display("long", viewport=PORTRAIT)
    expect(phone.locator(".display-countdown")).to_have_text(re.compile(r"\d"))
    section, title = seen(phone, ".display-section"), seen(phone, ".display-title")
    print(f"phone: section {section['lines']} lines, title {title['lines']} lines, countdown {countdown_px(phone):.0f}px")
    assert 1 <= section["lines"] <= 2 and title["lines"] == 2, (section, title)
    assert section["text"] == LONG_SECTION
    head = phone.locator(".display-head").bounding_box()
    assert head["height"] <= 0.25 * PORTRAIT["height"], head
    # On a landscape phone, where height is short, the second line costs the countdown little.
    short, long = display("short", viewport=LANDSCAPE), display("long", viewport=LANDSCAPE)
    for page in (short, long):
        expect(page.locator(".display-countdown")).to_have_text(re.compile(r"\d"))
    print(f"landscape phone: countdown {countdown_px(long):.0f}px with the long title, {countdown_px(short):.0f}px with a short one")
    assert seen(long, ".display-title")["lines"] == 2 and countdown_px(long) >= 0.85 * countdown_px(short)
