#!/usr/bin/env python3
"""Start a timer and wait until the server says it finished: python3 wait_for_timer.py [SERVER]"""
import asyncio, json, sys, urllib.request, uuid
import websockets

SERVER = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"

async def main():
    request = urllib.request.Request(SERVER + "/api/boards", data=b'{"title":"Egg timer"}', method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        created = json.load(response)
    async with websockets.connect(SERVER.replace("http", "ws", 1) + "/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "clientId": "py-" + uuid.uuid4().hex}))
        await ws.recv()  # welcome
        await ws.send(json.dumps({"type": "join", "board": created["id"], "secret": created["secrets"]["edit"]}))
        await ws.recv()  # access
        await ws.recv()  # snapshot
        await ws.send(json.dumps({"type": "edit", "opId": "1", "ops": [
            {"op": "addSection", "id": "kitchen", "title": "Kitchen"},
            {"op": "addTimer", "id": "egg", "sectionID": "kitchen", "title": "Soft egg", "minutes": 0, "seconds": 2},
            {"op": "startTimer", "id": "egg"}]}))
        while True:
            message = json.loads(await ws.recv())
            for change in message.get("changes", []):
                if change.get("id") == "egg" and "run" in change:
                    print("egg is", change["run"]["status"], "at revision", message["rev"])
                    if change["run"]["status"] == "finished":
                        return

asyncio.run(main())
