// Timers that run: start, pause, adjust, the end of a timer and the hand-over in a sequence
// section (docs/protocol.md, "Timers that run" and "Sequences").

extension Edit {
    mutating func applyRunning(_ operation: BoardOperation) throws(BoardError) {
        switch operation {
        case .startTimer(let id):
            guard let timer = board.timers[id] else { throw .notFound(id, "timer") }
            guard timer.kind != .clock else { throw .invalidState(id, "timer \(id) is a clock; it does not run") }
            start(timer, at: now)
        case .pauseTimer(let id):
            guard let timer = board.timers[id] else { throw .notFound(id, "timer") }
            guard timer.kind != .toTime else { throw .invalidState(id, "timer \(id) counts to a time of day; it does not pause") }
            pause(timer)
        case .resetTimer(let id):
            guard var timer = board.timers[id] else { throw .notFound(id, "timer") }
            timer.run = .idle
            setTimer(id, timer)
        case .adjustTimer(let id, let by):
            guard let timer = board.timers[id] else { throw .notFound(id, "timer") }
            guard timer.kind == .countdown || timer.kind == .countUp else {
                throw .invalidState(id, "timer \(id) counts to a time of day or is a clock; change its time instead")
            }
            try adjust(timer, by: by)
        case .startSection(let id):
            guard let section = board.sections[id] else { throw .notFound(id, "section") }
            if section.sequence {
                startSequence(section)
            } else {
                for timer in board.orderedTimers(in: id) where timer.run.status == .idle || timer.run.status == .paused {
                    start(timer, at: now)
                }
            }
        case .pauseSection(let id):
            guard board.sections[id] != nil else { throw .notFound(id, "section") }
            for timer in board.orderedTimers(in: id) { pause(timer) }
        case .skipSection(let id):
            guard let section = board.sections[id] else { throw .notFound(id, "section") }
            guard section.sequence else { throw .invalidState(id, "section \(id) is not a sequence; only a sequence skips") }
            let timers = board.orderedTimers(in: id)
            // The current timer: the running one, or else the paused one where the sequence stopped.
            guard let current = timers.first(where: { $0.run.status == .running }) ?? timers.first(where: { $0.run.status == .paused })
            else { return }
            finish(current, at: now, handOver: true)
        case .restartSection(let id):
            guard let section = board.sections[id] else { throw .notFound(id, "section") }
            guard section.sequence else { throw .invalidState(id, "section \(id) is not a sequence; only a sequence restarts") }
            startRound(of: section, at: now)
        default:
            preconditionFailure("not an operation on running timers: \(operation)")
        }
    }

    // MARK: One timer

    /// Starts an idle timer, resumes a paused one, runs a finished one again from its full length.
    mutating func start(_ timer: BoardTimer, at instant: Int64) {
        var timer = timer
        switch timer.run.status {
        case .running: return
        case .idle, .paused: timer.run = TimerRun(status: .running, startedAt: instant, elapsed: timer.run.elapsed)
        case .finished: timer.run = TimerRun(status: .running, startedAt: instant, elapsed: 0)
        }
        setTimer(timer.id, timer)
    }

    private mutating func pause(_ timer: BoardTimer) {
        guard timer.run.status == .running else { return }
        // Paused after its deadline but before the server marked it: it has finished, then.
        if let deadline = timer.deadline, deadline <= now {
            finish(timer, at: deadline)
            return
        }
        var timer = timer
        timer.run = TimerRun(status: .paused, elapsed: timer.run.elapsed(at: now))
        setTimer(timer.id, timer)
    }

    /// Moves the time left by `by` as of now: applied to the state the server holds when it
    /// applies the edit, so concurrent adjustments add up.
    private mutating func adjust(_ timer: BoardTimer, by: Int64) throws(BoardError) {
        guard by != 0, abs(by) <= limits.maxMilliseconds else {
            throw .invalidField("by", "must be a non-zero number of milliseconds, at most \(limits.maxMilliseconds) either way", entityID: timer.id)
        }
        var timer = timer
        switch timer.run.status {
        case .idle:
            throw .invalidState(timer.id, "timer \(timer.id) is idle; start it before adjusting it")
        case .finished:
            // More time on a finished timer runs it again with that much left; less changes nothing.
            guard by > 0 else { return }
            timer.run = TimerRun(status: .running, startedAt: now, elapsed: timer.duration - by)
            setTimer(timer.id, timer)
        case .running where timer.kind == .countUp, .paused where timer.kind == .countUp:
            // A stopwatch has no end: more time counted is less elapsed, never below zero... or above its limit.
            timer.run.elapsed = min(max(timer.run.elapsed - by, -limits.maxMilliseconds), limits.maxMilliseconds)
            setTimer(timer.id, timer)
        case .running, .paused:
            let counted = timer.run.elapsed(at: now)
            let left = min(timer.duration - counted + by, limits.maxMilliseconds)
            guard left > 0 else {
                finish(timer, at: now)
                return
            }
            // `elapsed` moves by exactly `by` (less when clamped), so a client that knows nothing of
            // adjustments still draws the right time left.
            timer.run.elapsed -= left - (timer.duration - counted)
            setTimer(timer.id, timer)
        }
    }

