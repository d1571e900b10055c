import BoardCore
import BoardProtocol
import BoardStore
import Testing

@testable import TimerBoardServer

/// Undo through the room, with no socket: each client undoes its own edits only, a resend of an
/// undo applies nothing twice, a redo is an undo of the undo, and what another person changed
/// since is left alone and named in the ack.
@Suite struct RoomUndoTests {
    static let ada = TestMember(id: 1)
    static let bob = TestMember(id: 2)

    static func room() -> RoomHarness {
        var room = RoomHarness()
        room.join(Self.ada)
        room.join(Self.bob)
        room.edit(Self.ada, "add", [.addSection(id: "s", title: "Prep", isExpanded: true, position: .last)])
        room.store()
        return room
    }

    /// A room with `settings` in which Ada added section `s` ("add").
    static func sectionRoom(_ settings: RoomSettings) -> RoomHarness {
        var room = RoomHarness(settings: settings)
        room.join(Self.ada)
        room.edit(Self.ada, "add", [.addSection(id: "s", title: "Prep", isExpanded: true, position: .last)])
        return room
    }

    /// Ada renames `s` to `length` copies of the index's last digit, as edit "r<index>".
    static func rename(_ room: inout RoomHarness, _ index: Int, length: Int) {
        room.edit(Self.ada, "r\(index)", [.updateSection(id: "s", title: String(repeating: "\(index % 10)", count: length), isExpanded: nil)])
    }

    static func undo(_ target: String, as opID: String) -> ClientMessage.Edit {
        ClientMessage.Edit(opID: opID, undoing: target)
    }

    static func lastAnswer(_ room: RoomHarness, _ member: TestMember) -> ServerMessage? {
        room.messages(to: member).last { if case .ack = $0 { true } else if case .reject = $0 { true } else { false } }
    }

    func send(_ room: inout RoomHarness, _ member: TestMember, _ edit: ClientMessage.Edit) {
        let (_, actions) = room.state.edit(edit, from: member, now: room.now)
        room.perform(actions)
        room.store()
    }

    @Test func anUndoPutsBackWhatTheEditReplacedAndARedoPutsItBackAgain() {
        var room = Self.room()
        room.edit(Self.ada, "rename", [.updateSection(id: "s", title: "Mise en place", isExpanded: nil)])
        room.store()
        send(&room, Self.ada, Self.undo("rename", as: "u1"))
        #expect(room.state.board.sections["s"]?.title == "Prep")
        send(&room, Self.ada, Self.undo("u1", as: "u2"))
        #expect(room.state.board.sections["s"]?.title == "Mise en place")
        #expect(room.log.last?.author == "Member 1" && room.log.last?.undo != nil)
    }

    @Test func nobodyUndoesAnotherPersonsEdit() {
        var room = Self.room()
        send(&room, Self.bob, Self.undo("add", as: "u1"))
        guard case .reject(let reject)? = Self.lastAnswer(room, Self.bob) else {
            Issue.record("no reject")
            return
        }
        #expect(reject.code == .notFound && room.state.board.sections["s"] != nil)
    }

    /// An edit acked with nothing to change left nothing to undo; the reject says so, not that
    /// there is no such edit of the author's.
    @Test func undoingAnEditThatChangedNothingSaysSo() {
        var room = Self.room()
        room.edit(Self.ada, "same", [.updateSection(id: "s", title: "Prep", isExpanded: nil)])
        room.store()
        send(&room, Self.ada, Self.undo("same", as: "u1"))
        guard case .reject(let reject)? = Self.lastAnswer(room, Self.ada) else {
            Issue.record("no reject")
            return
        }
        #expect(reject.code == .notFound && reject.message == "edit same changed nothing, so there is nothing to undo")
    }

