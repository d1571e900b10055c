"""Capability links (issue 13) in the browser: each board is reached through an owner, edit or view
link with its secret in the URL fragment. The share dialog, the view-only board, the owner's
settings (rename, replace a link, delete), and the pages a link that no longer works ends on."""
import json
import re

from playwright.sync_api import expect

from conftest import DESKTOP, add_section, add_timer, board_path, converged, section, timer, toast, wait_live, wait_synced

# The controls a view link's page may show: the share button, the user's name, the sound toggle,
# and the board's fields, read-only.
VISIBLE_CONTROLS = """() => [...document.querySelectorAll('#board-page :is(button, input, select, textarea)')]
    .filter(el => el.checkVisibility())
    .map(el => el.matches('input[data-field]') ? (el.readOnly ? 'read-only field' : 'EDITABLE FIELD')
         : el.id ? '#' + el.id : '.' + [...el.classList].join('.'))"""


def open_watched(browser, server, path, name="Vic"):
    """A page of its own whose WebSocket frames are recorded: `page.sent`, `page.received` (parsed)."""
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(f"localStorage.setItem('timerboard.name', {name!r})")
    page = context.new_page()
    page.sent, page.received, page.errors = [], [], []
    page.on("pageerror", lambda error: page.errors.append(error))

    def on_socket(ws):
        ws.on("framesent", lambda payload: page.sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: page.received.append(json.loads(payload)))

    page.on("websocket", on_socket)
    page.goto(server.http + path)
    return page


def ended(page, reason):
    """`page` shows the page a board ends on, for `reason`, and the board is gone from it."""
    expect(page.locator("#ended-page")).to_be_visible()
    expect(page.locator("#ended-page")).to_have_attribute("data-reason", reason)
    expect(page.locator("#board-page")).to_be_hidden()
    expect(page.get_by_role("link", name="Go to the start page")).to_have_attribute("href", "/")


def stopped(page):
    """The page's socket is closed and it will not make another (no reconnect is scheduled)."""
    return page.evaluate("(() => { const s = window.timerboard.socket; return s.ws === null && s.fatal !== null && !s.socket.reconnecting })()")


def open_settings(page):
    page.get_by_role("button", name="Board settings").click()
    dialog = page.get_by_role("dialog", name="Board settings")
    expect(dialog).to_be_visible()
    return dialog


def test_share_dialog_shows_the_links_each_role_may_share(user, server, board, screenshot):
    owner, editor, viewer = user("Olive", role="owner"), user("Ed"), user("Vi", role="view")
    owner.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.http)

    # The owner: both links, as the server has them now, absolute.
    owner.get_by_role("button", name="Share this board").click()
    dialog = owner.get_by_role("dialog", name="Share this board")
    expect(dialog).to_be_visible()
    edit_link, view_link = dialog.get_by_label("Can edit"), dialog.get_by_label("Can view")
    expect(edit_link).to_have_value(server.http + board.links["edit"])
    expect(view_link).to_have_value(server.http + board.links["view"])
    status, answer = server.request("GET", f"/api/boards/{board}/links", secret=board.owner)
    assert status == 200 and answer["links"] == {"edit": board.links["edit"], "view": board.links["view"]}

    # Copy: on the clipboard, or (where the clipboard is refused) selected for Ctrl+C.
    # The owner's own link is there too (issue 35), with each link's display.
    expect(dialog.get_by_label("Owner")).to_have_value(f"{server.http}/b/{board}#owner={board.owner}")
    expect(dialog.locator("#share-edit-display")).to_have_value(f"{server.http}/b/{board}/display#edit={board.edit}")
    dialog.locator("button.copy-field[data-copies=share-edit-link]").click()
    said = dialog.locator(".dialog-status")
    expect(said).to_have_text(re.compile(r"copied|selected"))
    if "copied" in said.text_content():
        assert owner.evaluate("navigator.clipboard.readText()") == server.http + board.links["edit"]
    else:
        assert edit_link.evaluate("el => el.selectionStart === 0 && el.selectionEnd === el.value.length")
    screenshot(owner, "owner")
    owner.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    # An editor: its own edit link; the view link is the owner's to give.
    editor.get_by_role("button", name="Share this board").click()
    dialog = editor.get_by_role("dialog", name="Share this board")
    expect(dialog.get_by_label("Can edit")).to_have_value(server.http + board_path(board, "edit"))
    expect(dialog.get_by_label("Can view")).to_be_hidden()
    expect(dialog).to_contain_text("Only the board's owner can share a view-only link.")
    screenshot(editor, "editor")

    # A viewer: its own view link, and no edit link at all.
    viewer.get_by_role("button", name="Share this board").click()
    dialog = viewer.get_by_role("dialog", name="Share this board")
    expect(dialog.get_by_label("Can view")).to_have_value(server.http + board_path(board, "view"))
    expect(dialog.get_by_label("Can edit")).to_be_hidden()
    assert board.edit not in dialog.evaluate("el => [...el.querySelectorAll('input')].map(i => i.value).join(' ')")
    assert owner.errors == [] and editor.errors == [] and viewer.errors == []


