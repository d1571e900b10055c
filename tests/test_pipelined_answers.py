"""A client that pipelines (sends many messages without waiting for answers) gets every answer to
its own messages in the order it sent them, is never dropped as too far behind for those answers,
and a frame over the size limit ends in the promised 1009 close, not a TCP reset (issue 34)."""
import json
import socket
import threading

from raw_websocket import RawClient
from test_pipelining import masked_frame

# What answers a client's own message; everything else (changes, presence) is the board's news.
# Bytes a client sends after its oversized frame: more than the sockets between it and a server
# that stopped reading hold, less than the server reads and discards after its close (16 MiB).
EXTRA = 8 << 20
ANSWERS = {"ack", "reject", "pong", "error", "welcome", "access", "resume"}


def answer_key(message: dict):
    """Which of the client's messages `message` answers: ("edit", opId) or ("ping", t)."""
    if message["type"] in ("ack", "reject"):
        return ("edit", message["opId"])
    if message["type"] == "pong":
        return ("ping", message["t"])
    return (message["type"], message.get("code"))


def test_pings_and_errors_are_answered_after_the_edits_sent_before_them(server_factory):
    server = server_factory().start()
    board = server.create_board("Barrier")
    client = RawClient(server.port, None)
    client.hello_and_join("pipeliner", board)
    client.until("snapshot")
    sent = []
    frames = []
    for i in range(50):
        op_id = f"e{i}"
        frames.append({"type": "edit", "opId": op_id, "ops": [{"op": "addSection", "id": f"s{i}", "title": f"S{i}"}]})
        sent.append(("edit", op_id))
        frames.append({"type": "ping", "t": i})
        sent.append(("ping", i))
        if i % 10 == 9:
            # An error the session answers itself: a message of no known type.
            frames.append({"type": "no-such-type"})
            sent.append(("error", "unknown_type"))
    client.sock.sendall(b"".join(masked_frame(json.dumps(frame).encode()) for frame in frames))
    received = []
    while len(received) < len(sent):
        message = client.message()
        if message["type"] in ANSWERS:
            received.append(answer_key(message))
    assert received == sent
    client.close()


def test_a_pong_says_every_earlier_edit_is_answered(server_factory):
    # The barrier a script leans on: once a pong is in, so is every earlier edit's ack. Five
    # rounds of twenty edits and a ping, all sent at once.
    server = server_factory().start()
    board = server.create_board("Barrier")
    client = RawClient(server.port, None)
    client.hello_and_join("scripter", board)
    client.until("snapshot")
    rounds = [[{"type": "edit", "opId": f"r{r}e{i}", "ops": [{"op": "addSection", "id": f"r{r}e{i}", "title": "B"}]}
               for i in range(20)] + [{"type": "ping", "t": r}] for r in range(5)]
    client.sock.sendall(b"".join(masked_frame(json.dumps(m).encode()) for messages in rounds for m in messages))
    acked = set()
    for r in range(5):
        while (message := client.message())["type"] != "pong":
            if message["type"] == "ack":
                acked.add(message["opId"])
        assert message["t"] == r
        assert {f"r{q}e{i}" for q in range(r + 1) for i in range(20)} <= acked, f"round {r}"
    client.close()


def test_a_pipelining_client_that_reads_late_is_not_dropped_for_its_own_answers(server_factory):
    # A queue of 8 frames and a client that sends hundreds of edits before it reads a byte: the
    # server must stop reading it (TCP holds it back) before its acks, released a commit at a
    # time, overflow the queue.
    # Budgets above the 400 edits: this is about the queue, not the edit budgets.
    server = server_factory(["--outbound-queue-limit", "8", "--edit-burst", "1000", "--address-edit-burst", "1000",
                             "--board-edit-burst", "1000"]).start()
    board = server.create_board("Late reader")
    client = RawClient(server.port, None, receive_buffer=4096)
    client.hello_and_join("late-reader", board)
    client.until("snapshot")
    count = 400
    edits = [{"type": "edit", "opId": f"o{i}", "ops": [{"op": "addSection", "id": f"x{i}", "title": "X"}]}
             for i in range(count)]
    data = b"".join(masked_frame(json.dumps(m).encode()) for m in edits)
    # Sent from another thread: the server stops reading, so this write finishes only as the
    # client reads its answers below.
    writer = threading.Thread(target=client.sock.sendall, args=(data,))
    writer.start()
    acks = []
    while len(acks) < count:
        message = client.message()  # fails on the server's close frame (1008 too far behind)
        if message["type"] in ("ack", "reject"):
            assert message["type"] == "ack", message
            acks.append(message["opId"])
    writer.join()
    assert acks == [f"o{i}" for i in range(count)]
    client.close()


def test_a_frame_over_the_limit_that_keeps_coming_gets_1009_not_a_reset(server_factory):
    # A client that does not look at what comes back until it has sent its message (and more):
    # the server must read on, discarding, so the client's writes end without a reset and it
    # then reads the answer already queued and the 1009 close.
    server = server_factory().start()
    board = server.create_board("Oversized")
    client = RawClient(server.port, None)
    client.hello_and_join("big-sender", board)
    client.until("snapshot")
    # A ping first, answered before the frame fails: the pong waits unread in the client's socket.
    client.send({"type": "ping", "t": 1})
    client.sock.recv(1, socket.MSG_PEEK)
    size = (1 << 20) + 1
    header = bytes([0x81, 0x80 | 127]) + size.to_bytes(8, "big") + b"\x00\x00\x00\x00"
    client.sock.sendall(header + b"x" * (size + EXTRA))  # a reset fails this write
    assert client.until("pong")["t"] == 1
    assert client.close_code() == 1009
    client.close()


def test_a_leave_or_a_move_to_another_board_still_answers_every_edit_sent_before_it(server_factory):
    # Edits sent at once and then `leave` (or a join of another board): the acks of edits still
    # being stored used to be dropped with the board. Five rounds, so that one lucky commit
    # that was done before the leave cannot pass for the rule.
    server = server_factory().start()
    first, second = server.create_board("Left"), server.create_board("Next")
    client = RawClient(server.port, None)
    client.hello_and_join("mover", first)
    client.until("snapshot")
    for r in range(5):
        edits = [{"type": "edit", "opId": f"r{r}e{i}", "ops": [{"op": "addSection", "id": f"r{r}e{i}", "title": "L"}]}
                 for i in range(20)]
        if r % 2 == 0:
            last = [{"type": "leave"}, {"type": "ping", "t": r}]
        else:
            last = [{"type": "join", "board": str(second), "secret": second.secrets["edit"]}]
        client.sock.sendall(b"".join(masked_frame(json.dumps(m).encode()) for m in edits + last))
        acked = []
        while (message := client.message())["type"] not in ("pong", "snapshot"):
            if message["type"] in ("ack", "reject"):
                acked.append(message["opId"])
        assert acked == [edit["opId"] for edit in edits], f"round {r}: {acked}"
        # Back on the first board for the next round.
        client.send({"type": "join", "board": str(first), "secret": first.secrets["edit"]})
        client.until("snapshot")
    client.close()
