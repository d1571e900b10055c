import BoardCore
import BoardProtocol

/// Who is on a board, by connection, and which users' presence changed since it was last told.
///
/// Decides only: it never sleeps and never sends. A change that needs telling returns
/// `.scheduleFlush` the first time after a flush, and the room then calls `flush()` after
/// `presenceInterval` and broadcasts what it returns. Presence is never stored.
///
/// `Frame` is the encoded `presence` list a joiner gets; the tracker keeps the one the room
/// encoded until the next flush, so a crowd of N joining encodes it once per interval, not N
/// times. That cached list may lack or have stale entries for users touched since the last
/// flush; the next `presenceChanged`, which every joiner receives, carries exactly those.
///
/// A list names at most `listLimit` users, those first in `listOrder` (who edits something,
/// then by name), and counts the others (`more`): with every one of 10,000 viewers named, each
/// joiner was sent 750 KB and every flush told everyone about every arrival, N² bytes in all
/// (docs/performance.md). A user who drops out of a full list is told as `left`.
///
/// A change of the count alone (someone unlisted came or went) is told at most once every
/// `countFlushes` flushes: with 10,000 phones coming and going, telling each of them the count
/// every interval was 200,000 messages a second, and the board's edits queued behind them.
/// The same holds for what this node tells the other nodes of its own count.
struct PresenceTracker<Frame> {
    /// What the room must do after a change.
    enum Effect: Equatable {
        case none
        /// Call `flush()` after the presence interval; nothing else is scheduled yet.
        case scheduleFlush
    }

    /// What `setPresence` did.
    enum PresenceOutcome: Equatable {
        /// The connection is not on the board (it left or was dropped): nothing to do.
        case notOnBoard
        /// Its link may not edit, so it shows no editing: a view link may only report its clock.
        case forbidden
        /// It was editing that already, with that clock error.
        case unchanged
        case changed(Effect)
    }

    /// What a flush tells everyone: the listed users someone may show otherwise (changed since
    /// the last flush, or new to the list), the user ids no longer listed (none of their
    /// connections is on the board, or the full list has no room for them), and how many are on
    /// the board unlisted (nil: none, now or before).
    struct Flush: Equatable {
        let users: [ServerMessage.PresenceUser]
        let left: [String]
        var more: Int? = nil
    }

    /// The most users a presence list names.
    let listLimit: Int
    /// The flushes a change of the count alone waits for after the count was last told.
    let countFlushes: Int

    private(set) var participants: [Int: Participant] = [:]
    /// User ids whose presence changed since the last flush.
    private var touched: Set<String> = []
    /// Users on other nodes of a cluster, by node, as each last told.
    private var remote: [String: RemoteNodePresence] = [:]
    /// What the other nodes were last told of this node's users: whom it named, how many more.
    private var toldOtherNodes: (named: Set<String>, more: Int) = ([], 0)
    /// On a cluster: user ids of this node's connections whose presence changed since the last
    /// `flushLocal`, for the other nodes. Nil on one node: nobody would read it.
    private var touchedLocally: Set<String>?
    /// `flushLocal` calls since it told the other nodes this node's count (at most
    /// `countFlushes`), and whether a change of that count waits.
    private var flushesSinceLocalCountTold: Int
    private var isLocalCountHeldBack = false

    init(sharedWithOtherNodes: Bool = false, listLimit: Int = 100, countFlushes: Int = 20) {
        touchedLocally = sharedWithOtherNodes ? [] : nil
        self.listLimit = listLimit
        self.countFlushes = countFlushes
        flushesSinceCountTold = countFlushes
        flushesSinceLocalCountTold = countFlushes
    }
    /// The list handed to joiners since the last flush: its frame, whom it names and how many
    /// it counts.
    private var joinerList: (frame: Frame, listed: [String: ServerMessage.PresenceUser], more: Int)?
    /// Whom the last flush left listed, as it showed them, and how many it counted beyond them.
    private var listed: [String: ServerMessage.PresenceUser] = [:]
    private var listedMore = 0
    /// Flushes since one told the count (at most `countFlushes`), whether a count waits, and
    /// whether another node's count changed since the last flush.
    private var flushesSinceCountTold: Int
    private var isCountHeldBack = false
    private var isRemoteCountChanged = false
    /// A flush is due: the room was asked for one (`.scheduleFlush`), or `flush()` held a
    /// count back and wants to be called again after the interval.
    private(set) var isFlushScheduled = false

