import NIOCore
import NIOEmbedded
import NIOWebSocket
import Synchronization
import Testing

@testable import TimerBoardTransport

/// `RoomFanout` and `LoopSubscribers`: a room's broadcasts written by the event loops of its
/// subscribers, each loop to its own, in the order the room decided. Connections on embedded
/// channels; an embedded loop runs what was handed to it when the test says so.
@Suite struct RoomFanoutTests {
    static func frame(_ text: String) -> OutboundFrame { OutboundFrame(payload: Array(text.utf8)) }

    static func texts(_ peer: Peer) throws -> [String] {
        try peer.sentFrames().filter { $0.opcode == .text }.map { String(decoding: $0.payload, as: UTF8.self) }
    }

    /// The ids of the connections a fan-out said refused a frame, in order.
    final class Refusals: Sendable {
        private let ids = Mutex<[Int]>([])
        var all: [Int] { ids.withLock { $0 } }
        func record(_ outbound: Outbound) { ids.withLock { $0.append(outbound.id) } }
    }

    @Test func eachLoopWritesABroadcastToItsOwnSubscribersWithTheirAnswersInOneFlush() throws {
        let (loopA, loopB) = (EmbeddedEventLoop(), EmbeddedEventLoop())
        let editor = try Peer(id: 1, loop: loopA)
        let watcher = try Peer(id: 2, loop: loopA)
        let farAway = try Peer(id: 3, loop: loopB)
        var fanout = RoomFanout { _ in }
        for peer in [editor, watcher, farAway] { fanout.subscribe(peer.outbound) }
        fanout.flush()
        loopA.run()
        loopB.run()
        let editorFlushes = editor.reads.flushes

        editor.outbound.holdAnswer()  // the room held the editor's ack until its edit was durable
        #expect(fanout.broadcast(Self.frame("changes 1")) == 3)
        fanout.send(Self.frame("ack 1"), to: editor.outbound, held: true)
        fanout.flush()
        #expect(try Self.texts(editor).isEmpty, "written before its loop ran")
        #expect(editor.outbound.holdsAnswers, "let go before the ack was queued: the session's own answer could overtake it")

        loopA.run()
        #expect(!editor.outbound.holdsAnswers)
        #expect(try Self.texts(editor) == ["changes 1", "ack 1"])
        #expect(editor.reads.flushes - editorFlushes == 1)
        #expect(try Self.texts(watcher) == ["changes 1"])
        #expect(try Self.texts(farAway).isEmpty, "loop B wrote on loop A's run")
        loopB.run()
        #expect(try Self.texts(farAway) == ["changes 1"])
    }

    /// Broadcasts handed over while the loop is busy run together: each subscriber gets all its
    /// waiting frames in one write, which is how a loop that fell behind catches up.
    @Test func aLoopThatFellBehindWritesEachSubscriberItsWaitingBroadcastsInOneFlush() throws {
        let loop = EmbeddedEventLoop()
        let peers = try (1...3).map { try Peer(id: $0, loop: loop) }
        var fanout = RoomFanout { _ in }
        for peer in peers { fanout.subscribe(peer.outbound) }
        fanout.flush()
        loop.run()
        let flushesBefore = peers.map(\.reads.flushes)

        for revision in 1...3 {
            fanout.broadcast(Self.frame("changes \(revision)"))
            fanout.flush()
        }
        loop.run()
        for (peer, before) in zip(peers, flushesBefore) {
            #expect(try Self.texts(peer) == ["changes 1", "changes 2", "changes 3"])
            #expect(peer.reads.flushes - before == 1)
        }
    }

    @Test func aBroadcastReachesWhoeverSubscribesAtThatPointOfTheRoomsOrder() throws {
        let loop = EmbeddedEventLoop()
        let (early, late) = (try Peer(id: 1, loop: loop), try Peer(id: 2, loop: loop))
        var fanout = RoomFanout { _ in }
        fanout.subscribe(early.outbound)
        fanout.broadcast(Self.frame("1"))
        fanout.subscribe(late.outbound)
        fanout.broadcast(Self.frame("2"))
        fanout.unsubscribe(early.outbound)
        fanout.broadcast(Self.frame("3"))
        fanout.flush()
        loop.run()
        #expect(try Self.texts(early) == ["1", "2"])
        #expect(try Self.texts(late) == ["2", "3"])

        fanout.unsubscribeAll()
        #expect(fanout.broadcast(Self.frame("4")) == 0)
        fanout.flush()
        loop.run()
        #expect(try Self.texts(late).isEmpty)
    }

    /// Two rooms hand the same loop their steps: a connection that leaves one board for another
    /// gets the first board's last frames before the second's snapshot.
    @Test func aConnectionMovingToAnotherBoardGetsTheFirstBoardsFramesFirst() throws {
        let loop = EmbeddedEventLoop()
        let (mover, stayer) = (try Peer(id: 1, loop: loop), try Peer(id: 2, loop: loop))
        var first = RoomFanout { _ in }
        var second = RoomFanout { _ in }
        first.subscribe(mover.outbound)
        first.subscribe(stayer.outbound)
        first.flush()
        loop.run()

        first.broadcast(Self.frame("first board, revision 7"))
        first.unsubscribe(mover.outbound)
        first.flush()
        second.send(Self.frame("second board's snapshot"), to: mover.outbound, held: false)
        second.subscribe(mover.outbound)
        second.broadcast(Self.frame("second board, revision 3"))
        second.flush()
        first.broadcast(Self.frame("first board, revision 8"))
        first.flush()
        loop.run()
        #expect(try Self.texts(mover) == ["first board, revision 7", "second board's snapshot", "second board, revision 3"])
        #expect(try Self.texts(stayer) == ["first board, revision 7", "first board, revision 8"])
    }

    @Test func aCloseLeavesAfterTheFramesDecidedBeforeIt() throws {
        let loop = EmbeddedEventLoop()
        let peer = try Peer(id: 1, loop: loop)
        var fanout = RoomFanout { _ in }
        fanout.subscribe(peer.outbound)
        fanout.broadcast(Self.frame("the last changeset"))
        fanout.disconnect(peer.outbound, WebSocketErrorCode(codeNumber: 4410), reason: "the board was deleted")
        loop.run()
        let frames = try peer.sentFrames()
        #expect(frames.map(\.opcode) == [.text, .connectionClose])
        #expect(frames.last?.closeCode == WebSocketErrorCode(codeNumber: 4410))
    }

    @Test func aConnectionThatRefusesIsToldOnceAndWrittenToNoMore() throws {
        let loop = EmbeddedEventLoop()
        let (gone, staying) = (try Peer(id: 1, loop: loop), try Peer(id: 2, loop: loop))
        let refusals = Refusals()
        var fanout = RoomFanout { refusals.record($0) }
        fanout.subscribe(gone.outbound)
        fanout.subscribe(staying.outbound)
        fanout.flush()
        loop.run()

        gone.outbound.finish()  // takes no more frames
        fanout.broadcast(Self.frame("a"))
        fanout.send(Self.frame("an answer"), to: gone.outbound, held: false)
        fanout.broadcast(Self.frame("b"))
        fanout.flush()
        loop.run()
        #expect(refusals.all == [1])
        fanout.broadcast(Self.frame("c"))
        fanout.flush()
        loop.run()
        #expect(refusals.all == [1])
        #expect(try Self.texts(staying) == ["a", "b", "c"])
        #expect(try Self.texts(gone).isEmpty)
    }
}
