"""permessage-deflate (RFC 7692) as the server negotiates it, read frame by frame off a raw socket:
the snapshot goes compressed (RSV1 set) and inflates to the very snapshot a plain client gets,
changesets go plain, compressed client messages (also fragmented) are understood, and a small
message that inflates past the limit gets `too_large` while the connection stays up."""
import base64
import json
import os
import socket
import struct
import zlib

import pytest
import websockets.sync.client

ACCEPTED = "permessage-deflate; server_no_context_takeover; client_no_context_takeover"


def deflate(data: bytes) -> bytes:
    """A client's compressed payload: raw DEFLATE, sync flush, without the 00 00 ff ff tail."""
    compressor = zlib.compressobj(wbits=-15)
    out = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
    assert out.endswith(b"\x00\x00\xff\xff")
    return out[:-4]


def inflate(payload: bytes) -> bytes:
    return zlib.decompressobj(wbits=-15).decompress(payload + b"\x00\x00\xff\xff")


class RawClient:
    """A WebSocket client that shows every frame's RSV1 bit and its size on the wire."""

    def __init__(self, port: int, offer: str | list[str] | None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = ["GET /ws HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        for line in [offer] if isinstance(offer, str) else offer or []:
            lines.append(f"Sec-WebSocket-Extensions: {line}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, "the server closed during the handshake"
            head += chunk
        status, *header_lines = head.decode().split("\r\n")
        assert " 101 " in status, status
        headers = dict(line.split(": ", 1) for line in header_lines if ": " in line)
        self.extensions = {k.lower(): v for k, v in headers.items()}.get("sec-websocket-extensions")

    def _exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            assert chunk, "the server closed the connection"
            data += chunk
        return data

    def frame(self):
        """The next data frame: (rsv1, wire bytes, payload). Control frames are skipped."""
        while True:
            b0, b1 = self._exactly(2)
            length, header = b1 & 0x7F, 2
            if length == 126:
                length, header = struct.unpack(">H", self._exactly(2))[0], 4
            elif length == 127:
                length, header = struct.unpack(">Q", self._exactly(8))[0], 10
            payload = self._exactly(length)
            opcode = b0 & 0x0F
            assert opcode != 0x8, f"the server closed the connection: {payload!r}"
            if opcode in (0x1, 0x2):
                assert b0 & 0x80, "the server's frames are whole messages"
                return bool(b0 & 0x40), header + length, payload

    def message(self):
        rsv1, _, payload = self.frame()
        return json.loads(inflate(payload) if rsv1 else payload)

    def until(self, kind: str):
        while (message := self.message())["type"] != kind:
            pass
        return message

    def send_frame(self, payload: bytes, *, opcode=0x1, fin=True, rsv1=False):
        mask = os.urandom(4)
        b0 = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
        if len(payload) < 126:
            header = bytes([b0, 0x80 | len(payload)])
        elif len(payload) < 65536:
            header = bytes([b0, 0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header = bytes([b0, 0x80 | 127]) + struct.pack(">Q", len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, message: dict, compressed=False):
        data = json.dumps(message).encode()
        self.send_frame(deflate(data) if compressed else data, rsv1=compressed)

    def hello_and_join(self, client_id: str, board: str):
        self.send({"type": "hello", "protocol": 1, "clientId": client_id})
        assert self.message()["type"] == "welcome"
        self.send({"type": "join", "board": board})

    def close(self):
        self.sock.close()


def board_with_timers(server, count=300):
    """A board big enough that its snapshot is tens of kilobytes."""
    board = server.create_board("Deflate")
    with websockets.sync.client.connect(server.ws, compression=None, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": "setup"}))
        ws.send(json.dumps({"type": "join", "board": board}))
        ops = [{"op": "addSection", "id": "s", "title": "Section"}] + [
            {"op": "addTimer", "id": f"t{i}", "sectionID": "s", "title": f"Timer number {i}", "minutes": i % 60,
             "seconds": 0} for i in range(99)]
        ws.send(json.dumps({"type": "edit", "opId": "0", "ops": ops}))
        for start in range(99, count, 100):
            ws.send(json.dumps({"type": "edit", "opId": str(start), "ops": [
                {"op": "addTimer", "id": f"t{i}", "sectionID": "s", "title": f"Timer number {i}",
                 "minutes": i % 60, "seconds": 0} for i in range(start, min(start + 100, count))]}))
        acked = 0
        while acked < 1 + len(range(99, count, 100)):
            if json.loads(ws.recv())["type"] == "ack":
                acked += 1
    return board


def test_the_snapshot_goes_compressed_and_is_the_same_board(server):
    board = board_with_timers(server)
    plain = RawClient(server.port, offer=None)
    assert plain.extensions is None
    plain.hello_and_join("plain", board)
    rsv1, plain_size, plain_payload = plain.frame()
    assert not rsv1 and json.loads(plain_payload)["type"] == "snapshot"

    compressed = RawClient(server.port, offer="permessage-deflate; client_max_window_bits")
    assert compressed.extensions == ACCEPTED
    compressed.hello_and_join("deflate", board)
    rsv1, wire_size, payload = compressed.frame()
    assert rsv1, "the snapshot should be compressed"
    assert json.loads(inflate(payload)) == json.loads(plain_payload)
    print(f"snapshot on the wire: {plain_size} bytes plain, {wire_size} compressed")
    assert wire_size * 4 < plain_size

    # An edit from the compressing client, in two frames: RSV1 on the first only.
    edit = deflate(json.dumps({"type": "edit", "opId": "rename", "ops": [
        {"op": "updateTimer", "id": "t7", "title": "Seven"}]}).encode())
    compressed.send_frame(edit[:5], fin=False, rsv1=True)
    compressed.send_frame(edit[5:], opcode=0x0)

    # The changeset goes plain to both (the editor gets it just before its ack): small messages
    # gain little and would cost a compressor per connection.
    for client in (plain, compressed):
        while True:
            rsv1, _, payload = client.frame()
            message = json.loads(inflate(payload) if rsv1 else payload)
            if message["type"] == "changes":
                break
        assert not rsv1
        assert message["changes"] == [{"update": "timer", "id": "t7", "title": "Seven"}]
    assert compressed.until("ack")["opId"] == "rename"
    plain.close()
    compressed.close()


def test_a_message_inflating_past_the_limit_is_too_large_and_the_connection_stays(server):
    board = board_with_timers(server, count=1)
    client = RawClient(server.port, offer="permessage-deflate")
    assert client.extensions == ACCEPTED
    client.hello_and_join("bomb", board)
    client.until("snapshot")
    # 2 MB of spaces inside a JSON string compress to about 2 KB; the server reads at most 1 MB.
    bomb = b'{"type":"ping","t":1,"pad":"' + b" " * (2 << 20) + b'"}'
    client.send_frame(deflate(bomb), rsv1=True)
    error = client.until("error")
    assert error["code"] == "too_large"
    client.send({"type": "ping", "t": 42}, compressed=True)
    assert client.until("pong")["t"] == 42
    client.close()


@pytest.mark.parametrize("offer", [
    "permessage-deflate; server_max_window_bits=10",
    "permessage-deflate; unknown_parameter",
    "x-webkit-deflate-frame",
])
def test_offers_the_server_cannot_honour_are_declined(server, offer):
    board = board_with_timers(server, count=1)
    client = RawClient(server.port, offer=offer)
    assert client.extensions is None
    client.hello_and_join("declined", board)
    rsv1, _, payload = client.frame()
    assert not rsv1 and json.loads(payload)["type"] == "snapshot"
    client.close()


def test_the_second_offer_is_taken_when_the_first_is_declined(server):
    # On two header lines: hummingbird does not split offers joined by commas in one line, so
    # such a client is declined (and gets plain frames). See docs/protocol.md.
    client = RawClient(server.port, offer=["permessage-deflate; server_max_window_bits=9", "permessage-deflate"])
    assert client.extensions == ACCEPTED
    client.close()


def test_no_permessage_deflate_turns_it_off(server_factory):
    server = server_factory(["--no-permessage-deflate"]).start()
    client = RawClient(server.port, offer="permessage-deflate")
    assert client.extensions is None
    client.close()
