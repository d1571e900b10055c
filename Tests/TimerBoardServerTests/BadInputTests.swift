import BoardCore
import BoardProtocol
import Foundation
import Testing
import TimerBoardTestClient

/// Every kind of bad input gets its code, changes nothing, and leaves the connection working.
@Suite(.timeLimit(.minutes(2))) struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let frame: BoardConnection.Frame
        let code: ErrorCode
        /// The edit's opId when the answer must be a reject; nil for an error.
        var opID: String? = nil
        var testDescription: String { name }

        init(_ name: String, _ json: String, _ code: ErrorCode, opID: String? = nil) {
            self.name = name
            frame = .text(Array(json.utf8))
            self.code = code
            self.opID = opID
        }

        init(_ name: String, frame: BoardConnection.Frame, _ code: ErrorCode) {
            self.name = name
            self.frame = frame
            self.code = code
        }
    }

    static let cases: [Case] = [
        Case("not JSON", "{not json", .badJSON),
        Case("a binary frame", frame: .binary([1, 2, 3]), .badJSON),
        Case("unknown message type", #"{"type":"dance"}"#, .unknownType),
        Case("missing type", #"{"board":"x"}"#, .unknownType),
        Case("join without a board", #"{"type":"join"}"#, .badMessage),
        Case("join of a board that does not exist", #"{"type":"join","board":"nope"}"#, .boardNotFound),
        Case("edit without ops", #"{"type":"edit","opId":"e1"}"#, .badMessage, opID: "e1"),
        Case("an operation that does not exist", #"{"type":"edit","opId":"e2","ops":[{"op":"explode","id":"s1"}]}"#, .unknownOp, opID: "e2"),
        Case("minutes as a string", #"{"type":"edit","opId":"e3","ops":[{"op":"updateTimer","id":"t1","minutes":"7"}]}"#, .badMessage, opID: "e3"),
        Case("title missing", #"{"type":"edit","opId":"e4","ops":[{"op":"addSection","id":"s9"}]}"#, .badMessage, opID: "e4"),
        Case("unknown section", #"{"type":"edit","opId":"e5","ops":[{"op":"updateSection","id":"zz","title":"x"}]}"#, .notFound, opID: "e5"),
        Case("unknown timer", #"{"type":"edit","opId":"e6","ops":[{"op":"deleteTimer","id":"zz"}]}"#, .notFound, opID: "e6"),
        Case("an id that is taken", #"{"type":"edit","opId":"e7","ops":[{"op":"addSection","id":"t1","title":"x"}]}"#, .duplicateID, opID: "e7"),
        Case("an empty title", #"{"type":"edit","opId":"e8","ops":[{"op":"updateSection","id":"s1","title":""}]}"#, .invalidField, opID: "e8"),
        Case(
            "an overlong title",
            #"{"type":"edit","opId":"e9","ops":[{"op":"updateSection","id":"s1","title":"\#(String(repeating: "x", count: 201))"}]}"#,
            .invalidField,
            opID: "e9"
        ),
        Case(
            "minutes out of range",
            #"{"type":"edit","opId":"e10","ops":[{"op":"updateTimer","id":"t1","minutes":1000}]}"#,
            .invalidField,
            opID: "e10"
        ),
        Case(
            "seconds out of range",
            #"{"type":"edit","opId":"e11","ops":[{"op":"updateTimer","id":"t1","seconds":60}]}"#,
            .invalidField,
            opID: "e11"
        ),
        Case(
            "too many operations",
            #"{"type":"edit","opId":"e12","ops":[\#(Array(repeating: #"{"op":"updateSection","id":"s1","title":"x"}"#, count: 101).joined(separator: ","))]}"#,
            .tooManyOps,
            opID: "e12"
        ),
        Case(
            "a message over the size limit",
            #"{"type":"edit","opId":"e13","ops":[{"op":"updateSection","id":"s1","title":"\#(String(repeating: "x", count: 70_000))"}]}"#,
            .tooLarge,
            opID: "e13"
        ),
        // Said once per socket (docs/protocol.md, hello), whatever it says.
        Case("a second hello, of another protocol version too", #"{"type":"hello","protocol":2,"clientId":"x"}"#, .badMessage),
    ]

    @Test(arguments: cases)
    func badInputGetsItsCodeAndChangesNothing(_ test: Case) async throws {
        try await LiveServer.fresh().run { server in
            let board = try await server.createBoard()
            let peer = try await server.peer("prober")
            try await peer.join(board)
            try await peer.edit([
                .addSection(id: "s1", title: "Prep", isExpanded: true, position: .first),
                .addTimer(id: "t1", sectionID: "s1", title: "Eggs", minutes: 7, seconds: 0, position: .first),
            ])
            let before = try await server.serverSnapshot(board)

            peer.connection.send(raw: test.frame)
            let answer = try await peer.receive()
            if let opID = test.opID {
                guard case .reject(let reject) = answer else { throw TestFailure("expected a reject, got \(answer)") }
                #expect(reject.code == test.code)
                #expect(reject.opID == opID)
            } else {
                guard case .error(let code, _, _) = answer else { throw TestFailure("expected an error, got \(answer)") }
                #expect(code == test.code)
            }

            #expect(try await server.serverSnapshot(board) == before)
            // The same connection still works: it pings, and it edits.
            try await peer.ping()
            let outcome = try await peer.edit([.updateSection(id: "s1", title: "Still here", isExpanded: nil)])
            guard case .ack = outcome else { throw TestFailure("the connection no longer edits: \(outcome)") }
            await peer.close()
        }
    }

    @Test func messagesBeforeHelloAndEditsBeforeJoinAreRefused() async throws {
        try await LiveServer.fresh().run { server in
            let connection = BoardConnection(url: server.webSocketURL)
            // Nothing else is sent to this connection, so no presence can interleave here.
            connection.send(.join(.init(board: "anything", secret: "x")))
            guard case .error(.helloRequired, _, _) = try await connection.receive() else { throw TestFailure("expected hello_required") }
            connection.send(.edit(.init(opID: "early", ops: [.deleteTimer(id: "t1")])))
            guard case .reject(let early) = try await connection.receive() else { throw TestFailure("expected a reject") }
            #expect(early.code == .helloRequired)
            #expect(early.opID == "early")

            connection.send(.hello(.init(clientID: "late")))
            guard case .welcome = try await connection.receive() else { throw TestFailure("expected welcome") }
            connection.send(.edit(.init(opID: "unjoined", ops: [.deleteTimer(id: "t1")])))
            guard case .reject(let unjoined) = try await connection.receive() else { throw TestFailure("expected a reject") }
            #expect(unjoined.code == .notJoined)
            await connection.close()
        }
    }
}
