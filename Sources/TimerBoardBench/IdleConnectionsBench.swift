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
        var iterator = joined.makeAsyncIterator()
        var sockets: [BenchSocket] = []
        // In waves: ten thousand connects at once overflow the listen backlog, and a connect that
        // times out would leave the scenario waiting for a join that never comes.
        for wave in stride(from: 0, to: connections, by: 500) {
            let count = min(500, connections - wave)
            for index in wave..<(wave + count) {
                let socket = BenchSocket(url: http.webSocketURL, onText: { text, _ in
                    if text.hasPrefix(#"{"type":"snapshot""#) { joinedContinuation.yield() }
                })
                helloAndJoin(socket, clientID: "idle-\(index)", board: board)
                sockets.append(socket)
            }
            for _ in 0..<count { _ = await iterator.next() }
        }
        let after = ServerProcess(pid: serverPID).residentMemory() ?? before
        for socket in sockets { await socket.close() }
        return Result(
            connections: connections, serverMemoryBefore: before, serverMemoryAfter: after,
            bytesPerConnection: Double(after - before) / Double(connections))
    }
}
