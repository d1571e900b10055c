import Benchmark
import BoardCore
import BoardProtocol

// What the server does per edit, per changeset and per join, without I/O, on a board of
// 100 sections × 100 timers (the default limit). Run with scripts/microbench.

let benchmarks: @Sendable () -> Void = {
    // Long enough for a few hundred samples of the slowest (the diff) on a shared machine.
    Benchmark.defaultConfiguration.maxDuration = .seconds(2)
    editBenchmarks()
    diffBenchmarks()
    encodeBenchmarks()
    catchUpBenchmarks()
}

/// The size of what a benchmark produces, reported beside the timings.
let wireBytes = BenchmarkMetric.custom("wire bytes", polarity: .prefersSmaller, useScalingFactor: false)

/// Built on first use, once per benchmark process.
let tenThousand = BoardFixtures.board()
let tenThousandEdited = BoardFixtures.scattered(tenThousand)
let scatteredChanges: [Change] = {
    let changes = diff(tenThousand, tenThousandEdited)
    // A diff that does not round-trip would make every figure below meaningless.
    precondition((try? apply(changes, to: tenThousand)) == tenThousandEdited, "diff/apply fixture does not round-trip")
    return changes
}()

// MARK: Edits

/// One edit as a room applies it: validation, order keys, the minimal changeset. Every
/// iteration makes a real change (titles and positions alternate), so none is a no-op.
func editBenchmarks() {
    // One board per benchmark, rebuilt by its setup so it is uniquely referenced and each
    // edit mutates in place, as in a room; a shared copy would copy 10,000 timers first.
    var board = Board()
    let freshBoard: Benchmark.BenchmarkSetupHook = { board = BoardFixtures.board() }
    let section = BoardFixtures.sectionID(42)
    let timer = BoardFixtures.timerID(42, 42)
    let titles = ["b0", "b1"]

    Benchmark(
        "Edit: section title, 10k board",
        configuration: .init(scalingFactor: .kilo),
        closure: { benchmark in
            for i in benchmark.scaledIterations {
                let changes = try! board.apply(
                    [.updateSection(id: section, title: titles[i & 1], isExpanded: nil)],
                    limits: BoardFixtures.limits,
                    now: BoardFixtures.now
                )
                blackHole(changes)
            }
        },
        setup: freshBoard
    )

    Benchmark(
        "Edit: timer title, 10k board",
        configuration: .init(scalingFactor: .kilo),
        closure: { benchmark in
            for i in benchmark.scaledIterations {
                let changes = try! board.apply(
                    [.updateTimer(id: timer, title: titles[i & 1], minutes: nil, seconds: nil)],
                    limits: BoardFixtures.limits,
                    now: BoardFixtures.now
                )
                blackHole(changes)
            }
        },
        setup: freshBoard
    )

    // A move computes a key among the section's timers, which today means scanning all 10,000.
    Benchmark(
        "Edit: move timer first/last, 10k board",
        closure: { benchmark in
            for i in benchmark.scaledIterations {
                let changes = try! board.apply(
                    [.moveTimer(id: timer, sectionID: nil, position: i & 1 == 0 ? .first : .last)],
                    limits: BoardFixtures.limits,
                    now: BoardFixtures.now
                )
                blackHole(changes)
            }
        },
        setup: freshBoard
    )

    let added: EntityID = "bench-added"
    Benchmark(
        "Edit: add timer then delete it (2 edits), 10k board",
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                let add = try! board.apply(
                    [.addTimer(id: added, sectionID: section, title: "Added", minutes: 5, seconds: 0, position: .last)],
                    limits: BoardFixtures.limits,
                    now: BoardFixtures.now
                )
                let delete = try! board.apply([.deleteTimer(id: added)], limits: BoardFixtures.limits, now: BoardFixtures.now)
                blackHole((add, delete))
            }
        },
        setup: freshBoard
    )
}

// MARK: Diff

/// What a reconnecting client's catch-up or a store's consistency check costs.
func diffBenchmarks() {
    Benchmark(
        "Diff: 10k boards, \(scatteredChanges.count) scattered changes",
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(diff(tenThousand, tenThousandEdited))
            }
        }
    )

    // The floor: comparing every id of two equal boards.
    let copy = BoardFixtures.board()
    Benchmark(
        "Diff: 10k boards, equal",
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(diff(tenThousand, copy))
            }
        }
    )
}

// MARK: Encoding

/// A changeset to the bytes every subscriber receives; the server encodes each one once.
func encodeBenchmarks() {
    let metrics = BenchmarkMetric.default + [wireBytes]
    let titleUpdate = ServerMessage.changes(
        Changeset(revision: 1_234, changes: [.updateSection("s", SectionPatch(title: "b1234"))])
    )
    Benchmark(
        "Encode: changeset, one title update",
        configuration: .init(metrics: metrics, scalingFactor: .kilo),
        closure: { benchmark in
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(titleUpdate.encoded())
            }
            benchmark.stopMeasurement()
            benchmark.measurement(wireBytes, titleUpdate.encoded().count)
        }
    )

    Benchmark(
        "Encode: changeset, \(scatteredChanges.count) changes of the 10k diff",
        configuration: .init(metrics: metrics),
        closure: { benchmark in
            let large = ServerMessage.changes(Changeset(revision: 1_234, changes: scatteredChanges))
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(large.encoded())
            }
            benchmark.stopMeasurement()
            benchmark.measurement(wireBytes, large.encoded().count)
        }
    )

    // How much of the snapshot is the display-order sort rather than the JSON.
    Benchmark(
        "Order: all timers in display order, 10k board",
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(tenThousand.orderedTimers)
            }
        }
    )

    Benchmark(
        "Encode: snapshot, 10k board",
        configuration: .init(metrics: metrics),
        closure: { benchmark in
            let snapshot = ServerMessage.snapshot(.init(board: "bench", title: "Bench", revision: 1_234, content: tenThousand))
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(snapshot.encoded())
            }
            benchmark.stopMeasurement()
            benchmark.measurement(wireBytes, snapshot.encoded().count)
        }
    )
}

// MARK: Time passing

/// What a room does when it loads a board of running sequences after downtime: every hand-over
/// since, each at its instant, folded into one changeset (loops skip whole rounds by arithmetic).
func catchUpBenchmarks() {
    Benchmark(
        "Catch-up: 250 looping sequences × 40 timers, a day late",
        configuration: .init(warmupIterations: 0, maxDuration: .seconds(20), maxIterations: 20),
        closure: { benchmark in
            // A fresh board each time (built outside the measurement): the catch-up moves it on.
            var board = BoardFixtures.loopingSequences()
            benchmark.startMeasurement()
            blackHole(board.finishExpiredTimers(now: BoardFixtures.now + 86_400_000))
            benchmark.stopMeasurement()
        }
    )
}
