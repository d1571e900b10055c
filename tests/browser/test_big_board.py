"""Issue 17: on a board of 50 sections × 40 timers (2,000 timers), a remote change costs what it
changes. A MutationObserver shows that a remote rename touches only that title's input; a
PerformanceObserver shows that the page has no long tasks (50 ms or more) while someone else
edits continuously, where it used to have one per change (120-210 ms each)."""
import re

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, board_path, dom_changes, wait_live, wait_rev, watch_dom
from raw_websocket import RawClient

SECTIONS, TIMERS = 50, 40


class Editor:
    """Someone else, on a raw WebSocket: each edit waits for its own ack."""

    def __init__(self, server, board):
        self.client = RawClient(server.port, None)
        self.client.hello_and_join("py-big-board", board)
        self.client.until("snapshot")
        self.next = 1
        self.rev = None

    def edit(self, ops):
        op_id = str(self.next)
        self.next += 1
        self.client.send({"type": "edit", "opId": op_id, "ops": ops})
        while (message := self.client.message()).get("opId") != op_id:
            pass
        assert message["type"] == "ack", message
        self.rev = message["rev"]


@pytest.fixture
def server(server_factory):
    # The editor reads its socket only when it edits; on a loaded machine a page's steps between
    # two edits can outlast a heartbeat, and the server would close the silent editor.
    return server_factory(["--heartbeat-interval-ms", "600000"]).start()


@pytest.fixture
def big_board(server, board):
    editor = Editor(server, board)
    ops = []
    for s in range(SECTIONS):
        ops.append({"op": "addSection", "id": f"s{s}", "title": f"Section {s}", "position": "last"})
        ops += [{"op": "addTimer", "id": f"s{s}t{t}", "sectionID": f"s{s}", "title": f"Timer {s}.{t}",
                 "minutes": t, "seconds": 0, "position": "last"} for t in range(TIMERS)]
    for start in range(0, len(ops), 100):
        editor.edit(ops[start:start + 100])
    yield editor
    editor.client.close()


def test_a_remote_rename_on_a_big_board_touches_only_that_title(user, big_board):
    page = user("Ada")
    wait_rev(page, big_board.rev)
    # The first screen shows its timers; the page builds rows over a few frames, which a busy
    # machine spreads out (33 of 40 were there when the revision arrived, once).
    expect(page.locator("[data-kind=timer]").nth(39)).to_be_attached()
    # At rest: the rows built after the first frame have rendered (board/nearby.js, fresh rows).
    page.wait_for_function("() => !document.querySelector('[data-fresh]')")
    for section_id, timer_id in (("s0", "s0t5"), ("s25", "s0t39")):
        watch_dom(page)
        big_board.edit([{"op": "updateSection", "id": section_id, "title": f"Renamed {section_id}"},
                        {"op": "updateTimer", "id": timer_id, "title": f"Renamed {timer_id}"}])
        wait_rev(page, big_board.rev)
        expect(page.locator(f"#section-title-{section_id}")).to_have_value(f"Renamed {section_id}")
        expect(page.locator(f"#timer-title-{timer_id}")).to_have_value(f"Renamed {timer_id}")
        changes = dom_changes(page)
        assert changes["created"] == [] and changes["missing"] == []
        touched = {(r["target"], r["attribute"]) for r in changes["records"]}
        assert touched == {
            (f"input#section-title-{section_id}.field.section-title of section {section_id}", "data-base"),
            (f"input#section-title-{section_id}.field.section-title of section {section_id}", "data-shown"),
            (f"input#timer-title-{timer_id}.field.timer-title of timer {timer_id}", "data-base"),
            (f"input#timer-title-{timer_id}.field.timer-title of timer {timer_id}", "data-shown"),
        }
    assert page.errors == []


NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))"

LONG_TASKS = """() => {
    window.__longTasks = [];
    new PerformanceObserver(list => window.__longTasks.push(...list.getEntries().map(e => e.duration)))
        .observe({type: 'longtask'});
}"""


