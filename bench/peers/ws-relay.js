#!/usr/bin/env node
// @ts-check
// The smallest fair broadcast relay with `ws`: a client connects to ws://HOST:PORT/<room>, and
// every message it sends goes to every other client of that room, as it arrived. The floor a
// fan-out server can reach in Node: no parsing, no state, no storage.
//
//   NODE_PATH=/usr/share/nodejs node ws-relay.js [PORT]      (or PORT=..., HOST=... in the env)
'use strict'

const http = require('node:http')
const { WebSocketServer, WebSocket } = require('ws')

const host = process.env.HOST ?? '127.0.0.1'
const port = Number(process.argv[2] ?? process.env.PORT ?? 8090)

/** @type {Map<string, Set<WebSocket>>} */
const rooms = new Map()

// Any plain HTTP request answers 200, so a script can wait for the port as for /health.
const server = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain' })
  response.end('ok\n')
})
// Compression off, as on the other servers of the comparison (ws's default, said out loud).
const wss = new WebSocketServer({ server, perMessageDeflate: false })

wss.on('connection', (socket, request) => {
  const room = (request.url ?? '/').slice(1).split('?')[0]
  const peers = rooms.get(room) ?? new Set()
  rooms.set(room, peers)
  peers.add(socket)

  socket.on('message', (data, isBinary) => {
    // The received buffer goes out as it is, with its own opcode: decoded once by ws (UTF-8
    // checked), never re-encoded; ws only adds each receiver's frame header.
    for (const other of peers) {
      if (other !== socket && other.readyState === WebSocket.OPEN) other.send(data, { binary: isBinary })
    }
  })
  socket.on('close', () => {
    peers.delete(socket)
    if (peers.size === 0) rooms.delete(room)
  })
  // A reset connection is routine under load; 'close' follows and cleans up.
  socket.on('error', () => {})
})

server.listen(port, host, () => {
  console.log(`ws-relay listening on ws://${host}:${port}/<room>`)
})

// Stop cleanly on the signals a bench script sends.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const client of wss.clients) client.terminate()
    server.close(() => process.exit(0))
  })
}
