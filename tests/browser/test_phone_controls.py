"""The board page on a phone (390 px wide): the top bar's Run mode and Screens say what they are in
a visible word, with an accessible name, and every target of the bar and of the Screens dialog is
at least 44 px (WCAG 2.5.5's size for touch)."""
from playwright.sync_api import expect

from conftest import PHONE, add_section, add_timer

# Buttons, links and fields that show, with their size and what they show in words.
TARGETS = """root => [...root.querySelectorAll('button, a, input:not([type=checkbox])')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect();
              return {what: e.className || e.id || e.textContent.trim(), w: Math.round(r.width), h: Math.round(r.height), text: e.innerText.trim()}; })"""


def test_on_a_phone_run_mode_and_screens_show_a_word_and_are_44_px(user):
    page = user("Ada", viewport=PHONE)
    add_section(page, "Kitchen")
    add_timer(page, "Kitchen", "Rice", 12, 0)
    for selector, name, word in ((".mode-toggle", "Run mode", "Run"), (".screens-open", "Screens", "Screens")):
        button = page.locator(selector)
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(1)
        shown = button.evaluate("e => ({text: e.innerText.trim(), icon: [...e.querySelectorAll('[data-icon]')].some(i => i.getBoundingClientRect().width >= 12)})")
        assert shown["text"] == word, f"{name} shows {shown['text']!r} on a phone"
        assert shown["icon"], f"{name} has no icon"
        size = button.bounding_box()
        assert size["width"] >= 44 and size["height"] >= 44, f"{name}: {size}"
    page.locator(".mode-toggle").click()
    expect(page.locator(".mode-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.locator(".mode-toggle").inner_text().strip() == "Run"


def test_on_a_phone_the_screens_dialogs_targets_are_44_px(user):
    page = user("Ada", viewport=PHONE)
    page.locator(".screens-open").click()
    dialog = page.locator("#screens-dialog")
    expect(dialog).to_be_visible()
    targets = dialog.evaluate(TARGETS)
    assert any(t["text"] == "Open a display" for t in targets), targets
    small = [t for t in targets if t["h"] < 44 or t["w"] < 44]
    assert small == [], small
