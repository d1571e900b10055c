"""The board page's Screens dialog: the blackout toggle says in words what pressing it does, and
says whether the screens are black by aria-pressed."""
from playwright.sync_api import expect

from conftest import wait_synced


def test_the_blackout_toggle_says_what_pressing_it_does(user):
    page = user("Ada")
    page.locator(".screens-open").click()
    toggle = page.locator("#screens-dialog .screen-blackout")
    expect(toggle).to_have_text("Black out the screens")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    wait_synced(page)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_text("End the blackout")
    toggle.click()
    wait_synced(page)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_text("Black out the screens")
