"""A board's own edit budget (issue 34): however many addresses (or sockets) edit one board, its
room takes at most `--board-edits-per-second` of their edits; over it each gets `rate_limited`
with `retryAfterMs`, as for a connection, nothing changes, the connection stays. Sockets and
HTTP edits draw from the same budget; another board keeps its own; a join takes nothing of it
(a secret-less stranger must not keep a board's people out)."""
from conftest import join_message
from raw_websocket import RawClient


def rename(op_id, title):
    return {"type": "edit", "opId": op_id, "ops": [{"op": "updateSection", "id": "s", "title": title}]}


def outcomes(client, count):
    answers = []
    while len(answers) < count:
        if (message := client.message())["type"] in ("ack", "reject"):
            answers.append(message)
    return answers


def test_many_addresses_share_one_boards_budget_and_http_edits_draw_from_it_too(server_factory):
    # The board's budget hardly refills (one a hundred seconds): what is spent stays spent.
    server = server_factory(["--board-edits-per-second", "0.01", "--board-edit-burst", "7"]).start()
    board = server.create_board("Hammered")
    other_board = server.create_board("Quiet")
    setup = RawClient(server.port, None)
    setup.hello_and_join("setup-0123456789", board)
    setup.send({"type": "edit", "opId": "setup", "ops": [{"op": "addSection", "id": "s", "title": "S"}]})
    assert setup.until("ack")["opId"] == "setup"  # one of the board's 7
    # Three addresses, each well inside its own connection's and address's budgets, 3 edits each.
    clients = []
    for n, source in enumerate(["127.0.0.2", "127.0.0.3", "127.0.0.4"]):
        client = RawClient(server.port, None, source=source)
        client.hello_and_join(f"hammer-{n}-0123456789", board)
        clients.append(client)
    answers = []
    for n, client in enumerate(clients):
        for k in range(3):
            client.send(rename(f"h{n}-{k}", f"from {n}, {k}"))
        answers += outcomes(client, 3)
    acked = [answer for answer in answers if answer["type"] == "ack"]
    refused = [answer for answer in answers if answer["type"] == "reject"]
    assert len(acked) == 6, answers
    assert len(refused) == 3 and all(a["code"] == "rate_limited" and a["retryAfterMs"] > 0 for a in refused), refused
    assert server.snapshot(board)["rev"] == 1 + 6, "a refused edit changed the board"
    # An HTTP edit to the same board draws from the same budget: 429 with Retry-After.
    status, answer = server.request("POST", f"/api/boards/{board}/edits", secret=board.edit,
                                    body={"opId": "http-1", "ops": [{"op": "updateSection", "id": "s", "title": "HTTP"}]})
    assert status == 429 and answer["code"] == "rate_limited" and answer["retryAfterMs"] > 0, (status, answer)
    # The connections stay, and a join takes nothing of the board's budget.
    clients[0].send({"type": "ping", "t": 7})
    assert clients[0].until("pong")["t"] == 7
    late = RawClient(server.port, None, source="127.0.0.5")
    late.hello_and_join("late-0123456789", board)
    late.until("snapshot")
    # Another board has a budget of its own, over a socket and over HTTP.
    elsewhere = RawClient(server.port, None, source="127.0.0.2")
    elsewhere.hello_and_join("elsewhere-0123456789", other_board)
    elsewhere.send({"type": "edit", "opId": "q1", "ops": [{"op": "addSection", "id": "q", "title": "Q"}]})
    assert elsewhere.until("ack")["opId"] == "q1"
    status, answer = server.request("POST", f"/api/boards/{other_board}/edits", secret=other_board.edit,
                                    body={"opId": "http-q", "ops": [{"op": "updateSection", "id": "q", "title": "HTTP"}]})
    assert status == 200, (status, answer)
    for client in [setup, late, elsewhere, *clients]:
        client.close()


def test_edits_the_board_refuses_cost_their_address_nothing(server_factory):
    # One address, budgets that hardly refill: 10 joins and edits in all, the busy board 2 edits.
    server = server_factory(["--board-edits-per-second", "0.01", "--board-edit-burst", "2",
                             "--address-edits-per-second", "0.01", "--address-edit-burst", "10"]).start()
    busy, quiet = server.create_board("Busy"), server.create_board("Quiet")
    first = RawClient(server.port, None)
    first.hello_and_join("first-0123456789", busy)  # the address's 1st
    first.send({"type": "edit", "opId": "s", "ops": [{"op": "addSection", "id": "s", "title": "S"}]})
    first.send(rename("r0", "kept"))
    answers = outcomes(first, 2)  # the address's 2nd and 3rd, the board's two
    assert [a["type"] for a in answers] == ["ack", "ack"], answers
    # The board refuses the next edit; its client sends it again, eight times: the tries used to
    # spend the address's 7 tokens left.
    for _ in range(8):
        first.send(rename("retried", "refused"))
    refused = outcomes(first, 8)
    assert all(a["type"] == "reject" and a["code"] == "rate_limited" for a in refused), refused
    # The same address, another board: its join and edit still have the address's budget.
    second = RawClient(server.port, None)
    second.hello_and_join("second-0123456789", quiet)
    second.send({"type": "edit", "opId": "q", "ops": [{"op": "addSection", "id": "q", "title": "Q"}]})
    assert outcomes(second, 1)[0]["type"] == "ack"
    first.close()
    second.close()


def test_the_board_budget_is_a_flag_with_its_default_in_the_help():
    import subprocess
    from conftest import BINARY
    help_text = subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True).stdout
    assert "--board-edits-per-second" in help_text and "--board-edit-burst" in help_text
