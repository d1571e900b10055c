import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A board a scenario made, with the secret its clients join with.
struct BenchBoard: Sendable {
    let id: String
    let editSecret: String

    /// The `join` message for this board.
    var joinMessage: String { #"{"type":"join","board":"\#(id)","secret":"\#(editSecret)"}"# }
}

/// The few HTTP calls a scenario needs: create a board, read the server's memory.
struct BenchHTTP: Sendable {
    let base: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func createBoard(title: String) async throws -> BenchBoard {
        var request = URLRequest(url: URL(string: base + "/api/boards")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"title":"\#(title)"}"#.utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let id = object["id"] as? String,
            let secrets = object["secrets"] as? [String: String], let edit = secrets["edit"]
        else {
            throw Failure(description: "could not create a board at \(base)")
        }
        return BenchBoard(id: id, editSecret: edit)
    }

    var webSocketURL: String { base.replacingOccurrences(of: "http", with: "ws", options: .anchored) + "/ws" }
}
