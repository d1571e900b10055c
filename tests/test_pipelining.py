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


def test_thousands_of_pipelined_messages_are_all_answered_in_order(server):
    board = server.create_board("Pipelined")
    client = RawClient(server.port, None)
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
