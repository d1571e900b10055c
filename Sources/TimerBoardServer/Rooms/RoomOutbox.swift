/// What a room has decided to send, held until the revision it depends on is durable.
///
/// Every delivery is tagged with the board's revision when it was decided. `release(durable:)`
/// hands out, in decision order, exactly the deliveries whose revision is durable: an ack never
/// leaves before its edit is stored, a joiner's snapshot never shows an edit a crash could lose,
/// and a subscriber added right after its snapshot gets every later changeset once, in order.
/// A broadcast leaves as one send, to whoever subscribes at that point of the sequence (the room
/// keeps its subscribers where the connections live, `RoomFanout`). No I/O: the room does the
/// sending (see `BoardRoom.deliverDurable`).
struct RoomOutbox<Connection: Identifiable, Frame> where Connection.ID == Int {
    enum Delivery {
        /// To every subscriber at the moment it is released.
        case broadcast(Frame)
        case direct(Connection, Frame)
        /// Makes the connection a subscriber, right after its snapshot or catch-up frames.
        case subscribe(Connection)
    }

    /// What leaves, in the order each connection must get it.
    enum Send {
        /// To every subscriber of this point in the sequence.
        case broadcast(Frame)
        /// To one connection. `held`: a `.direct` delivery, an answer its session counted as held.
        case frame(Frame, to: Connection, held: Bool)
        case subscribe(Connection)
        /// No more broadcasts to it (`remove` of a subscriber).
        case unsubscribe(Connection)
    }

    private var pending: [(revision: Int64, delivery: Delivery)] = []
    /// Who receives broadcasts, by connection id.
    private(set) var subscribers: [Int: Connection] = [:]

    /// True when nothing waits for durability.
    var isEmpty: Bool { pending.isEmpty }

    /// Decides a delivery that may leave once `revision` is durable. Revisions must not go down.
    mutating func add(_ delivery: Delivery, at revision: Int64) {
        precondition(pending.last.map { $0.revision <= revision } ?? true, "outbox revisions must not go down")
        pending.append((revision, delivery))
    }

    /// Takes every delivery whose revision is at or below `durable`, in the order decided.
    mutating func release(durable: Int64) -> [Send] {
        var sends: [Send] = []
        var released = 0
        for entry in pending {
            guard entry.revision <= durable else { break }
            released += 1
            switch entry.delivery {
            case .broadcast(let frame):
                if !subscribers.isEmpty { sends.append(.broadcast(frame)) }
            case .direct(let connection, let frame):
                sends.append(.frame(frame, to: connection, held: true))
            case .subscribe(let connection):
                if subscribers.updateValue(connection, forKey: connection.id) == nil { sends.append(.subscribe(connection)) }
            }
        }
        pending.removeFirst(released)
        return sends
    }

    /// How many `.direct` deliveries wait for the connection (what `remove` drops of them).
    func pendingDirects(to id: Int) -> Int {
        pending.count { entry in
            if case .direct(let connection, _) = entry.delivery { return connection.id == id }
            return false
        }
    }

    /// The connection is gone or left: it is no subscriber, and nothing pending is sent to it
    /// or subscribes it later. Returns the connection when the outbox knew it, and whether it
    /// was a subscriber (its `.subscribe` had left: an `.unsubscribe` must follow it).
    @discardableResult
    mutating func remove(_ id: Int) -> (connection: Connection, wasSubscribed: Bool)? {
        let subscribed = subscribers.removeValue(forKey: id)
        var removed = subscribed
        pending.removeAll { entry in
            switch entry.delivery {
            case .subscribe(let connection), .direct(let connection, _):
                guard connection.id == id else { return false }
                removed = connection
                return true
            case .broadcast: return false
            }
        }
        return removed.map { ($0, subscribed != nil) }
    }

    /// Forgets everything (the store failed); returns every connection it knew, subscribed or
    /// still waiting for its join's answer, to disconnect them: a joiner left out would wait
    /// forever for a snapshot that is never sent.
    mutating func removeAll() -> [Connection] {
        var known = subscribers
        for entry in pending {
            switch entry.delivery {
            case .subscribe(let connection), .direct(let connection, _): known[connection.id] = connection
            case .broadcast: break
            }
        }
        pending.removeAll()
        subscribers.removeAll()
        return Array(known.values)
    }
}
