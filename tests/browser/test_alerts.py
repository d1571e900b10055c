"""Issue 18 in Chromium: alerts that reach you. Notification permission is asked from the "Notify
me" button only, never on load; a timer that finishes while the tab is hidden makes a real system
Notification (window.Notification is wrapped to count what the page constructs and asks, nothing
is stubbed) and the tab's title says what finished until the tab is seen again; while timers run,
the title shows the nearest one. Playwright grants the permission.

Headless Chromium never hides a page, so the page's visibility is what an init script says
(document.visibilityState, and a visibilitychange event when the test changes it)."""
import re

from playwright.sync_api import expect

from conftest import add_section, add_timer, timer, wait_live

WATCH_NOTIFICATIONS = """(() => {
    const Real = window.Notification;
    window.__notifications = [];
    window.__permissionAsks = 0;
    if (Real) {
        const ask = Real.requestPermission.bind(Real);
        window.Notification = new Proxy(Real, {
            construct(target, args) {
                const made = Reflect.construct(target, args);
                window.__notifications.push({title: args[0], tag: args[1]?.tag});
                return made;
            },
            get(target, name) {
                if (name === 'requestPermission') return (...a) => { window.__permissionAsks += 1; return ask(...a); };
                return Reflect.get(target, name);
            },
        });
    }
    window.__hidden = false;
    Object.defineProperty(Document.prototype, 'visibilityState', {get() { return window.__hidden ? 'hidden' : 'visible'; }, configurable: true});
    Object.defineProperty(Document.prototype, 'hidden', {get() { return window.__hidden; }, configurable: true});
})();"""

SET_HIDDEN = "hidden => { window.__hidden = hidden; document.dispatchEvent(new Event('visibilitychange')); }"


def test_a_timer_that_finishes_while_the_tab_is_hidden_notifies_and_names_it_in_the_title(user, user_with_script, server, board, screenshot):
    a = user_with_script("Ada", WATCH_NOTIFICATIONS)
    b = user("Bob")
    notify = a.locator("#notify-toggle")
    # Nothing is asked on load.
    assert a.evaluate("window.__permissionAsks") == 0
    expect(notify).to_have_attribute("aria-pressed", "false")
    a.context.grant_permissions(["notifications"], origin=server.http)
    assert a.evaluate("Notification.permission") == "granted"
    notify.click()
    expect(notify).to_have_attribute("data-state", "on")
    expect(notify).to_have_attribute("aria-pressed", "true")
    expect(notify).to_have_text("Notifying")

    add_section(b, "Kitchen")
    add_timer(b, "Kitchen", "Tea", 9, 0)
    add_timer(b, "Kitchen", "Eggs", 0, 3)
    timer(b, "Tea").locator(".timer-toggle").click()
    # While timers run, the title shows the nearest one, counting.
    expect(a).to_have_title(re.compile(r"^\d:\d\d Tea — TimerBoard$"))
    timer(b, "Eggs").locator(".timer-toggle").click()
    expect(a).to_have_title(re.compile(r"^0:0[0-3] Eggs — TimerBoard$"))

    a.evaluate(SET_HIDDEN, True)
    expect(timer(a, "Eggs")).to_have_attribute("data-status", "finished")
    a.wait_for_function("() => window.__notifications.length === 1")
    made = a.evaluate("window.__notifications")
    assert made[0]["title"] == "“Eggs” is done" and made[0]["tag"].startswith("timerboard-"), made
    expect(a).to_have_title("⏰ Eggs done — TimerBoard")
    # The page's own alert is there too; B, visible, has its alert and its title is its countdown.
    expect(a.locator("#timer-alerts .timer-alert")).to_contain_text("Eggs")
    expect(b).to_have_title(re.compile(r"^\d:\d\d Tea — TimerBoard$"))
    screenshot(a, "hidden-finished")

    # Seen again: the title goes back to the nearest running timer; nothing more was asked.
    a.evaluate(SET_HIDDEN, False)
    expect(a).to_have_title(re.compile(r"^\d:\d\d Tea — TimerBoard$"))
    # A timer that finishes while the tab is visible makes no system notification.
    timer(b, "Eggs").locator(".timer-toggle").click()
    expect(timer(a, "Eggs")).to_have_attribute("data-status", "running")
    expect(timer(a, "Eggs")).to_have_attribute("data-status", "finished")
    assert a.evaluate("window.__notifications.length") == 1
    assert a.evaluate("window.__permissionAsks") == 0
    # Pressed again: off on this device; a hidden finish then notifies nobody but still titles the tab.
    notify.click()
    expect(notify).to_have_attribute("data-state", "off")
    timer(b, "Tea").locator(".timer-reset").click()
    expect(a).to_have_title("Kitchen — TimerBoard")
    a.evaluate(SET_HIDDEN, True)
    timer(b, "Eggs").locator(".timer-toggle").click()
    expect(timer(a, "Eggs")).to_have_attribute("data-status", "running")
    expect(a).to_have_title("⏰ Eggs done — TimerBoard")
    assert a.evaluate("window.__notifications.length") == 1
    assert a.errors == [] and b.errors == []


