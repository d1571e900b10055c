import NIOCore
import NIOPosix
import Synchronization

/// The event loops every bench connection runs on: one by default (the generator pinned to one
/// core, as the project's published figures were taken), or `--threads N` so that the generator
/// is not itself the floor it measures (one thread reading 1,000 sockets was part of the ~10 ms).
public enum BenchEventLoops {
    private static let threads = Mutex(1)
    private static let group = Mutex<MultiThreadedEventLoopGroup?>(nil)

    /// How many threads the bench's connections use; call before the first connection.
    public static func use(threads count: Int) {
        threads.withLock { $0 = max(1, count) }
    }

    static var threadCount: Int { threads.withLock { $0 } }

    /// The group, made with the configured number of threads on first use.
    static var shared: MultiThreadedEventLoopGroup {
        group.withLock { group in
            if let group { return group }
            let made = MultiThreadedEventLoopGroup(numberOfThreads: threadCount)
            group = made
            return made
        }
    }

    /// The loop of the `index`th connection of a scenario: connections spread evenly, and a
    /// scenario that keeps state per loop (`FanoutShard`) knows which one records a delivery.
    static func loop(_ index: Int) -> any EventLoop {
        let loops = Array(shared.makeIterator())
        return loops[index % loops.count]
    }
}
