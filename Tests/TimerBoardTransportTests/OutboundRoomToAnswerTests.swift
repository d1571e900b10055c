import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import TimerBoardTransport

/// `Outbound.untilRoomToAnswer`, where a session waits before it answers its client's next
/// message: a client that sends without reading is then held back by TCP, instead of its answers
/// piling up in the queue until it is dropped as too far behind (test_pipelining.py, end to end).
@Suite(.timeLimit(.minutes(1))) struct OutboundRoomToAnswerTests {
    @Test func aWaiterReturnsOnlyOnceTheFullSocketTakesFramesAgain() async throws {
        let peer = try Peer()
        let outbound = peer.outbound
        await outbound.untilRoomToAnswer()  // room: at once

        setWritable(false, peer)
        let waiter = Task { await outbound.untilRoomToAnswer() }
        while outbound.waitingForRoom == 0 { await Task.yield() }
        // Still full: a frame sent meanwhile does not let it go.
        outbound.send(OutboundFrame(payload: Array("an answer".utf8)))
        peer.channel.embeddedEventLoop.run()
        #expect(outbound.waitingForRoom == 1)

        setWritable(true, peer)
        #expect(outbound.waitingForRoom == 0)
        await waiter.value
    }

    @Test func aWaiterReturnsOnlyOnceAHalfFullQueueIsDrained() async throws {
        let peer = try Peer()
        let outbound = peer.outbound
        // The socket takes frames, but the event loop has not drained them yet (busy decoding
        // one read's thousands of messages, in the server).
        for _ in 0..<(outbound.capacity / 2) {
            outbound.send(OutboundFrame(payload: Array("an answer".utf8)))
        }
        let waiter = Task { await outbound.untilRoomToAnswer() }
        while outbound.waitingForRoom == 0 { await Task.yield() }

        peer.channel.embeddedEventLoop.run()  // the drain
        #expect(outbound.waitingForRoom == 0)
        await waiter.value
        #expect(try peer.sentFrames().count == outbound.capacity / 2)
    }

    /// Acks a board holds until their edits are durable join the queue a commit at a time: they
    /// count before they are queued, or a burst of them overflows the queue (issue 34).
    @Test func answersABoardHoldsCountAndADrainAloneDoesNotLetAWaiterGo() async throws {
        let peer = try Peer()
        let outbound = peer.outbound
        // Each held answer counts twice (an ack comes with its edit's changeset).
        for _ in 0..<(outbound.capacity / 4) { outbound.holdAnswer() }
        #expect(outbound.holdsAnswers)
        let waiter = Task { await outbound.untilRoomToAnswer() }
        while outbound.waitingForRoom == 0 { await Task.yield() }

        outbound.send(OutboundFrame(payload: Array("a broadcast".utf8)))
        peer.channel.embeddedEventLoop.run()  // a drain wakes the waiter, which waits again
        while outbound.waitingForRoom == 0 { await Task.yield() }

        outbound.releaseHeldAnswers(outbound.capacity / 4)
        #expect(!outbound.holdsAnswers)
        await waiter.value
        #expect(outbound.waitingForRoom == 0)
    }

    /// A session that leaves its board waits for the answers the board held to be queued by the
    /// board's event loop; what it sends itself afterwards would overtake them otherwise.
    @Test func leavingWaitsUntilNoAnswerIsHeld() async throws {
        let peer = try Peer()
        let outbound = peer.outbound
        await outbound.untilNoAnswerHeld()  // none held: at once
        outbound.holdAnswer()
        outbound.holdAnswer()
        let waiter = Task { await outbound.untilNoAnswerHeld() }
        while outbound.waitingForRoom == 0 { await Task.yield() }

        outbound.releaseHeldAnswers(1)  // one is still held
        while outbound.waitingForRoom == 0 { await Task.yield() }
        outbound.releaseHeldAnswers(1)
        await waiter.value
        #expect(outbound.waitingForRoom == 0)
    }

    /// The last held answer let go is enough, even while the queue is too full to answer: the
    /// session leaving its board must not wait for a drain as well.
    @Test func leavingIsLetGoByTheLastHeldAnswerWithAFullQueue() async throws {
        let peer = try Peer()
        let outbound = peer.outbound
        for _ in 0..<(outbound.capacity / 2) {
            outbound.send(OutboundFrame(payload: Array("a broadcast".utf8)))
        }
        outbound.holdAnswer()
        let waiter = Task { await outbound.untilNoAnswerHeld() }
        while outbound.waitingForRoom == 0 { await Task.yield() }
        outbound.releaseHeldAnswers(1)  // no drain has run: the queue is still half full
        await waiter.value
        #expect(outbound.waitingForRoom == 0)
    }

    @Test(arguments: ["disconnect", "finish", "channel closed"])
    func aWaiterIsLetGoWhenTheConnectionEnds(_ how: String) async throws {
        let peer = try Peer()
        let outbound = peer.outbound
        setWritable(false, peer)
        let waiter = Task { await outbound.untilRoomToAnswer() }
        while outbound.waitingForRoom == 0 { await Task.yield() }
        switch how {
        case "disconnect": outbound.disconnect(.normalClosure, reason: "bye")
        case "finish": outbound.finish()
        default: try await peer.channel.close()
        }
        await waiter.value
        #expect(outbound.waitingForRoom == 0)
        // A connection that ended never makes anyone wait.
        await outbound.untilRoomToAnswer()
    }

    private func setWritable(_ writable: Bool, _ peer: Peer) {
        peer.channel.isWritable = writable
        peer.channel.pipeline.fireChannelWritabilityChanged()
        peer.channel.embeddedEventLoop.run()
    }
}
