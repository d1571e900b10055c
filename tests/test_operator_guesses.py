"""The operator token against guessing (issue 34): wrong `Authorization: Bearer` tokens from one
address on the operator's routes (`GET /api/boards`, `reset-links`, `/metrics`) take from a small
budget; past it, that address's operator requests get `429` `rate_limited` with `Retry-After`
before any token is compared. The right token, before that, takes nothing; another address is
not held back."""
import http.client

from conftest import ADMIN_TOKEN


def get(server, path, token, source="127.0.0.1"):
    """(status, headers with lower-case names) of a GET with a bearer token, sent from `source`."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=15, source_address=(source, 0))
    connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, {name.lower(): value for name, value in response.getheaders()}


def test_wrong_operator_tokens_from_one_address_get_429_after_a_few(server_factory):
    server = server_factory(["--operator-guesses-per-minute", "0.01", "--operator-guess-burst", "3"]).start()
    # The right token takes nothing of the budget, however often.
    assert all(get(server, "/api/boards", ADMIN_TOKEN)[0] == 200 for _ in range(5))
    board = server.create_board("Guessed at")
    # Three wrong guesses, over three operator routes, are answered as before.
    assert get(server, "/api/boards", "wrong-token-0123456789")[0] == 403
    assert get(server, "/metrics", "wrong-token-0123456789")[0] == 401
    status, _ = server.request("POST", f"/api/boards/{board}/reset-links", secret="wrong-token-0123456789")
    assert status == 404
    # The fourth gets 429 with Retry-After, and so does the right token from that address now:
    # it would otherwise tell the guesser which guess was right.
    for path in ("/api/boards", "/metrics"):
        for token in ("wrong-token-0123456789", ADMIN_TOKEN):
            status, headers = get(server, path, token)
            assert status == 429 and int(headers["retry-after"]) > 0, (path, status, headers)
    status, body = server.request("POST", f"/api/boards/{board}/reset-links", secret=ADMIN_TOKEN)
    assert status == 429 and body["code"] == "rate_limited", (status, body)
    # Another address has its own budget; a board's own link is no operator request.
    assert get(server, "/api/boards", ADMIN_TOKEN, source="127.0.0.2")[0] == 200
    assert server.snapshot(board)["title"] == "Guessed at"
