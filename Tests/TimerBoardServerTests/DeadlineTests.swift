import Testing

@testable import TimerBoardServer

/// `Deadline`: a caller waits for work at most so long, and the work is cancelled, not waited
/// for, when the time is up (a store call that waits for a connection then gives up).
@Suite struct DeadlineTests {
    @Test func workThatEndsInTimeGivesItsResultOrItsError() async throws {
        #expect(try await Deadline.run(within: .seconds(60)) { 42 } == 42)
        struct Failed: Error {}
        await #expect(throws: Failed.self) { try await Deadline.run(within: .seconds(60)) { throw Failed() } }
    }

    @Test func workThatDoesNotEndIsLeftCancelledAndTheWaiterGoesOn() async throws {
        let (ended, signal) = AsyncStream<Bool>.makeStream()
        // Waits an hour unless cancelled, as a store call waits for a connection from an empty pool.
        let work = Task<Void, any Error> {
            do {
                try await Task.sleep(for: .seconds(3_600))
            } catch {
                signal.yield(Task.isCancelled)
                signal.finish()
                throw error
            }
        }
        guard case .late(let late) = await Deadline.wait(for: work, within: .milliseconds(50)) else {
            Issue.record("work that never ends counted as finished")
            return
        }
        #expect(late == work)
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next() == true)
        await #expect(throws: Deadline.Exceeded.self) {
            try await Deadline.run(within: .milliseconds(50)) { try await Task.sleep(for: .seconds(3_600)) }
        }
    }
}
