import BoardCore
import BoardProtocol
import Foundation
import Testing

@Suite struct FixtureTests {
    @Test func thereAreFixturesForBothDirections() {
        #expect(Fixtures.all("client").count >= 7)
        #expect(Fixtures.all("server").count >= 12)
    }

    @Test(arguments: Fixtures.all("client"))
    func clientFixturesDecodeAndEncodeBackToTheSameJSON(_ name: String) throws {
        let data = try Fixtures.data(name)
        let message = try ClientMessage.decode(data, limits: ProtocolLimits())
        #expect(JSONValue.parse(Data(message.encoded())) == JSONValue.parse(data))
    }

    @Test(arguments: Fixtures.all("server"))
    func serverFixturesDecodeAndEncodeBackToTheSameJSON(_ name: String) throws {
        let data = try Fixtures.data(name)
        let message = try ServerMessage.decode(data)
        // Byte for byte: the server writes fields in the documented order, compactly.
        let fixture = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        #expect(String(decoding: message.encoded(), as: UTF8.self) == fixture)
    }

    /// Undo (issue 32): an edit of one `undo` operation naming an earlier opId, and an ack that
    /// names what the undo left alone.
    @Test func theUndoFixturesReadAsAnUndoAndAnAckWithSkippedFields() throws {
        let edit = try ClientMessage.decode(Fixtures.data("client/edit-undo.json"), limits: ProtocolLimits())
        #expect(edit == .edit(ClientMessage.Edit(opID: "u-18", undoing: "17")))
        let ack = try ServerMessage.decode(Fixtures.data("server/ack-undo-skipped.json"))
        #expect(ack == .ack(opID: "u-18", revision: 5, duplicate: false, skipped: [SkippedField(id: "sec-prep", field: "title")]))
    }