    func participant(on connection: Int) -> Participant? {
        participants[connection]
    }

    /// Puts a participant on the board.
    mutating func add(_ participant: Participant, on connection: Int) -> Effect {
        participants[connection] = participant
        return touch(participant.userID, locally: true)
    }

    /// Takes the connection off the board; nil and `.none` when it was not on it.
    mutating func remove(_ connection: Int) -> (participant: Participant?, effect: Effect) {
        guard let participant = participants.removeValue(forKey: connection) else { return (nil, .none) }
        return (participant, touch(participant.userID, locally: true))
    }

    /// Takes every connection whose participant matches off the board; returns them.
    mutating func remove(where matches: (Participant) -> Bool) -> (removed: [Int: Participant], effect: Effect) {
        let removed = participants.filter { matches($0.value) }
        var effect = Effect.none
        for (connection, participant) in removed {
            participants[connection] = nil
            if touch(participant.userID, locally: true) == .scheduleFlush { effect = .scheduleFlush }
        }
        return (removed, effect)
    }

    /// Forgets everyone without telling anyone (the room failed and closes every connection).
    mutating func removeAll() {
        participants.removeAll()
    }

    /// Records what the connection's user is editing and, when given, its clock's error bound.
    /// A view link edits nothing, but a wall screen's clock matters as much as anyone's: it may
    /// send a clock error with `editing` null.
    mutating func setPresence(editing: EntityID?, clockError: Int64?, on connection: Int) -> PresenceOutcome {
        guard var participant = participants[connection] else { return .notOnBoard }
        guard participant.role.canEdit || (editing == nil && clockError != nil) else { return .forbidden }
        let updated = (editing: editing, clockError: clockError ?? participant.clockError)
        guard participant.editing != updated.editing || participant.clockError != updated.clockError else { return .unchanged }
        participant.editing = updated.editing
        participant.clockError = updated.clockError
        participants[connection] = participant
        return .changed(touch(participant.userID, locally: true))
    }

    /// The `presence` list for a joiner, and how many it leaves unnamed: the cached one, or the
    /// one `encode` makes from the listed users (sorted by name, then user id), kept until a
    /// flush tells something.
    mutating func joinerList(encode: (_ users: [ServerMessage.PresenceUser], _ more: Int) -> Frame) -> Frame {
        if let joinerList { return joinerList.frame }
        let (users, more) = list()
        let frame = encode(users, more)
        joinerList = (frame, Self.byUserID(users), more)
        return frame
    }

    /// What to tell everyone now, or nil when nothing changed or only the count did and it was
    /// told less than `countFlushes` flushes ago: then the flush stays scheduled
    /// (`isFlushScheduled`), to tell it later.
    ///
    /// Everyone was last told the list of the last flush, and a joiner since then the cached
    /// joiner list: a user listed now is sent unless all of them have it unchanged, and a user
    /// not listed now is `left` if any of them may have it (one who left the board was listed,
    /// or nobody has it).
    mutating func flush() -> Flush? {
        let countMayHaveChanged = isCountHeldBack || isRemoteCountChanged
        isFlushScheduled = false
        isCountHeldBack = false
        isRemoteCountChanged = false
        flushesSinceCountTold = min(flushesSinceCountTold + 1, countFlushes)
        guard !touched.isEmpty || countMayHaveChanged else { return nil }
        if touched.isEmpty && flushesSinceCountTold < countFlushes {
            // Nothing new since the count was held back: wait on without listing 10,000 again.
            isFlushScheduled = true
            isCountHeldBack = true
            return nil
        }
        let (users, more) = list()
        let nowListed = Self.byUserID(users)
        // Compared by what they show, not by who was touched: another node's full list comes in
        // parts, the first replacing its users, and its users touched that way are most often
        // unchanged (every viewer was re-sent ~75 of them every 10 s).
        let joinersHave = joinerList?.listed
        let told = users.filter { user in
            listed[user.userID] != user || (joinersHave.map { $0[user.userID] != user } ?? false)
        }
        // Only someone listed may be on a client's list: a crowd's unlisted arrivals cost nothing.
        var knownToSome = Set(listed.keys)
        if let joinersHave { knownToSome.formUnion(joinersHave.keys) }
        let left = knownToSome.subtracting(nowListed.keys).sorted()
        touched = []
        if told.isEmpty && left.isEmpty {
            // Everyone has this list; at most the count is new to some.
            let everyoneHasCount = listedMore == more && (joinerList?.more ?? more) == more
            if everyoneHasCount { return nil }
            if flushesSinceCountTold < countFlushes {
                isFlushScheduled = true
                isCountHeldBack = true
                return nil
            }
        }
        let counted = more > 0 || listedMore > 0 || (joinerList?.more ?? 0) > 0
        listed = nowListed
        listedMore = more
        joinerList = nil
        if counted { flushesSinceCountTold = 0 }
        return Flush(users: told, left: left, more: counted ? more : nil)
    }

