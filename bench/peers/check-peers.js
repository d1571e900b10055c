#!/usr/bin/env node
// @ts-check
// Proves the two peers fan out: against a ws-relay and a y-websocket server that are already
// running, connects 3 subscribers and 1 editor to a fresh room of each, sends 5 edits, and
// checks that every subscriber received each of them once, recognised by its seq number the
// way the Swift load generator must recognise them (see README.md). Subscribers never send
// anything: not even an answer to y-websocket's sync step 1.
//
//   NODE_PATH=/usr/share/nodejs node check-peers.js [--relay ws://127.0.0.1:8090] [--yjs ws://127.0.0.1:1234]
// Exits 0 when every subscriber of both peers got every edit, 1 otherwise.
'use strict'

const { WebSocket } = require('ws')
const { makeMessages } = require('./y-updates.js')

const subscriberCount = 3
const editCount = 5
// Deliveries on localhost take milliseconds; this only bounds a failing run.
const deliveryTimeoutMs = 5_000

/** The edit the Swift generator sends to the relay: TimerBoard's own broadcast for seq. */
function relayEdit(/** @type {number} */ seq) {
  return `{"type":"changes","rev":${seq + 1},"changes":[{"update":"section","id":"s","title":"b${seq}"}]}`
}

/** Seq of a relay delivery: the digits after `"title":"b`, or null. */
function relaySeq(/** @type {Buffer} */ data, /** @type {boolean} */ isBinary) {
  if (isBinary) return null
  const match = /"title":"b(\d+)"/.exec(data.toString('utf8'))
  return match ? Number(match[1]) : null
}

/**
 * Seq of a y-websocket delivery, or null for anything else (sync step 1, awareness).
 * An update is [0x00 messageSync][0x02 messageYjsUpdate][varUint length][update]; the title
 * inside is Yjs "any" content: 0x77 (string), its UTF-8 length L, then "b" and L-1 digits.
 */
function yjsSeq(/** @type {Buffer} */ data, /** @type {boolean} */ isBinary) {
  if (!isBinary || data.length < 3 || data[0] !== 0x00 || data[1] !== 0x02) return null
  for (let i = 3; i + 2 < data.length; i++) {
    const length = data[i + 1]
    if (data[i] !== 0x77 || data[i + 2] !== 0x62 || length < 2 || i + 2 + length > data.length) continue
    const digits = data.subarray(i + 3, i + 2 + length)
    if (digits.every((byte) => byte >= 0x30 && byte <= 0x39)) return Number(digits.toString('ascii'))
  }
  return null
}

/**
 * Opens a socket and resolves once the server has it in the room: on open for the relay, on
 * the first message (sync step 1) for y-websocket, which registers the socket before sending it.
 * @param {string} url
 * @param {boolean} waitForFirstMessage
 * @param {(data: Buffer, isBinary: boolean) => void} onMessage
 * @returns {Promise<WebSocket>}
 */
function connect(url, waitForFirstMessage, onMessage) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url)
    socket.on('error', reject)
    socket.on('message', (/** @type {Buffer} */ data, isBinary) => {
      onMessage(data, isBinary)
      if (waitForFirstMessage) resolve(socket)
    })
    if (!waitForFirstMessage) socket.on('open', () => resolve(socket))
  })
}

/**
 * One peer: connects, sends, waits for every delivery, reports.
 * `echoes`: whether the server also sends each edit back to its editor (y-websocket does).
 * @param {{name: string, url: string, joinedOnFirstMessage: boolean, echoes: boolean, setup: (string|Uint8Array)[],
 *   edits: (string|Uint8Array)[], seqOf: (data: Buffer, isBinary: boolean) => number|null}} peer
 */