    @Test func anUndoGoesAloneInItsEdit() {
        let mixed = #"{"type":"edit","opId":"u","ops":[{"op":"undo","opId":"1"},{"op":"deleteSection","id":"s"}]}"#
        #expect { try ClientMessage.decode(Data(mixed.utf8), limits: ProtocolLimits()) } throws: { error in
            (error as? ProtocolError).map { $0.code == .badMessage && $0.opID == "u" } ?? false
        }
    }

    @Test func theRenameFixtureIsOneUpdateWithOneField() throws {
        let message = try ServerMessage.decode(Fixtures.data("server/changes-rename-section.json"))
        #expect(message == .changes(Changeset(revision: 4, changes: [.updateSection("sec-prep", SectionPatch(title: "Mise en place"))])))
    }

    @Test func theEveryOpFixtureNamesEveryOperation() throws {
        guard case .edit(let edit) = try ClientMessage.decode(Fixtures.data("client/edit-every-op.json"), limits: ProtocolLimits()) else {
            Issue.record("not an edit")
            return
        }
        let names = Set(edit.ops.map { String(describing: $0).prefix(while: { $0 != "(" }) })
        #expect(names == ["addSection", "updateSection", "moveSection", "deleteSection", "addTimer", "updateTimer", "moveTimer", "deleteTimer"])
        // The running operations have fixtures of their own: edit-run-timers, edit-adjust-timer, edit-sequence.
    }

    // MARK: Timers people run a kitchen or a stage on (issue 18)

    private func ops(_ name: String) throws -> [BoardOperation] {
        guard case .edit(let edit) = try ClientMessage.decode(Fixtures.data(name), limits: ProtocolLimits()) else {
            throw FixtureFailure("\(name) is not an edit")
        }
        return edit.ops
    }

    @Test func theNewOperationsFixturesDecodeToTheirOperations() throws {
        #expect(try ops("client/edit-adjust-timer.json") == [.adjustTimer(id: "tim-eggs", by: 60_000), .adjustTimer(id: "tim-bread", by: -60_000)])
        #expect(
            try ops("client/edit-sequence.json") == [
                .addSection(id: "sec-hiit", title: "Rounds", isExpanded: true, position: .last, sequence: true, loop: true),
                .updateSection(id: "sec-prep", title: nil, isExpanded: nil, sequence: true, loop: false),
                .skipSection(id: "sec-prep"),
                .restartSection(id: "sec-hiit"),
            ]
        )
        #expect(
            try ops("client/edit-warn-at.json") == [
                .addTimer(id: "tim-tea", sectionID: "sec-prep", title: "Tea", minutes: 4, seconds: 0, position: .first, warnAt: 60_000),
                .updateTimer(id: "tim-eggs", title: nil, minutes: nil, seconds: nil, warnAt: 0),
            ]
        )
        let presence = try ClientMessage.decode(Fixtures.data("client/presence-clock-error.json"), limits: ProtocolLimits())
        #expect(presence == .presence(editing: nil, clockError: 12))
    }

    /// Time of day and screens (issues 30 and 35): `null` clears a scheduled start, a target, a
    /// section's finish and the message, in an edit and in a stored or sent change. It used to
    /// read as absent, so a clear changed nothing and a replayed clear was lost.
    @Test func nullClearsStartsTargetsFinishesAndTheMessage() throws {
        #expect(
            try ops("client/edit-time-of-day.json") == [
                .addTimer(id: "tim-doors", sectionID: "sec-show", title: "Doors", minutes: 0, seconds: 0, position: .last, kind: .toTime, targetAt: 1_763_796_600_000),
                .updateTimer(id: "tim-keynote", title: nil, minutes: nil, seconds: nil, startAt: .some(1_763_794_800_000)),
                .updateTimer(id: "tim-talk", title: nil, minutes: nil, seconds: nil, startAt: .some(nil)),
                .updateSection(id: "sec-breakfast", title: nil, isExpanded: nil, finishAt: .some(1_763_794_800_000)),
                .updateSection(id: "sec-lunch", title: nil, isExpanded: nil, finishAt: .some(nil)),
                .showMessage(text: "Wrap up", flash: true),
                .clearMessage,
                .setBlackout(true),
                .setTimeZone("Europe/Paris"),
            ]
        )
        guard case .changes(let changeset) = try ServerMessage.decode(Fixtures.data("server/changes-time-of-day-cleared.json")) else {
            throw FixtureFailure("not a changeset")
        }
        guard changeset.changes.count == 4,
            case .updateSection("sec-lunch", let section) = changeset.changes[0],
            case .updateTimer("tim-talk", let talk) = changeset.changes[1],
            case .updateTimer("tim-doors", let doors) = changeset.changes[2],
            case .updateDisplay(let display) = changeset.changes[3]
        else { throw FixtureFailure("unexpected changes: \(changeset.changes)") }
        #expect(section.finishAt == .some(nil))
        #expect(talk.startAt == .some(nil))
        #expect(doors.targetAt == .some(nil))
        #expect(display.message == .clear && display.blackout == true)
    }

    @Test func theHandOverFixtureStartsTheNextTimerAtTheInstantThePreviousFinished() throws {
        guard case .changes(let changeset) = try ServerMessage.decode(Fixtures.data("server/changes-sequence-hand-over.json")),
            case .updateTimer("tim-work", let finished) = changeset.changes.first,
            case .updateTimer("tim-rest", let started) = changeset.changes.last
        else { throw FixtureFailure("not a hand-over") }
        #expect(finished.run?.status == .finished)
        #expect(started.run == TimerRun(status: .running, startedAt: finished.run?.finishedAt, elapsed: 0))
    }

    @Test func theSequenceSnapshotCarriesEveryNewField() throws {
        guard case .snapshot(let snapshot) = try ServerMessage.decode(Fixtures.data("server/snapshot-sequence.json")) else {
            throw FixtureFailure("not a snapshot")
        }
        let section = try #require(snapshot.content.sections["sec-hiit"])
        #expect(section.sequence && section.loop)
        #expect(snapshot.content.timers["tim-work"]?.warnAt == 10_000)
        #expect(snapshot.content.timers["tim-work"]?.run.finishedAt == 1_763_740_845_000)
        // A minute was added: an old client computes 75 s left from elapsed alone.
        #expect(snapshot.content.timers["tim-rest"]?.remaining(at: 1_763_740_845_000) == 75_000)
    }

    @Test func presenceFixturesCarryTheClockErrorOnlyWhenKnown() throws {
        guard case .presence(let users, _) = try ServerMessage.decode(Fixtures.data("server/presence-clock-error.json")) else {
            throw FixtureFailure("not presence")
        }
        #expect(users.map(\.clockError) == [12, 180, nil])
    }

    /// A board that uses none of the new fields is sent exactly as before: the fixtures from
    /// before them still round-trip byte for byte (above), and a default timer writes no new key.
    @Test func defaultsWriteNoNewKeys() throws {
        let message = ServerMessage.snapshot(
            .init(
                board: "b",
                title: "T",
                revision: 1,
                content: try Board(
                    sections: [Section(id: "s", title: "S", createdDate: 1, order: "a0")],
                    timers: [BoardTimer(id: "t", sectionID: "s", title: "T", minutes: 1, seconds: 0, createdDate: 1, order: "a0")]
                )
            )
        )
        let text = String(decoding: message.encoded(), as: UTF8.self)
        for key in ["warnAt", "sequence", "loop", "finishedAt", "clockError"] {
            #expect(!text.contains(key))
        }
    }
}

struct FixtureFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
