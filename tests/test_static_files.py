"""Static files (issue 13, "Browsers and origins"): the browser client's folder is served by our
own responder. Only regular files inside the web root's real path, no dotfiles, no escapes; a bad
path is a 400; one byte range is honoured, an unsatisfiable one is a 416; HEAD and revalidation
work; every answer, errors included, carries the security headers. Requests go over raw
`http.client` connections, which send a path exactly as written (urllib would normalise it)."""
import http.client
import os
import shutil

import pytest

from conftest import ROOT

WEB_STATIC = ROOT / "web-static"
SECRET = b"a dotfile's secret"
OUTSIDE = b"a file outside the web root"


def fetch(server, path, method="GET", headers=None, timeout=10):
    """(status, headers, body) of one request whose path goes on the wire unchanged."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def assert_security_headers(headers, what):
    assert "frame-ancestors 'none'" in (headers["Content-Security-Policy"] or ""), what
    assert headers["X-Content-Type-Options"] == "nosniff", what
    assert headers["Cache-Control"] == "no-cache", what


@pytest.fixture
def web_root(tmp_path):
    """A copy of the client with what must never be served beside it: a dotfile, a dot-folder,
    symlinks leading out of the root and one leading to the dotfile."""
    root = tmp_path / "web"
    shutil.copytree(WEB_STATIC, root)
    (root / ".secret").write_bytes(SECRET)
    (root / ".git").mkdir()
    (root / ".git" / "config").write_bytes(SECRET)
    (tmp_path / "outside.txt").write_bytes(OUTSIDE)
    (root / "leak.txt").symlink_to(tmp_path / "outside.txt")
    (root / "up").symlink_to(tmp_path)
    (root / "innocent.txt").symlink_to(root / ".secret")
    (root / "same_as_main.js").symlink_to(root / "main.js")
    return root


@pytest.fixture
def copy_server(server_factory, web_root):
    return server_factory(web_root=web_root).start()


def test_dotfiles_and_dot_folders_are_never_served(copy_server):
    for path in ["/.secret", "/.git/config", "/%2esecret", "/%2Egit/config", "/test/../.secret", "/./main.js"]:
        status, headers, body = fetch(copy_server, path)
        assert status == 404 and SECRET not in body, (path, status, body)
        assert_security_headers(headers, path)


def test_symlinks_that_leave_the_root_or_reach_a_dotfile_are_not_followed(copy_server, web_root):
    for path in ["/leak.txt", "/up/outside.txt", "/up/server-0.log", "/innocent.txt"]:
        status, _, body = fetch(copy_server, path)
        assert status == 404 and OUTSIDE not in body and SECRET not in body, (path, status, body)
    # A symlink that stays inside the root is an ordinary file.
    status, _, body = fetch(copy_server, "/same_as_main.js")
    assert status == 200 and body == (web_root / "main.js").read_bytes()


def test_dot_dot_segments_never_escape_the_root(copy_server):
    for path in ["/../outside.txt", "/..%2foutside.txt", "/%2e%2e/outside.txt", "/test/../../outside.txt",
                 "/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/../../../../etc/passwd"]:
        status, headers, body = fetch(copy_server, path)
        assert status == 404 and OUTSIDE not in body and b"root:" not in body, (path, status, body)
        assert_security_headers(headers, path)


def test_a_nul_or_invalid_percent_encoding_is_a_bad_request(server):
    for path in ["/main.js%00", "/%00", "/main%00.js", "/%zz", "/main.js%", "/main.js%4", "/%ff%fe.js"]:
        status, headers, _ = fetch(server, path)
        assert status == 400, (path, status)
        assert_security_headers(headers, path)


def test_the_root_is_index_html_and_each_file_has_its_content_type(copy_server, web_root):
    status, headers, body = fetch(copy_server, "/")
    assert status == 200 and body == (web_root / "index.html").read_bytes()
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    expected = {
        "page.html": "text/html; charset=utf-8",
        "app.js": "text/javascript; charset=utf-8",
        "look.css": "text/css; charset=utf-8",
        "data.json": "application/json; charset=utf-8",
        "icon.svg": "image/svg+xml",
        "icon.png": "image/png",
        "favicon.ico": "image/x-icon",
        "app.webmanifest": "application/manifest+json; charset=utf-8",
        "notes.txt": "text/plain; charset=utf-8",
        "unknown.bin": "application/octet-stream",
    }
    for name in expected:
        (web_root / name).write_bytes(b"x")
    for name, content_type in expected.items():
        status, headers, body = fetch(copy_server, f"/{name}")
        assert (status, headers["Content-Type"], body) == (200, content_type, b"x"), name


def test_only_regular_files_are_served_and_a_folder_only_by_its_index(copy_server, web_root):
    os.mkfifo(web_root / "pipe.js")
    # A FIFO would block whoever opens it for reading until a writer comes: never opened.
    assert fetch(copy_server, "/pipe.js", timeout=5)[0] == 404
    (web_root / "docs").mkdir()
    (web_root / "docs" / "index.html").write_bytes(b"<p>docs</p>")
    assert fetch(copy_server, "/docs/")[:3:2] == (200, b"<p>docs</p>")
    # Without its slash a folder is no file (no redirect built from the request's path).
    status, headers, _ = fetch(copy_server, "/docs")
    assert status == 404 and headers["Location"] is None
    assert fetch(copy_server, "/test/")[0] == 404, "a folder without index.html"
    assert fetch(copy_server, "/main.js/")[0] == 404, "a file is no folder"


def test_head_says_what_get_would_without_a_body_and_ignores_a_range(server):
    size = (WEB_STATIC / "main.js").stat().st_size
    _, get_headers, _ = fetch(server, "/main.js")
    for headers in [{}, {"Range": "bytes=0-9"}]:
        status, head_headers, body = fetch(server, "/main.js", "HEAD", headers)
        assert (status, body) == (200, b""), headers
        assert head_headers["Content-Length"] == str(size), headers
        assert head_headers["Content-Range"] is None, headers
        for name in ["Content-Type", "ETag", "Last-Modified", "Accept-Ranges"]:
            assert head_headers[name] == get_headers[name], (name, headers)


def test_one_satisfiable_range_gets_206_with_exactly_those_bytes(server):
    content = (WEB_STATIC / "main.js").read_bytes()
    size = len(content)
    for header, first, last in [("bytes=0-9", 0, 9), ("bytes=10-", 10, size - 1), ("bytes=-10", size - 10, size - 1),
                                (f"bytes=5-{size + 1000}", 5, size - 1), ("bytes=-999999999", 0, size - 1),
                                (f"bytes={size - 1}-{size - 1}", size - 1, size - 1)]:
        status, headers, body = fetch(server, "/main.js", headers={"Range": header})
        assert status == 206, (header, status)
        assert headers["Content-Range"] == f"bytes {first}-{last}/{size}", header
        assert headers["Content-Length"] == str(last - first + 1), header
        assert body == content[first:last + 1], header


def test_an_unsatisfiable_range_is_416_with_the_size(server):
    size = (WEB_STATIC / "main.js").stat().st_size
    for header in [f"bytes={size}-", f"bytes={size}-{size + 10}", "bytes=-0", "bytes=99999999999999999999999-"]:
        status, headers, _ = fetch(server, "/main.js", headers={"Range": header})
        assert status == 416, (header, status)
        assert headers["Content-Range"] == f"bytes */{size}", header
        assert_security_headers(headers, header)


def test_ranges_it_does_not_support_get_the_whole_file(server):
    content = (WEB_STATIC / "main.js").read_bytes()
    for header in ["bytes=0-1,5-9", "items=0-9", "bytes=9-0", "bytes=abc", "bytes="]:
        status, headers, body = fetch(server, "/main.js", headers={"Range": header})
        assert (status, body) == (200, content), header
        assert headers["Content-Range"] is None, header
    # If-Range with another version's tag: the whole (new) file, not a slice of it.
    status, _, body = fetch(server, "/main.js", headers={"Range": "bytes=0-9", "If-Range": '"another-version"'})
    assert (status, body) == (200, content)
    _, headers, _ = fetch(server, "/main.js")
    status, _, body = fetch(server, "/main.js", headers={"Range": "bytes=0-9", "If-Range": headers["ETag"]})
    assert (status, body) == (206, content[:10])


def test_revalidation_gets_304_until_the_file_changes(copy_server, web_root):
    status, headers, _ = fetch(copy_server, "/style.css")
    etag, last_modified = headers["ETag"], headers["Last-Modified"]
    assert status == 200 and etag and last_modified
    for conditional in [{"If-None-Match": etag}, {"If-None-Match": f'"something-else", {etag}'},
                        {"If-None-Match": "*"}, {"If-Modified-Since": last_modified}]:
        status, answer, body = fetch(copy_server, "/style.css", headers=conditional)
        assert (status, body) == (304, b""), conditional
        assert answer["ETag"] == etag, conditional
        assert_security_headers(answer, conditional)
    # A tag that does not match wins over a date that would (RFC 9110 13.2.2).
    status, _, _ = fetch(copy_server, "/style.css", headers={"If-None-Match": '"old"', "If-Modified-Since": last_modified})
    assert status == 200

    path = web_root / "style.css"
    path.write_bytes(path.read_bytes() + b"\n/* changed */\n")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
    status, headers, body = fetch(copy_server, "/style.css", headers={"If-None-Match": etag})
    assert status == 200 and body.endswith(b"/* changed */\n") and headers["ETag"] != etag
    status, _, _ = fetch(copy_server, "/style.css", headers={"If-Modified-Since": last_modified})
    assert status == 200


def test_a_file_over_the_size_limit_is_not_served(server_factory, web_root):
    (web_root / "big.txt").write_bytes(b"x" * 2048)
    (web_root / "small.txt").write_bytes(b"x" * 1024)
    server = server_factory(["--max-static-file-bytes", "1024"], web_root=web_root).start()
    assert fetch(server, "/small.txt")[0] == 200
    status, headers, body = fetch(server, "/big.txt")
    assert status == 404 and b"xxxx" not in body
    assert_security_headers(headers, "big.txt")



def test_the_client_folder_serves_only_what_the_browser_loads(server):
    """The web root is what a browser loads and nothing more: the client's unit tests and the
    file that tells Node how to read them live outside it (tests/web/), so neither is served."""
    for path in ["/package.json", "/test/store.test.js", "/test/fake_dom.js"]:
        status, headers, body = fetch(server, path)
        assert status == 404, (path, status, body[:80])
        assert_security_headers(headers, path)
    status, _, _ = fetch(server, "/main.js")
    assert status == 200
