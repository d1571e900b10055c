"""A display of a sequence says where it is ("2 of 5"), in the board page's own words, next to the
section's name, as the sequence moves on and when it loops; a timer outside a sequence says
nothing of the kind. Boards are set up through the REST edits endpoint; every wait is on a
condition."""
import re

from playwright.sync_api import expect

from test_display_faces import display, edit, timer_op  # noqa: F401 (display is a fixture)

ROUNDS = {"op": "addSection", "id": "s", "title": "Rounds", "sequence": True, "loop": False, "position": "last"}
PHONE_LONG_SECTION = "Ballroom A — " + "very long section name " * 6
PLAIN = {"op": "addSection", "id": "p", "title": "Talks", "position": "last"}


def test_a_sequence_display_says_which_timer_of_how_many_it_shows(server, board, display, user):
    edit(server, board, ROUNDS, timer_op("a", "Work", 5), timer_op("b", "Rest", 5), timer_op("c", "Cool down", 5),
         PLAIN, {**timer_op("t", "Keynote", 5), "sectionID": "p"}, {"op": "startSection", "id": "s"})
    page = display()
    head = page.locator(".display-head")
    expect(page.locator(".display-title")).to_have_text("Work")
    expect(head).to_contain_text("1 of 3")
    # The board page's sequence header says it in the same words.
    board_page = user("Ada")
    expect(board_page.locator("[data-kind=section][data-id=s] .section-progress")).to_have_text("1 of 3")
    edit(server, board, {"op": "skipSection", "id": "s"})
    expect(page.locator(".display-title")).to_have_text("Rest")
    expect(head).to_contain_text("2 of 3")
    # The words sit next to the section's name, on its line, and can be read across a room.
    place = head.get_by_text(re.compile(r"^\s*2 of 3\s*$"))
    expect(place).to_be_visible()
    section_box = page.locator(".display-section").bounding_box()
    place_box = place.bounding_box()
    assert abs((place_box["y"] + place_box["height"] / 2) - (section_box["y"] + section_box["height"] / 2)) < section_box["height"], (section_box, place_box)
    assert place_box["height"] >= 0.025 * 1080, place_box
    # A loop: on its last timer, and again on its first once it wraps.
    edit(server, board, {"op": "updateSection", "id": "s", "loop": True}, {"op": "skipSection", "id": "s"})
    expect(page.locator(".display-title")).to_have_text("Cool down")
    expect(head).to_contain_text("3 of 3")
    expect(page.locator(".display-next")).to_contain_text("Work")
    edit(server, board, {"op": "skipSection", "id": "s"})
    expect(page.locator(".display-title")).to_have_text("Work")
    expect(head).to_contain_text("1 of 3")
    # A timer outside a sequence: no count.
    edit(server, board, {"op": "pauseSection", "id": "s"}, {"op": "resetTimer", "id": "a"}, {"op": "startTimer", "id": "t"})
    expect(page.locator(".display-title")).to_have_text("Keynote")
    expect(page.locator(".display-section")).to_have_text("Talks")
    expect(head).not_to_contain_text(re.compile(r"\d+ of \d+"))


def test_a_named_timer_of_a_sequence_says_its_own_place_even_on_a_phone_with_a_long_section_name(server, board, display):
    edit(server, board, {**ROUNDS, "title": PHONE_LONG_SECTION}, timer_op("a", "Work", 5), timer_op("b", "Rest", 5),
         timer_op("c", "Cool down", 5))
    page = display("b", viewport={"width": 390, "height": 844})
    expect(page.locator(".display-title")).to_have_text("Rest")
    place = page.locator(".display-head").get_by_text(re.compile(r"^\s*2 of 3\s*$"))
    expect(place).to_be_visible()
    # Never cut: all of its text is on the screen.
    box = place.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert place.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the place is cut"
