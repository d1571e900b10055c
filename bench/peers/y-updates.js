#!/usr/bin/env node
// @ts-check
// Writes the messages an editor sends to the y-websocket peer: real Yjs updates, each one a
// different change, framed as y-websocket clients frame them. The server broadcasts only
// updates that change its document, so replaying a fixed message would measure nothing.
//
//   NODE_PATH=/usr/share/nodejs node y-updates.js --count N [--format hex|binary] [--out FILE]
//
// Record 0 is the setup (creates section "s" with title "b0"); record k (1...N) sets the title
// of section "s" to "b<k>", the shape of the TimerBoard title edit. Send them in order, on one
// connection, to a room never used before (the server keeps a room's document while it runs).
//   hex:    one message per line, lowercase hex.
//   binary: for each message, its length as a 4-byte big-endian integer, then its bytes.
'use strict'

const fs = require('node:fs')
const Y = require('yjs')
const encoding = require('lib0/dist/encoding.cjs')
const syncProtocol = require('y-protocols/dist/sync.cjs')

// y-websocket's outer message type (bin/utils.js); syncProtocol adds messageYjsUpdate = 2.
const messageSync = 0
// A fixed client id makes the output the same on every run; subscribers never write, so no
// other client can collide with it.
const editorClientID = 1

/**
 * The N+1 messages, setup first.
 * @param {number} count
 * @returns {Uint8Array[]}
 */
function makeMessages(count) {
  const doc = new Y.Doc()
  doc.clientID = editorClientID
  /** @type {Uint8Array[]} */
  const messages = []
  doc.on('update', (/** @type {Uint8Array} */ update) => {
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, messageSync)
    syncProtocol.writeUpdate(encoder, update)
    messages.push(encoding.toUint8Array(encoder))
  })
  const sections = doc.getMap('sections')
  const section = new Y.Map()
  doc.transact(() => {
    sections.set('s', section)
    section.set('title', 'b0')
  })
  for (let seq = 1; seq <= count; seq++) section.set('title', `b${seq}`)
  return messages
}

/** @param {string[]} argv */
function parseArguments(argv) {
  const options = { count: 0, format: 'hex', out: '' }
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]]
    if (name === '--count') options.count = Number(value)
    else if (name === '--format') options.format = value
    else if (name === '--out') options.out = value
    else throw new Error(`unknown option ${name}`)
  }
  if (!Number.isInteger(options.count) || options.count < 1) throw new Error('--count must be a positive integer')
  if (options.format !== 'hex' && options.format !== 'binary') throw new Error('--format must be hex or binary')
  return options
}

if (require.main === module) {
  const options = parseArguments(process.argv.slice(2))
  const messages = makeMessages(options.count)
  let output
  if (options.format === 'hex') {
    output = messages.map((message) => Buffer.from(message).toString('hex')).join('\n') + '\n'
  } else {
    output = Buffer.concat(
      messages.flatMap((message) => {
        const length = Buffer.alloc(4)
        length.writeUInt32BE(message.length)
        return [length, Buffer.from(message)]
      })
    )
  }
  if (options.out) fs.writeFileSync(options.out, output)
  else process.stdout.write(output)
}

module.exports = { makeMessages }