def test_notify_me_asks_for_permission_only_when_pressed(user_with_script):
    a = user_with_script("Ada", WATCH_NOTIFICATIONS)
    permission = a.evaluate("Notification.permission")
    assert a.evaluate("window.__permissionAsks") == 0, "nothing asked on load"
    notify = a.locator("#notify-toggle")
    if permission == "default":
        expect(notify).to_have_text("Notify me")
    notify.click()
    a.wait_for_function("() => window.__permissionAsks === 1" if permission == "default" else "() => true")
    # Headless Chromium answers the prompt itself (no one to ask): whatever it said, the button says so.
    state = a.evaluate("Notification.permission")
    expected = {"granted": "on", "denied": "denied", "default": "default"}[state]
    expect(notify).to_have_attribute("data-state", expected)
    assert a.errors == []


def test_a_viewer_can_ask_to_be_notified_when_a_timer_finishes(user, server):
    # A kitchen's wall screen on the view link: the notification is this device's own and sends nothing.
    viewer = user("Wall", role="view")
    editor = user("Bob")
    viewer.context.add_init_script(WATCH_NOTIFICATIONS)
    viewer.reload()
    wait_live(viewer)
    notify = viewer.locator("#notify-toggle")
    expect(notify).to_be_visible()
    viewer.context.grant_permissions(["notifications"], origin=server.http)
    notify.click()
    expect(notify).to_have_attribute("data-state", "on")

    add_section(editor, "Kitchen")
    add_timer(editor, "Kitchen", "Eggs", 0, 1)
    viewer.evaluate(SET_HIDDEN, True)
    timer(editor, "Eggs").locator(".timer-toggle").click()
    expect(timer(viewer, "Eggs")).to_have_attribute("data-status", "finished")
    viewer.wait_for_function("() => window.__notifications.length === 1")
    assert viewer.evaluate("window.__notifications[0].title") == "“Eggs” is done"
    assert viewer.errors == [] and editor.errors == []


def test_the_tab_title_names_what_it_shows_then_timerboard_the_same_way_in_every_state(user):
    ada = user("Ada")
    add_section(ada, "Stove")
    add_timer(ada, "Stove", "Eggs", 5, 0)
    # The board "Kitchen", idle; then its nearest running timer.
    expect(ada).to_have_title("Kitchen — TimerBoard")
    timer(ada, "Eggs").locator(".timer-toggle").click()
    expect(ada).to_have_title(re.compile(r"^4:\d\d Eggs — TimerBoard$"))
    timer(ada, "Eggs").locator(".timer-reset").click()
    expect(ada).to_have_title("Kitchen — TimerBoard")
    assert ada.errors == []