    /// The users a list names now (sorted by name, then user id), and how many it leaves out.
    ///
    /// Everyone counts once: a user with several connections, or on this node and another, is
    /// one user, shown as this node has them. Only the listed become `PresenceUser`s here. Users
    /// another node counts but does not name are counted as its (one there and here too counts
    /// twice: the price of not naming 10,000).
    private func list() -> (users: [ServerMessage.PresenceUser], more: Int) {
        let (firstHere, localUserIDs) = firstLocalUsers()
        var counted = localUserIDs
        var first = FirstInOrder<ServerMessage.PresenceUser>(limit: listLimit) { Self.listOrder($0.listKey, $1.listKey) }
        for participant in firstHere { first.offer(participant.presenceUser) }
        var unnamedElsewhere = 0
        for node in remote.values {
            for user in node.users.values where counted.insert(user.userID).inserted { first.offer(user) }
            unnamedElsewhere += node.more
        }
        return (first.elements.sorted(by: Self.presenceOrder), counted.count + unnamedElsewhere - first.elements.count)
    }

    /// This node's first `listLimit` users in list order (one participant a user), and every
    /// user id it has.
    private func firstLocalUsers() -> (first: [Participant], userIDs: Set<String>) {
        var userIDs = Set<String>(minimumCapacity: participants.count)
        var first = FirstInOrder<Participant>(limit: listLimit) { Self.listOrder($0.listKey, $1.listKey) }
        for participant in participants.values where userIDs.insert(participant.userID).inserted {
            first.offer(participant)
        }
        return (first.elements, userIDs)
    }

    // MARK: Other nodes

    /// This node's own presence changes since the last call, for the other nodes: its first
    /// users touched since or new among them, the ones it named before and no longer does, and
    /// its count of the others when that changed. Nil when there is nothing to tell (or on one
    /// node), or when only the count changed and it was told less than `countFlushes` calls
    /// ago: then a flush stays scheduled (`isFlushScheduled`), to tell it later. Call it after
    /// `flush()`, which clears that flag.
    mutating func flushLocal() -> Flush? {
        flushesSinceLocalCountTold = min(flushesSinceLocalCountTold + 1, countFlushes)
        guard let touchedLocally, !touchedLocally.isEmpty || isLocalCountHeldBack else { return nil }
        self.touchedLocally = []
        isLocalCountHeldBack = false
        let (first, userIDs) = firstLocalUsers()
        let named = Set(first.map(\.userID))
        let users = first.filter { touchedLocally.contains($0.userID) || !toldOtherNodes.named.contains($0.userID) }
        let left = toldOtherNodes.named.subtracting(named).sorted()
        let more = userIDs.count - first.count
        let countChanged = more != toldOtherNodes.more
        guard !users.isEmpty || !left.isEmpty || countChanged else { return nil }
        if users.isEmpty && left.isEmpty && flushesSinceLocalCountTold < countFlushes {
            // Only unnamed users came or went: one NOTIFY a second, not one every interval.
            isLocalCountHeldBack = true
            isFlushScheduled = true
            return nil
        }
        toldOtherNodes = (named, more)
        if countChanged { flushesSinceLocalCountTold = 0 }
        return Flush(users: users.map(\.presenceUser).sorted(by: Self.presenceOrder), left: left, more: countChanged ? more : nil)
    }

