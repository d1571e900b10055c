import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The few HTTP calls a scenario needs: create a board, read the server's memory.
struct BenchHTTP: Sendable {
    let base: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func createBoard(title: String) async throws -> String {
        var request = URLRequest(url: URL(string: base + "/api/boards")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"title":"\#(title)"}"#.utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let id = object["id"] as? String else {
            throw Failure(description: "could not create a board at \(base)")
        }
        return id
    }

    var webSocketURL: String { base.replacingOccurrences(of: "http", with: "ws", options: .anchored) + "/ws" }
}
