/// What a room has decided to send, held until the revision it depends on is durable.
///
/// Every delivery is tagged with the board's revision when it was decided. `release(durable:)`
/// hands out, in decision order, exactly the deliveries whose revision is durable, as sends to
/// connections: an ack never leaves before its edit is stored, a joiner's snapshot never shows
/// an edit a crash could lose, and a subscriber added right after its snapshot gets every later
/// changeset once, in order. No I/O: the room does the sending (see `BoardRoom.deliverDurable`).
struct RoomOutbox<Connection: Identifiable, Frame> where Connection.ID == Int {
    enum Delivery {
        /// To every subscriber at the moment it is released.
        case broadcast(Frame)
        case direct(Connection, Frame)
        /// Makes the connection a subscriber, right after its snapshot or catch-up frames.
        case subscribe(Connection)
    }

    /// One frame for one connection; sends come in the order each connection must get them.
    struct Send {
        let connection: Connection
        let frame: Frame
        /// A `.direct` delivery: an answer the connection's session counted as held.
        var wasHeld = false
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
                for subscriber in subscribers.values { sends.append(Send(connection: subscriber, frame: frame)) }
            case .direct(let connection, let frame):
                sends.append(Send(connection: connection, frame: frame, wasHeld: true))
            case .subscribe(let connection):
                subscribers[connection.id] = connection
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
    /// or subscribes it later. Returns the connection when the outbox knew it.
    @discardableResult
    mutating func remove(_ id: Int) -> Connection? {
        var removed = subscribers.removeValue(forKey: id)
        pending.removeAll { entry in
            switch entry.delivery {
            case .subscribe(let connection), .direct(let connection, _):
                guard connection.id == id else { return false }
                removed = connection
                return true
            case .broadcast: return false
            }
        }
        return removed
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
