import Foundation
import NIOCore
import Synchronization

/// Every bench connection's opening, counted for the whole process, so that a bench that cannot
/// connect stops at the first refusal and says what it saw, instead of waiting for answers that
/// never come (`fanout --subscribers 10000` over a server's limits used to sit for minutes with
/// 3 GB). The command line turns the stop on; a library caller keeps its own errors.
public enum ConnectWatch {
    static let started = Atomic<Int>(0)
    static let opened = Atomic<Int>(0)
    private static let stopOnFailure = Atomic<Bool>(false)
    private static let stopping = Atomic<Bool>(false)

    /// From connect to the server's `101`: a server at its file limit leaves accepted sockets in
    /// its backlog unanswered, and a loaded one still answers thousands well within this.
    static let answerPatience: TimeAmount = .seconds(60)

    /// The first connection that cannot open prints why and ends the process with status 1.
    public static func exitOnFirstFailure() {
        stopOnFailure.store(true, ordering: .relaxed)
    }

    /// A connection could not open; called once per connection, on its event loop.
    static func failed(_ error: any Error, url: String) {
        guard stopOnFailure.load(ordering: .relaxed),
            !stopping.exchange(true, ordering: .relaxed)
        else { return }
        let open = opened.load(ordering: .relaxed)
        let all = started.load(ordering: .relaxed)
        let message =
            "timerboard-bench: a connection to \(url) could not open: \(error)\n"
            + "\(open) of the \(all) connections started had opened. \(hint(for: error))\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(1)
    }

    /// Which limit to raise, from what the failure says.
    static func hint(for error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("from this address") {
            return "The server's per-address limit refused it: raise its --max-connections-per-address above the bench's connections."
        }
        if text.contains(" 503 ") {
            return "The server's limits refused it: raise its --max-connections (and its file limit), as scripts/bench does."
        }
        if text.contains("Too many open files") || text.contains("errno: 24") {
            return "This bench reached its own open-file limit: raise it (ulimit -n) above the connections it opens."
        }
        if text.contains("Connection refused") || text.contains("errno: 111") {
            return "Nothing accepts connections there: is the server running at --server?"
        }
        if error is NoUpgradeAnswer {
            return "The server accepted the socket and never answered: it may be at its file limit (raise its ulimit -n)."
        }
        return "The server closed or refused it: its log says which limit; raise --max-connections or --max-connections-per-address."
    }
}

/// The server accepted a connection but did not answer its WebSocket upgrade in time.
struct NoUpgradeAnswer: Error, CustomStringConvertible {
    let seconds: Int64
    var description: String { "no answer to the WebSocket upgrade within \(seconds) s" }
}

/// `connectInWaves` gave up: why, in a sentence.
public struct ConnectionsNotReady: Error, CustomStringConvertible {
    public let description: String
}
