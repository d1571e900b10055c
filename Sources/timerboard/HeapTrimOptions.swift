import ArgumentParser
import TimerBoardServer

/// `serve`'s heap trim: how often the server gives the heap's free pages back to the kernel
/// (`HeapTrimmer`; glibc keeps what a moment of load freed resident otherwise).
struct HeapTrimOptions: ParsableArguments {
    private static let defaults = ServerConfiguration()

    @Option(help: "Seconds between giving the heap's free pages back to the kernel (glibc's malloc_trim); 0: never.")
    var heapTrimSeconds = Int(Self.defaults.heapTrimInterval?.components.seconds ?? 0)

    func validate() throws {
        if heapTrimSeconds < 0 { throw ValidationError("--heap-trim-seconds must be 0 or more") }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.heapTrimInterval = heapTrimSeconds == 0 ? nil : .seconds(heapTrimSeconds)
    }
}
