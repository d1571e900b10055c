"""The OpenAPI document of the HTTP API (issue 31), served at `/api/openapi.json`: a valid OpenAPI
3.1 document that names every route the server registers (scripts/server-routes reads them from
the sources), and whose every path and method the server answers with something other than 404
when given a valid secret."""
import json
import re
import subprocess
import urllib.error
import urllib.request

from openapi_spec_validator import validate

from conftest import ADMIN_TOKEN, BINARY, ROOT
from raw_websocket import RawClient

DOCUMENT = ROOT / "web-static" / "api" / "openapi.json"
# Served by the static files, not by a route: the web root's index.html and this document.
STATIC = {("GET", "/"), ("GET", "/api/openapi.json")}
METHODS = ("get", "post", "put", "patch", "delete", "head")


def shape(path: str) -> str:
    """A path with its parameters unnamed: `/api/boards/{id}` and `/api/boards/{board}` are one route."""
    return re.sub(r"\{[^}]+\}", "{}", path)


def documented(document) -> set:
    return {(method.upper(), shape(path)) for path, item in document["paths"].items() for method in item if method in METHODS}


def registered() -> set:
    lines = subprocess.run([str(ROOT / "scripts" / "server-routes")], check=True, capture_output=True, text=True).stdout.splitlines()
    return {(line.split(" ", 1)[0], shape(line.split(" ", 1)[1])) for line in lines}


def test_the_document_is_valid_openapi_3_1_and_is_what_the_server_serves(server):
    document = json.loads(DOCUMENT.read_text())
    validate(document)
    assert document["openapi"].startswith("3.1")
    version = subprocess.run([str(BINARY), "--version"], check=True, capture_output=True, text=True).stdout.split()[1]
    assert document["info"]["version"] == version, "the document's version is not the server's"
    with urllib.request.urlopen(server.http + "/api/openapi.json") as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("application/json")
        assert json.load(response) == document
    # Every webhook event has its outgoing request described.
    assert set(document["webhooks"]) == set(document["components"]["schemas"]["WebhookRegistration"]["properties"]["events"]["items"]["enum"])


def test_every_route_the_server_registers_is_documented_and_nothing_else_is():
    routes = registered()
    assert ("POST", "/api/boards/{}/webhooks") in routes, "scripts/server-routes found too little"
    document = json.loads(DOCUMENT.read_text())
    assert routes - documented(document) == set(), "routes missing from the document"
    assert documented(document) - routes == STATIC, "documented paths that no route serves"


def status_of(server, method, path, secret, body):
    """The status of any request, whatever its answer's content type."""
    headers = {"Authorization": f"Bearer {secret}", **({"Content-Type": "application/json"} if body is not None else {})}
    request = urllib.request.Request(server.http + path, data=json.dumps(body).encode() if body is not None else None,
                                     method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_every_documented_path_answers_something_other_than_404_with_a_valid_secret(server_factory):
    # The endpoints registered below are on loopback's discard port: nothing listens, nothing leaves the machine.
    server = server_factory(["--allow-private-webhooks"]).start()
    document = json.loads(DOCUMENT.read_text())
    board = server.create_board("Documented")
    status, hook = server.request("POST", f"/api/boards/{board}/webhooks", secret=board.owner,
                                  body={"url": "http://127.0.0.1:9/in", "events": ["timer.finished"]})
    assert status == 201, hook
    values = {"id": str(board), "role": "view", "webhookId": hook["id"], "timer": "tim-any"}
    bodies = {
        ("POST", "/api/boards"): {"title": "Another"},
        ("PATCH", "/api/boards/{}"): {"title": "Renamed"},
        ("POST", "/api/boards/{}/edits"): {"opId": "1", "ops": [{"op": "addSection", "id": "s", "title": "S"}]},
        ("POST", "/api/boards/{}/webhooks"): {"url": "http://127.0.0.1:9/other", "events": ["timer.paused"]},
    }
    answers = {}
    operations = sorted(((method.upper(), path) for path, item in document["paths"].items() for method in item if method in METHODS),
                        key=lambda operation: (operation[0] == "DELETE", operation[1] == "/api/boards/{id}"))  # the board's delete last
    for method, path in operations:
        concrete = re.sub(r"\{([^}]+)\}", lambda match: values[match.group(1)], path)
        if path == "/ws":
            client = RawClient(server.port, None)  # the handshake is the answer: 101
            client.send({"type": "hello", "protocol": 1, "clientId": "openapi-0123456789"})
            answers[(method, path)] = 101 if client.until("welcome") else None
            client.close()
            continue
        if path == "/api/boards/{id}/events":
            stream = urllib.request.urlopen(urllib.request.Request(server.http + concrete, headers={"Authorization": f"Bearer {board.owner}"}))
            answers[(method, path)] = stream.status
            stream.close()
            continue
        secret = ADMIN_TOKEN if path in ("/api/boards", "/metrics") else board.owner
        answers[(method, path)] = status_of(server, method, concrete, secret, bodies.get((method, shape(path))))
    assert {operation: status for operation, status in answers.items() if status in (404, None)} == {}, answers