def test_no_long_tasks_while_someone_else_edits_a_big_board(user, big_board):
    page = user("Ada")
    wait_rev(page, big_board.rev)
    wait_live(page)
    # The first screen is built and painted; from now on, only the edits below run.
    page.evaluate(NEXT_FRAME)
    page.evaluate(LONG_TASKS)
    edits = 30
    for i in range(edits):
        s = i % 3  # the sections on the first screen, and their timers
        big_board.edit([{"op": "updateSection", "id": f"s{s}", "title": f"Section {s} v{i}"},
                        {"op": "updateTimer", "id": f"s{s}t{i % TIMERS}", "minutes": i % 60}])
        # At a person's pace: the next edit comes once this one is on screen (applied, then a
        # frame), so each is rendered on its own rather than many in one frame.
        wait_rev(page, big_board.rev)
        page.evaluate(NEXT_FRAME)
    long_tasks = page.evaluate("() => window.__longTasks")
    # Before issue 17 each of these edits was a long task of 120-210 ms. A busy 2-core machine
    # can stretch an odd task past 50 ms, so a few are tolerated; one per edit is not.
    assert len(long_tasks) <= edits // 10, f"{len(long_tasks)} long tasks for {edits} edits: {long_tasks}"
    expect(page.locator("#section-title-s2")).to_have_value(f"Section 2 v{edits - 1}")
    assert page.errors == []


# How many rows the first section held when the board first reached the DOM.
FIRST_RENDER = """(() => {
    new MutationObserver((records, observer) => {
        const sections = document.getElementById('sections');
        if (sections?.dataset.ready !== 'true') return;
        window.__firstRender = sections.querySelectorAll('[data-id=s0] [data-kind=timer]').length;
        observer.disconnect();
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });
})();"""


def test_the_first_render_builds_a_screenful_and_the_rest_of_the_section_follows_in_order(browser, server, board, big_board):
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(FIRST_RENDER)
    page = context.new_page()
    page.goto(server.http + board_path(board, "edit"))
    page.wait_for_function("() => window.__firstRender !== undefined")
    # The rows one screen can show (board/nearby.js: ROW_HEIGHT), not the whole first section.
    screenful = page.evaluate("() => Math.ceil(screen.availHeight / 52) + 1")
    assert page.evaluate("() => window.__firstRender") == screenful < TIMERS
    # The rest come right after the first frame, in their places.
    expect(page.locator("[data-id=s0] [data-kind=timer]")).to_have_count(TIMERS)
    titles = page.locator("[data-id=s0] .timer-title").evaluate_all("inputs => inputs.map(i => i.value)")
    assert titles == [f"Timer 0.{t}" for t in range(TIMERS)]
    context.close()


SCROLL_TO_END = """async () => {
    // A screen and a half per frame, down to the end of the board.
    while (scrollY + innerHeight < document.documentElement.scrollHeight - 1) {
        scrollBy(0, innerHeight * 1.5);
        await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    }
}"""


def test_scrolling_through_a_big_board_keeps_only_what_is_near_the_screen(user, big_board):
    page = user("Ada")
    wait_rev(page, big_board.rev)
    # Fewer elements per timer: each icon is drawn by CSS, not an <svg> with a <path>.
    row = page.evaluate("() => document.querySelector('[data-kind=timer]').querySelectorAll('*').length + 1")
    assert row <= 20, f"a timer row has {row} elements"
    page.evaluate(SCROLL_TO_END)
    last = f"s{SECTIONS - 1}"
    # The end of the board is built and can be used...
    page.wait_for_function(f"() => document.querySelectorAll('[data-id={last}] [data-kind=timer]').length === {TIMERS}")
    page.locator(f"#timer-title-{last}t0").fill("Edited at the end")
    page.keyboard.press("Enter")
    expect(page.locator(f"#timer-title-{last}t0")).to_have_value("Edited at the end")
    # ...and the sections scrolled past have let go of their timers' elements: the page holds what
    # is near the screen, not everything it has shown (all of it: 40,000 elements and more).
    elements = page.evaluate("() => document.getElementsByTagName('*').length")
    assert elements < 15_000, f"{elements} elements after scrolling through {SECTIONS * TIMERS} timers"
    assert page.locator("[data-id=s0] [data-kind=timer]").count() == 0
    # Back at the top, the first section is built again, with what changed meanwhile.
    big_board.edit([{"op": "updateTimer", "id": "s0t0", "title": "Changed while far"}])
    page.evaluate("() => scrollTo(0, 0)")
    expect(page.locator("#timer-title-s0t0")).to_have_value("Changed while far")
    assert page.errors == []


