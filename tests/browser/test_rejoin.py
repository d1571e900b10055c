"""Issue 12: a rejoin on a live socket that the server answers with an error (the board is
loading) must not leave the page silently out of date and 'Live'. It shows that it is joining
again, retries with backoff, keeps the user's edits, and catches up once a join goes through."""
import re

from playwright.sync_api import expect

from conftest import add_section, commit, converged, section, wait_live


def test_a_refused_rejoin_is_shown_and_retried(user, server, board):
    a, b = user("Ada", gate=True), user("Bob")
    add_section(b, "Prep")
    converged(server, board, a, b)

    # Ada's page misses one changeset, so the next shows a gap and it rejoins on its live socket;
    # the server (the gate, for it) cannot open the board for now.
    a.gate.refuse_joins()
    a.gate.lose_next("changes")
    commit(section(b, "Prep").locator(".section-title"), "Prep 1")
    expect(section(b, "Prep 1")).to_have_count(1)
    commit(section(b, "Prep 1").locator(".section-title"), "Prep 2")

    status = a.locator("#connection")
    expect(status).to_have_attribute("data-state", "joining")
    # Refused again and again: each retry waits longer, and says so.
    expect(status.locator(".connection-label")).to_have_text(
        re.compile(r"^Joining again \(attempt [2-9]\)….*the board is loading"))
    assert status.get_attribute("data-state") != "live"
    # What Ada does meanwhile waits, visibly.
    commit(a.locator("[data-kind=section] .section-title").first, "Ada's prep")
    expect(status).to_have_attribute("data-pending", "1")

    a.gate.allow_joins()
    wait_live(a, timeout=30_000)
    assert a.gate.refused >= 2
    shown = converged(server, board, a, b)
    assert shown == [["Ada's prep", True, []]]
    assert a.errors == [] and b.errors == []
