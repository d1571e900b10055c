"""permessage-deflate (RFC 7692) as the server negotiates it, read frame by frame off a raw socket:
the snapshot goes compressed (RSV1 set) and inflates to the very snapshot a plain client gets,
changesets go plain, compressed client messages (also fragmented) are understood, and a small
message that inflates past the limit gets `too_large` while the connection stays up."""
import json
import struct

import pytest
import websockets.sync.client

from raw_websocket import RawClient, deflate, inflate

ACCEPTED = "permessage-deflate; server_no_context_takeover; client_no_context_takeover"


def board_with_timers(server, count=300):
    """A board big enough that its snapshot is tens of kilobytes."""
    board = server.create_board("Deflate")
    with websockets.sync.client.connect(server.ws, compression=None, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": "setup"}))
        ws.send(json.dumps({"type": "join", "board": board, "secret": board.edit}))
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


def test_corrupt_compressed_data_closes_that_connection_only(server):
    board = board_with_timers(server, count=1)
    broken = RawClient(server.port, offer="permessage-deflate")
    broken.hello_and_join("broken", board)
    broken.until("snapshot")
    # Block type 11 is reserved: this is not DEFLATE. Only a broken compressor sends it, so
    # hummingbird fails the connection (1011); the client reconnects and resumes.
    broken.send_frame(b"\xff\xff\xff\xff", rsv1=True)
    while (frame := broken.any_frame())[0] != 0x8:
        pass
    assert struct.unpack(">H", frame[3][:2])[0] == 1011
    broken.close()

    other = RawClient(server.port, offer="permessage-deflate")
    other.hello_and_join("other", board)
    assert other.until("snapshot")["type"] == "snapshot"
    other.close()
