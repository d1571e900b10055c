import BoardProtocol
import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket

/// One WebSocket connection to a TimerBoard server, as a script or a test uses it:
/// `send` queues a message, `receive` waits for the next server message.
///
/// Not shared between tasks: one task sends and receives.
public final class BoardConnection {
    /// What the connection writes: protocol text, or raw frames for tests of bad input.
    public enum Frame: Sendable {
        case text([UInt8])
        case binary([UInt8])
    }

    /// The connection ended; `receive` has nothing more to give.
    public struct Closed: Error {}

    private let outgoing: AsyncStream<Frame>.Continuation
    private var incoming: AsyncThrowingStream<ServerMessage, any Error>.AsyncIterator
    private let task: Task<Void, Never>

    /// Starts connecting to `url` (such as `ws://127.0.0.1:8080/ws`). A failure to connect
    /// shows up as an error from the first `receive`.
    public init(url: String, logger: Logger = Logger(label: "BoardConnection")) {
        let (outgoingFrames, outgoing) = AsyncStream.makeStream(of: Frame.self)
        let (incomingMessages, incomingContinuation) = AsyncThrowingStream.makeStream(of: ServerMessage.self)
        self.outgoing = outgoing
        self.incoming = incomingMessages.makeAsyncIterator()
        task = Task {
            do {
                try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 24), logger: logger) {
                    inbound,
                    outbound,
                    _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await frame in outgoingFrames {
                                switch frame {
                                case .text(let bytes):
                                    try await outbound.write(.custom(.init(fin: true, opcode: .text, data: ByteBuffer(bytes: bytes))))
                                case .binary(let bytes):
                                    try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                                }
                            }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                        for try await message in inbound.messages(maxSize: 1 << 24) {
                            guard case .text(let text) = message else { continue }
                            incomingContinuation.yield(try ServerMessage.decode(Data(text.utf8)))
                        }
                        group.cancelAll()
                    }
                }
                incomingContinuation.finish()
            } catch {
                incomingContinuation.finish(throwing: error)
            }
        }
    }

    deinit {
        outgoing.finish()
    }

    public func send(_ message: ClientMessage) {
        outgoing.yield(.text(message.encoded()))
    }

    /// Sends any frame, valid or not.
    public func send(raw frame: Frame) {
        outgoing.yield(frame)
    }

    /// The next message from the server.
    public func receive() async throws -> ServerMessage {
        guard let message = try await incoming.next() else { throw Closed() }
        return message
    }

    /// Closes the connection and waits until it is closed.
    public func close() async {
        outgoing.finish()
        await task.value
    }
}
