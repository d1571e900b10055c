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
    }
}
