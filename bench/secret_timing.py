#!/usr/bin/env python3
"""How long a wrong secret takes to be refused, by what the id names: no board, a board in the
store only, a board in memory (someone is on it). Each answer is the same 404; a difference in
time would tell a guesser which ids are boards. Prints medians and p90 in microseconds, from
requests interleaved round-robin so load on the machine falls on all three alike.

    python3 bench/secret_timing.py [--binary .build/release/timerboard] [--rounds 3000]
"""
import argparse
import http.client
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def start(binary: str, data: str):
    process = subprocess.Popen([binary, "serve", "--port", "0", "--data-directory", data, "--web-root", str(ROOT / "web-static"),
                                "--history-reads-per-minute", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        if match := re.search(r"listening on \S*:(\d+)", line):
            # The rest of its output is not read: keep it from filling the pipe.
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            return process, int(match.group(1))
    raise SystemExit("the server did not start")


def create(port: int, title: str) -> dict:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("POST", "/api/boards", body=json.dumps({"title": title}), headers={"Content-Type": "application/json"})
    return json.loads(connection.getresponse().read())


def hold_open(port: int, board: dict):
    """A raw WebSocket that joins the board, so its room stays in memory."""
    sys.path.insert(0, str(ROOT / "tests"))
    from raw_websocket import RawClient
    client = RawClient(port, None)
    client.send({"type": "hello", "protocol": 1, "clientId": "timing-0123456789"})
    client.until("welcome")
    client.send({"type": "join", "board": board["id"], "secret": board["secrets"]["view"]})
    client.until("snapshot")
    return client


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "timerboard"))
    parser.add_argument("--rounds", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        process, port = start(args.binary, data)
        try:
            stored = create(port, "In the store only")
            live = create(port, "In memory")
            holder = hold_open(port, live)
            ids = {"no board": "AAAAAAAAAAAA", "stored board": stored["id"], "board in memory": live["id"]}
            wrong = "w" * 43
            connection = http.client.HTTPConnection("127.0.0.1", port)
            samples = {name: [] for name in ids}
            for _ in range(args.rounds):
                for name, board in ids.items():
                    started = time.perf_counter_ns()
                    connection.request("GET", f"/api/boards/{board}", headers={"Authorization": f"Bearer {wrong}"})
                    response = connection.getresponse()
                    body = response.read()
                    samples[name].append((time.perf_counter_ns() - started) / 1000)
                    assert response.status == 404, (name, response.status, body)
            print(json.dumps({name: {"p50_us": round(statistics.median(values), 1),
                                     "p90_us": round(statistics.quantiles(values, n=10)[8], 1), "n": len(values)}
                              for name, values in samples.items()}, indent=1))
            holder.close()
        finally:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