    /// The ack of an edit that changed nothing says so, and so does its resend's: a client knows
    /// there is nothing to undo without guessing from revisions.
    @Test func theAckOfAnEditThatChangedNothingSaysSo() {
        var room = Self.room()
        let revision = room.state.revision
        send(&room, Self.ada, ClientMessage.Edit(opID: "same", ops: [.updateSection(id: "s", title: "Prep", isExpanded: nil)]))
        #expect(Self.lastAnswer(room, Self.ada) == .ack(opID: "same", revision: revision, duplicate: false, unchanged: true))
        send(&room, Self.ada, ClientMessage.Edit(opID: "same", ops: [.updateSection(id: "s", title: "Prep", isExpanded: nil)]))
        #expect(Self.lastAnswer(room, Self.ada) == .ack(opID: "same", revision: revision, duplicate: true, unchanged: true))
        send(&room, Self.ada, ClientMessage.Edit(opID: "new", ops: [.updateSection(id: "s", title: "New", isExpanded: nil)]))
        #expect(Self.lastAnswer(room, Self.ada) == .ack(opID: "new", revision: revision + 1, duplicate: false))
    }

    /// An undo whose every field someone changed since changes nothing: its ack says so (and what
    /// it skipped), and there is nothing to redo.
    @Test func anUndoThatChangedNothingSaysSoAndLeavesNothingToRedo() {
        var room = Self.room()
        room.edit(Self.ada, "rename", [.updateSection(id: "s", title: "Ada's", isExpanded: nil)])
        room.edit(Self.bob, "bob", [.updateSection(id: "s", title: "Bob's", isExpanded: nil)])
        room.store()
        let revision = room.state.revision
        send(&room, Self.ada, Self.undo("rename", as: "u1"))
        #expect(Self.lastAnswer(room, Self.ada) == .ack(opID: "u1", revision: revision, duplicate: false, skipped: [SkippedField(id: "s", field: "title")], unchanged: true))
        send(&room, Self.ada, Self.undo("u1", as: "u2"))
        guard case .reject(let reject)? = Self.lastAnswer(room, Self.ada) else {
            Issue.record("no reject")
            return
        }
        #expect(reject.message == "edit u1 changed nothing, so there is nothing to undo")
    }

    /// An edit whose undo record was forgotten (more than the board keeps) is too old, not one
    /// that changed nothing.
    @Test func undoingAForgottenEditSaysItIsTooOld() {
        var settings = RoomSettings()
        settings.undoPerBoard = 2
        var room = RoomHarness(settings: settings)
        room.join(Self.ada)
        for index in 1...3 {
            room.edit(Self.ada, "add\(index)", [.addSection(id: EntityID("s\(index)")!, title: "S", isExpanded: true, position: .last)])
        }
        room.store()
        send(&room, Self.ada, Self.undo("add1", as: "u1"))
        guard case .reject(let reject)? = Self.lastAnswer(room, Self.ada) else {
            Issue.record("no reject")
            return
        }
        #expect(reject.code == .notFound && reject.message.hasPrefix("edit add1 is too old to undo"))
        #expect(room.state.board.sections["s1"] != nil)
    }

    @Test func aResentUndoAppliesNothingTwice() {
        var room = Self.room()
        send(&room, Self.ada, Self.undo("add", as: "u1"))
        let revision = room.state.revision
        send(&room, Self.ada, Self.undo("add", as: "u1"))
        #expect(room.state.revision == revision)
        guard case .ack(_, _, let duplicate, _, _)? = Self.lastAnswer(room, Self.ada) else {
            Issue.record("no ack")
            return
        }
        #expect(duplicate)
    }

