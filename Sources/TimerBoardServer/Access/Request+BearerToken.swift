import Foundation
import Hummingbird

extension Request {
    /// The secret of an `Authorization: Bearer SECRET` header (scheme in any case), or nil.
    var bearerToken: String? {
        guard let value = headers[.authorization] else { return nil }
        let prefix = "Bearer "
        guard value.count > prefix.count, value.prefix(prefix.count).lowercased() == prefix.lowercased() else { return nil }
        return String(value.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
    }
}
