"""`/health` says the process answers; `/ready` says it should get new clients: its store answers
and it is not shutting down. After SIGTERM, `/ready` answers 503 for --drain-seconds while
everything else still serves, then the server stops as before."""
import asyncio
import json
import signal
import time

import websockets


def test_health_and_ready_answer_while_serving(server):
    status, body = server.request("GET", "/health")
    assert status == 200 and body["status"] == "ok", body
    status, body = server.request("GET", "/ready")
    assert (status, body) == (200, {"status": "ready"})


def test_ready_answers_503_while_draining_after_sigterm(server_factory):
    server = server_factory(["--drain-seconds", "4", "--shutdown-grace-seconds", "2"]).start()
    board = server.create_board("Draining")
    assert server.request("GET", "/ready")[0] == 200

    async def scenario():
        async with websockets.connect(server.ws) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": "drain-test-client"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit}))
            assert json.loads(await ws.recv())["type"] == "access"
            assert json.loads(await ws.recv())["type"] == "snapshot"

            server.process.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            # The probe flips as soon as the signal is handled; poll it as a load balancer would.
            deadline = signalled + 3
            while True:
                status, body = await asyncio.to_thread(server.request, "GET", "/ready")
                if status == 503:
                    break
                assert time.monotonic() < deadline, "/ready never answered 503 after SIGTERM"
            assert body == {"status": "draining"}
            # Still alive, still serving: health, new boards, and the open socket's edits.
            assert (await asyncio.to_thread(server.request, "GET", "/health"))[0] == 200
            assert (await asyncio.to_thread(server.post_board, b"{}"))[0] == 201
            await ws.send(json.dumps({"type": "edit", "opId": "1", "ops": [{"op": "addSection", "id": "s1", "title": "During drain"}]}))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "ack":
                    break
            assert message["opId"] == "1"
            return signalled

    signalled = asyncio.run(scenario())
    server.process.wait(timeout=15)
    elapsed = time.monotonic() - signalled
    # It waited the drain before stopping, and stopped within drain + grace (and a margin).
    assert 3.5 <= elapsed < 4 + 2 + 5, elapsed
    assert server.process.returncode == 0
    assert "draining" in server.output_after_exit()