    /// What this node announces now and then, so that a node that came later learns its users
    /// and one that went away is forgotten (`forgetSilentNodes`): its first users and how many
    /// more it has.
    mutating func announcement() -> (users: [ServerMessage.PresenceUser], more: Int) {
        let (first, userIDs) = firstLocalUsers()
        toldOtherNodes = (Set(first.map(\.userID)), userIDs.count - first.count)
        if touchedLocally != nil { touchedLocally = [] }  // all told now
        isLocalCountHeldBack = false
        flushesSinceLocalCountTold = 0
        return (first.map(\.presenceUser).sorted(by: Self.presenceOrder), toldOtherNodes.more)
    }

    /// What another node told at `now`: `users` are on the board there, `left` no longer are.
    /// With `replacing`, `users` is its whole list (its periodic announcement), or the first part
    /// of it when it `mayContinue`: the users of its last list then stay until the rest has come
    /// (`RemoteNodePresence`).
    mutating func applyRemote(
        node: String, users: [ServerMessage.PresenceUser], left: [String], more: Int? = nil, replacing: Bool, mayContinue: Bool = false, now: Int64
    ) -> Effect {
        var told = remote[node] ?? RemoteNodePresence(heardAt: now)
        let before = told.users
        let moreBefore = told.more
        told.apply(users: users, left: left, more: more, replacing: replacing, mayContinue: mayContinue, now: now)
        remote[node] = told
        let after = told.users
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        let countEffect = told.more == moreBefore ? Effect.none : remoteCountChanged()
        return [countEffect, touchAll(changed)].contains(.scheduleFlush) ? .scheduleFlush : .none
    }

    /// The nodes that have users on the board now: this one (`localNode`) when it has a
    /// participant, and the others as they last told.
    func nodesWithUsers(localNode: String) -> Set<String> {
        var nodes = Set(remote.filter { !$0.value.users.isEmpty }.keys)
        if !participants.isEmpty { nodes.insert(localNode) }
        return nodes
    }

    /// Forgets the users of nodes not heard from since `oldest` (a node that died says nothing).
    mutating func forgetSilentNodes(heardBefore oldest: Int64) -> Effect {
        let silent = remote.filter { $0.value.heardAt < oldest }
        for node in silent.keys { remote[node] = nil }
        let countEffect = silent.values.allSatisfy { $0.more == 0 } ? Effect.none : remoteCountChanged()
        return [countEffect, touchAll(Set(silent.values.flatMap(\.users.keys)))].contains(.scheduleFlush) ? .scheduleFlush : .none
    }

    private mutating func touchAll(_ userIDs: Set<String>) -> Effect {
        var effect = Effect.none
        for userID in userIDs where touch(userID, locally: false) == .scheduleFlush { effect = .scheduleFlush }
        return effect
    }

    private mutating func remoteCountChanged() -> Effect {
        isRemoteCountChanged = true
        guard !isFlushScheduled else { return .none }
        isFlushScheduled = true
        return .scheduleFlush
    }

    private mutating func touch(_ userID: String, locally: Bool) -> Effect {
        if locally { touchedLocally?.insert(userID) }
        touched.insert(userID)
        guard !isFlushScheduled else { return .none }
        isFlushScheduled = true
        return .scheduleFlush
    }

    private static func byUserID(_ users: [ServerMessage.PresenceUser]) -> [String: ServerMessage.PresenceUser] {
        Dictionary(users.map { ($0.userID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func presenceOrder(_ a: ServerMessage.PresenceUser, _ b: ServerMessage.PresenceUser) -> Bool {
        (a.name, a.userID) < (b.name, b.userID)
    }

    /// Who a full list names first: whoever edits something (the marks on the board are
    /// theirs), then by name.
    private static func listOrder(_ a: PresenceListKey, _ b: PresenceListKey) -> Bool {
        if a.editing != b.editing { return a.editing }
        return (a.name, a.userID) < (b.name, b.userID)
    }
}
