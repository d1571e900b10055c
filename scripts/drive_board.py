#!/usr/bin/env python3
"""Drive a TimerBoard board: python3 drive_board.py [LINK] [--server http://127.0.0.1:8080] [--no-follow]
LINK is a board's edit or owner link (http://host:port/b/ID#edit=SECRET); without one, a new board is made."""
import asyncio, json, sys, urllib.parse, urllib.request, uuid
import websockets

SERVER = sys.argv[sys.argv.index("--server") + 1] if "--server" in sys.argv else "http://127.0.0.1:8080"
args = [a for a in sys.argv[1:] if not a.startswith("--") and a != SERVER]

def create_board(title):
    request = urllib.request.Request(SERVER + "/api/boards", data=json.dumps({"title": title}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        return SERVER + json.load(response)["links"]["edit"]

async def main():
    global SERVER
    link = urllib.parse.urlsplit(args[0] if args else create_board("Scripted board"))
    SERVER = f"{link.scheme}://{link.netloc}"
    board, secret = link.path.rsplit("/", 1)[1], link.fragment.split("=", 1)[1]  # /b/ID#edit=SECRET
    print("board:", link.geturl())
    async with websockets.connect(SERVER.replace("http", "ws", 1) + "/ws") as ws:
        async def send(message):
            await ws.send(json.dumps(message))

        async def receive():
            return json.loads(await ws.recv())

        # The client id keys the idempotency of this script's edits: random, and never shown.
        await send({"type": "hello", "protocol": 1, "clientId": "py-" + uuid.uuid4().hex, "name": "script"})
        print("welcome:", await receive())
        await send({"type": "join", "board": board, "secret": secret})
        access = await receive()
        if access["type"] != "access":
            sys.exit(f"cannot join: {access}")
        snapshot = await receive()
        print("role", access["role"], "· snapshot at rev", snapshot["rev"], "with", len(snapshot["sections"]), "sections")

        section, timer = "sec-" + uuid.uuid4().hex[:8], "tim-" + uuid.uuid4().hex[:8]
        edits = [
            [{"op": "addSection", "id": section, "title": "Prep"}],
            [{"op": "addTimer", "id": timer, "sectionID": section, "title": "Eggs", "minutes": 7, "seconds": 30}],
            [{"op": "updateSection", "id": section, "title": "Mise en place"}],
        ]
        for op_id, ops in enumerate(edits, start=1):
            await send({"type": "edit", "opId": str(op_id), "ops": ops})
            while True:  # print what arrives until this edit's outcome
                message = await receive()
                print(message)
                if message.get("opId") == str(op_id):
                    break

        while "--no-follow" not in sys.argv:  # then every changeset anyone makes
            print(await receive())

asyncio.run(main())