def test_view_only_board_follows_live_and_edits_nothing(user, browser, server, board, screenshot):
    editor = user("Ed")
    add_section(editor, "Prep")
    add_timer(editor, "Prep", "Eggs", 1, 0)
    viewer = open_watched(browser, server, board_path(board, "view"))
    wait_live(viewer)
    converged(server, board, editor, viewer)

    # The server's role is shown and followed: "View only", and nothing on the page edits.
    expect(viewer.locator("#role-badge")).to_have_text("View only")
    expect(viewer.locator("#role-badge")).to_be_visible()
    assert viewer.evaluate("window.timerboard.session.role") == "view"
    # History reads what happened (any role may); it puts nothing back for a viewer. Sound and
    # Notify me are this device's own.
    assert sorted(set(viewer.evaluate(VISIBLE_CONTROLS))) == ["#notify-toggle", "#sound-toggle", "#user-name", ".button.share-open", ".button.toggle.history-open", "read-only field"]
    expect(editor.locator("#role-badge")).to_be_hidden()

    # It follows the board live, and its timers count down.
    timer(editor, "Eggs").locator(".timer-toggle").click()
    expect(timer(viewer, "Eggs")).to_have_attribute("data-status", "running")
    expect(timer(viewer, "Eggs").locator(".timer-countdown")).to_have_text(re.compile(r"^0:5\d$"))
    add_section(editor, "Bake")
    expect(section(viewer, "Bake")).to_have_count(1)
    converged(server, board, editor, viewer)
    rev = server.snapshot(board)["rev"]
    screenshot(viewer)

    # Focusing a field is not editing it: a viewer sends no presence, and is listed without a mark.
    section(viewer, "Prep").locator(".section-title").focus()
    expect(editor.locator("#presence > li")).to_have_count(1)

    # An edit tried through the page's own modules is refused by the server, and nothing changes.
    viewer.evaluate("""async () => {
        const protocol = await import('/wire/protocol.js');
        window.timerboard.session.edit([protocol.addSection({ id: 'sViewerTried', title: 'Sneaky', position: 'first' })]);
    }""")
    expect(toast(viewer, "this link can only view the board")).to_be_visible()
    wait_synced(viewer)
    rejects = [m for m in viewer.received if m["type"] == "reject"]
    assert [(m["code"]) for m in rejects] == ["forbidden"]
    expect(section(viewer, "Sneaky")).to_have_count(0)
    shown = converged(server, board, editor, viewer)
    assert server.snapshot(board)["rev"] == rev and "Sneaky" not in json.dumps(shown)
    # Its presence tells its clock's bound only (issue 18): never what it focused.
    assert [m["type"] for m in viewer.sent if m["type"] == "edit"] == ["edit"], "only the refused edit"
    presence = [m for m in viewer.sent if m["type"] == "presence"]
    assert all(m["editing"] is None and "clockError" in m for m in presence), presence
    assert [m["type"] for m in viewer.received if m["type"] == "error"] == []
    assert viewer.errors == [] and editor.errors == []
    viewer.context.close()


