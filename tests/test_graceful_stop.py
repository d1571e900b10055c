"""SIGTERM stops the server cleanly: exit status 0 and no error printed, with a client connected
(the heartbeat, the rooms and the store all wind down)."""
import json

import websockets.sync.client


def test_sigterm_exits_zero_without_an_error(server):
    board = server.create_board("Stop")
    with websockets.sync.client.connect(server.ws) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": "stopper"}))
        ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit}))
        while json.loads(ws.recv(timeout=5))["type"] != "snapshot":
            pass
        server.process.terminate()
        assert server.process.wait(timeout=30) == 0
    assert "Error" not in server.output_after_exit()
