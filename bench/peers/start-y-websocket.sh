#!/usr/bin/env bash
# Starts the Yjs reference server (Debian's node-y-websocket 1.4.5) in the foreground, on
# HOST:PORT (default 127.0.0.1:1234), documents in memory only. Rooms are ws://HOST:PORT/<room>.
#   HOST=127.0.0.1 PORT=1234 bench/peers/start-y-websocket.sh
#   taskset -c 0 bench/peers/start-y-websocket.sh      pinned, as scripts/bench pins timerboard
set -euo pipefail

server=/usr/share/nodejs/y-websocket/bin/server.js
if [[ ! -f "$server" ]]; then
  echo "y-websocket is not installed: scripts/install-deps --peers" >&2
  exit 1
fi

export HOST="${HOST:-127.0.0.1}"
export PORT="${PORT:-1234}"
# Persistence (LevelDB) is on only when YPERSISTENCE is set, the HTTP callback only when
# CALLBACK_URL is: clear both so that nothing but the broadcast costs time.
unset YPERSISTENCE CALLBACK_URL CALLBACK_OBJECTS
# A nodesource node does not search Debian's module folder.
export NODE_PATH=/usr/share/nodejs
exec node "$server"
