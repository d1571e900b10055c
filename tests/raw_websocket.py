"""A WebSocket client on a raw socket, for tests that look at frames themselves: RSV1 bits,
sizes on the wire, pings and close codes."""
import base64
import json
import os
import socket
import struct
import zlib


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

    def __init__(self, port: int, offer: str | list[str] | None, receive_buffer: int | None = None,
                 source: str | None = None):
        """`receive_buffer`: the socket's SO_RCVBUF, set before connecting (a slow reader's socket
        fills after that many bytes). `source`: the loopback address to connect from (another
        client address to the server: 127.0.0.2, …)."""
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        if source:
            self.sock.bind((source, 0))
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
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

    def any_frame(self):
        """The next frame of any kind: (opcode, rsv1, wire bytes, payload)."""
        b0, b1 = self._exactly(2)
        length, header = b1 & 0x7F, 2
        if length == 126:
            length, header = struct.unpack(">H", self._exactly(2))[0], 4
        elif length == 127:
            length, header = struct.unpack(">Q", self._exactly(8))[0], 10
        payload = self._exactly(length)
        assert b0 & 0x80, "the server's frames are whole messages"
        return b0 & 0x0F, bool(b0 & 0x40), header + length, payload

    def frame(self):
        """The next data frame: (rsv1, wire bytes, payload). Pings are skipped; a close fails."""
        while True:
            opcode, rsv1, size, payload = self.any_frame()
            assert opcode != 0x8, f"the server closed the connection: {payload!r}"
            if opcode in (0x1, 0x2):
                return rsv1, size, payload

    def message(self):
        rsv1, _, payload = self.frame()
        return json.loads(inflate(payload) if rsv1 else payload)

    def close_code(self) -> int:
        """Reads past every other frame to the server's close frame and returns its code."""
        while True:
            opcode, _, _, payload = self.any_frame()
            if opcode == 0x8:
                return int.from_bytes(payload[:2], "big")

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

    def hello_and_join(self, client_id: str, board, role="edit"):
        """Says hello and joins `board` (a conftest.BoardRef) with the secret of `role`; the
        join's first answer, `access`, is kept in `self.access`."""
        self.send({"type": "hello", "protocol": 1, "clientId": client_id})
        assert self.message()["type"] == "welcome"
        self.send({"type": "join", "board": str(board), "secret": board.secrets[role]})
        self.access = self.message()
        assert self.access["type"] == "access", self.access

    def close(self):
        self.sock.close()
