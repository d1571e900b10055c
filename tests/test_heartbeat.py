"""One heartbeat for the whole server: a connection that never answers is closed (1001) after
a ping, so a vanished client does not stay subscribed; one that answers pings stays."""
import json
import struct
import time

import websockets.sync.client

from raw_websocket import RawClient

INTERVAL_MS = 300


def test_a_connection_that_never_answers_is_pinged_then_closed(server_factory):
    server = server_factory(["--heartbeat-interval-ms", str(INTERVAL_MS)]).start()
    board = server.create_board("Heartbeat")
    silent = RawClient(server.port, offer=None)
    silent.hello_and_join("silent", board)
    started = time.monotonic()
    opcodes = []
    while True:
        opcode, _, _, payload = silent.any_frame()
        opcodes.append(opcode)
        if opcode == 0x8:
            break
    assert 0x9 in opcodes, "a ping comes before the close"
    assert opcodes.index(0x9) < opcodes.index(0x8)
    assert struct.unpack(">H", payload[:2])[0] == 1001
    assert time.monotonic() - started < 20 * INTERVAL_MS / 1000
    silent.close()


def test_a_connection_that_answers_pings_stays(server_factory):
    server = server_factory(["--heartbeat-interval-ms", str(INTERVAL_MS)]).start()
    board = server.create_board("Heartbeat")
    # The websockets library answers pings by itself, as browsers do.
    with websockets.sync.client.connect(server.ws) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": "alive"}))
        ws.send(json.dumps({"type": "join", "board": board}))
        time.sleep(8 * INTERVAL_MS / 1000)
        ws.send(json.dumps({"type": "ping", "t": 7}))
        while (message := json.loads(ws.recv(timeout=5)))["type"] != "pong":
            pass
        assert message["t"] == 7
