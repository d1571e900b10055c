import NIOCore
import NIOWebSocket

/// One WebSocket connection after the upgrade, as the one handler of its channel: no task waits
/// on it. It cuts the socket's bytes into frames (`ClientFrameReader`), answers control frames
/// itself, assembles messages and hands them to its receiver, which starts work only then; it
/// writes its outbound queue's frames, already framed, straight to the socket. An idle
/// connection costs this object, its outbound queue and the channel (docs/performance.md). On
/// its event loop only.
///
/// The rules of RFC 6455 a server must keep: client frames are masked (5.1); RSV bits only as
/// negotiated (5.2, RFC 7692 6); no reserved opcodes (5.2); fragments in order, control frames
/// between them allowed (5.4); control frames whole and at most 125 bytes (5.5, checked by the
/// reader); the closing handshake (5.5.1, 7.1), in which the server closes the TCP connection.
package final class WebSocketConnection: ChannelDuplexHandler, RemovableChannelHandler, OutboundWriter {
    package typealias InboundIn = ByteBuffer
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    /// How long the server waits for the peer to answer its close before it cuts the socket.
    package static let closeTimeout = TimeAmount.seconds(10)
    /// What the server reads and discards after failing a connection, before it cuts the socket:
    /// a socket closed with unread bytes is reset, and the reset throws away the close frame and
    /// the answers still unread in the peer's socket. Bounded, and by `closeTimeout` too, so a
    /// peer that keeps sending cannot hold the socket.
    package static let drainLimit = 16 << 20

    private enum CloseState {
        case open
        /// The server sent its close and waits for the peer's, at most until the deadline.
        case closing(Scheduled<Void>?)
        /// The connection failed: the server's close is out and its side shut; what the peer
        /// still sends is read and discarded until it closes, up to `drainLimit` bytes.
        case draining(bytesLeft: Int)
        /// Both closes are done; the socket is closing.
        case closed
    }

    private let outbound: Outbound
    private let receiver: any WebSocketMessageReceiver
    private var reader: ClientFrameReader
    private var assembler: MessageAssembler
    private var closeState = CloseState.open
    // The three flags fill the 7 bytes after `closeState` (25 bytes; Swift lays a class out as
    // declared): one of these per connection, 168 bytes fit malloc's 176-byte blocks, 171 took 192.
    /// The receiver holds as many messages as it will; nothing is read until it says so.
    private var isReadingPaused = false
    /// The channel asked to read while reading was paused: that read is owed on resume.
    private var owesRead = false
    private var hasToldReceiver = false
    private var context: ChannelHandlerContext?

    private init(outbound: Outbound, receiver: any WebSocketMessageReceiver, maxFrameBytes: Int, maxMessageBytes: Int) {
        self.outbound = outbound
        self.receiver = receiver
        reader = ClientFrameReader(maxFrameSize: maxFrameBytes)
        assembler = MessageAssembler(maxBytes: maxMessageBytes, acceptsCompression: outbound.acceptsDeflate)
    }

    /// Takes over an upgraded channel, on its event loop, as its one handler and as the outbound
    /// queue's writer. A frame may carry up to `maxFrameBytes`, a message `maxMessageBytes`.
    package static func install(
        on channel: any Channel,
        outbound: Outbound,
        receiver: any WebSocketMessageReceiver,
        maxFrameBytes: Int,
        maxMessageBytes: Int
    ) throws {
        // One read per wake-up: a connection then keeps one read buffer, not up to four (NIO
        // keeps a pool of them per channel), and clients send small messages. The buffer's size
        // starts again from 256 bytes: what the upgrade request took does not size it.
        try channel.syncOptions?.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
        try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: WebSocketUpgradeChannel.readBuffers)
        let connection = WebSocketConnection(
            outbound: outbound,
            receiver: receiver,
            maxFrameBytes: maxFrameBytes,
            maxMessageBytes: maxMessageBytes
        )
        // Last: once the handler is in the pipeline, the receiver hears of the channel's end,
        // and nothing after this throws (a caller that catches an error may clean up itself).
        try channel.pipeline.syncOperations.addHandler(connection)
        // The queue writes and closes through the connection, so its close follows the
        // handshake. The two hold each other until the channel ends (`ended`).
        outbound.attach(writer: connection)
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        ended()
    }

    // MARK: Writing

    /// Writes the outbound queue's frames and flushes once.
    package func write(_ frames: [OutboundFrame]) {
        // A channel that closed meanwhile fails these writes itself (no promise to tell).
        guard let context else { return }
        for frame in frames {
            context.write(wrapOutboundOut(frame.bytes), promise: nil)
        }
        context.flush()
    }

    package func write(_ frame: OutboundFrame) {
        guard let context else { return }
        context.writeAndFlush(wrapOutboundOut(frame.bytes), promise: nil)
    }

    package func channelWritabilityChanged(context: ChannelHandlerContext) {
        outbound.setWritable(context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        ended()
        context.fireChannelInactive()
    }

    // MARK: Reading

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        outbound.heardFromPeer()
        switch closeState {
        case .closed: return
        case .draining: return discarded(bytes.readableBytes)
        case .open, .closing: break
        }
        reader.append(bytes)
        while true {
            switch closeState {
            case .open, .closing: break
            case .draining, .closed: return reader.discardPending()
            }
            switch reader.next() {
            case .frame(let frame): received(frame, context: context)
            case .needsMoreBytes: return
            case .tooLarge:
                reader.discardPending()
                return fail(.messageTooLarge, "a frame over the size limit")
            case .malformedControlFrame:
                reader.discardPending()
                return fail(.protocolError, "a fragmented or long control frame")
            }
        }
    }

    private func received(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        guard frame.maskKey != nil else { return fail(.protocolError, "an unmasked client frame") }
        guard !frame.rsv2, !frame.rsv3 else { return fail(.protocolError, "RSV2 or RSV3 set") }
        switch frame.opcode {
        case .text, .binary, .continuation:
            guard case .open = closeState else { return }  // after a close, data is discarded (5.5.1)
            switch assembler.add(frame, maxWireBytes: reader.maxFrameSize) {
            case .incomplete: break
            case .message(let message):
                if !receiver.received(message) { isReadingPaused = true }
            case .fail(let code, let reason):
                fail(code, reason)
            }
        case .ping:
            guard !frame.rsv1 else { return fail(.protocolError, "RSV1 on a control frame") }
            guard case .open = closeState else { return }
            // A peer that pings but does not read gets no pongs once its socket is full: they
            // would pile up in memory (RFC 6455 5.5.3 lets a server leave pings unanswered).
            guard context.channel.isWritable else { return }
            context.writeAndFlush(wrapOutboundOut(OutboundFrame.pong(frame.unmaskedData.readableBytesView).bytes), promise: nil)
        case .pong:
            // The peer is alive, which `channelRead` noted for the heartbeat.
            guard !frame.rsv1 else { return fail(.protocolError, "RSV1 on a control frame") }
        case .connectionClose:
            guard !frame.rsv1 else { return fail(.protocolError, "RSV1 on a control frame") }
            receivedClose(frame.unmaskedData)
        default:
            fail(.protocolError, "a reserved opcode")
        }
    }

    /// Holds back the channel's reads while the receiver is full.
    package func read(context: ChannelHandlerContext) {
        if isReadingPaused, !isDraining {
            owesRead = true
        } else {
            context.read()
        }
    }

    /// The receiver can take messages again.
    package func resumeReading() {
        guard isReadingPaused else { return }
        isReadingPaused = false
        if owesRead, let context {
            owesRead = false
            context.read()
        }
    }

    // MARK: Closing

    /// Starts the closing handshake: what the queue holds is written, then the close frame; the
    /// socket is cut if the peer does not answer within `closeTimeout`.
    package func close(_ code: WebSocketErrorCode, reason: String) {
        guard case .open = closeState, let context else { return }
        outbound.flushBeforeClose()
        writeClose(code, reason: reason, context: context)
        let deadline = context.eventLoop.assumeIsolated().scheduleTask(in: Self.closeTimeout) { [self] () -> Void in
            guard let context = self.context else { return }
            context.close(promise: nil)
        }
        closeState = .closing(deadline)
    }

    private var isDraining: Bool {
        if case .draining = closeState { return true }
        return false
    }

    /// Bytes read while draining; the socket closes once the limit is spent.
    private func discarded(_ byteCount: Int) {
        guard case .draining(let bytesLeft) = closeState else { return }
        let left = bytesLeft - byteCount
        guard left <= 0 else {
            closeState = .draining(bytesLeft: left)
            return
        }
        closeState = .closed
        context?.close(promise: nil)
    }

    private func receivedClose(_ payload: ByteBuffer) {
        guard let context else { return }
        switch closeState {
        case .open:
            // The peer closes first: answer (1000, or 1002 for a close a peer may not send),
            // then close the socket once the answer is out (the server closes TCP, 7.1.1).
            closeState = .closed
            outbound.flushBeforeClose()
            writeCloseThenCloseSocket(Self.answer(toClose: payload), reason: nil, context: context)
        case .closing(let deadline):
            deadline?.cancel()
            closeState = .closed
            context.close(promise: nil)
        case .draining:
            closeState = .closed
            context.close(promise: nil)
        case .closed:
            break
        }
    }

    /// Fails the connection: what is queued and a close with `code` (unless the server's close is
    /// already out), then the server's side of the socket is shut and what the peer still sends
    /// is drained, so the peer reads all of it instead of a reset.
    private func fail(_ code: WebSocketErrorCode, _ reason: String) {
        guard let context else { return }
        switch closeState {
        case .closed, .draining:
            return
        case .closing(let deadline):
            deadline?.cancel()
            closeState = .closed
            context.close(promise: nil)
        case .open:
            closeState = .draining(bytesLeft: Self.drainLimit)
            outbound.flushBeforeClose()
            writeCloseThenDrain(code, reason: reason, context: context)
        }
    }

    /// Writes a last close frame, shuts the output once it is out (the peer reads the close, then
    /// the end of the stream) and reads on until the peer closes, `drainLimit` bytes came, or
    /// `closeTimeout` passed.
    private func writeCloseThenDrain(_ code: WebSocketErrorCode, reason: String, context: ChannelHandlerContext) {
        let loopContext = context.loopBound
        writeClose(code, reason: reason, context: context).whenComplete { _ in
            loopContext.value.close(mode: .output, promise: nil)
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.closeTimeout) { () -> Void in
            loopContext.value.close(promise: nil)
        }
        // Reads go on even where the receiver had paused them: nothing reaches it any more.
        if owesRead {
            owesRead = false
            context.read()
        }
    }

    /// Writes a last close frame and closes the socket once it is out, or after `closeTimeout`
    /// if it cannot go out (a peer that reads nothing keeps the socket full).
    private func writeCloseThenCloseSocket(_ code: WebSocketErrorCode, reason: String?, context: ChannelHandlerContext) {
        let loopContext = context.loopBound
        writeClose(code, reason: reason, context: context).whenComplete { _ in loopContext.value.close(promise: nil) }
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.closeTimeout) { () -> Void in
            loopContext.value.close(promise: nil)
        }
    }

    @discardableResult
    private func writeClose(_ code: WebSocketErrorCode, reason: String?, context: ChannelHandlerContext) -> EventLoopFuture<Void> {
        context.writeAndFlush(wrapOutboundOut(OutboundFrame.close(code, reason: reason).bytes))
    }

    /// The code a server answers a peer's close with (RFC 6455 7.4): the same normal closure for
    /// a valid close, 1002 for a one-byte payload, a code no peer may send, or a reason that is
    /// not UTF-8.
    static func answer(toClose payload: ByteBuffer) -> WebSocketErrorCode {
        var payload = payload
        guard payload.readableBytes > 0 else { return .normalClosure }
        guard let code = payload.readWebSocketErrorCode() else { return .protocolError }
        if case .unknown(let number) = code, !(3000...4999).contains(number) { return .protocolError }
        guard String(validating: payload.readableBytesView, as: UTF8.self) != nil else { return .protocolError }
        return .normalClosure
    }

    /// The channel is gone: the receiver is told once.
    private func ended() {
        if case .closing(let deadline) = closeState { deadline?.cancel() }
        // (A drain's deadline fires on a closed channel: closing it again does nothing.)
        closeState = .closed
        guard !hasToldReceiver else { return }
        hasToldReceiver = true
        reader.discardPending()
        outbound.writerEnded()
        outbound.finish()
        receiver.connectionClosed()
    }

    // MARK: Events

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ChannelShouldQuiesceEvent:
            close(.normalClosure, reason: "the server is shutting down")
        case ChannelEvent.inputClosed:
            // The peer closed its side without a close frame (hummingbird's server allows
            // half-closed sockets): nothing more can come, so the connection ends here.
            closeState = .closed
            context.close(promise: nil)
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }
}
