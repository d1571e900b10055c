"""A webhook receiver on loopback for the tests: a real HTTP server in a thread that records every
request it gets (when, headers, body) and answers what the test says. Tests wait on its
condition for the requests they expect, never on a sleep."""
import http.server
import json
import threading
import time


class Received:
    """One request as the receiver got it."""

    def __init__(self, path, headers, body, arrived):
        self.path = path
        self.headers = headers
        self.body = body
        self.arrived = arrived  # time.time() when it arrived
        self.answered = None  # the status the receiver answered

    @property
    def json(self):
        return json.loads(self.body)

    @property
    def webhook_id(self):
        return self.headers.get("webhook-id")

    @property
    def type(self):
        return self.json["type"]


class WebhookReceiver:
    """`answer(received) -> status` decides each answer (200 by default); `url` is the base URL."""

    def __init__(self, answer=None):
        self.answer = answer or (lambda received: 200)
        self.received = []
        self.condition = threading.Condition()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length).decode()
                received = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.time())
                status = receiver.answer(received)
                received.answered = status
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                with receiver.condition:
                    receiver.received.append(received)
                    receiver.condition.notify_all()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def wait_for(self, condition, what, timeout=30):
        """Waits until `condition(received)` holds for the list so far; returns that list."""
        with self.condition:
            if not self.condition.wait_for(lambda: condition(list(self.received)), timeout=timeout):
                raise AssertionError(f"never received {what} in {timeout} s; got {[(r.type, r.answered) for r in self.received]}")
            return list(self.received)

    def wait_for_type(self, event_type, count=1, timeout=30):
        """The first `count` requests of `event_type`, once they arrived."""
        got = self.wait_for(lambda rs: len([r for r in rs if r.type == event_type]) >= count, f"{count} × {event_type}", timeout)
        return [r for r in got if r.type == event_type][:count]

    def of_type(self, event_type):
        with self.condition:
            return [r for r in self.received if r.type == event_type]

    def close(self):
        self.server.shutdown()
        self.server.server_close()
