"""--log-format json: every line the server writes is one JSON object with time, level, message
and metadata; lines about a board carry its id and lines about a connection theirs; and no
secret (link secrets, the operator token, client ids) ever appears, even at trace level."""
import asyncio
import json
import re

import websockets

from conftest import ADMIN_TOKEN


def test_json_logs_parse_line_by_line_carry_ids_and_no_secret(server_factory):
    server = server_factory(["--log-format", "json", "--log-level", "trace", "--hello-timeout-seconds", "1"]).start()
    board = server.create_board("Logged board")
    client_id = "secret-client-id-5d1f0c2a9b"
    assert server.board_count() == 1  # the operator token, as a Bearer header

    async def scenario():
        async with websockets.connect(server.ws) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": client_id, "name": "Logger"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit}))
            assert json.loads(await ws.recv())["type"] == "access"
            assert json.loads(await ws.recv())["type"] == "snapshot"
            await ws.send(json.dumps({"type": "edit", "opId": "1", "ops": [{"op": "addSection", "id": "s1", "title": "Logged"}]}))
            while json.loads(await ws.recv())["type"] != "ack":
                pass
            # Replacing the edit link closes this socket (4403): the room and the session log it.
            status, _ = await asyncio.to_thread(server.request, "POST", f"/api/boards/{board}/links/edit", board.owner)
            assert status == 200
            try:
                while True:
                    await ws.recv()
            except websockets.ConnectionClosed:
                pass
        # A socket that never says hello is closed by the server, which logs it.
        async with websockets.connect(server.ws) as silent:
            try:
                await asyncio.wait_for(silent.recv(), timeout=10)
            except websockets.ConnectionClosed:
                pass
        # A wrong secret: nothing about it may be logged either.
        await asyncio.to_thread(server.request, "GET", f"/api/boards/{board}", "wrong-secret-0123456789abcdef")

    asyncio.run(scenario())
    status, _ = server.request("GET", f"/api/boards/{board}", secret=board.owner)
    assert status == 200
    server.stop()
    output = server.output_after_exit()

    lines = [line for line in output.splitlines() if line.strip()]
    records = []
    for line in lines:
        record = json.loads(line)  # every line, not only most
        assert isinstance(record, dict), line
        assert {"time", "level", "message", "metadata", "label"} <= record.keys(), line
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", record["time"]), record["time"]
        assert record["level"] in ("trace", "debug", "info", "notice", "warning", "error", "critical"), line
        assert isinstance(record["metadata"], dict), line
        records.append(record)
    assert any("listening on" in record["message"] for record in records)

    about_board = [r for r in records if r["message"] in ("replaced a link",)]
    assert about_board and all(r["metadata"].get("tb.board.id") == str(board) for r in about_board), about_board
    about_connection = [r for r in records if "no hello in time" in r["message"] or r["message"] == "closing the connection"]
    assert about_connection and all(r["metadata"].get("tb.connection.id") for r in about_connection), about_connection

    for secret in (board.owner, board.edit, board.view, ADMIN_TOKEN, client_id, "wrong-secret-0123456789abcdef"):
        assert secret not in output, f"a secret reached the log: {secret[:4]}…"
