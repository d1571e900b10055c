"""One heartbeat for the whole server: a connection that never answers is closed (1001) after
a ping, so a vanished client does not stay subscribed; one that answers pings stays."""
import struct

from raw_websocket import RawClient

INTERVAL_MS = 300


def test_a_connection_that_never_answers_is_pinged_then_closed(server_factory):
    server = server_factory(["--heartbeat-interval-ms", str(INTERVAL_MS)]).start()
    board = server.create_board("Heartbeat")
    silent = RawClient(server.port, offer=None)
    silent.hello_and_join("silent", board)
    opcodes = []
    while True:
        opcode, _, _, payload = silent.any_frame()
        opcodes.append(opcode)
        if opcode == 0x8:
            break
    assert 0x9 in opcodes, "a ping comes before the close"
    assert opcodes.index(0x9) < opcodes.index(0x8)
    assert struct.unpack(">H", payload[:2])[0] == 1001
    silent.close()


def test_a_connection_that_answers_pings_stays(server_factory):
    server = server_factory(["--heartbeat-interval-ms", str(INTERVAL_MS)]).start()
    board = server.create_board("Heartbeat")
    alive = RawClient(server.port, offer=None)
    alive.hello_and_join("alive", board)
    # Answer the server's own pings, as every WebSocket library does, through several beats.
    pings = 0
    while pings < 4:
        opcode, _, _, payload = alive.any_frame()
        assert opcode != 0x8, f"closed although it answered: {payload!r}"
        if opcode == 0x9:
            pings += 1
            alive.send_frame(payload, opcode=0xA)
    alive.send({"type": "ping", "t": 7})
    assert alive.until("pong")["t"] == 7
    alive.close()
