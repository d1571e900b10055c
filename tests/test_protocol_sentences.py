"""Sentences of docs/protocol.md a script author relies on, each checked on a real server from the
outside, as a script written only from the document would meet them (issue 34)."""
import base64
import json
import os
import socket
import urllib.request

from raw_websocket import RawClient
from test_socket_limits import read_response, upgrade

from conftest import ADMIN_TOKEN, join_message


def greeted(server, client_id):
    client = RawClient(server.port, None)
    client.send({"type": "hello", "protocol": 1, "clientId": client_id})
    client.until("welcome")
    return client


def joined(server, board, client_id):
    client = greeted(server, client_id)
    client.send(join_message(board))
    assert client.message()["type"] == "access"
    client.until("snapshot")
    return client


def edit(client, op_id, ops) -> dict:
    """Sends an edit and returns its outcome: its ack or its reject."""
    client.send({"type": "edit", "opId": op_id, "ops": ops})
    while True:
        message = client.message()
        if message.get("opId") == op_id and message["type"] in ("ack", "reject"):
            return message


# Errors: "rate_limited ... a join over the budget gets an error with this code and retryAfterMs"
def test_a_join_over_the_budget_gets_an_error_with_retry_after_ms(server_factory):
    server = server_factory(["--edits-per-second", "0.001", "--edit-burst", "1"]).start()
    board = server.create_board("Joins")
    client = joined(server, board, "joiner")  # the one token
    client.send(join_message(board))
    refused = client.until("error")
    assert refused["code"] == "rate_limited", refused
    assert isinstance(refused.get("retryAfterMs"), int) and refused["retryAfterMs"] > 0, refused
    client.close()


def board_with_timers(server, title, timers: int):
    """A board with one section `s` holding `timers` timers, made through a connection of its own."""
    board = server.create_board(title)
    maker = joined(server, board, "maker-" + board)
    ops = [{"op": "addSection", "id": "s", "title": "S"}]
    for n in range(timers):
        ops.append({"op": "addTimer", "id": f"t{n}", "sectionID": "s", "title": "x", "minutes": 1, "seconds": 0})
    for start in range(0, len(ops), 100):
        assert edit(maker, f"make{start}", ops[start:start + 100])["type"] == "ack"
    maker.close()
    return board


# Errors, rate_limited: "an edit costs one token per 100 changes it made, rounded up"
def test_an_edit_costs_one_token_per_hundred_changes_rounded_up(server_factory):
    # Four tokens and (practically) no refill: a join takes one, the big edit its share.
    server = server_factory(["--edits-per-second", "0.001", "--edit-burst", "4"]).start()

    # 200 changes (199 timers and their section) cost 2: the next edit still fits.
    board = board_with_timers(server, "Two hundred", 199)
    client = joined(server, board, "deleter-200")
    ack = edit(client, "delete", [{"op": "deleteSection", "id": "s"}])
    assert ack["type"] == "ack" and ack["rev"] == 3, ack
    after = edit(client, "after", [{"op": "addSection", "id": "s2", "title": "Next"}])
    assert after["type"] == "ack", f"200 changes cost more than 2 tokens: {after}"
    client.close()

    # 201 changes cost 3: nothing is left for another edit.
    board = board_with_timers(server, "Two hundred one", 200)
    client = joined(server, board, "deleter-201")
    assert edit(client, "delete", [{"op": "deleteSection", "id": "s"}])["type"] == "ack"
    after = edit(client, "after", [{"op": "addSection", "id": "s2", "title": "Next"}])
    assert after["type"] == "reject" and after["code"] == "rate_limited", after
    client.close()


