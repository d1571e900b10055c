import BoardProtocol
import BoardStore

/// An operator's recovery: gives a board a new owner, edit and view secret (a lost owner link,
/// a board made before links existed). Every old link stops working. Returns the new links'
/// paths by role, or nil when there is no such board. Run it while no server has the board
/// open (stop the server): a live room keeps the secrets it loaded.
public func resetLinks(boardID: String, store: any BoardStore) async throws -> [(role: BoardRole, path: String)]? {
    guard try await store.loadBoard(id: boardID) != nil else { return nil }
    let secrets = BoardSecrets.mint()
    try await store.setAccess(secrets.access, boardID: boardID)
    return BoardRole.allCases.map { ($0, BoardSecrets.link(boardID: boardID, role: $0, secret: secrets.secret(for: $0))) }
}
