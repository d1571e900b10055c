import Foundation

/// A parsed JSON document. Client messages are read into this first, so that every missing
/// or mistyped field can be answered with its own precise error instead of a generic decode failure.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses UTF-8 JSON text; nil when it is not JSON (see `JSONParser`).
    public static func parse(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { JSONParser.parse($0.bindMemory(to: UInt8.self)) }
    }

    public static func parse(_ text: String) -> JSONValue? {
        parse(Data(text.utf8))
    }

    /// The name of the JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue {
    /// Writes the value back out, keys sorted, for tests that compare documents.
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .int(let value): writer.int(value)
        case .double(let value): writer.double(value)
        case .string(let value): writer.string(value)
        case .array(let values):
            writer.beginArray()
            for value in values { value.write(to: &writer) }
            writer.endArray()
        case .object(let fields):
            writer.beginObject()
            for key in fields.keys.sorted() {
                writer.key(key)
                fields[key]!.write(to: &writer)
            }
            writer.endObject()
        }
    }
}