def test_owner_renames_the_board_for_everyone(user, server, board, screenshot):
    owner, editor = user("Olive", role="owner"), user("Ed")
    expect(owner.locator(".owner-open")).to_be_visible()
    expect(editor.locator(".owner-open")).to_be_hidden()
    dialog = open_settings(owner)
    dialog.get_by_label("Title", exact=True).fill("Kitchen, Saturday")
    dialog.get_by_role("button", name="Rename").click()
    expect(dialog.locator(".dialog-status")).to_have_text("Renamed.")
    screenshot(owner)

    for page in (owner, editor):
        expect(page.get_by_role("heading", level=1)).to_have_text("Kitchen, Saturday")
        expect(page).to_have_title("Kitchen, Saturday — TimerBoard")
    # The list of boards this browser opened keeps the new title.
    editor.wait_for_function("""() => JSON.parse(localStorage.getItem('timerboard.boards'))
        .some(b => b.title === 'Kitchen, Saturday')""")
    assert server.snapshot(board)["title"] == "Kitchen, Saturday"
    # A page opened now gets it from its snapshot.
    late = user("Late")
    expect(late.get_by_role("heading", level=1)).to_have_text("Kitchen, Saturday")
    assert owner.errors == [] and editor.errors == []


def test_replacing_the_edit_link_disconnects_its_pages(user, server, board, screenshot):
    owner, editor, viewer = user("Olive", role="owner"), user("Ed"), user("Vi", role="view")
    old_edit = board.links["edit"]

    dialog = open_settings(owner)
    dialog.get_by_role("button", name="Replace the edit link…").click()
    confirm = dialog.get_by_role("alertdialog")
    expect(confirm).to_contain_text("stops working at once")
    expect(confirm).to_contain_text("disconnected")
    # Cancelling replaces nothing.
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    assert server.request("GET", f"/api/boards/{board}/links", secret=board.owner)[1]["links"]["edit"] == old_edit

    dialog.get_by_role("button", name="Replace the edit link…").click()
    confirm.get_by_role("button", name="Replace it").click()
    new_link = dialog.get_by_label("New edit link")
    expect(new_link).to_have_value(re.compile(rf"^{re.escape(server.http)}/b/{board}#edit=[A-Za-z0-9_-]{{22}}$"))
    new_url = new_link.input_value()
    assert new_url != server.http + old_edit
    assert server.http + server.request("GET", f"/api/boards/{board}/links", secret=board.owner)[1]["links"]["edit"] == new_url
    screenshot(owner, "owner")

    # The page that joined with the old edit link says so, and stays down.
    ended(editor, "replaced")
    expect(editor.get_by_role("heading", level=1)).to_have_text("This link was replaced")
    screenshot(editor, "replaced")

    # The new link works; the view link was not touched.
    fresh = user("Fay", path=new_url.removeprefix(server.http))
    wait_live(fresh)
    add_section(fresh, "After the new link")
    converged(server, board, owner, viewer, fresh)
    assert stopped(editor), "the replaced page reconnected"
    # The old link opens nothing now.
    again = user("Ed again", path=old_edit)
    ended(again, "wrong-link")
    for page in (owner, editor, viewer, fresh, again):
        assert page.errors == []


def test_deleting_the_board_ends_every_page(user, server, board, screenshot):
    owner, editor, viewer = user("Olive", role="owner"), user("Ed"), user("Vi", role="view")
    add_section(editor, "Prep")
    dialog = open_settings(owner)
    confirm_box = dialog.get_by_label("Type delete to confirm")
    # Without the word typed, nothing happens.
    confirm_box.fill("please")
    dialog.get_by_role("button", name="Delete board").click()
    expect(dialog.locator(".dialog-status")).to_have_text("Type delete in the box to confirm.")
    assert server.request("GET", f"/api/boards/{board}", secret=board.view)[0] == 200
    confirm_box.fill("delete")
    screenshot(owner, "confirm")
    dialog.get_by_role("button", name="Delete board").click()

    for page in (owner, editor, viewer):
        ended(page, "deleted")
        expect(page.get_by_role("heading", level=1)).to_have_text("This board was deleted")
    screenshot(editor, "deleted")
    assert server.request("GET", f"/api/boards/{board}", secret=board.owner)[0] == 404
    # Nobody's browser keeps offering it.
    for page in (owner, editor, viewer):
        assert str(board) not in page.evaluate("localStorage.getItem('timerboard.boards') ?? ''")
        assert stopped(page)
        assert page.errors == []


