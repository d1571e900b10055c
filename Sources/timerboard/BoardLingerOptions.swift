import ArgumentParser
import TimerBoardServer

/// `serve`'s linger: how long a board an HTTP request or an event stream used stays in memory
/// for the next one (`BoardRegistry.releaseAfterLinger`).
struct BoardLingerOptions: ParsableArguments {
    private static let defaults = ServerConfiguration()

    @Option(help: "Seconds a board stays in memory after the last HTTP request or event stream on it, for the next one (0 to 3600; 0: it leaves at once).")
    var boardLingerSeconds = Int(Self.defaults.boardLinger.components.seconds)

    func validate() throws {
        guard (0...3_600).contains(boardLingerSeconds) else { throw ValidationError("--board-linger-seconds must be 0 to 3600") }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.boardLinger = .seconds(boardLingerSeconds)
    }
}
