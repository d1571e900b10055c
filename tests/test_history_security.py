"""The history and the report (issue 32) get the security tests every board route has: a wrong
or missing secret gets the unknown-board answer, paging that is not a number in range gets a typed
400, and one address reading them in a loop is told to wait while another address is not."""
import http.client
import json

import pytest

ROUTES = ["history", "report.csv", "report.json"]


def get(server, path, secret=None, source="127.0.0.1"):
    """(status, headers, body bytes) of a GET from `source` (any address of the loopback)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    try:
        connection.request("GET", path, headers={"Authorization": f"Bearer {secret}"} if secret else {})
        response = connection.getresponse()
        return response.status, response, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("route", ROUTES)
def test_a_wrong_or_missing_secret_gets_the_unknown_board_answer(server, route):
    board = server.create_board()
    unknown = get(server, f"/api/boards/nosuchboard1/{route}", board.view)
    assert unknown[0] == 404 and json.loads(unknown[2])["code"] == "board_not_found"
    for secret in [None, "not-the-secret-0123456789", board.view[:-1]]:
        status, _, body = get(server, f"/api/boards/{board}/{route}", secret)
        assert (status, body) == (404, unknown[2].replace(b"nosuchboard1", str(board).encode())), secret
    assert get(server, f"/api/boards/{board}/{route}", board.view)[0] == 200


@pytest.mark.parametrize("query", ["before=abc", "before=0", "before=-3", "limit=0", "limit=201", "limit=ten", "limit=1.5"])
def test_paging_out_of_its_rules_gets_a_typed_400(server, query):
    board = server.create_board()
    status, _, body = get(server, f"/api/boards/{board}/history?{query}", board.view)
    assert status == 400, body
    error = json.loads(body)
    assert error["code"] == "invalid_field" and error["message"], error


def test_paging_in_its_rules_is_answered(server):
    board = server.create_board()
    for query in ["limit=1", "limit=200", "before=1", "before=5&limit=3"]:
        status, _, body = get(server, f"/api/boards/{board}/history?{query}", board.view)
        assert status == 200 and "entries" in json.loads(body), query


def test_an_address_reading_in_a_loop_is_told_to_wait_and_another_is_not(server_factory):
    server = server_factory(["--history-reads-per-minute", "1", "--history-read-burst", "3"]).start()
    board = server.create_board()
    answers = [get(server, f"/api/boards/{board}/{ROUTES[n % 3]}", board.view) for n in range(6)]
    assert [status for status, _, _ in answers[:3]] == [200, 200, 200]
    refused = [(response, body) for status, response, body in answers if status == 429]
    assert len(refused) == 3
    for response, body in refused:
        assert json.loads(body)["code"] == "rate_limited" and int(response.getheader("Retry-After")) > 0
    assert get(server, f"/api/boards/{board}/history", board.view, source="127.0.0.2")[0] == 200
