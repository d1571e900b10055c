/// The edit budgets beyond one connection's, shared by every board socket and the HTTP edit
/// route, so neither way steps around the other: one per client address (all of its sockets
/// together: a new socket brings no fresh burst) and one per board (everyone editing it: many
/// addresses cannot keep its room, and a core, busy for the others on it).
///
/// A join takes from the address's budget only: a board's budget must not let someone who knows
/// a board's id but none of its secrets keep its people from joining. An edit, which only a
/// secret's holder gets to send, takes from both.
struct SharedEditBudgets: Sendable {
    private let perAddress: AddressRateLimiter
    private let perBoard: AddressRateLimiter

    init(addressEditsPerSecond: Double, addressBurst: Int, boardEditsPerSecond: Double, boardBurst: Int) {
        perAddress = AddressRateLimiter(perMinute: addressEditsPerSecond * 60, burst: Double(addressBurst))
        perBoard = AddressRateLimiter(perMinute: boardEditsPerSecond * 60, burst: Double(boardBurst))
    }

    /// A join from `address`: nil, or the milliseconds to wait.
    func takeJoin(address: String, now: Int64) -> Int64? {
        perAddress.take(address, now: now)
    }

    /// An edit from `address` to `board`: nil, or the milliseconds to wait. The board's token is
    /// taken only once the address has one, so an address over its own budget spends nothing of
    /// the board's; an edit the board's budget refuses gives the address its token back.
    func takeEdit(address: String, board: String, now: Int64) -> Int64? {
        if let wait = perAddress.take(address, now: now) { return wait }
        guard let wait = perBoard.take(board, now: now) else { return nil }
        perAddress.giveBack(address, now: now)
        return wait
    }
}
