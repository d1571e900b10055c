import Foundation
import NIOCore
import Synchronization

/// N clients join one large board at the same moment: how long until every one of them holds
/// the board (its snapshot arrived), and what that cost the server.
public enum JoinStormBench {
    public struct Result: Codable, Sendable {
        public let clients: Int
        public let sections: Int
        public let timers: Int
        public let snapshotBytes: Int
        /// Whether the clients offered permessage-deflate.
        public let offersDeflate: Bool
        /// Payload bytes each client received on the wire until it held the board (mean).
        public let wireBytesPerClient: Int
        /// First join sent → the last client's snapshot, milliseconds.
        public let timeUntilAllHoldIt: Double
        /// Join sent → that client's snapshot, milliseconds.
        public let perClient: [String: Double]
        /// Server CPU seconds spent on the storm; nil without its pid.
        public let serverCPUSeconds: Double?
    }

    public static func run(
        server: String,
        clients: Int,
        sections: Int,
        timersPerSection: Int,
        offersDeflate: Bool,
        serverProcess: ServerProcess?
    ) async throws -> Result {
        let http = BenchHTTP(base: server)
        let board = try await http.createBoard(title: "join storm bench")
        try await populate(http: http, board: board, sections: sections, timersPerSection: timersPerSection)

        let recorder = Recorder()
        let (done, doneContinuation) = AsyncStream.makeStream(of: Void.self)
        let cpuBefore = serverProcess?.cpuSeconds()
        let start = uptimeNanoseconds()
        let sockets = (0..<clients).map { index in
            let socket = BenchSocket(
                url: http.webSocketURL,
                offersDeflate: offersDeflate,
                onMessage: { message, arrivedAt in
                    guard message.hasBytePrefix(#"{"type":"snapshot""#) else { return }
                    if recorder.record(arrivedAt - start, bytes: message.readableBytes) == clients { doneContinuation.yield() }
                }
            )
            helloAndJoin(socket, clientID: "storm-\(index)", board: board)
            return socket
        }
        var iterator = done.makeAsyncIterator()
        _ = await iterator.next()
        let cpuAfter = serverProcess?.cpuSeconds()
        let wireBytes = sockets.reduce(0) { $0 + $1.receivedWireBytes }
        for socket in sockets { await socket.close() }
        return recorder.result(
            clients: clients,
            sections: sections,
            timers: sections * timersPerSection,
            offersDeflate: offersDeflate,
            wireBytesPerClient: wireBytes / max(1, clients),
            cpu: cpuAfter.flatMap { after in cpuBefore.map { after - $0 } }
        )
    }

    /// Fills the board with `sections` × `timersPerSection`, 100 operations per edit, and waits
    /// for every ack.
    private static func populate(http: BenchHTTP, board: BenchBoard, sections: Int, timersPerSection: Int) async throws {
        var ops: [String] = []
        for section in 0..<sections {
            ops.append(#"{"op":"addSection","id":"s\#(section)","title":"Section \#(section)"}"#)
            for timer in 0..<timersPerSection {
                ops.append(
                    #"{"op":"addTimer","id":"t\#(section)-\#(timer)","sectionID":"s\#(section)","title":"Timer \#(timer)","minutes":5,"seconds":0}"#
                )
            }
        }
        let edits = stride(from: 0, to: ops.count, by: 100).map { Array(ops[$0..<min($0 + 100, ops.count)]) }
        let (acks, ackContinuation) = AsyncStream.makeStream(of: Bool.self)
        let editor = BenchSocket(
            url: http.webSocketURL,
            onMessage: { message, _ in
                if message.hasBytePrefix(#"{"type":"ack""#) { ackContinuation.yield(true) }
                if message.hasBytePrefix(#"{"type":"reject""#) { ackContinuation.yield(false) }
            }
        )
        helloAndJoin(editor, clientID: "storm-editor", board: board)
        for (index, edit) in edits.enumerated() {
            editor.send(#"{"type":"edit","opId":"fill-\#(index)","ops":[\#(edit.joined(separator: ","))]}"#)
        }
        var iterator = acks.makeAsyncIterator()
        for _ in edits {
            guard await iterator.next() == true else { throw BenchHTTP.Failure(description: "the server refused an edit filling the board") }
        }
        await editor.close()
    }

    private final class Recorder: Sendable {
        private struct State {
            var latencies = LatencyHistogram()
            var count = 0
            var last: UInt64 = 0
            var bytes = 0
        }
        private let state = Mutex(State())

        /// Returns how many clients hold the board now.
        func record(_ elapsed: UInt64, bytes: Int) -> Int {
            state.withLock { state in
                state.latencies.record(microseconds: elapsed / 1_000)
                state.count += 1
                state.last = max(state.last, elapsed)
                state.bytes = bytes
                return state.count
            }
        }

        func result(clients: Int, sections: Int, timers: Int, offersDeflate: Bool, wireBytesPerClient: Int, cpu: Double?) -> Result {
            state.withLock { state in
                Result(
                    clients: clients,
                    sections: sections,
                    timers: timers,
                    snapshotBytes: state.bytes,
                    offersDeflate: offersDeflate,
                    wireBytesPerClient: wireBytesPerClient,
                    timeUntilAllHoldIt: Double(state.last) / 1e6,
                    perClient: state.latencies.summary,
                    serverCPUSeconds: cpu
                )
            }
        }
    }
}
