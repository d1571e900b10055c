import BoardCore

/// The boards the benchmarks measure, built outside the measured region. Everything is
/// deterministic, so two runs (and two baselines) measure the same work.
enum BoardFixtures {
    static let sections = 100
    static let timersPerSection = 100

    /// A fixed server clock: no benchmark depends on the time passing.
    static let now: Int64 = 1_700_000_000_000

    /// The default limits, except room for one more timer: the board is already at the
    /// server's default 10,000, and the add benchmark must not be refused.
    static let limits = BoardLimits(maxTimers: 20_000)

    static func sectionID(_ section: Int) -> EntityID { EntityID("s\(section)")! }
    static func timerID(_ section: Int, _ timer: Int) -> EntityID { EntityID("t\(section)-\(timer)")! }

    /// Increasing keys, as successive "add last" edits make them: the keys a real board has.
    static func appendedKeys(_ count: Int) -> [OrderKey] {
        var keys: [OrderKey] = []
        for _ in 0..<count { keys.append(OrderKey.between(keys.last, nil)) }
        return keys
    }

    /// 100 sections of 100 timers; one timer in ten runs.
    static func board() -> Board {
        let sectionKeys = appendedKeys(sections)
        let timerKeys = appendedKeys(timersPerSection)
        var board = Board()
        for s in 0..<sections {
            let sectionID = sectionID(s)
            board.sections[sectionID] = Section(id: sectionID, title: "Section \(s)", createdDate: now, order: sectionKeys[s])
            for t in 0..<timersPerSection {
                let id = timerID(s, t)
                board.timers[id] = BoardTimer(
                    id: id,
                    sectionID: sectionID,
                    title: "Timer \(s).\(t)",
                    minutes: 1 + t % 30,
                    seconds: t % 60,
                    createdDate: now + Int64(t),
                    order: timerKeys[t],
                    run: t % 10 == 0 ? TimerRun(status: .running, startedAt: now, elapsed: 0) : .idle
                )
            }
        }
        return board
    }

    /// `board` after a busy spell of editing, changes scattered over the whole board:
    /// 20 section titles, 100 timer titles, 25 timers moved within their section and 25 to
    /// another, 50 timers deleted, 50 added, one section added with 10 timers, and one
    /// section deleted with its 100 timers.
    static func scattered(_ board: Board) -> Board {
        var new = board
        let timerKeys = appendedKeys(timersPerSection)
        let total = sections * timersPerSection
        // The k-th picked timer: 97 is coprime with 10,000, so picks 0..<10,000 are distinct
        // and spread over every section.
        func pick(_ k: Int) -> (section: Int, timer: Int) {
            let n = (k * 97) % total
            return (n / timersPerSection, n % timersPerSection)
        }
        // A key strictly between two neighbours of a section.
        func keyInside(_ k: Int) -> OrderKey {
            let slot = k % (timersPerSection - 1)
            return OrderKey.between(timerKeys[slot], timerKeys[slot + 1])
        }
        // The last section is deleted below; nothing else lands in it.
        let kept = sections - 1

        for k in 0..<20 {
            new.sections[sectionID(k * 5)]?.title = "Renamed \(k)"
        }
        for k in 0..<100 {
            let (s, t) = pick(k)
            new.timers[timerID(s, t)]?.title = "Retitled \(k)"
        }
        for k in 100..<150 {
            let (s, t) = pick(k)
            let id = timerID(s, t)
            if k < 125 {
                new.timers[id]?.order = keyInside(k)
            } else if s < kept {
                new.timers[id]?.sectionID = sectionID((s + 1) % kept)
                new.timers[id]?.order = keyInside(k)
            }
        }
        for k in 150..<200 {
            let (s, t) = pick(k)
            new.timers[timerID(s, t)] = nil
        }
        for k in 0..<50 {
            let id = EntityID("n\(k)")!
            new.timers[id] = BoardTimer(
                id: id,
                sectionID: sectionID(k % kept),
                title: "New \(k)",
                minutes: 5,
                seconds: 0,
                createdDate: now + 60_000,
                order: keyInside(k)
            )
        }
        let addedSection: EntityID = "s-new"
        new.sections[addedSection] = Section(id: addedSection, title: "New section", createdDate: now + 60_000, order: "zzz")
        for (t, key) in appendedKeys(10).enumerated() {
            let id = EntityID("n-new-\(t)")!
            new.timers[id] = BoardTimer(
                id: id,
                sectionID: addedSection,
                title: "New \(t)",
                minutes: 3,
                seconds: 0,
                createdDate: now + 60_000,
                order: key
            )
        }
        let deleted = sectionID(kept)
        new.sections[deleted] = nil
        new.timers = new.timers.filter { $0.value.sectionID != deleted }
        return new
    }

    /// 250 looping sequences of 40 timers (10,000 timers, the server's limit), each section's
    /// first timer started at `now` plus the section's number in ms, so that hardly two
    /// hand-overs share an instant: the worst case for a catch-up.
    static func loopingSequences() -> Board {
        let sectionKeys = appendedKeys(250)
        let timerKeys = appendedKeys(40)
        var board = Board()
        for s in 0..<250 {
            let sectionID = sectionID(s)
            board.sections[sectionID] = Section(
                id: sectionID,
                title: "Loop \(s)",
                createdDate: now,
                order: sectionKeys[s],
                sequence: true,
                loop: true
            )
            for t in 0..<40 {
                let id = timerID(s, t)
                board.timers[id] = BoardTimer(
                    id: id,
                    sectionID: sectionID,
                    title: "Step \(t)",
                    minutes: 0,
                    seconds: 1 + (7 * s + t) % 59,
                    createdDate: now,
                    order: timerKeys[t],
                    run: t == 0 ? TimerRun(status: .running, startedAt: now + Int64(s), elapsed: 0) : .idle
                )
            }
        }
        return board
    }
}
