import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket

/// A WebSocket client that hands every text message to a callback on arrival, without decoding
/// it: the load generator must stay cheaper than the server it measures.
final class BenchSocket: Sendable {
    private let outgoing: AsyncStream<String>.Continuation
    private let task: Task<Void, Never>

    /// Connects to `url`; `onMessage` runs on a NIO thread for each text message, with the
    /// local arrival time in nanoseconds (`DispatchTime` uptime).
    init(url: String, onMessage: @escaping @Sendable (_ text: String, _ arrivedAt: UInt64) -> Void) {
        let (frames, outgoing) = AsyncStream.makeStream(of: String.self)
        self.outgoing = outgoing
        var logger = Logger(label: "bench-socket")
        logger.logLevel = .error
        task = Task {
            _ = try? await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 24), logger: logger) {
                inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in frames { try await outbound.write(.text(text)) }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    for try await message in inbound.messages(maxSize: 1 << 24) {
                        if case .text(let text) = message { onMessage(text, DispatchTime.now().uptimeNanoseconds) }
                    }
                    group.cancelAll()
                }
            }
        }
    }

    func send(_ text: String) {
        outgoing.yield(text)
    }

    func close() async {
        outgoing.finish()
        await task.value
    }
}

/// Says hello and joins, for a scenario's clients.
func helloAndJoin(_ socket: BenchSocket, clientID: String, board: String) {
    socket.send(#"{"type":"hello","protocol":1,"clientId":"\#(clientID)"}"#)
    socket.send(#"{"type":"join","board":"\#(board)"}"#)
}

/// The integer after `"key":` in a JSON text, found by scanning: enough for the fixed shapes the
/// server writes, and far cheaper than parsing every message of a thousand subscribers.
func scanInteger(after key: String, in text: String) -> Int64? {
    guard let range = text.range(of: "\"\(key)\":") else { return nil }
    var value: Int64 = 0
    var found = false
    for character in text[range.upperBound...] {
        guard let digit = character.wholeNumberValue else { break }
        value = value * 10 + Int64(digit)
        found = true
    }
    return found ? value : nil
}

/// Nanoseconds of uptime now.
func uptimeNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
