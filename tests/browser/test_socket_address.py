"""The page's WebSocket names its board, /ws?board=ID: deploy/nginx/timerboard.conf routes a
board's sockets to one node by it (`hash … consistent`), so that two nodes rarely race for one
board. Without it nginx could only spread them."""
import re
from urllib.parse import parse_qs, urlsplit

from conftest import DESKTOP, board_path, wait_live

# What nginx's map takes as a board in the socket's query (deploy/nginx/timerboard.conf).
NGINX_BOARD = re.compile(r"^/ws\?(?:.*&)?board=(?P<board>[A-Za-z0-9_-]+)")


def test_the_pages_socket_names_its_board_as_nginx_reads_it(browser, server, board):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    urls = []
    page.on("websocket", lambda ws: urls.append(ws.url))
    page.goto(server.http + board_path(board))
    wait_live(page)
    context.close()
    assert urls, "the page opened no WebSocket"
    for url in urls:
        parts = urlsplit(url)
        assert parse_qs(parts.query) == {"board": [str(board)]}, url
        match = NGINX_BOARD.match(f"{parts.path}?{parts.query}")
        assert match and match["board"] == str(board), url
