import BoardProtocol

/// Which TimerBoard runs: `timerboard --version`, the first log line and `timerboard_build_info`
/// in `/metrics`. The number goes up with every change an operator should know of (a new flag,
/// protocol message or stored format): CONTRIBUTING.md, "Versions".
public enum TimerBoardVersion {
    public static let number = "0.11.0"

    /// The version with the protocol it speaks, for `--version`.
    public static var description: String {
        "timerboard \(number) (protocol \(protocolVersion))"
    }
}