async function checkPeer(peer) {
  const room = `check-peers-${process.pid}-${Date.now()}`
  const url = `${peer.url.replace(/\/$/, '')}/${room}`
  /** @type {Map<number, number>[]} seq → times received, per subscriber */
  const received = []
  /** @type {Buffer[]} */
  const deliveredBytes = []
  /** @type {string[]} */
  const others = []
  let resolveAll = () => {}
  const allDelivered = new Promise((resolve) => { resolveAll = () => resolve(undefined) })
  /** @type {number[]} */
  const echoes = []
  const isDone = () =>
    received.every((seqs) => [...seqs.keys()].filter((seq) => seq >= 1).length === editCount) &&
    (!peer.echoes || echoes.filter((seq) => seq >= 1).length === editCount)

  const subscribers = await Promise.all(
    Array.from({ length: subscriberCount }, (_, index) => {
      const seqs = new Map()
      received.push(seqs)
      return connect(url, peer.joinedOnFirstMessage, (data, isBinary) => {
        const seq = peer.seqOf(data, isBinary)
        if (seq === null) {
          if (index === 0) others.push(isBinary ? `binary ${data.toString('hex')}` : `text ${data.toString()}`)
          return
        }
        seqs.set(seq, (seqs.get(seq) ?? 0) + 1)
        if (index === 0 && seq >= 1) deliveredBytes[seq] = Buffer.from(data)
        if (isDone()) resolveAll()
      })
    })
  )
  const editor = await connect(url, peer.joinedOnFirstMessage, (data, isBinary) => {
    const seq = peer.seqOf(data, isBinary)
    if (seq === null) return
    echoes.push(seq)
    if (isDone()) resolveAll()
  })
  for (const message of [...peer.setup, ...peer.edits]) editor.send(message)

  const timeout = new Promise((resolve) => setTimeout(resolve, deliveryTimeoutMs, 'timeout'))
  const outcome = await Promise.race([allDelivered, timeout])

  let ok = outcome !== 'timeout'
  console.log(`== ${peer.name} (${url})`)
  received.forEach((seqs, index) => {
    const edits = [...seqs.entries()].filter(([seq]) => seq >= 1)
    const duplicates = edits.filter(([, times]) => times > 1).length
    const complete = edits.length === editCount && duplicates === 0
    ok &&= complete
    console.log(`subscriber ${index + 1}: received ${edits.length}/${editCount} edits (seqs ${edits.map(([seq]) => seq).join(',')})` +
      `${duplicates ? `, ${duplicates} twice` : ''} ${complete ? 'OK' : 'MISSING'}`)
  })
  peer.edits.forEach((sent, index) => {
    const seq = index + 1
    const delivered = deliveredBytes[seq]
    const same = delivered !== undefined && Buffer.compare(delivered, Buffer.from(sent)) === 0
    console.log(`edit ${seq}: sent ${Buffer.byteLength(sent)} B, delivered ${delivered?.length ?? '-'} B, ${same ? 'the same bytes' : 'DIFFERENT bytes'}`)
  })
  const echoed = echoes.filter((seq) => seq >= 1).length
  ok &&= peer.echoes ? echoed === editCount : echoed === 0
  console.log(`editor got its own edits back: ${echoed}/${editCount} (expected ${peer.echoes ? editCount : 0})`)
  console.log(`subscriber 1 also received: ${others.length ? others.join('; ') : 'nothing else'}`)

  for (const socket of [...subscribers, editor]) socket.close()
  return ok
}

async function main() {
  const options = { relay: 'ws://127.0.0.1:8090', yjs: 'ws://127.0.0.1:1234' }
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--relay') options.relay = argv[i + 1]
    else if (argv[i] === '--yjs') options.yjs = argv[i + 1]
    else throw new Error(`unknown option ${argv[i]}`)
  }
  const seqs = Array.from({ length: editCount }, (_, index) => index + 1)
  const yjsMessages = makeMessages(editCount)
  const relayOK = await checkPeer({
    name: 'ws-relay',
    url: options.relay,
    joinedOnFirstMessage: false,
    echoes: false,
    setup: [],
    edits: seqs.map(relayEdit),
    seqOf: relaySeq,
  })
  const yjsOK = await checkPeer({
    name: 'y-websocket',
    url: options.yjs,
    joinedOnFirstMessage: true,
    echoes: true,
    setup: [yjsMessages[0]],
    edits: yjsMessages.slice(1),
    seqOf: yjsSeq,
  })
  console.log(relayOK && yjsOK ? 'PASS: every subscriber of both peers received every edit' : 'FAIL')
  process.exit(relayOK && yjsOK ? 0 : 1)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