def test_a_far_sections_start_all_follows_its_timers_before_it_is_built(user, big_board):
    page = user("Ada")
    wait_rev(page, big_board.rev)
    far = page.locator("[data-kind=section][data-id=s45]")
    expect(far).to_have_attribute("data-built", "false")
    run = far.locator(".section-run")
    # Its timers are idle: there is something to start, though none of them is in the DOM.
    expect(run).to_have_attribute("aria-disabled", "false")
    big_board.edit([{"op": "startTimer", "id": "s45t7"}])
    wait_rev(page, big_board.rev)
    expect(run).to_have_attribute("data-action", "pause")
    expect(far).to_have_attribute("data-built", "false")
    assert page.errors == []


COUNT_TICKS = """() => {
    const countdowns = window.timerboard.countdowns;
    const onTick = countdowns.onTick;
    window.__ticks = 0;
    window.__written = new Set();
    countdowns.onTick = (now) => { window.__ticks += 1; onTick(now); };
    new MutationObserver(records => {
        for (const r of records) {
            const element = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
            const row = element?.closest('[data-kind=timer]');
            if (row && element.closest('.timer-countdown')) window.__written.add(row.dataset.id);
        }
    }).observe(document.getElementById('sections'), {childList: true, characterData: true, subtree: true});
}"""

TICKING = """() => ({
    ticking: window.timerboard.countdowns.ticking.size,
    built: document.querySelectorAll('[data-kind=timer]').length,
    ids: [...window.timerboard.countdowns.ticking.keys()].every(id => document.querySelector(`[data-kind=timer][data-id="${id}"]`)),
})"""


def test_every_timer_running_a_tick_draws_only_the_rows_near_the_screen(user, big_board):
    """Issue 18 keeps issue 17's rule for running timers: per second, the work is the rows the page
    holds (near the screen), not the board's 2,000 running timers; the tab's title still follows
    the nearest running timer of the whole board."""
    page = user("Ada")
    wait_rev(page, big_board.rev)
    # Every timer of every section runs (the 0:00 ones finish at once and count overtime).
    big_board.edit([{"op": "startSection", "id": f"s{s}"} for s in range(SECTIONS)])
    wait_rev(page, big_board.rev)
    state = page.evaluate(TICKING)
    assert 0 < state["ticking"] <= state["built"] < SECTIONS * TIMERS and state["ids"], state
    page.evaluate(COUNT_TICKS)
    page.wait_for_function("() => window.__ticks >= 2 && window.__written.size > 0")
    written = page.evaluate("window.__written.size")
    assert written <= page.evaluate("document.querySelectorAll('[data-kind=timer]').length"), written
    expect(page).to_have_title(re.compile(r"^0:\d\d Timer \d+\.1 — TimerBoard$"))
    # Scrolled to the end and back: the rows dropped far from the screen stop ticking too.
    page.evaluate(SCROLL_TO_END)
    page.wait_for_function(f"() => document.querySelectorAll('[data-id=s{SECTIONS - 1}] [data-kind=timer]').length === {TIMERS}")
    page.wait_for_function("() => document.querySelectorAll('[data-id=s0] [data-kind=timer]').length === 0")
    state = page.evaluate(TICKING)
    assert 0 < state["ticking"] <= state["built"] and state["ids"], state
    assert page.errors == []


def test_a_run_key_selects_a_timer_whose_row_is_not_built_yet_and_shows_it(user, big_board):
    # QA: ArrowUp with nothing selected selected the board's last timer, whose row was not built:
    # nothing was marked or scrolled to, and Space then started a timer the user could not see.
    page = user("Ada")
    wait_rev(page, big_board.rev)
    last = f"s{SECTIONS - 1}t{TIMERS - 1}"
    expect(page.locator(f"[data-kind=section][data-id=s{SECTIONS - 1}]")).to_have_attribute("data-built", "false")
    page.locator("#board-title").click()
    page.keyboard.press("ArrowUp")
    row = page.locator(f"[data-kind=timer][data-id={last}]")
    expect(row).to_have_attribute("data-selected", "true")
    expect(row).to_be_in_viewport()
    page.keyboard.press(" ")
    expect(row).to_have_attribute("data-status", "running")
    expect(row.locator(".timer-countdown")).to_be_visible()
    # Scrolled away, the row's section lets go of its rows; built again, the row is still marked.
    page.evaluate("() => scrollTo(0, 0)")
    page.wait_for_function(f"() => !document.querySelector('[data-id={last}]')")
    page.evaluate(SCROLL_TO_END)
    expect(row).to_have_attribute("data-selected", "true")
    assert page.errors == []
