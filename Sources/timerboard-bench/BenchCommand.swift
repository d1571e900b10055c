import ArgumentParser
import Foundation
import TimerBoardBench

/// `timerboard-bench SCENARIO`: load against a running server; prints a table and writes JSON.
///
/// Its own executable, so the server's binary links only what serving needs (the bench's HTTP
/// calls pull in FoundationNetworking, and with it libcurl).
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timerboard-bench",
        abstract: "Measure a running TimerBoard server.",
        subcommands: [
            Fanout.self, Saturate.self, SlowConsumers.self, JoinStorm.self, AckedEdits.self, TimerExpiry.self, TimerSequences.self, ScheduledStarts.self,
            IdleConnections.self,
            Churn.self,
        ]
    )

    struct Common: ParsableArguments {
        @Option(help: "The server's HTTP address.") var server = "http://127.0.0.1:8080"
        @Option(help: "Write the results as JSON to this file.") var json: String?
        @Option(help: "The server's process id, to report its CPU time per delivery.") var serverPid: Int32?
        @Option(help: "Threads for the bench's connections (1: the generator on one core, as the published figures were taken).")
        var threads = 1

        /// Sets up what every scenario shares; first thing in each `run`.
        func begin() {
            BenchEventLoops.use(threads: threads)
            ConnectWatch.exitOnFirstFailure()
        }

        var serverProcess: ServerProcess? { serverPid.map(ServerProcess.init(pid:)) }

        func write<Value: Encodable>(_ value: Value) throws {
            guard let json else { return }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(value).write(to: URL(fileURLWithPath: json))
        }
    }

    /// Which server the fan-out scenarios measure: TimerBoard, or a peer doing the same work.
    struct TargetOptions: ParsableArguments {
        enum Kind: String, ExpressibleByArgument {
            case timerboard
            case wsRelay = "ws-relay"
            case yWebsocket = "y-websocket"
        }
        @Option(help: "timerboard, ws-relay or y-websocket (bench/peers/).") var target: Kind = .timerboard
        @Option(help: "A peer's WebSocket address (ws://host:port).") var peerUrl: String?
        @Option(help: "For y-websocket: the editor's updates from bench/peers/y-updates.js --format binary.") var yUpdates: String?
        @Option(
            help:
                "For timerboard: a node (http://host:port) the subscribers connect to instead of --server, in turn; repeat it for each node of a cluster."
        )
        var subscriberServer: [String] = []
        @Option(help: "Boards edited at once, each with its own editor and --subscribers subscribers; --rate is per board.")
        var boards = 1

        func validate() throws {
            guard boards >= 1 else { throw ValidationError("--boards must be at least 1") }
            // Its edits are fixed records, one document's: a second board would get the first's.
            guard boards == 1 || target != .yWebsocket else { throw ValidationError("y-websocket measures one board: leave out --boards") }
        }

        /// One target per board: a new board (or room) each.
        func make(server: String) async throws -> [FanoutTarget] {
            var targets: [FanoutTarget] = []
            for _ in 0..<boards { targets.append(try await makeOne(server: server)) }
            return targets
        }

        /// What is printed above a table: the server measured and how many it carries.
        func describe(_ targets: [FanoutTarget], subscribers: Int) -> String {
            targets.count == 1 ? "\(targets[0].name), \(subscribers) subscribers" : "\(targets[0].name), \(targets.count) boards × \(subscribers) subscribers"
        }

        private func makeOne(server: String) async throws -> FanoutTarget {
            switch target {
            case .timerboard:
                return try await .timerBoard(server: server, subscriberServers: subscriberServer)
            case .wsRelay:
                guard let peerUrl else { throw ValidationError("ws-relay needs --peer-url") }
                return .webSocketRelay(url: peerUrl)
            case .yWebsocket:
                guard let peerUrl, let yUpdates else { throw ValidationError("y-websocket needs --peer-url and --y-updates") }
                return try .yWebSocket(url: peerUrl, updatesFile: yUpdates)
            }
        }
    }

    static func row(_ step: FanoutBench.Step) -> String {
        func ms(_ summary: [String: Double], _ key: String) -> String { String(format: "%7.2f", summary[key] ?? 0) }
        return String(
            format: "%8.0f %8d %12.0f %6d   %@ %@ %@   %@ %@ %@ %6d %12@",
            step.editsPerSecond,
            step.edits,
            step.deliveriesPerSecond,
            step.bytesPerChangeset,
            ms(step.perDelivery, "p50"),
            ms(step.perDelivery, "p99"),
            ms(step.perDelivery, "p99.9"),
            ms(step.lastSubscriber, "p50"),
            ms(step.lastSubscriber, "p99"),
            ms(step.lastSubscriber, "p99.9"),
            step.lostDeliveries,
            step.serverCPUPerDelivery.map { String(format: "%.2f", $0) } ?? "-"
        )
    }

    /// What the server closed, when it closed anything: printed under the step's row.
    static func closes(_ step: FanoutBench.Step) -> String? {
        var parts: [String] = []
        if let code = step.editorClosedWith { parts.append("the editor (\(code))") }
        for (code, count) in step.subscribersClosedWith.sorted(by: { $0.key < $1.key }) { parts.append("\(count) subscribers (\(code))") }
        return parts.isEmpty ? nil : "         closed by the server so far: " + parts.joined(separator: ", ")
    }

    /// How many edits the server refused, when it refused any: printed under the step's row.
    static func rejections(_ step: FanoutBench.Step) -> String? {
        guard step.rejectedEdits > 0 else { return nil }
        return "         edits rejected by the server: \(step.rejectedEdits) (its rate limits: start it with the serve options scripts/bench uses)"
    }

    /// Prints a step's row, and under it what the server closed or refused, if anything.
    static func report(_ step: FanoutBench.Step) {
        print(row(step))
        if let closes = closes(step) { print(closes) }
        if let rejections = rejections(step) { print(rejections) }
    }

    static let header =
        "edits/s    edits  deliveries/s  bytes   each: p50     p99   p99.9   last: p50     p99   p99.9   lost  server µs/delivery (ms)"

    struct Fanout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One board, N subscribers, edits at a fixed rate.")
        @OptionGroup var common: Common
        @OptionGroup var target: TargetOptions
        @Option(help: "Subscribed connections (on each board).") var subscribers = 1_000
        @Option(help: "Edits per second.") var rate = 20.0
        @Option(help: "Seconds of editing.") var seconds = 10.0

        func run() async throws {
            common.begin()
            let targets = try await target.make(server: common.server)
            let bench = try await FanoutBench.connect(to: targets, subscribersPerBoard: subscribers)
            let step = try await bench.step(rate: rate, seconds: seconds, server: common.serverProcess)
            await bench.close()
            print("fanout: \(target.describe(targets, subscribers: subscribers))")
            print(Bench.header)
            Bench.report(step)
            try common.write(step)
        }
    }

    struct Saturate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Raise the edit rate until p99 to the last subscriber passes 100 ms.")
        @OptionGroup var common: Common
        @OptionGroup var target: TargetOptions
        @Option(help: "Subscribed connections (on each board).") var subscribers = 1_000
        @Option(help: "Seconds per rate.") var seconds = 5.0
        @Option(help: "The p99 (ms, edit to last subscriber) that marks the knee.") var limit = 100.0
        @Option(help: "Steps that halve the interval between the last rate under the limit and the first over it.")
        var refine = 3
        @Option(help: "Times a rate over the limit is measured again before it counts: one stall of the machine no longer ends the search.")
        var retries = 0

        func run() async throws {
            common.begin()
            let targets = try await target.make(server: common.server)
            let bench = try await FanoutBench.connect(to: targets, subscribersPerBoard: subscribers)
            print("saturate: \(target.describe(targets, subscribers: subscribers)), knee at p99 (last subscriber) > \(limit) ms")
            print(Bench.header)
            var steps: [FanoutBench.Step] = []
            func holds(_ step: FanoutBench.Step) -> Bool {
                (step.lastSubscriber["p99"] ?? 0) <= limit && step.lostDeliveries == 0 && step.rejectedEdits == 0
            }
            func measure(_ rate: Double) async throws -> Bool {
                for attempt in 0...retries {
                    if attempt > 0 { print("         again (\(attempt) of \(retries)):") }
                    let step = try await bench.step(rate: rate, seconds: seconds, server: common.serverProcess)
                    Bench.report(step)
                    steps.append(step)
                    if holds(step) { return true }
                }
                return false
            }
            // Double the rate until the limit is passed, then bisect between the two last rates.
            var good = 0.0
            var bad = 20.0
            while bad <= 20_000, try await measure(bad) {
                good = bad
                bad *= 2
            }
            for _ in 0..<refine where good > 0 {
                let middle = ((good + bad) / 2).rounded()
                if try await measure(middle) { good = middle } else { bad = middle }
            }
            await bench.close()
            let knee = steps.filter(holds).max { $0.deliveriesPerSecond < $1.deliveriesPerSecond }
            print(
                "knee: \(knee.map { String(format: "%.0f deliveries/s at %.0f edits/s", $0.deliveriesPerSecond, $0.editsPerSecond) } ?? "below the first rate")"
            )
            if steps.contains(where: { $0.rejectedEdits > 0 }) {
                print("(the server rejected edits: its rate limits, not its capacity, may have set this knee)")
            }
            try common.write(steps)
        }
    }

    struct SlowConsumers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "slow-consumers",
            abstract: "Some subscribers stop reading: the others' latency and the server's memory."
        )
        @OptionGroup var common: Common
        @OptionGroup var target: TargetOptions
        @Option(help: "Subscribed connections (on each board).") var subscribers = 1_000
        @Option(help: "Share of subscribers that stop reading.") var fraction = 0.01
        @Option(help: "Edits per second.") var rate = 100.0
        @Option(help: "Seconds of editing, before and after they stop.") var seconds = 10.0

        struct Result: Codable {
            let allReading: FanoutBench.Step
            let someStopped: FanoutBench.Step
            let stopped: Int
            let p99RatioToLast: Double
            let serverMemoryBefore: Int?
            let serverMemoryAfter: Int?
        }

        func run() async throws {
            common.begin()
            let targets = try await target.make(server: common.server)
            let bench = try await FanoutBench.connect(to: targets, subscribersPerBoard: subscribers)
            let server = common.serverProcess
            let before = try await bench.step(rate: rate, seconds: seconds, server: server)
            let memoryBefore = server?.residentMemory()
            let stopped = bench.stopReading(fraction: fraction)
            let after = try await bench.step(rate: rate, seconds: seconds, server: server)
            let memoryAfter = server?.residentMemory()
            await bench.close()
            let ratio = (after.lastSubscriber["p99"] ?? 0) / max(0.001, before.lastSubscriber["p99"] ?? 0)
            print("slow consumers: \(target.describe(targets, subscribers: subscribers)), then \(stopped) stop reading")
            print(Bench.header)
            Bench.report(before)
            Bench.report(after)
            print(
                String(
                    format: "p99 to the last reading subscriber: ×%.2f; server memory %@ → %@",
                    ratio,
                    memoryBefore.map { "\($0 / 1_048_576) MiB" } ?? "-",
                    memoryAfter.map { "\($0 / 1_048_576) MiB" } ?? "-"
                )
            )
            try common.write(
                Result(
                    allReading: before,
                    someStopped: after,
                    stopped: stopped,
                    p99RatioToLast: ratio,
                    serverMemoryBefore: memoryBefore,
                    serverMemoryAfter: memoryAfter
                )
            )
        }
    }

    struct JoinStorm: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "join-storm",
            abstract: "Many clients join a large board at once: time until all hold it."
        )
        @OptionGroup var common: Common
        @Option(help: "Clients joining at once.") var clients = 1_000
        @Option(help: "Sections of the board.") var sections = 100
        @Option(help: "Timers per section.") var timersPerSection = 20
        @Flag(help: "Clients offer permessage-deflate (and inflate what comes compressed), as browsers do.")
        var deflate = false

        func run() async throws {
            common.begin()
            let result = try await JoinStormBench.run(
                server: common.server,
                clients: clients,
                sections: sections,
                timersPerSection: timersPerSection,
                offersDeflate: deflate,
                serverProcess: common.serverProcess
            )
            print(
                String(
                    format: "join storm%@: %d clients, %d sections × %d timers (snapshot %d bytes, %d on the wire per client): "
                        + "all hold it after %.0f ms; per client p50 %.0f ms, p99 %.0f ms; server CPU %@",
                    deflate ? " (permessage-deflate)" : "",
                    clients,
                    sections,
                    timersPerSection,
                    result.snapshotBytes,
                    result.wireBytesPerClient,
                    result.timeUntilAllHoldIt,
                    result.perClient["p50"] ?? 0,
                    result.perClient["p99"] ?? 0,
                    result.serverCPUSeconds.map { String(format: "%.2f s", $0) } ?? "-"
                )
            )
            try common.write(result)
        }
    }

    struct AckedEdits: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Durable (acked) edits per second, with edits pipelined.")
        @OptionGroup var common: Common
        @Option(help: "Editing clients, each on its own board.") var clients = 10
        @Option(help: "Edits each client keeps in flight.") var window = 16
        @Option(help: "Seconds of editing.") var seconds = 10.0

        func run() async throws {
            common.begin()
            let result = try await AckedEditsBench.run(server: common.server, clients: clients, window: window, seconds: seconds)
            print(
                String(
                    format: "acked edits: %d clients × window %d: %.0f acked edits/s; ack latency p50 %.2f ms, p99 %.2f ms",
                    clients,
                    window,
                    result.ackedEditsPerSecond,
                    result.ackLatency["p50"] ?? 0,
                    result.ackLatency["p99"] ?? 0
                )
            )
            try common.write(result)
        }
    }

    struct TimerExpiry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Many running timers: completion lateness at the clients.")
        @OptionGroup var common: Common
        @Option(help: "Running timers.") var timers = 1_000
        @Option(help: "Subscribed clients measuring.") var subscribers = 10

        func run() async throws {
            common.begin()
            let result = try await TimerExpiryBench.run(server: common.server, timers: timers, subscribers: subscribers)
            print(
                String(
                    format: "timer expiry: %d timers, %d clients, %d completions seen: lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                    result.timers,
                    result.subscribers,
                    result.completionsSeen,
                    result.lateness["p50"] ?? 0,
                    result.lateness["p99"] ?? 0,
                    result.lateness["max"] ?? 0
                )
            )
            try common.write(result)
        }
    }

    struct ScheduledStarts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Timers scheduled to start at instants: lateness of each start at the clients.")
        @OptionGroup var common: Common
        @Option(help: "Scheduled timers.") var timers = 1_000
        @Option(help: "Seconds the starts are spread over.") var spread = 10.0
        @Option(help: "Subscribed clients measuring.") var subscribers = 10

        func run() async throws {
            common.begin()
            let result = try await ScheduledStartBench.run(server: common.server, timers: timers, subscribers: subscribers, spreadSeconds: spread)
            print(
                String(
                    format: "scheduled starts: %d timers over %.0f s, %d clients, %d starts seen: lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                    result.timers,
                    result.spreadSeconds,
                    result.subscribers,
                    result.startsSeen,
                    result.lateness["p50"] ?? 0,
                    result.lateness["p99"] ?? 0,
                    result.lateness["max"] ?? 0
                )
            )
            try common.write(result)
        }
    }

    struct TimerSequences: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sequence sections handing over: lateness of each next start, and traffic between hand-overs."
        )
        @OptionGroup var common: Common
        @Option(help: "Sequence sections, each started 10 ms after the one before.") var sequences = 100
        @Option(help: "Timers per sequence (1 to 3 seconds each).") var timersPerSequence = 10
        @Option(help: "Subscribed clients (the first one measures).") var subscribers = 10

        func run() async throws {
            common.begin()
            let result = try await TimerSequenceBench.run(
                server: common.server,
                sequences: sequences,
                timersPerSequence: timersPerSequence,
                subscribers: subscribers
            )
            print(
                String(
                    format: "timer sequences: %d × %d timers, %d clients, %d next starts seen: lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms; "
                        + "%d hand-over messages (%d bytes); other traffic %d bytes in %.1f s = %.3f bytes per running timer per second",
                    result.sequences,
                    result.timersPerSequence,
                    result.subscribers,
                    result.handOversSeen,
                    result.nextStartLateness["p50"] ?? 0,
                    result.nextStartLateness["p99"] ?? 0,
                    result.nextStartLateness["max"] ?? 0,
                    result.handOverMessages,
                    result.handOverBytes,
                    result.otherBytes,
                    result.runSeconds,
                    result.otherBytesPerRunningTimerPerSecond
                )
            )
            if !result.otherBytesByType.isEmpty {
                print(
                    "  other traffic by type: \(result.otherBytesByType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value) B" }.joined(separator: ", "))"
                )
            }
            try common.write(result)
        }
    }

    struct IdleConnections: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "idle", abstract: "Server memory per idle subscribed connection.")
        @OptionGroup var common: Common
        @Option(help: "Idle connections.") var connections = 10_000
        @Option(help: "Seconds they idle, once all have joined, before the server's memory is read: longer than the server's --heap-trim-seconds.") var settle = 12.0

        func run() async throws {
            common.begin()
            guard let serverPid = common.serverPid else { throw ValidationError("idle needs --server-pid to read the server's memory") }
            guard settle >= 0 else { throw ValidationError("--settle takes seconds, 0 or more") }
            let result = try await IdleConnectionsBench.run(server: common.server, serverPID: serverPid, connections: connections, settle: settle)
            print(
                String(
                    format: "idle: %d connections: %.0f bytes of server memory each after %.1f s idle (%.0f as the last joined)",
                    connections, result.bytesPerConnection, settle, result.bytesPerConnectionJoined
                )
            )
            try common.write(result)
        }
    }

    struct Churn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rounds of connections that open and close: does server memory level off?")
        @OptionGroup var common: Common
        @Option(help: "Connections per round.") var connections = 2_000
        @Option(help: "Rounds.") var rounds = 6

        func run() async throws {
            common.begin()
            guard let serverPid = common.serverPid else { throw ValidationError("churn needs --server-pid to read the server's memory") }
            let result = try await ChurnBench.run(server: common.server, serverPID: serverPid, connections: connections, rounds: rounds)
            let mebibytes = result.memoryAfterRound.map { String($0 / 1_048_576) }.joined(separator: ", ")
            print(
                String(
                    format: "churn: %d rounds of %d connections: server memory after each round %@ MiB; %.0f bytes kept per closed connection",
                    rounds,
                    connections,
                    mebibytes,
                    result.bytesPerClosedConnection
                )
            )
            try common.write(result)
        }
    }
}
