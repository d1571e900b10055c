import BoardCore
import BoardProtocol
import Testing
import TimerBoardTestClient
import TimerBoardServer

/// Bad values of the new timer fields and operations over the wire: a typed reject or error,
/// the connection stays, and the board does not change.
@Suite(.timeLimit(.minutes(2))) struct TimerFieldValidationTests {
    private static let addTimer = #"{"op":"addTimer","id":"tea","sectionID":"s","title":"Tea","minutes":4,"seconds":0"#

    @Test(arguments: [
        (#"{"type":"edit","opId":"w1","ops":[\#(addTimer),"warnAt":240001}]}"#, ErrorCode.invalidField, "warnAt must not be more"),
        (#"{"type":"edit","opId":"w2","ops":[\#(addTimer),"warnAt":-1}]}"#, .invalidField, "warnAt must be between 0 and"),
        (#"{"type":"edit","opId":"w3","ops":[\#(addTimer),"warnAt":"1:00"}]}"#, .badMessage, "ops[0].warnAt must be an integer"),
        // One rule for every integer field: a number with a fraction is invalid_field, 2.0 is 2.
        (#"{"type":"edit","opId":"w4","ops":[{"op":"updateTimer","id":"eggs","warnAt":60000.5}]}"#, .invalidField, "ops[0].warnAt must be a whole number"),
        (#"{"type":"edit","opId":"a4","ops":[{"op":"adjustTimer","id":"eggs","by":1.5}]}"#, .invalidField, "ops[0].by must be a whole number"),
        (#"{"type":"edit","opId":"m1","ops":[{"op":"updateTimer","id":"eggs","minutes":1.5}]}"#, .invalidField, "ops[0].minutes must be a whole number"),
        // A whole number too large for the field is out of range, not "not a whole number".
        (#"{"type":"edit","opId":"m2","ops":[{"op":"updateTimer","id":"eggs","minutes":1e30}]}"#, .invalidField, "ops[0].minutes is out of range"),
        (#"{"type":"edit","opId":"a5","ops":[{"op":"adjustTimer","id":"eggs","by":1e20}]}"#, .invalidField, "ops[0].by is out of range"),
        (#"{"type":"edit","opId":"a1","ops":[{"op":"adjustTimer","id":"eggs","by":0}]}"#, .invalidField, "by must be a non-zero"),
        (#"{"type":"edit","opId":"a2","ops":[{"op":"adjustTimer","id":"eggs"}]}"#, .badMessage, "ops[0].by is missing"),
        (#"{"type":"edit","opId":"a3","ops":[{"op":"adjustTimer","id":"eggs","by":60000}]}"#, .invalidState, "is idle"),
        (#"{"type":"edit","opId":"s1","ops":[{"op":"updateSection","id":"s","sequence":"yes"}]}"#, .badMessage, "ops[0].sequence must be a boolean"),
        (#"{"type":"edit","opId":"s2","ops":[{"op":"restartSection","id":"s"}]}"#, .invalidState, "not a sequence"),
    ])
    func aBadValueIsRejectedWithItsCodeAndChangesNothing(_ text: String, _ code: ErrorCode, _ message: String) async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await alice.join(board)
            try await alice.edit([
                .addSection(id: "s", title: "Prep", isExpanded: true, position: .first),
                .addTimer(id: "eggs", sectionID: "s", title: "Eggs", minutes: 7, seconds: 30, position: .first),
            ])
            let revision = alice.replica.revision
            alice.connection.send(raw: .text(Array(text.utf8)))
            guard case .reject(let reject) = try await alice.receive() else { throw TestFailure("not rejected: \(text)") }
            #expect(reject.code == code)
            #expect(reject.message.contains(message), "\(reject.message)")
            // The connection stays and the board is as it was.
            try await alice.ping()
            #expect(try await server.serverSnapshot(board).revision == revision)
            await alice.close()
        }
    }

    @Test func aValidWarningTravelsAsOneFieldOfAnUpdate() async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let alice = try await server.peer("alice")
            try await alice.join(board)
            try await alice.edit([
                .addSection(id: "s", title: "Prep", isExpanded: true, position: .first),
                .addTimer(id: "eggs", sectionID: "s", title: "Eggs", minutes: 7, seconds: 30, position: .first, warnAt: 60_000),
            ])
            guard case .ack(_, let revision, _, _, _) = try await alice.edit([.updateTimer(id: "eggs", title: nil, minutes: nil, seconds: nil, warnAt: 0)])
            else {
                throw TestFailure("refused")
            }
            #expect(alice.received.contains(.changes(Changeset(revision: revision, changes: [.updateTimer("eggs", TimerPatch(warnAt: 0))]))))
            #expect(try await server.serverSnapshot(board).content.timers["eggs"]?.warnAt == 0)
            await alice.close()
        }
    }
}
