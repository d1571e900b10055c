"""A crowd on one board (a stage's phones): presence names at most 100 users, those editing
something first, and counts the rest (`more`), so a joiner gets a list of bounded size however
many are on the board (docs/protocol.md, "presence")."""
from raw_websocket import RawClient

LIST_LIMIT = 100


def presence_of(client: RawClient, on_board: int) -> tuple[dict, int, list[dict]]:
    """What `client` knows of presence once it accounts for all `on_board` users, itself
    included: its list with every presenceChanged applied, by user id; the count of the
    unlisted; and the messages that told it. A joiner's own arrival may be told by `more`
    alone: in a full list, whether it is named depends on its user id, a hash of the board's."""
    messages = [client.until("presence")]
    users = {user["userId"]: user for user in messages[0]["users"]}
    more = messages[0].get("more", 0)
    while len(users) + more != on_board:
        message = client.message()
        if message["type"] != "presenceChanged":
            continue
        messages.append(message)
        for user_id in message["left"]:
            users.pop(user_id, None)
        users.update({user["userId"]: user for user in message["users"]})
        more = message.get("more", more)
    return users, more, messages


def test_a_crowd_is_counted_not_named_and_the_one_who_edits_is_named_first(server):
    board = server.create_board("Stage")
    zed = RawClient(server.port, None)
    zed.send({"type": "hello", "protocol": 1, "clientId": "zed-0123456789", "name": "Zed"})
    assert zed.message()["type"] == "welcome"
    zed.send({"type": "join", "board": str(board), "secret": board.edit})
    assert zed.message()["type"] == "access"
    zed.send({"type": "edit", "opId": "1", "ops": [{"op": "addSection", "id": "s", "title": "Act one"}]})
    assert zed.until("ack")["opId"] == "1"
    zed.send({"type": "presence", "editing": "s"})
    crowd = []
    for n in range(LIST_LIMIT + 2):
        viewer = RawClient(server.port, None)
        viewer.hello_and_join(f"viewer-{n:04d}-0123456789", board, role="view")
        crowd.append(viewer)
    late = RawClient(server.port, None)
    late.hello_and_join("late-0123456789", board, role="view")
    on_board = 1 + len(crowd) + 1
    users, more, messages = presence_of(late, on_board)
    assert len(users) == LIST_LIMIT and more == on_board - LIST_LIMIT, (len(users), more)
    # Zed sorts after every "Guest", but edits: named first.
    assert [user["editing"] for user in users.values() if user["name"] == "Zed"] == ["s"]
    # Bounded: the joiner's list names at most 100, not the whole crowd.
    assert len(messages[0]["users"]) <= LIST_LIMIT
    # Once few enough are left, the count goes back to none and the list names everyone.
    for viewer in crowd[:on_board - LIST_LIMIT]:
        viewer.close()
    late.sock.settimeout(10)
    while more != 0:
        message = late.message()
        if message["type"] == "presenceChanged" and "more" in message:
            more = message["more"]
    for viewer in crowd[on_board - LIST_LIMIT:]:
        viewer.close()
    zed.close()
    late.close()


def test_a_small_board_never_mentions_more(server):
    board = server.create_board("Stand-up")
    clients = []
    for n in range(3):
        client = RawClient(server.port, None)
        client.hello_and_join(f"person-{n}-0123456789", board)
        clients.append(client)
    users, more, messages = presence_of(clients[-1], 3)
    assert len(users) == 3 and not any("more" in message for message in messages)
    clients[0].close()
    clients[1].sock.settimeout(10)
    while (message := clients[1].message())["type"] != "presenceChanged" or not message["left"]:
        pass
    assert "more" not in message
    for client in clients[1:]:
        client.close()
