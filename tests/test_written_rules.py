"""Rules docs/protocol.md writes once and the server keeps to the letter (issue 34): integer
fields, answers that carry secrets, and the operator token."""
import json
import urllib.error
import urllib.request

from conftest import ADMIN_TOKEN
from raw_websocket import RawClient


def raw(server, method, path, secret=None, body=None):
    """(status, headers, parsed body or None) of any request."""
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(server.http + path, data=None if body is None else json.dumps(body).encode(),
                                     method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            data = response.read()
            return response.status, response.headers, json.loads(data) if data else None
    except urllib.error.HTTPError as error:
        data = error.read()
        return error.code, error.headers, json.loads(data) if data else None


def answer_to(client, message):
    client.send(message)
    while (answer := client.message())["type"] not in ("ack", "reject", "error"):
        pass
    return answer


def test_an_integer_field_takes_any_number_without_a_fraction_and_refuses_one_with_a_fraction(server):
    board = server.create_board()
    client = RawClient(server.port, None)
    client.hello_and_join("integers-0123456789", board)
    client.until("snapshot")
    add = {"op": "addTimer", "id": "tea", "sectionID": "s", "title": "Tea", "seconds": 0}
    assert answer_to(client, {"type": "edit", "opId": "0", "ops": [{"op": "addSection", "id": "s", "title": "S"}]})["type"] == "ack"
    assert answer_to(client, {"type": "edit", "opId": "1", "ops": [{**add, "minutes": 2.0}]})["type"] == "ack"
    for op_id, op in [("2", {**add, "id": "tea2", "minutes": 1.5}),
                      ("3", {"op": "updateTimer", "id": "tea", "warnAt": 1000.5}),
                      ("4", {"op": "adjustTimer", "id": "tea", "by": 0.5})]:
        reject = answer_to(client, {"type": "edit", "opId": op_id, "ops": [op]})
        assert (reject["type"], reject["code"]) == ("reject", "invalid_field"), reject
    error = answer_to(client, {"type": "presence", "editing": None, "clockError": 1.5})
    assert (error["type"], error["code"]) == ("error", "invalid_field"), error
    error = answer_to(client, {"type": "presence", "editing": None, "clockError": "12"})
    assert (error["type"], error["code"]) == ("error", "bad_message"), error
    assert server.snapshot(board)["timers"][0]["minutes"] == 2
    client.close()


def test_answers_that_carry_secrets_are_not_stored_by_caches(server):
    status, headers, created = raw(server, "POST", "/api/boards", body={"title": "Secretive"})
    assert status == 201 and headers["Cache-Control"] == "no-store"
    board, owner = created["id"], created["secrets"]["owner"]
    # The reset last: it replaces every link.
    for method, path, secret in [("GET", f"/api/boards/{board}/links", owner),
                                 ("POST", f"/api/boards/{board}/links/view", owner),
                                 ("POST", f"/api/boards/{board}/event-tickets", created["secrets"]["edit"]),
                                 ("POST", f"/api/boards/{board}/reset-links", ADMIN_TOKEN)]:
        status, headers, _ = raw(server, method, path, secret)
        assert status in (200, 201) and headers["Cache-Control"] == "no-store", (path, status)
    # A board's snapshot carries no secret: revalidated, not forbidden to store.
    _, _, body = raw(server, "POST", "/api/boards", body={"title": "Plain"})
    status, headers, _ = raw(server, "GET", f"/api/boards/{body['id']}", body["secrets"]["view"])
    assert status == 200 and headers["Cache-Control"] == "no-cache"


def test_the_operator_token_counts_as_the_owner_except_where_a_link_itself_is_needed(server):
    board = server.create_board("Operated")
    assert raw(server, "GET", f"/api/boards/{board}", ADMIN_TOKEN)[0] == 200
    assert raw(server, "PATCH", f"/api/boards/{board}", ADMIN_TOKEN, {"title": "Renamed"})[0] == 200
    assert raw(server, "GET", f"/api/boards/{board}/history", ADMIN_TOKEN)[0] == 200
    for method, path in [("GET", "links"), ("POST", "links/edit"), ("GET", "events"), ("POST", "event-tickets")]:
        status, _, error = raw(server, method, f"/api/boards/{board}/{path}", ADMIN_TOKEN)
        assert (status, error["code"]) == (403, "forbidden"), (path, status, error)
    assert raw(server, "POST", f"/api/boards/{board}/reset-links", ADMIN_TOKEN)[0] == 200
    assert raw(server, "DELETE", f"/api/boards/{board}", ADMIN_TOKEN)[0] == 204