# Errors: "which messages get a reject": an edit whose opId is valid, whatever else is wrong.
def test_every_edit_with_a_valid_op_id_gets_a_reject_and_everything_else_an_error(server):
    board = server.create_board("Rejects")
    client = RawClient(server.port, None)
    client.send({"type": "edit", "opId": "before-hello", "ops": [{"op": "addSection", "id": "s", "title": "A"}]})
    answer = client.message()
    assert (answer["type"], answer["code"], answer["opId"]) == ("reject", "hello_required", "before-hello"), answer
    client.send({"type": "hello", "protocol": 1, "clientId": "rejects"})
    client.until("welcome")
    client.send({"type": "edit", "opId": "before-join", "ops": [{"op": "addSection", "id": "s", "title": "A"}]})
    answer = client.message()
    assert (answer["type"], answer["code"]) == ("reject", "not_joined"), answer
    client.send({"type": "edit", "opId": "big", "ops": [], "pad": "x" * 70_000})
    answer = client.message()
    assert (answer["type"], answer["code"]) == ("reject", "too_large"), answer
    for bad_op_id in [5, "", "x" * 65, None]:
        client.send({"type": "edit", "opId": bad_op_id, "ops": []})
        answer = client.message()
        assert answer["type"] == "error" and "opId" not in answer, (bad_op_id, answer)
    client.send_frame(b'{"type":"edit","opId":"cut","ops":[')
    answer = client.message()
    assert (answer["type"], answer["code"]) == ("error", "bad_json"), answer
    client.send(join_message(board))
    client.until("snapshot")
    client.send({"type": "edit", "opId": "no-op-name", "ops": [{"id": "s"}]})
    assert client.until("reject")["opId"] == "no-op-name"
    client.close()


def raw_upgrade(port: int, origin=None, path="/ws"):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    origin_line = f"Origin: {origin}\r\n" if origin else ""
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"{origin_line}Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return sock, *read_response(sock)


# Connecting: a refused upgrade says why, in the error shape, with a code of its own.
def test_a_refused_upgrade_says_too_many_connections_not_unavailable(server_factory):
    server = server_factory(["--max-connections-per-address", "1"]).start()
    first = greeted(server, "first")
    sock, status, headers, body = upgrade(server.port)
    sock.close()
    error = json.loads(body)
    assert status == 503 and int(headers["retry-after"]) > 0, (status, headers)
    assert error["type"] == "error" and error["code"] == "too_many_connections", error
    first.close()


def test_an_upgrade_from_another_sites_page_is_a_403_with_the_error_shape(server):
    sock, status, headers, body = raw_upgrade(server.port, origin="https://evil.example")
    sock.close()
    assert status == 403 and headers["content-type"].startswith("application/json"), (status, headers)
    error = json.loads(body)
    assert error["type"] == "error" and error["code"] == "forbidden" and error["message"], error


# HTTP errors: "every HTTP error, on every route, has the error shape".
def test_every_http_error_has_the_error_shape(server):
    board = server.create_board("Shapes")
    cases = [
        ("GET", "/api/nothing", None, None, 404, "not_found"),
        ("GET", f"/api/boards/{board}/nothing", board.owner, None, 404, "not_found"),
        ("PUT", f"/api/boards/{board}", board.owner, {"title": "x"}, 404, "not_found"),
        ("DELETE", "/api/boards", ADMIN_TOKEN, None, 404, "not_found"),
        ("GET", "/no-such-file.js", None, None, 404, "not_found"),
        ("GET", "/metrics", "wrong", None, 401, "forbidden"),
        ("GET", f"/api/boards/{board}", "wrong", None, 404, "board_not_found"),
        ("GET", f"/api/boards/{board}/history?limit=0", board.view, None, 400, "invalid_field"),
        ("GET", f"/api/boards/{board}/webhooks", board.edit, None, 403, "forbidden"),
        ("GET", f"/api/boards/{board}/events", "wrong", None, 404, "board_not_found"),
        ("POST", f"/api/boards/{board}/edits", board.edit, {"ops": []}, 400, "bad_message"),
        ("GET", "/api/boards", "wrong", None, 403, "forbidden"),
    ]
    for method, path, secret, body, status, code in cases:
        got, answer = server.request(method, path, secret=secret, body=body)
        assert got == status and isinstance(answer, dict), (method, path, got, answer)
        assert answer["type"] == "error" and answer["code"] == code and answer["message"], (method, path, answer)


