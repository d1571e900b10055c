"""Structured log events and the refusal counts behind them (issue 36): with --log-format json,
a board loaded and unloaded, a connection refused by a cap (which one), and /metrics counts every
refusal by its reason. Names and keys are docs/architecture.md's ("Logs", "Metrics")."""
import socket

from conftest import ADMIN_TOKEN
from log_events import events, wait_for_events
from raw_websocket import RawClient
from test_metrics import metrics, value
from test_origins_and_headers import upgrade_status


def test_a_boards_load_its_unload_and_a_refused_socket_are_events_and_refusals_are_counted_by_reason(server_factory):
    server = server_factory(["--log-format", "json", "--log-level", "debug", "--max-connections-per-address", "1",
                             "--boards-per-minute", "1", "--board-burst", "1", "--max-header-bytes", "2048"]).start()
    board = server.create_board("Evented")
    assert value(metrics(server), "timerboard_max_connections") == 10_000

    client = RawClient(server.port, None)
    client.hello_and_join("evented-client-0123456789", board)
    assert client.message()["type"] == "snapshot"
    loaded = wait_for_events(server.log_path, "board.loaded")
    assert loaded[0]["tb.board.id"] == str(board) and loaded[0]["tb.board.revision"] == "0"

    # The address's one socket is taken: the next upgrade is refused, and says which cap.
    assert upgrade_status(server.port) == 503
    refused = wait_for_events(server.log_path, "connection.refused", where=lambda e: e["tb.refusal"] == "address_full")
    assert refused[0]["tb.address"] == "127.0.0.1" and refused[0]["level"] == "notice"
    client.close()
    unloaded = wait_for_events(server.log_path, "board.unloaded")
    assert unloaded[0]["tb.board.id"] == str(board) and unloaded[0]["tb.reason"] == "idle"

    # The address's one connection is free again (every connection counts, HTTP too): a second
    # board from it within the minute, and a header over the bound.
    status, body = server.post_board(b"{}")
    assert status == 429, body
    with socket.create_connection(("127.0.0.1", server.port)) as raw:
        raw.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 4096 + b"\r\n\r\n")
        assert raw.recv(64).startswith(b"HTTP/1.1 431")

    counted = metrics(server)
    for reason, count in {"address_full": 1, "board_creation_rate": 1, "header_too_large": 1, "server_full": 0,
                          "header_timeout": 0, "body_too_large": 0}.items():
        assert value(counted, "timerboard_http_refusals_total", reason=reason) == count, reason
    reasons = {event["tb.refusal"] for event in events(server.log_path, "connection.refused")}
    assert reasons == {"address_full", "board_creation_rate", "header_too_large"}
    assert server.request("GET", "/api/boards", secret=ADMIN_TOKEN)[0] == 200
