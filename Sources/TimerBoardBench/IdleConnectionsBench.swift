import Foundation

/// C idle connections subscribed to one board: the server's resident memory per connection.
public enum IdleConnectionsBench {
    public struct Result: Codable, Sendable {
        public let connections: Int
        public let serverMemoryBefore: Int
        public let serverMemoryAfter: Int
        public let bytesPerConnection: Double
    }

    public static func run(server: String, serverPID: Int32, connections: Int) async throws -> Result {
        let http = BenchHTTP(base: server)
        let board = try await http.createBoard(title: "idle bench")
        guard let before = ServerProcess(pid: serverPID).residentMemory() else { throw BenchHTTP.Failure(description: "no /proc/\(serverPID)/status") }
        let (joined, joinedContinuation) = AsyncStream.makeStream(of: Void.self)
        let sockets = (0..<connections).map { index in
            let socket = BenchSocket(url: http.webSocketURL, onText: { text, _ in
                if text.hasPrefix(#"{"type":"snapshot""#) { joinedContinuation.yield() }
            })
            helloAndJoin(socket, clientID: "idle-\(index)", board: board)
            return socket
        }
        var iterator = joined.makeAsyncIterator()
        for _ in 0..<connections { _ = await iterator.next() }
        let after = ServerProcess(pid: serverPID).residentMemory() ?? before
        for socket in sockets { await socket.close() }
        return Result(
            connections: connections, serverMemoryBefore: before, serverMemoryAfter: after,
            bytesPerConnection: Double(after - before) / Double(connections))
    }
}
