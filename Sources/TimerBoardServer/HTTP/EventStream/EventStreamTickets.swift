import Foundation
import Synchronization

/// One-time tickets for `EventSource`, which cannot send an `Authorization` header: a holder of
/// a link asks for a ticket with its secret (`POST /api/boards/ID/event-tickets`) and opens the
/// stream with `?ticket=`. A ticket is random, works once, for one board, within `lifetime`, so
/// the URL it is in (and any log of it) is worth nothing afterwards. Kept in memory on the node
/// that made it (a balancer's board affinity sends both requests there).
final class EventStreamTickets: Sendable {
    struct Ticket: Sendable {
        let boardID: String
        /// The hash of the secret it was asked with: the stream joins with it.
        let secretHash: [UInt8]
        let expires: Int64
    }

    private let tickets = Mutex<[String: Ticket]>([:])
    let lifetime: Int64
    /// Most tickets outstanding at once; more are refused until some are used or expire.
    let limit: Int

    init(lifetime: Int64 = 60_000, limit: Int = 10_000) {
        self.lifetime = lifetime
        self.limit = limit
    }

    /// A new ticket, or nil when `limit` are outstanding.
    func issue(boardID: String, secretHash: [UInt8], now: Int64) -> String? {
        var generator = SystemRandomNumberGenerator()
        let ticket = (0..<24).map { _ in String(UInt8.random(in: 0..<36, using: &generator), radix: 36) }.joined()
        return tickets.withLock { tickets in
            if tickets.count >= limit { tickets = tickets.filter { $0.value.expires > now } }
            guard tickets.count < limit else { return nil }
            tickets[ticket] = Ticket(boardID: boardID, secretHash: secretHash, expires: now + lifetime)
            return ticket
        }
    }

    /// The ticket's grant, once: it is gone after this call, used or expired.
    func redeem(_ ticket: String, boardID: String, now: Int64) -> Ticket? {
        guard let grant = tickets.withLock({ $0.removeValue(forKey: ticket) }), grant.boardID == boardID, grant.expires > now else { return nil }
        return grant
    }
}