# HTTP API and Operations: one title rule for boards, sections and timers.
def test_a_board_title_follows_the_one_title_rule_on_create_and_rename(server):
    for title in ["", "   ", "a\nb", "a\u2028b", "\u200b\u200b"]:
        status, answer = server.post_board(json.dumps({"title": title}).encode())
        assert (status, answer["code"]) == (400, "invalid_field"), (title, status, answer)
    status, answer = server.post_board(b"{}")
    assert status == 201 and answer["title"] == "Untitled board", answer
    status, answer = server.post_board(json.dumps({"title": " Kitchen "}).encode())
    assert status == 201 and answer["title"] == " Kitchen ", "stored as sent, as a section's title is"
    board = server.create_board("Rename")
    for title in ["", "  "]:
        status, answer = server.request("PATCH", f"/api/boards/{board}", secret=board.owner, body={"title": title})
        assert (status, answer["code"]) == (400, "invalid_field"), (title, answer)
    status, answer = server.request("PATCH", f"/api/boards/{board}", secret=board.owner, body={"title": " Tea "})
    assert status == 200 and answer["title"] == " Tea ", answer
    client = joined(server, board, "titles")
    refused = edit(client, "blank", [{"op": "addSection", "id": "s", "title": "  "}])
    assert (refused["type"], refused["code"]) == ("reject", "invalid_field"), refused
    assert edit(client, "spaced", [{"op": "addSection", "id": "s", "title": " Prep "}])["type"] == "ack"
    client.close()
    assert server.snapshot(board)["sections"][0]["title"] == " Prep "


# Errors: "unknown_op: an operation's op is not one of the operations above", whatever else it lacks.
def test_an_unknown_op_is_unknown_op_even_without_an_id(server):
    board = server.create_board("Ops")
    client = joined(server, board, "ops")
    for op in [{"op": "renameBoard", "title": "x"}, {"op": "nope", "id": "s"}]:
        refused = edit(client, "o-" + op["op"], [op])
        assert (refused["type"], refused["code"], refused["op"]) == ("reject", "unknown_op", 0), refused
    client.close()


# hello: "Must be the first message, and is sent once"; `protocol` must be 1.
def test_a_second_hello_is_refused_and_the_first_client_id_and_name_stay(server):
    other = RawClient(server.port, None)
    other.send({"type": "hello", "protocol": 2, "clientId": "from-the-future"})
    answer = other.until("error")
    assert answer["code"] == "version_mismatch", answer
    other.close()
    board = server.create_board("Hello once")
    client = joined(server, board, "first-client")
    client.send({"type": "hello", "protocol": 1, "clientId": "second-client", "name": "Impostor"})
    answer = client.until("error")
    assert (answer["type"], answer["code"]) == ("error", "bad_message"), answer
    # The socket still edits as the first client: a resend of its opId is its duplicate.
    assert edit(client, "e1", [{"op": "addSection", "id": "s", "title": "A"}])["type"] == "ack"
    assert edit(client, "e1", [{"op": "addSection", "id": "s", "title": "A"}]).get("duplicate") is True
    client.close()


# Operations: a field the operation does not take is refused, not dropped.
def test_an_operation_with_a_field_it_does_not_take_is_refused_and_changes_nothing(server):
    board = server.create_board("Fields")
    client = joined(server, board, "fields")
    assert edit(client, "add", [{"op": "addSection", "id": "s", "title": "A"}])["type"] == "ack"
    rev = server.snapshot(board)["rev"]
    refused = edit(client, "typo", [{"op": "updateSection", "id": "s", "titel": "B"}])
    assert (refused["type"], refused["code"], refused["op"]) == ("reject", "bad_message", 0), refused
    assert "titel" in refused["message"] and "title" in refused["message"], refused
    assert server.snapshot(board)["rev"] == rev
    client.close()


# HTTP API: HEAD answers as GET does, without the body (RFC 9110 9.3.2).
def test_head_answers_every_get_route_with_its_headers_and_no_body(server):
    import http.client
    board = server.create_board("Head")
    for path, headers in [("/health", {}), ("/ready", {}), (f"/api/boards/{board}", {"Authorization": f"Bearer {board.view}"}),
                          ("/api/openapi.json", {})]:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", path, headers=headers)
        got = connection.getresponse()
        body = got.read()
        connection.request("HEAD", path, headers=headers)
        head = connection.getresponse()
        assert head.status == got.status == 200, (path, head.status, got.status)
        assert head.read() == b"", path
        assert head.getheader("Content-Length") == str(len(body)), (path, head.getheader("Content-Length"), len(body))
        assert head.getheader("Content-Type") == got.getheader("Content-Type"), path
        connection.close()
    # A HEAD opens nothing a GET would not: a wrong secret reads as no board, with no body.
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("HEAD", f"/api/boards/{board}", headers={"Authorization": "Bearer not-a-secret-0123456789"})
    refused = connection.getresponse()
    assert (refused.status, refused.read()) == (404, b"")
    connection.close()
