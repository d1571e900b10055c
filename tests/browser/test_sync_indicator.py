"""Issue 18 in Chromium: sync you can see. Each page tells, in presence, the ± bound of its estimate
of the server's clock (half its best ping round trip); every page shows "N screens within ±X ms"
and names the screens above ±50 ms. Bob's page measures with a clock whose every reading jumps
200 ms (an init script on performance.now), so his round trips are long and his bound large,
whatever the machine's load; Ada's is a plain page."""
import re

from playwright.sync_api import expect


# Every reading of performance.now() is 200 ms later than the one before: a ping's round trip,
# measured between two readings, is at least 200 ms, so the bound is at least ±100 ms.
JUMPY_CLOCK = """(() => {
    const real = performance.now.bind(performance);
    let jumps = 0;
    performance.now = () => real() + 200 * (jumps += 1);
})();"""

SUMMARY = re.compile(r"^2 screens within ±(\d+) ms$")


def told(page):
    """The bound this page last told in presence (null before its first)."""
    return page.evaluate("window.timerboard.socket.presence.toldClockError")


def test_the_board_shows_how_in_step_the_screens_are_and_names_the_one_that_is_not(user, user_with_script, screenshot):
    a = user("Ada")
    b = user_with_script("Bob", JUMPY_CLOCK)
    for page in (a, b):
        page.wait_for_function("() => window.timerboard.socket.presence.toldClockError !== null")
    # Bob's clock sync is over and what he told is his bound now (a later, tighter sample would be told again).
    b.wait_for_function("""() => {
        const s = window.timerboard.socket;
        return s.heartbeat.syncPings === 0 && !s.presence.waiting && Math.abs(s.clock.errorBound() - s.presence.toldClockError) <= 5;
    }""")
    assert told(b) >= 100, told(b)
    # Bob's bound, as his page told it, is what both pages show as the largest, and his line names him.
    b_told = told(b)
    for page in (a, b):
        page.wait_for_function("""bound => {
            const summary = document.querySelector('#sync-status .sync-summary').textContent;
            return summary === `2 screens within ±${bound} ms`;
        }""", arg=b_told)
        expect(page.locator("#sync-status")).to_be_visible()
        expect(page.locator("#sync-status")).to_have_attribute("data-state", "off")
    expect(a.locator("#sync-status .sync-off li")).to_have_text([f"Bob's screen is off by up to ±{b_told} ms"])
    expect(b.locator("#sync-status .sync-off li")).to_have_text([f"Your screen is off by up to ±{b_told} ms"])
    # Ada's own page is in step: it is not named anywhere.
    assert told(a) <= 50, told(a)
    for page in (a, b):
        expect(page.locator("#sync-status .sync-off li").filter(has_text="Ada")).to_have_count(0)
    screenshot(a, "bob-off")

    # Bob leaves: one screen, in step.
    b.context.close()
    expect(a.locator("#sync-status .sync-summary")).to_have_text(re.compile(r"^1 screen within ±\d+ ms$"))
    expect(a.locator("#sync-status")).to_have_attribute("data-state", "ok")
    expect(a.locator("#sync-status .sync-off li")).to_have_count(0)
    assert a.errors == []
