"""The operator token against guessing (issue 34): wrong `Authorization: Bearer` tokens from one
address on the operator's routes (`GET /api/boards`, `reset-links`, `/metrics`) take from a small
budget; past it, that address's operator requests get `429` `rate_limited` with `Retry-After`
before any token is compared. The right token, before that, takes nothing; another address is
not held back."""
import http.client
from concurrent.futures import ThreadPoolExecutor

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


def test_a_boards_routes_count_secrets_that_open_nothing_and_then_compare_no_operator_token(server_factory):
    # A board's routes take the operator token as its owner's secret: they used to compare any
    # number of guesses at it (200 for the right one, 404 for the others).
    server = server_factory(["--operator-guesses-per-minute", "0.01", "--operator-guess-burst", "3"]).start()
    board = server.create_board("Guessed at")
    # The board's links are no guesses, however often.
    assert all(get(server, f"/api/boards/{board}", board.view)[0] == 200 for _ in range(5))
    assert all(get(server, f"/api/boards/{board}", f"wrong-secret-{n}")[0] == 404 for n in range(3))
    # Out of guesses: a secret that opens nothing gets 429, the operator token is no longer
    # compared (so it opens nothing either), and the board's own links work as before.
    for token in ("wrong-secret-3", ADMIN_TOKEN):
        status, headers = get(server, f"/api/boards/{board}", token)
        assert status == 429 and int(headers["retry-after"]) > 0, (token, status)
    assert get(server, f"/api/boards/{board}", board.view)[0] == 200
    status, body = server.request("PATCH", f"/api/boards/{board}", secret=board.owner, body={"title": "Renamed"})
    assert status == 200, body
    # The same budget as the operator's own routes; another address has its own.
    assert get(server, "/api/boards", ADMIN_TOKEN)[0] == 429
    assert get(server, f"/api/boards/{board}", ADMIN_TOKEN, source="127.0.0.2")[0] == 200


def test_the_event_stream_tells_no_guesser_which_token_is_the_operators(server_factory):
    # An event stream refuses the operator token with 403 and a wrong secret with 404: that
    # difference used to answer any number of guesses, on any board id.
    server = server_factory(["--operator-guesses-per-minute", "0.01", "--operator-guess-burst", "2"]).start()
    assert get(server, "/api/boards/any-id/events", ADMIN_TOKEN)[0] == 403
    status, _ = server.request("POST", "/api/boards/any-id/event-tickets", secret=ADMIN_TOKEN)
    assert status == 403
    assert get(server, "/api/boards/any-id/events", "wrong-secret-0")[0] == 404
    status, _ = server.request("POST", "/api/boards/any-id/event-tickets", secret="wrong-secret-1")
    assert status == 404
    for token in ("wrong-secret-2", ADMIN_TOKEN):
        status, headers = get(server, "/api/boards/any-id/events", token)
        assert status == 429 and int(headers["retry-after"]) > 0, (token, status)
        status, body = server.request("POST", "/api/boards/any-id/event-tickets", secret=token)
        assert status == 429 and body["code"] == "rate_limited", (token, status, body)


def test_guesses_sent_together_get_no_more_than_the_budget_and_links_sent_with_them_work(server_factory):
    # The budget was looked at before the store's answer and taken from after it, so requests
    # that arrived together all looked at the same last guess and were all compared.
    server = server_factory(["--operator-guesses-per-minute", "0.01", "--operator-guess-burst", "10"]).start()
    board = server.create_board("Flooded")

    def ask(n):
        token = board.view if n % 5 == 0 else f"guess-{n:04d}-0123456789"
        return n % 5 == 0, get(server, f"/api/boards/{board}", token)[0]

    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(ask, range(250)))
    guesses = [status for is_link, status in answers if not is_link]
    assert set(guesses) <= {404, 429} and guesses.count(404) == 10, guesses
    assert all(status == 200 for is_link, status in answers if is_link), answers
