"""What permessage-deflate (RFC 7692) would cost and save on TimerBoard's messages.

Compresses a title-edit changeset and a snapshot of a 100 sections x 20 timers board (built in
the wire format of docs/protocol.md) with raw deflate, as permessage-deflate does, with and
without context takeover, and prints bytes and CPU microseconds per message.

    python3 bench/compression/deflate_cost.py
"""
import json
import time
import zlib


def snapshot(sections=100, timers_per_section=20):
    board = {"type": "snapshot", "board": "kT3vQ9mZ2pXa", "title": "Kitchen", "rev": 2100, "sections": [], "timers": []}
    for s in range(sections):
        board["sections"].append({"id": f"s{s}", "title": f"Section {s}", "isExpanded": True,
                                  "createdDate": 1763740800000 + s, "order": f"V{s:03d}"})
        for t in range(timers_per_section):
            board["timers"].append({"id": f"t{s}-{t}", "sectionID": f"s{s}", "title": f"Timer {t}", "minutes": 5,
                                    "seconds": 0, "createdDate": 1763740800000 + s * 100 + t, "order": f"V{t:03d}",
                                    "run": {"status": "idle", "elapsed": 0}})
    return json.dumps(board, separators=(",", ":")).encode()


def changeset(seq):
    return ('{"type":"changes","rev":%d,"changes":[{"update":"section","id":"sec-prep","title":"Mise en place %d"}]}'
            % (seq, seq)).encode()


def deflate_once(payload, level):
    """No context takeover: a fresh compressor per message (the only way to compress once per
    changeset and send the same bytes to every subscriber)."""
    compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
    data = compressor.compress(payload) + compressor.flush(zlib.Z_SYNC_FLUSH)
    return data[:-4]  # RFC 7692 7.2.1: drop the trailing 00 00 ff ff


def measure(name, messages, compress):
    start = time.process_time()
    sizes = [len(compress(m)) for m in messages]
    cpu = (time.process_time() - start) / len(messages) * 1e6
    raw = sum(len(m) for m in messages) / len(messages)
    print(f"{name:58s} {raw:10.0f} B -> {sum(sizes) / len(sizes):10.0f} B  ({cpu:8.1f} us CPU per message)")


if __name__ == "__main__":
    edits = [changeset(i) for i in range(1, 2001)]
    snap = [snapshot()] * 20
    for level in (1, 6):
        measure(f"title-edit changeset, level {level}, no context takeover", edits, lambda m: deflate_once(m, level))
        # With context takeover each connection keeps its own compressor: repeated keys compress
        # to a few bytes, but the work is per subscriber, not per changeset.
        stream = zlib.compressobj(level, zlib.DEFLATED, -15)
        measure(f"title-edit changeset, level {level}, context takeover", edits,
                lambda m: (stream.compress(m) + stream.flush(zlib.Z_SYNC_FLUSH))[:-4])
        measure(f"snapshot 100x20, level {level}", snap, lambda m: deflate_once(m, level))
