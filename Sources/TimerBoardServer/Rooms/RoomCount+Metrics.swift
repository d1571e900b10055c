extension RoomCount {
    /// Adds this to the server's metrics.
    func record(in metrics: ServerMetrics) {
        switch self {
        case .joined(let resumed): metrics.joined(resumed: resumed)
        case .editAccepted: metrics.editAccepted()
        case .editRejected(let code): metrics.editRejected(code)
        case .changesetCommitted(let subscribers): metrics.changesetCommitted(subscribers: subscribers)
        case .timersFinished(let count): metrics.timersFinished(count)
        case .revisionClaimLost: metrics.revisionClaimLost()
        }
    }
}
