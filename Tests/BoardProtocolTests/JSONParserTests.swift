import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import BoardProtocol

/// The hand-written parser against Foundation's `JSONDecoder`, which the server used before:
/// on every document both accept they must agree, and both must refuse what is not JSON.
@Suite struct JSONParserTests {
    /// Foundation's reading of a document into `JSONValue`, as `JSONValue.parse` once was.
    struct Reference: Decodable {
        let value: JSONValue

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = .null
            } else if let bool = try? container.decode(Bool.self) {
                value = .bool(bool)
            } else if let int = try? container.decode(Int64.self) {
                value = .int(int)
            } else if let double = try? container.decode(Double.self) {
                value = .double(double)
            } else if let string = try? container.decode(String.self) {
                value = .string(string)
            } else if let array = try? container.decode([Reference].self) {
                value = .array(array.map(\.value))
            } else {
                value = .object(try container.decode([String: Reference].self).mapValues(\.value))
            }
        }

        static func parse(_ text: String) -> JSONValue? {
            (try? JSONDecoder().decode(Reference.self, from: Data(text.utf8)))?.value
        }
    }

    @Test(arguments: [
        #"{"type":"edit","opId":"1","ops":[{"op":"addSection","id":"s","title":"Prep"}]}"#,
        #" [ 1 , -0 , 12.5 , -3e2 , 1E+2 , true , false , null , "" ] "#,
        #"{"a":{"b":[[],{}]},"a2":"x"}"#,
        #""\" \\ \/ \b \f \n \r \t \u00e9 \ud83c\udf73 café 🍳""#,
        #"9223372036854775807"#,
        #"-9223372036854775808"#,
        #"9223372036854775808"#,
        #"{"k":1,"k":2}"#,
        "[1,]",
        #"{"a":1,}"#,
        "3.0",
        "1e2",
        "89183833166430E4",
        "9007199254740993.0",
        "-9007199254740993e0",
        "123456789012345678e-1",
        "1.5e1",
        "100e-2",
        "1e+0000002",
        "0e500",
        "-0.0",
        "1e19",
        "12.5e-1",
        "12345678901234567.9",
        "9223372036854775807.0",
        "1e-400",
        "-9223372036854775809",
        "-9223372036854775808e0",
        "-9223372036854775807.9",
    ])
    func acceptsJSONAsFoundationReadsIt(_ text: String) {
        let parsed = JSONValue.parse(text)
        #expect(parsed != nil)
        #expect(parsed == Reference.parse(text))
    }

    @Test(arguments: [
        "", " ", "{", "}", "[,1]", "[1,,]", "{,}", "[,]", #"{"a" 1}"#, #"{a:1}"#, "[1 2]", "01", "1.", ".5", "-", "1e", "+1",
        "tru", "nul", "True", #""abc"#, "\"a\u{1}b\"", #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#,
        "[1] x", "1e999", "NaN", "// comment\n1", "'a'",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(JSONValue.parse(text) == nil)
        #expect(Reference.parse(text) == nil, "the reference refuses it too")
    }

    @Test func refusesInvalidUTF8InStrings() {
        #expect(JSONValue.parse(Data([0x22, 0xC3, 0x28, 0x22])) == nil)
        #expect(JSONValue.parse(Data([0x22, 0xC3, 0xA9, 0x22])) == .string("é"))
    }

    @Test func refusesDocumentsNestedDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: JSONParser.maxDepth + 1) + String(repeating: "]", count: JSONParser.maxDepth + 1)
        let deepest = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        #expect(JSONValue.parse(deep) == nil)
        #expect(JSONValue.parse(deepest) != nil)
    }

    /// Random documents, written with random whitespace and escapes: both parsers read the same
    /// value. Then each document with one byte changed: both accept it and agree, or both refuse it.
    @Test func randomDocumentsReadAsFoundationReadsThem() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let text = Self.randomDocument(depth: 0, using: &rng)
            let parsed = JSONValue.parse(text)
            #expect(parsed != nil, "\(text)")
            #expect(parsed == Reference.parse(text), "\(text)")
            var bytes = Array(text.utf8)
            let position = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[position] = Array(#"{}[],:"\ 0-.eEtfn"#.utf8).randomElement(using: &rng)!
            let changed = String(decoding: bytes, as: UTF8.self)
            #expect(JSONValue.parse(changed) == Reference.parse(changed), "\(changed)")
        }
    }

    /// Large integers, the kind a Double cannot hold, written with a point and an exponent and
    /// sometimes a fraction (`89183833166430E4`, `8918383316643.00032e5`): both read the same.
    @Test func largeNumbersInAnyNotationReadAsFoundationReadsThem() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let value = Int64.random(in: Int64.min...Int64.max, using: &rng) >> Int64.random(in: 0...20, using: &rng)
            let digits = String(value.magnitude)
            let point = Int.random(in: 1...digits.count, using: &rng)
            let fraction = String(digits.dropFirst(point)) + ["", "0", "00", "5", "09"].randomElement(using: &rng)!
            let exponent = ["e", "E", "e+"].randomElement(using: &rng)! + String(digits.count - point)
            let text = (value < 0 ? "-" : "") + digits.prefix(point) + (fraction.isEmpty ? "" : "." + fraction) + exponent
            #expect(JSONValue.parse(text) == Reference.parse(text), "\(text)")
        }
    }

    static func randomDocument(depth: Int, using rng: inout SeededGenerator) -> String {
        func space() -> String { ["", " ", "\n", "\t ", "\r\n"].randomElement(using: &rng)! }
        let kind = depth > 3 ? Int.random(in: 0..<5, using: &rng) : Int.random(in: 0..<7, using: &rng)
        let body: String
        switch kind {
        case 0: body = ["null", "true", "false"].randomElement(using: &rng)!
        case 1: body = String(Int64.random(in: Int64.min...Int64.max, using: &rng) >> Int64.random(in: 0...63, using: &rng))
        case 2: body = String(Double(Int.random(in: -100_000...100_000, using: &rng)) + 0.25)
        case 3, 4: body = randomString(using: &rng)
        case 5:
            let items = (0..<Int.random(in: 0...4, using: &rng)).map { _ in randomDocument(depth: depth + 1, using: &rng) }
            body = "[" + items.joined(separator: space() + "," + space()) + "]"
        default:
            let fields = (0..<Int.random(in: 0...4, using: &rng)).map { index in
                "\"k\(index)\"" + space() + ":" + space() + randomDocument(depth: depth + 1, using: &rng)
            }
            body = "{" + space() + fields.joined(separator: ",") + space() + "}"
        }
        return space() + body + space()
    }

    static func randomString(using rng: inout SeededGenerator) -> String {
        let pieces = [
            "a", "Z", "0", " ", "é", "🍳", "日本", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\t"#, #"\b"#, #"\f"#, #"\r"#, #"\u0041"#,
            #"\u00e9"#, #"\ud83c\udf73"#, #"\u0000"#,
        ]
        return "\"" + (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined() + "\""
    }
}
