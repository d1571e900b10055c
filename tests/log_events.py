"""The server's structured log events (docs/architecture.md, "Logs"), read from a JSON log
(`--log-format json`) as the server writes it: every line with a `tb.event`."""
import json
import time
from pathlib import Path


def events(log_path: Path, name: str = None) -> list:
    """The metadata of every line whose `tb.event` is `name` (or any event), in order, with the
    line's level and message under `level` and `message`."""
    found = []
    for line in log_path.read_text().splitlines():
        if not line.startswith("{"):
            continue
        record = json.loads(line)
        metadata = record.get("metadata", {})
        if "tb.event" in metadata and (name is None or metadata["tb.event"] == name):
            found.append({**metadata, "level": record["level"], "message": record["message"]})
    return found


def wait_for_events(log_path: Path, name: str, count: int = 1, timeout: float = 60, where=lambda event: True) -> list:
    """Waits until the server has logged `count` events `name` (that satisfy `where`); returns them."""
    deadline = time.monotonic() + timeout
    while True:
        found = [event for event in events(log_path, name) if where(event)]
        if len(found) >= count:
            return found
        assert time.monotonic() < deadline, f"fewer than {count} {name} events after {timeout} s: {found}"
        time.sleep(0.05)
