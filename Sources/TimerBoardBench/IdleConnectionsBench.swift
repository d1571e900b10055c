import Foundation

/// C idle connections subscribed to one board: the server's resident memory per connection.
public enum IdleConnectionsBench {
    public struct Result: Codable, Sendable {
        public let connections: Int
        public let serverMemoryBefore: Int
        /// Read as the last connection got its snapshot.
        public let serverMemoryJoined: Int
        /// Read after `settleSeconds` more, with every connection idle.
        public let serverMemoryAfter: Int
        public let settleSeconds: Double
        public let bytesPerConnection: Double
        public let bytesPerConnectionJoined: Double
    }

    /// `settle`: the seconds the connections idle before the second reading. The reading as the
    /// last one joins also holds what the joins left in flight: the presence changes the board
    /// is still telling all of them (it tells a count once a second), queued on each connection.
    public static func run(server: String, serverPID: Int32, connections: Int, settle seconds: Double = 12) async throws -> Result {
        let http = BenchHTTP(base: server)
        let board = try await http.createBoard(title: "idle bench")
        let process = ServerProcess(pid: serverPID)
        guard let before = process.residentMemory() else {
            throw BenchHTTP.Failure(description: "no /proc/\(serverPID)/status")
        }
        let sockets = try await connectInWaves(connections, url: http.webSocketURL, isReady: { $0.hasBytePrefix(#"{"type":"snapshot""#) }) {
            socket,
            index in helloAndJoin(socket, clientID: browserLikeClientID(index), board: board)
        }
        let joined = process.residentMemory() ?? before
        try await Task.sleep(for: .seconds(seconds))
        let after = process.residentMemory() ?? joined
        for socket in sockets { await socket.close() }
        return Result(
            connections: connections,
            serverMemoryBefore: before,
            serverMemoryJoined: joined,
            serverMemoryAfter: after,
            settleSeconds: seconds,
            bytesPerConnection: Double(after - before) / Double(connections),
            bytesPerConnectionJoined: Double(joined - before) / Double(connections)
        )
    }
}

/// A client id as long as the browser's (web-static/wire/constants.js: "web" and 12 characters),
/// unique per index: the server keeps each connection's id, and one over 15 bytes costs a heap
/// allocation.
func browserLikeClientID(_ index: Int) -> String {
    let digits = String(index)
    return "web" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
}
