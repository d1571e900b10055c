"""B's edits show at once (optimistic); when the server rejects one because A deleted what it was
about meanwhile, B rolls back and says why.

"Meanwhile" is made certain, without timing: B's socket goes through a SocketGate that holds what
the server sends to B, so B edits a board on which A's delete has not arrived yet; B's edit reaches
the server after the delete, and the server's answer is held too until the test releases it."""
import re

from playwright.sync_api import expect

from conftest import add_section, add_timer, commit, converged, section, timer, toast, wait_synced


def held_until(page, message_type):
    """Waits until the gate holds a server message of `message_type` (each Playwright call lets
    the gate's route handlers run)."""
    for _ in range(10_000):
        if message_type in page.gate.held_types():
            return
        page.evaluate("() => new Promise(requestAnimationFrame)")
    raise AssertionError(f"no {message_type} from the server; held: {page.gate.held_types()}")


def test_rejected_edit_rolls_back_and_says_why(user, server, board, screenshot):
    a, b = user("Ada"), user("Bob", gate=True)
    add_section(a, "Bake")
    add_section(a, "Prep")
    add_timer(a, "Prep", "Toast", 2, 0)
    add_timer(a, "Prep", "Eggs", 7, 30)
    converged(server, board, a, b)

    # A deletes Eggs; B has not heard of it yet and renames Eggs.
    b.gate.hold()
    timer(a, "Eggs").get_by_role("button", name="Delete timer").click()
    wait_synced(a)
    commit(timer(b, "Eggs").locator(".timer-title"), "Eggs, soft")
    # Shown at once, while nothing at all from the server reaches B.
    expect(timer(b, "Eggs, soft")).to_have_count(1)
    expect(b.locator("#connection")).to_have_attribute("data-pending", "1")
    expect(b.locator("#connection .connection-pending")).to_have_text("1 edit pending")
    held_until(b, "reject")
    screenshot(b, "optimistic")
    b.gate.release()

    expect(timer(b, "Eggs, soft")).to_have_count(0)
    expect(toast(b, "Your change was not saved: the timer was deleted by someone else.")).to_be_visible()
    converged(server, board, a, b)

    # A deletes the (empty) Bake section; B moves Toast into it before hearing of that. Toast shows
    # in Bake at once, then goes back to Prep when the server refuses.
    b.gate.hold()
    section(a, "Bake").get_by_role("button", name="Delete section").click()
    wait_synced(a)
    move = timer(b, "Toast").get_by_label("Move timer to another section")
    move.focus()
    move.select_option(label="Bake")
    expect(section(b, "Bake").locator("[data-kind=timer]")).to_have_count(1)
    expect(section(b, "Prep").locator("[data-kind=timer]")).to_have_count(0)
    held_until(b, "reject")
    b.gate.release()

    expect(section(b, "Bake")).to_have_count(0)
    expect(section(b, "Prep").locator("[data-kind=timer]")).to_have_count(1)
    expect(toast(b, re.compile(r"^Your change was not saved: the section .*was deleted by someone else\.$"))).to_be_visible()
    assert converged(server, board, a, b) == [["Prep", True, [["Toast", 2, 0]]]]
    screenshot(b, "rolled-back")
    assert a.errors == [] and b.errors == []
