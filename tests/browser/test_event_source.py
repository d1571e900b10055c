"""A browser's own EventSource follows a board (issue 31): it cannot send a secret in a header,
so a page asks for a one-time ticket with the secret and opens the stream with it; every
changeset then arrives as an event whose id is its revision."""
from conftest import DESKTOP


def test_an_event_source_with_a_ticket_receives_every_changeset(browser, server, board):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(server.http + "/")
    page.evaluate("""async ({board, secret}) => {
        const answer = await fetch(`/api/boards/${board}/event-tickets`, {method: "POST", headers: {Authorization: `Bearer ${secret}`}});
        const {url} = await answer.json();
        window.received = [];
        window.source = new EventSource(url);
        window.source.addEventListener("changes", (event) => window.received.push({id: event.lastEventId, data: JSON.parse(event.data)}));
        await new Promise((resolve) => window.source.addEventListener("snapshot", resolve, {once: true}));
    }""", {"board": str(board), "secret": board.view})
    status, _ = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit,
                               body={"opId": "1", "ops": [{"op": "addSection", "id": "s", "title": "Kitchen"}]})
    assert status == 200
    page.wait_for_function("window.received.length === 1")
    received = page.evaluate("window.received")
    assert received[0]["id"] == "1" and received[0]["data"]["changes"][0]["title"] == "Kitchen"
    page.evaluate("window.source.close()")
    context.close()
