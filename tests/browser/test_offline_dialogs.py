"""The board page's dialogs load their code on first use. Offline, they still open (their code was
fetched once the board was shown, when the page was idle) and do what they can without the server;
where their code could not be fetched, the page says so instead of doing nothing."""
from playwright.sync_api import expect

from conftest import DESKTOP, add_section, add_timer, board_path, toast, wait_live

# Each top-bar button (or a section's Times… button), the dialog it opens, and what that dialog says
# offline where what it shows needs the server (the owner's other links, the history).
DIALOGS = [(".owner-open", "#owner-dialog", None), (".share-open", "#share-dialog", ("#share-status", "could not be reached")),
           (".screens-open", "#screens-dialog", None), (".history-open", "#history-dialog", ("#history-status", "could not be loaded")),
           (".section-time", "#time-dialog", None)]


def go_offline(page):
    page.context.set_offline(True)
    expect(page.locator("#connection")).not_to_have_attribute("data-state", "live")


def test_every_dialog_opens_offline_once_the_board_was_shown(user):
    # QA: offline, Settings, Share, Screens, History and Times… did nothing and the page threw
    # "Failed to fetch dynamically imported module".
    a = user("Ada", role="owner")
    add_section(a, "Prep")
    add_timer(a, "Prep", "Eggs", 5)
    # The page fetches the dialogs' code when it is idle; a test waits for that instead of for time.
    a.evaluate("() => window.timerboard.dialogsLoaded")
    go_offline(a)
    for button, dialog, says in DIALOGS:
        a.locator(button).first.click()
        expect(a.locator(dialog)).to_have_js_property("open", True)
        if says:
            expect(a.locator(says[0])).to_contain_text(says[1])
        a.keyboard.press("Escape")
        expect(a.locator(dialog)).to_have_js_property("open", False)
    # The owner's own link needs nothing from the server.
    expect(a.locator("#share-owner-link")).not_to_have_value("")
    assert a.errors == []


def test_a_dialog_whose_code_cannot_be_fetched_says_so(browser, server, board):
    context = browser.new_context(viewport=DESKTOP)
    # As if the page had gone offline before it was ever idle: the History dialog's code never arrives.
    context.route("**/board/history_panel.js", lambda route: route.abort())
    a = context.new_page()
    errors = []
    a.on("pageerror", lambda error: errors.append(error))
    a.goto(server.http + board_path(board, "owner"))
    wait_live(a)
    a.evaluate("() => window.timerboard.dialogsLoaded")
    go_offline(a)
    a.locator(".history-open").click()
    expect(toast(a, "could not be loaded")).to_be_visible()
    expect(a.locator("#history-dialog")).to_have_js_property("open", False)
    # The dialogs whose code came still open.
    a.locator(".screens-open").click()
    expect(a.locator("#screens-dialog")).to_have_js_property("open", True)
    assert errors == []
    context.close()