    /// The timer reached zero at `instant`: finished, and in a sequence the next one starts at
    /// that same instant. Only a running timer hands over (or any, with `handOver`: a skip); a
    /// paused one that runs out (a shorter length, a negative adjustment) leaves its sequence paused.
    mutating func finish(_ timer: BoardTimer, at instant: Int64, handOver: Bool = false) {
        var finished = timer
        let elapsed = timer.kind == .countdown ? timer.duration : timer.run.elapsed(at: instant)
        finished.run = TimerRun(status: .finished, elapsed: elapsed, finishedAt: instant)
        setTimer(timer.id, finished)
        guard handOver || timer.run.status == .running, let section = board.sections[timer.sectionID], section.sequence else { return }
        let timers = orderedTimers(in: section.id)
        guard let index = timers.firstIndex(where: { $0.id == timer.id }) else { return }
        if index + 1 < timers.count {
            let next = timers[index + 1]
            guard next.run.status != .running else { return }  // started by hand meanwhile: it goes on
            var started = next
            started.run = TimerRun(status: .running, startedAt: instant, elapsed: 0)
            setTimer(next.id, started)
            handOvers[section.id] = SequenceHandOver(section: section.id, finished: timer.id, started: next.id, at: instant)
        } else if section.loop, timers.contains(where: { $0.duration > 0 }), let first = timers.first {
            startRound(of: section, at: instant)
            handOvers[section.id] = SequenceHandOver(section: section.id, finished: timer.id, started: first.id, at: instant)
        }
    }

    // MARK: Sequences

    /// `startSection` on a sequence: resumes where it stopped, and never runs two timers.
    private mutating func startSequence(_ section: Section) {
        let timers = orderedTimers(in: section.id)
        guard !timers.contains(where: { $0.run.status == .running }) else { return }
        if let paused = timers.first(where: { $0.run.status == .paused }) {
            start(paused, at: now)
        } else if let next = timers.first(where: { $0.run.status != .finished }) ?? timers.first {
            start(next, at: now)
        }
    }

    /// Every timer of the section back to idle and the first started at `instant`. A loop that
    /// catches up (the server noticed late: a restart, a board loaded again) skips the whole
    /// rounds that fit before now by arithmetic; a round of length 0 never loops.
    private mutating func startRound(of section: Section, at instant: Int64) {
        let timers = orderedTimers(in: section.id)
        guard let first = timers.first else { return }
        let round = timers.reduce(Int64(0)) { $0 + $1.duration }
        var start = instant
        if section.loop, round > 0, now - instant >= round {
            start += (now - instant) / round * round
        }
        for timer in timers.dropFirst() where timer.run != .idle {
            var idle = timer
            idle.run = .idle
            setTimer(timer.id, idle)
        }
        var started = first
        started.run = TimerRun(status: .running, startedAt: start, elapsed: 0)
        setTimer(first.id, started)
    }

    // MARK: Time passing

    /// Finishes every running timer whose deadline is at or before `now`, and makes every
    /// scheduled start that is due, in the order of their instants, each at its own instant,
    /// with the hand-overs of sequences at those instants.
    ///
    /// At each instant the timers due then act in id order: a scheduled start first (a timer
    /// started then may also be due, with length 0), then a finish; a timer a hand-over starts
    /// that is due at the same instant finishes right after them. Late by a day, a board of
    /// looping sequences has tens of thousands of instants to replay: the next one comes from a
    /// queue of the due timers, and a sequence's timers from an index built once, instead of a
    /// scan of the whole board for each.
    mutating func finishExpiredTimers() {
        var queue = DeadlineQueue()
        for timer in board.timers.values {
            if let instant = timer.nextInstant, instant <= now { queue.insert(.init(deadline: instant, id: timer.id)) }
        }
        guard queue.first != nil else { return }
        // Finishing, handing over and scheduled starts change run states only: which timers a
        // section holds, and their order, stay as indexed here until this returns.
        sectionOrder = board.timerIDsBySectionInOrder()
        defer { sectionOrder = nil }
        while let earliest = queue.first?.deadline {
            var due: [EntityID] = []
            while let entry = queue.first, entry.deadline == earliest {
                _ = queue.removeFirst()
                due.append(entry.id)
            }
            for id in Set(due).sorted() {
                if let timer = board.timers[id], let start = timer.startAt, start <= earliest {
                    startScheduled(timer, at: start)
                }
                // A hand-over earlier at this instant may have restarted it (a loop of one timer).
                guard let current = board.timers[id] else { continue }
                guard current.deadline == earliest else {
                    if let next = current.nextInstant, next > earliest, next <= now { queue.insert(.init(deadline: next, id: id)) }
                    continue
                }
                finish(current, at: earliest)
                guard board.sections[current.sectionID]?.sequence == true else { continue }
                // The hand-over started a timer of this sequence, which may be due as well.
                for timer in orderedTimers(in: current.sectionID) {
                    if let instant = timer.nextInstant, instant <= now { queue.insert(.init(deadline: instant, id: timer.id)) }
                }
            }
        }
    }
}

