"""An operator gives a board three new links while its server runs (issue 36): over HTTP with
the operator token (`POST /api/boards/ID/reset-links`), and with `timerboard reset-links` on the
data directory of a running SQLite server, which asks that server. Every old link stops at once:
the sockets that joined with any of them are closed (4403), a join with one is refused, and the
new links work, with no restart. The route answers nobody else: no token, a wrong one, the
owner's or the edit link's secret, another site's page, a flood of guesses."""
import subprocess
from concurrent.futures import ThreadPoolExecutor

from conftest import ADMIN_TOKEN, BINARY
from raw_websocket import RawClient
from test_links import join_answer

ROLES = ("owner", "edit", "view")


def joined_on_every_role(server, board):
    clients = {}
    for role in ROLES:
        client = RawClient(server.port, None)
        client.hello_and_join(f"{role}-client-0123456789", board, role=role)
        assert client.access["role"] == role
        assert client.message()["type"] == "snapshot"
        clients[role] = client
    return clients


def secret_of(link: str, role: str) -> str:
    return link.split(f"#{role}=", 1)[1]


def assert_only_the_new_links_work(server, board, links):
    for role in ROLES:
        assert join_answer(server, str(board), board.secrets[role])["code"] == "board_not_found", role
        assert join_answer(server, str(board), secret_of(links[role], role))["role"] == role


def test_the_operator_resets_a_served_boards_links_over_http_and_every_old_socket_closes_at_once(server):
    board = server.create_board("Leaked")
    clients = joined_on_every_role(server, board)
    status, body = server.request("POST", f"/api/boards/{board}/reset-links", secret=ADMIN_TOKEN)
    assert status == 200, body
    assert body["id"] == str(board)
    assert set(body["links"]) == set(ROLES) and set(body["secrets"]) == set(ROLES)
    assert body["url"] == body["links"]["owner"]
    for role in ROLES:
        assert body["links"][role] == f"/b/{board}#{role}={body['secrets'][role]}"
        assert body["secrets"][role] != board.secrets[role]
        assert clients[role].close_code() == 4403, role
    assert_only_the_new_links_work(server, board, body["links"])
    # The board's content came along.
    assert server.request("GET", f"/api/boards/{board}", secret=body["secrets"]["view"])[0] == 200


def test_the_reset_route_answers_only_the_operator_token(server_factory):
    # Guesses refill so slowly that no run is long enough to earn one back: how many of the
    # flood get through is the burst, however slow the machine (5 a minute, the default, let
    # a slow CI run earn 13 instead of 10).
    server = server_factory(["--operator-guesses-per-minute", "0.01", "--operator-guess-burst", "10"]).start()
    board = server.create_board("Guarded")
    path = f"/api/boards/{board}/reset-links"
    assert server.request("POST", path)[0] == 404  # no token: as for an unknown board
    assert server.request("POST", path, secret="wrong-token-0123456789abcdef")[0] == 404
    assert server.request("POST", path, secret=ADMIN_TOKEN[:-1])[0] == 404
    for role in ROLES:
        status, body = server.request("POST", path, secret=board.secrets[role])
        assert (status, body["code"]) == (403, "forbidden"), (role, body)
    assert server.request("POST", "/api/boards/no-such-board/reset-links", secret=ADMIN_TOKEN)[0] == 404
    # A page of another site cannot make the operator's browser call it.
    status, body = server.request("POST", path, secret=ADMIN_TOKEN, headers={"Origin": "https://evil.example"})
    assert (status, body["code"]) == (403, "forbidden")
    # A flood of guesses changes nothing: answered like an unknown board until the address's
    # guesses at the operator token run out, then 429 (tests/test_operator_guesses.py). The two
    # wrong tokens above took 2 of the 10; requests that arrive together get no more (8 threads
    # got 9 to 11 through while the guesses were looked at before they were taken).
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda n: server.request("POST", path, secret=f"guess-{n:04d}-0123456789")[0], range(200)))
    assert set(statuses) <= {404, 429} and statuses.count(404) == 8, statuses
    for role in ROLES:
        assert join_answer(server, str(board), board.secrets[role])["role"] == role


def test_the_command_asks_the_running_sqlite_server_and_the_old_link_stops_without_a_restart(server):
    board = server.create_board("Served")
    clients = joined_on_every_role(server, board)
    # Without the token it changes nothing and says why: a server serves the directory.
    refused = subprocess.run([str(BINARY), "reset-links", str(board), "--data-directory", str(server.data_dir)],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "serves" in refused.stderr and "--admin-token" in refused.stderr, refused.stderr
    assert join_answer(server, str(board), board.edit)["role"] == "edit"

    result = subprocess.run([str(BINARY), "reset-links", str(board), "--data-directory", str(server.data_dir)],
                            capture_output=True, text=True, timeout=60, env={"TIMERBOARD_ADMIN_TOKEN": ADMIN_TOKEN, "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    links = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    assert set(links) == set(ROLES)
    for role in ROLES:
        assert clients[role].close_code() == 4403, role
    assert_only_the_new_links_work(server, board, links)

    wrong = subprocess.run([str(BINARY), "reset-links", "no-such-board", "--data-directory", str(server.data_dir),
                            "--admin-token", ADMIN_TOKEN], capture_output=True, text=True, timeout=60)
    assert wrong.returncode != 0 and "404" in wrong.stderr, wrong.stderr


def test_a_second_server_on_a_served_data_directory_is_refused_and_says_which_serves_it(server, tmp_path):
    second = subprocess.run([str(BINARY), "serve", "--port", "0", "--data-directory", str(server.data_dir)],
                            capture_output=True, text=True, timeout=60)
    assert second.returncode != 0
    assert "another server serves" in second.stderr + second.stdout
    assert f"127.0.0.1:{server.port}" in second.stderr + second.stdout
