import BoardCore

extension Board {
    /// A board's content as a snapshot carries it: `{"sections":[…],"timers":[…],"display":{…}}`.
    init(wire reader: FieldReader) throws(ProtocolError) {
        let sections = try reader.array("sections").enumerated().map { (index, value) throws(ProtocolError) in
            try Section(wire: FieldReader(value, path: reader.name("sections[\(index)]"), origin: reader.origin))
        }
        let timers = try reader.array("timers").enumerated().map { (index, value) throws(ProtocolError) in
            try BoardTimer(wire: FieldReader(value, path: reader.name("timers[\(index)]"), origin: reader.origin))
        }
        do {
            try self.init(sections: sections, timers: timers)
        } catch {
            throw ProtocolError(ErrorCode(error.kind), error.message)
        }
        display = try BoardDisplay(wire: reader)
    }
}
