#!/usr/bin/env python3
"""Idle connections on the Node ws relay: its resident bytes per connection at N, as
`timerboard-bench idle` measures TimerBoard's (a browser's upgrade request, opened in waves of 500,
read as the last one opened and again after SETTLE seconds).

    NODE_PATH=/usr/share/nodejs node bench/peers/ws-relay.js 8090 &
    bench/peers/relay-idle.py 8090 15000 $(pgrep -n -f ws-relay.js) 12    # ulimit -n 20000 first
"""
import asyncio
import base64
import os
import sys

PORT, N, PID, SETTLE = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])

def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024

REQUEST = ("GET /board-1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: Upgrade\r\nPragma: no-cache\r\n"
           "Cache-Control: no-cache\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36\r\n"
           "Upgrade: websocket\r\nAccept-Encoding: gzip, deflate, br, zstd\r\nAccept-Language: en-US,en;q=0.9\r\n"
           "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")

async def open_one():
    reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
    writer.write(REQUEST.format(port=PORT, key=base64.b64encode(os.urandom(16)).decode()).encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer

async def main():
    before = rss(PID)
    sockets = []
    for start in range(0, N, 500):
        sockets += await asyncio.gather(*(open_one() for _ in range(min(500, N - start))))
    joined = rss(PID)
    await asyncio.sleep(SETTLE)
    after = rss(PID)
    print(f"relay idle: {N} connections: {(after - before) / N:.0f} bytes each after {SETTLE:.0f} s idle ({(joined - before) / N:.0f} as the last joined)")
    for _, writer in sockets:
        writer.close()

asyncio.run(main())
