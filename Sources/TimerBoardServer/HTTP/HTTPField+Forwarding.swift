import HTTPTypes

extension HTTPField.Name {
    /// What a trusted proxy says of the client it forwards (`ClientAddress`).
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xRealIP = Self("X-Real-IP")!
}
