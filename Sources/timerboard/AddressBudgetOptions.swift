import ArgumentParser
import TimerBoardServer

/// `serve`'s edit budget per client address, shared by all of its sockets (docs/security.md):
/// a new socket brings no fresh burst.
struct AddressBudgetOptions: ParsableArguments {
    private static let defaults = ServerConfiguration()

    @Option(help: "Edits and joins one client address may send a second on average, over all its sockets (0: no limit).")
    var addressEditsPerSecond = Self.defaults.addressEditsPerSecond
    @Option(help: "Edits and joins one client address may send at once before --address-edits-per-second applies.")
    var addressEditBurst = Self.defaults.addressEditBurst

    func validate() throws {
        if addressEditsPerSecond < 0 { throw ValidationError("--address-edits-per-second must not be negative") }
        if addressEditBurst < 1 { throw ValidationError("--address-edit-burst must be at least 1") }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.addressEditsPerSecond = addressEditsPerSecond
        configuration.addressEditBurst = addressEditBurst
    }
}
