"""A client may send many messages without waiting for answers. The server reads at most a few
ahead of what it has answered (the rest waits in the socket: issue 19's bound on what one client
makes it hold) and answers every message, in order."""
import json
import os
import struct

from raw_websocket import RawClient


def masked_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    header = bytes([0x81, 0x80 | 126]) + struct.pack(">H", len(payload)) if len(payload) >= 126 \
        else bytes([0x81, 0x80 | len(payload)])
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_thousands_of_pipelined_messages_are_all_answered_in_order(server_factory):
    # The answers must wait in the client's socket, not in the server's outbound queue. When the
    # server answered a whole read of messages before its event loop drained a single answer,
    # they piled up there and the client was dropped as too far behind (seen once in CI with the
    # default limit of 1,024). A small receive buffer and a shorter queue make that certain.
    server = server_factory(["--outbound-queue-limit", "256"]).start()
    board = server.create_board("Pipelined")
    client = RawClient(server.port, None, receive_buffer=4096)
    client.hello_and_join("pipeliner", board)
    client.until("snapshot")
    count = 3_000
    # One write of every frame: the server gets far more than it reads ahead, at once.
    client.sock.sendall(b"".join(masked_frame(json.dumps({"type": "ping", "t": t}).encode()) for t in range(count)))
    answers = [client.until("pong")["t"] for _ in range(count)]
    assert answers == list(range(count))
    # And the connection still takes edits afterwards.
    client.send({"type": "edit", "opId": "1", "ops": [{"op": "addSection", "id": "s1", "title": "After"}]})
    assert client.until("ack")["opId"] == "1"
    client.close()
