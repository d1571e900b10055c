"""A request that sends `Expect: 100-continue` (curl does for a large body, and other HTTP
clients where asked) is answered before it sends its body: `100 Continue`, or at once `413` when
its length is over what any route takes. Before, the client waited (curl a second) and sent the
body anyway, only to have it refused after it was read."""
import json
import socket

from test_malformed_requests import ask
from test_metrics import metrics, value
from test_socket_limits import GENEROUS, closed_by_server, read_response


def edit_head(port, board, length, version="HTTP/1.1"):
    return (f"POST /api/boards/{board}/edits {version}\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: Bearer {board.edit}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\nExpect: 100-continue\r\n\r\n")


def test_a_request_that_expects_100_continue_is_told_to_go_on_and_then_answered(server):
    board = server.create_board("Expect")
    body = json.dumps({"opId": "e1", "ops": [{"op": "addSection", "id": "s", "title": "Stage"}]}).encode()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=GENEROUS)
    sock.sendall(edit_head(server.port, board, len(body)).encode())
    status, _, interim = read_response(sock)  # before any body was sent
    assert (status, interim) == (100, b"")
    sock.sendall(body)
    status, _, answer = read_response(sock)
    assert status == 200 and json.loads(answer)["type"] == "ack", answer
    assert [s["title"] for s in server.snapshot(board)["sections"]] == ["Stage"]
    sock.close()


def test_a_body_over_what_any_route_takes_is_refused_before_it_is_sent(server):
    board = server.create_board("Expect")
    sock, status, headers, body = ask(server.port, edit_head(server.port, board, 50_000_000))
    assert status == 413 and body["code"] == "too_large", (status, body)
    assert headers["connection"] == "close"
    assert closed_by_server(sock)
    assert server.snapshot(board)["sections"] == []
    assert value(metrics(server), "timerboard_http_refusals_total", reason="body_too_large") == 1


def test_an_http_1_0_client_is_never_sent_100_continue(server):
    board = server.create_board("Expect")
    body = json.dumps({"opId": "e1", "ops": [{"op": "addSection", "id": "s", "title": "Stage"}]})
    sock, status, _, answer = ask(server.port, edit_head(server.port, board, len(body), "HTTP/1.0") + body)
    assert status == 200 and answer["type"] == "ack", (status, answer)
    sock.close()
