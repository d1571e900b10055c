"""Makes format1-database.sqlite: a database written by the server as it was before the store had a
format of its own (commit ed00a14), so the store's tests can check that such a database still
opens and reads. Kept for reproducibility; the .sqlite beside it is the fixture, never regenerate
it with a newer server.

    python3 Tests/Fixtures/store/make_format1_database.py PATH/TO/OLD/timerboard

The board has a snapshot at revision 5 (interval 5) and log rows 1-9: every kind of change, a
title with quotes, a backslash and non-ASCII, timers idle, running, paused and finished (the
finish is a changeset of the server's own, with no client or op id)."""
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))
from raw_websocket import RawClient  # noqa: E402

HERE = Path(__file__).resolve().parent
binary = sys.argv[1]
data = Path(tempfile.mkdtemp())
server = subprocess.Popen([binary, "serve", "--port", "0", "--data-directory", str(data), "--snapshot-interval", "5",
                           "--web-root", str(HERE)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
port = None
for line in server.stdout:
    if match := re.search(r"listening on [^\s:]+:(\d+)", line):
        port = int(match.group(1))
        break
try:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/boards", data=b'{"title":"Format 1"}',
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        created = json.load(response)
    client = RawClient(port, None)
    client.send({"type": "hello", "protocol": 1, "clientId": "fixture-client"})
    assert client.message()["type"] == "welcome"
    client.send({"type": "join", "board": created["id"], "secret": created["secrets"]["edit"]})
    client.until("snapshot")
    edits = [
        [{"op": "addSection", "id": "s1", "title": "Prep \"quoted\" \\ café 🍳"}],
        [{"op": "addSection", "id": "s2", "title": "Bake", "position": "last"},
         {"op": "addTimer", "id": "t1", "sectionID": "s1", "title": "Eggs", "minutes": 7, "seconds": 30}],
        [{"op": "addTimer", "id": "t2", "sectionID": "s2", "title": "Bread", "minutes": 35, "seconds": 0},
         {"op": "addTimer", "id": "t3", "sectionID": "s2", "title": "Tick", "minutes": 0, "seconds": 1}],
        [{"op": "updateSection", "id": "s1", "isExpanded": False}, {"op": "startTimer", "id": "t1"},
         {"op": "startTimer", "id": "t3"}],
        # revision 5 (the snapshot) is t3's finish, by the server, once it ran out
        [{"op": "moveTimer", "id": "t2", "sectionID": "s1", "position": {"after": "t1"}}],
        [{"op": "pauseTimer", "id": "t1"}, {"op": "updateTimer", "id": "t2", "title": "Rye", "minutes": 40, "seconds": 5}],
        [{"op": "addSection", "id": "s3", "title": "Gone"}, {"op": "deleteTimer", "id": "t3"}],
        [{"op": "deleteSection", "id": "s3"}, {"op": "startTimer", "id": "t2"}],
    ]
    for number, ops in enumerate(edits):
        client.send({"type": "edit", "opId": f"op-{number}", "ops": ops})
        ack = client.until("ack")
        if number == 3:
            while client.message()["type"] != "changes":  # the finish of t3
                pass
    print("last revision", ack["rev"])
    client.close()
finally:
    server.terminate()
    server.wait(timeout=10)

target = HERE / "format1-database.sqlite"
target.unlink(missing_ok=True)
source = sqlite3.connect(data / "timerboard.sqlite")
source.execute("VACUUM INTO ?", (str(target),))
source.close()
shutil.rmtree(data)
print("wrote", target)
