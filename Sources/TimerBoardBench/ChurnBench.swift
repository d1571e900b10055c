import Foundation
import NIOCore

/// Rounds of C connections that say hello and close: the server's memory after each round. A
/// server that keeps something of every closed connection grows round after round; one that
/// does not levels off once its allocator has warmed up.
public enum ChurnBench {
    public struct Result: Codable, Sendable {
        public let connectionsPerRound: Int
        /// Resident memory after each round, bytes.
        public let memoryAfterRound: [Int]
        /// Growth from the second round to the last, per connection closed meanwhile.
        public let bytesPerClosedConnection: Double
    }

    public static func run(server: String, serverPID: Int32, connections: Int, rounds: Int) async throws -> Result {
        let http = BenchHTTP(base: server)
        let process = ServerProcess(pid: serverPID)
        var memory: [Int] = []
        for round in 0..<rounds {
            let sockets = try await connectInWaves(connections, url: http.webSocketURL, isReady: { $0.hasBytePrefix(#"{"type":"welcome""#) }) {
                socket,
                index in socket.send(#"{"type":"hello","protocol":1,"clientId":"churn-\#(round)-\#(index)"}"#)
            }
            for socket in sockets { await socket.close() }
            // The server handles each close on its own time; a second lets it finish before the
            // reading (a figure to print, not a test: nothing is asserted on it).
            try await Task.sleep(for: .seconds(1))
            memory.append(process.residentMemory() ?? 0)
        }
        let growth = memory.count > 1 ? Double(memory[memory.count - 1] - memory[1]) : 0
        let closed = Double(connections * max(1, rounds - 2))
        return Result(connectionsPerRound: connections, memoryAfterRound: memory, bytesPerClosedConnection: growth / closed)
    }
}