    @Test func whatSomeoneChangedSinceIsLeftAndNamedInTheAck() {
        var room = Self.room()
        room.edit(Self.ada, "rename", [.updateSection(id: "s", title: "Ada's", isExpanded: false)])
        room.edit(Self.bob, "bob", [.updateSection(id: "s", title: "Bob's", isExpanded: nil)])
        room.store()
        send(&room, Self.ada, Self.undo("rename", as: "u1"))
        #expect(room.state.board.sections["s"]?.title == "Bob's" && room.state.board.sections["s"]?.isExpanded == true)
        guard case .ack(_, _, _, let skipped, _)? = Self.lastAnswer(room, Self.ada) else {
            Issue.record("no ack")
            return
        }
        #expect(skipped == [SkippedField(id: "s", field: "title")])
    }

    /// Undo records are bounded by their size too: past the board's bytes the oldest is
    /// forgotten, and undoing it says it is too old.
    @Test func undoRecordsOverTheBoardsBytesForgetTheOldest() {
        var settings = RoomSettings()
        // The add weighs about 200 bytes and each 200-character rename about 400 and 600: the
        // second rename takes the records past 1,000, and the add, the oldest, goes.
        settings.undoBytesPerBoard = 1_000
        var room = Self.sectionRoom(settings)
        for index in 1...2 { Self.rename(&room, index, length: 200) }
        room.store()
        send(&room, Self.ada, Self.undo("add", as: "u1"))
        guard case .reject(let reject)? = Self.lastAnswer(room, Self.ada) else {
            Issue.record("no reject")
            return
        }
        #expect(reject.message.hasPrefix("edit add is too old to undo"), "\(reject.message)")
        send(&room, Self.ada, Self.undo("r2", as: "u2"))
        #expect(room.state.board.sections["s"]?.title == String(repeating: "1", count: 200))
    }

    /// An edit the load read only as who made it (a log too large to read whole) is still
    /// recognised when resent: a duplicate at its revision, applied nothing twice.
    @Test func aResendOfAnEditLoadedOnlyAsItsIDIsADuplicate() {
        let edited = Section(id: "s", title: "Renamed", createdDate: 1, order: "V")
        var content = Board()
        content.sections["s"] = edited
        var room = RoomHarness(
            content: content,
            revision: 7,
            older: [StoredEditID(revision: 5, clientID: RoomHarness.clientID(Self.ada), opID: "old")]
        )
        room.join(Self.ada)
        room.edit(Self.ada, "old", [.updateSection(id: "s", title: "Renamed again", isExpanded: nil)])
        #expect(Self.lastAnswer(room, Self.ada) == .ack(opID: "old", revision: 5, duplicate: true))
        #expect(room.state.board.sections["s"]?.title == "Renamed" && room.state.revision == 7)
    }

    /// A snapshot is due by bytes too: half the resume budget written since the last one, so a
    /// load never replays much however large the changesets.
    @Test func aSnapshotIsDueOnceHalfTheResumeBudgetIsWritten() {
        var settings = RoomSettings()
        settings.retainedChangesetBytes = 4_000
        var room = Self.sectionRoom(settings)
        for index in 1...4 { Self.rename(&room, index, length: 150) }
        room.store()
        // A rename of 150 characters is over 150 bytes on the wire and under 400: 2,000 bytes
        // come after five of them at the earliest, and before twelve; the interval (100) is far.
        #expect(room.snapshotRevisions.isEmpty)
        for index in 5...12 { Self.rename(&room, index, length: 150) }
        room.store()
        #expect(room.snapshotRevisions.count == 1 && room.snapshotRevisions[0] > 5, "\(room.snapshotRevisions)")
    }

    /// After a restart the room rebuilds what it takes to undo from the stored log.
    @Test func anUndoWorksOnARoomLoadedFromTheLog() {
        var before = Self.room()
        before.edit(Self.ada, "rename", [.updateSection(id: "s", title: "Renamed", isExpanded: nil)])
        before.store()
        var room = RoomHarness(content: before.state.board, revision: before.state.revision, recent: before.log)
        room.join(Self.ada)
        send(&room, Self.ada, Self.undo("rename", as: "u1"))
        #expect(room.state.board.sections["s"]?.title == "Prep")
    }
}
