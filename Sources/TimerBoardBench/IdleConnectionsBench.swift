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
        guard let before = ServerProcess(pid: serverPID).residentMemory() else {
            throw BenchHTTP.Failure(description: "no /proc/\(serverPID)/status")
        }
        let sockets = try await connectInWaves(connections, url: http.webSocketURL, isReady: { $0.hasBytePrefix(#"{"type":"snapshot""#) }) {
            socket,
            index in helloAndJoin(socket, clientID: browserLikeClientID(index), board: board)
        }
        let after = ServerProcess(pid: serverPID).residentMemory() ?? before
        for socket in sockets { await socket.close() }
        return Result(
            connections: connections,
            serverMemoryBefore: before,
            serverMemoryAfter: after,
            bytesPerConnection: Double(after - before) / Double(connections)
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
