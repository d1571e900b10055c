import BoardCore
import BoardProtocol
import Foundation
import Testing

@Suite struct DecodingErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let json: String
        let code: ErrorCode
        var opID: String? = nil
        var opIndex: Int? = nil
        var testDescription: String { "\(code.rawValue): \(json.prefix(60))" }
    }

    static let cases: [Case] = [
        Case(json: "not json", code: .badJSON),
        Case(json: "[1,2]", code: .badJSON),
        Case(json: #"{"hello":1}"#, code: .unknownType),
        Case(json: #"{"type":"shout"}"#, code: .unknownType),
        Case(json: #"{"type":"hello","clientId":"a"}"#, code: .badMessage),
        Case(json: #"{"type":"hello","protocol":1,"clientId":"no spaces"}"#, code: .invalidField),
        Case(json: #"{"type":"hello","protocol":"1","clientId":"a"}"#, code: .badMessage),
        Case(json: #"{"type":"join"}"#, code: .badMessage),
        Case(json: #"{"type":"join","board":"b","since":-1}"#, code: .invalidField),
        Case(json: #"{"type":"edit","ops":[]}"#, code: .badMessage),
        Case(json: #"{"type":"edit","opId":"1"}"#, code: .badMessage, opID: "1"),
        Case(json: #"{"type":"edit","opId":"1","ops":{}}"#, code: .badMessage, opID: "1"),
        Case(json: #"{"type":"edit","opId":"1","ops":[]}"#, code: .badMessage, opID: "1"),
        Case(json: #"{"type":"edit","opId":"2","ops":[{"op":"fly","id":"a"}]}"#, code: .unknownOp, opID: "2", opIndex: 0),
        Case(
            json: #"{"type":"edit","opId":"3","ops":[{"op":"deleteTimer","id":"a"},{"op":"updateTimer","id":"a","minutes":"7"}]}"#,
            code: .badMessage,
            opID: "3",
            opIndex: 1
        ),
        // A number with a fraction where an integer goes: the value is wrong, not the message.
        Case(json: #"{"type":"edit","opId":"4","ops":[{"op":"updateTimer","id":"a","minutes":7.5}]}"#, code: .invalidField, opID: "4", opIndex: 0),
        Case(json: #"{"type":"edit","opId":"5","ops":[{"op":"addSection","id":"a b","title":"x"}]}"#, code: .invalidField, opID: "5", opIndex: 0),
        Case(
            json: #"{"type":"edit","opId":"6","ops":[{"op":"moveSection","id":"a","position":"middle"}]}"#,
            code: .invalidField,
            opID: "6",
            opIndex: 0
        ),
        Case(json: #"{"type":"edit","opId":"7","ops":[{"op":"addSection","id":"a"}]}"#, code: .badMessage, opID: "7", opIndex: 0),
        // A field the operation does not take: a typo, or another operation's field.
        Case(json: #"{"type":"edit","opId":"8","ops":[{"op":"updateSection","id":"a","titel":"x"}]}"#, code: .badMessage, opID: "8", opIndex: 0),
        Case(
            json: #"{"type":"edit","opId":"9","ops":[{"op":"addSection","id":"a","title":"x","finishAt":1}]}"#,
            code: .badMessage,
            opID: "9",
            opIndex: 0
        ),
        Case(
            json: #"{"type":"edit","opId":"10","ops":[{"op":"deleteTimer","id":"a"},{"op":"updateTimer","id":"a","sectionID":"b"}]}"#,
            code: .badMessage,
            opID: "10",
            opIndex: 1
        ),
        Case(json: #"{"type":"edit","opId":"11","ops":[{"op":"clearMessage","text":"x"}]}"#, code: .badMessage, opID: "11", opIndex: 0),
        Case(json: #"{"type":"edit","opId":"12","ops":[{"op":"undo","opId":"1","id":"a"}]}"#, code: .badMessage, opID: "12", opIndex: 0),
    ]

    /// Every field of every operation, as a client writes it, is read: none is refused as unknown.
    @Test func everyFieldAnOperationTakesIsRead() throws {
        let ops: [BoardOperation] = [
            .addSection(id: "s", title: "S", isExpanded: false, position: .after("x"), sequence: true, loop: true),
            .updateSection(id: "s", title: "T", isExpanded: true, sequence: false, loop: false, finishAt: .some(5)),
            .updateSection(id: "s", title: nil, isExpanded: nil, sequence: nil, loop: nil, finishAt: .some(nil)),
            .moveSection(id: "s", position: .before("x")),
            .deleteSection(id: "s"),
            .addTimer(
                id: "t", sectionID: "s", title: "T", minutes: 1, seconds: 2, position: .last, warnAt: 500, kind: .toTime,
                startAt: 10, targetAt: 20
            ),
            .updateTimer(id: "t", title: "U", minutes: 3, seconds: 4, warnAt: 100, kind: .countUp, startAt: .some(nil), targetAt: .some(7)),
            .moveTimer(id: "t", sectionID: "s", position: .first),
            .deleteTimer(id: "t"), .startTimer(id: "t"), .pauseTimer(id: "t"), .resetTimer(id: "t"), .startSection(id: "s"),
            .pauseSection(id: "s"), .adjustTimer(id: "t", by: 60_000), .skipSection(id: "s"), .restartSection(id: "s"),
            .showMessage(text: "Hi", flash: true), .clearMessage, .setBlackout(true), .setTimeZone("Europe/Berlin"),
        ]
        for op in ops {
            let message = ClientMessage.edit(.init(opID: "1", ops: [op]))
            #expect(try ClientMessage.decode(Data(message.encoded()), limits: ProtocolLimits()) == message)
        }
    }

    @Test(arguments: cases)
    func badMessagesGetTheirCode(_ test: Case) {
        #expect {
            _ = try ClientMessage.decode(Data(test.json.utf8), limits: ProtocolLimits())
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            return error.code == test.code && error.opID == test.opID && error.opIndex == test.opIndex
        }
    }

    @Test func tooManyOperations() {
        let ops = Array(repeating: #"{"op":"deleteTimer","id":"a"}"#, count: 101).joined(separator: ",")
        #expect {
            _ = try ClientMessage.decode(Data(#"{"type":"edit","opId":"9","ops":[\#(ops)]}"#.utf8), limits: ProtocolLimits())
        } throws: { ($0 as? ProtocolError)?.code == .tooManyOps && ($0 as? ProtocolError)?.opID == "9" }
    }

    @Test func anOversizedEditIsRejectedByItsOpID() {
        let title = String(repeating: "x", count: 70_000)
        let json = #"{"type":"edit","opId":"big","ops":[{"op":"updateSection","id":"a","title":"\#(title)"}]}"#
        #expect {
            _ = try ClientMessage.decode(Data(json.utf8), limits: ProtocolLimits())
        } throws: { ($0 as? ProtocolError)?.code == .tooLarge && ($0 as? ProtocolError)?.opID == "big" }
    }

    @Test func stringsAreEscaped() throws {
        let title = "quote \" backslash \\ tab \t bell \u{7} ✓"
        let message = ServerMessage.changes(Changeset(revision: 1, changes: [.updateSection("a", SectionPatch(title: title))]))
        let decoded = try ServerMessage.decode(Data(message.encoded()))
        #expect(decoded == message)
    }
}
