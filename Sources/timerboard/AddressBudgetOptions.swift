import ArgumentParser
import TimerBoardServer

/// `serve`'s edit budgets beyond one connection's (docs/security.md): per client address, shared
/// by all of its sockets (a new socket brings no fresh burst), and per board, shared by everyone
/// editing it (many addresses cannot keep its room busy).
struct AddressBudgetOptions: ParsableArguments {
    private static let defaults = ServerConfiguration()

    @Option(help: "Edits and joins one client address may send a second on average, over all its sockets (0: no limit).")
    var addressEditsPerSecond = Self.defaults.addressEditsPerSecond
    @Option(help: "Edits and joins one client address may send at once before --address-edits-per-second applies.")
    var addressEditBurst = Self.defaults.addressEditBurst
    @Option(help: "Edits one board may take a second on average, from all its sockets and HTTP edits together (0: no limit).")
    var boardEditsPerSecond = Self.defaults.boardEditsPerSecond
    @Option(help: "Edits one board may take at once before --board-edits-per-second applies.")
    var boardEditBurst = Self.defaults.boardEditBurst
    @Option(help: "Wrong operator tokens one client address may present a minute on average (0: no limit); then its operator requests get 429.")
    var operatorGuessesPerMinute = Self.defaults.operatorGuessesPerMinute
    @Option(help: "Wrong operator tokens one client address may present at once before --operator-guesses-per-minute applies.")
    var operatorGuessBurst = Self.defaults.operatorGuessBurst

    func validate() throws {
        if addressEditsPerSecond < 0 { throw ValidationError("--address-edits-per-second must not be negative") }
        if addressEditBurst < 1 { throw ValidationError("--address-edit-burst must be at least 1") }
        if boardEditsPerSecond < 0 { throw ValidationError("--board-edits-per-second must not be negative") }
        if boardEditBurst < 1 { throw ValidationError("--board-edit-burst must be at least 1") }
        if operatorGuessesPerMinute < 0 { throw ValidationError("--operator-guesses-per-minute must not be negative") }
        if operatorGuessBurst < 1 { throw ValidationError("--operator-guess-burst must be at least 1") }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.addressEditsPerSecond = addressEditsPerSecond
        configuration.addressEditBurst = addressEditBurst
        configuration.boardEditsPerSecond = boardEditsPerSecond
        configuration.boardEditBurst = boardEditBurst
        configuration.operatorGuessesPerMinute = operatorGuessesPerMinute
        configuration.operatorGuessBurst = operatorGuessBurst
    }
}