def test_a_wrong_or_missing_secret_shows_the_wrong_link_page(user, server, board, screenshot):
    other = server.create_board("Other")
    wrong = user("Ada", path=f"/b/{board}#edit={'A' * 22}")
    ended(wrong, "wrong-link")
    expect(wrong.get_by_role("heading", level=1)).to_have_text("This link does not open a board")
    screenshot(wrong, "wrong")
    # Another board's secret is just as wrong here, and so is a board that does not exist.
    for name, path in (("Cy", f"/b/{board}#view={other.view}"), ("Di", f"/b/AAAAAAAAAAAA#edit={board.edit}")):
        page = user(name, path=path)
        ended(page, "wrong-link")
        assert page.errors == []
    # No secret at all: it never connects, and says what a link looks like.
    bare = user("Bob", path=f"/b/{board}")
    ended(bare, "no-secret")
    expect(bare.get_by_role("heading", level=1)).to_have_text("This link is incomplete")
    assert bare.evaluate("window.timerboard === undefined")
    screenshot(bare, "no-secret")
    # None of them is remembered as a board of this browser.
    assert wrong.evaluate("localStorage.getItem('timerboard.boards')") in (None, "[]")
    assert wrong.errors == [] and bare.errors == []
    # A path that is no board's (an id the server would refuse) is the start page, even with a key:
    # the board page's early frame, shown while the modules load, does not stay.
    odd = user("Eve", path=f"/b/not!an-id#edit={board.edit}")
    expect(odd.locator("#start-page")).to_be_visible()
    expect(odd.locator("#board-page")).to_be_hidden()
    assert odd.evaluate("window.timerboard === undefined") and odd.errors == []


def test_the_secret_goes_only_in_joins_and_bearer_headers(browser, server, board):
    owner = open_watched(browser, server, board_path(board, "owner"), name="Olive")
    requests, console = [], []
    owner.on("request", lambda request: requests.append((request.url, request.all_headers())))
    owner.on("console", lambda message: console.append(message.text))
    wait_live(owner)
    owner.get_by_role("button", name="Share this board").click()
    expect(owner.get_by_role("dialog", name="Share this board").get_by_label("Can view")).to_have_value(server.http + board.links["view"])
    owner.keyboard.press("Escape")
    dialog = open_settings(owner)
    dialog.get_by_label("Title", exact=True).fill("Kitchen, Sunday")
    dialog.get_by_role("button", name="Rename").click()
    expect(owner.get_by_role("heading", level=1)).to_have_text("Kitchen, Sunday")
    owner.keyboard.press("Escape")
    # A reload keeps the link (the fragment stays in the address bar) and joins again with it.
    owner.reload()
    wait_live(owner)
    assert owner.url == server.http + board_path(board, "owner")

    secret = board.owner
    assert [m["type"] for m in owner.sent if secret in json.dumps(m)] == ["join", "join"]
    assert all(secret not in url for url, _ in requests)
    carrying = [(url.removeprefix(server.http), headers["authorization"]) for url, headers in requests if secret in json.dumps(headers)]
    assert carrying == [(f"/api/boards/{board}/links", f"Bearer {secret}"), (f"/api/boards/{board}", f"Bearer {secret}")]
    assert all("referer" not in headers or secret not in headers["referer"] for _, headers in requests)
    assert not any(secret in text for text in console)
    assert owner.errors == []
    owner.context.close()
