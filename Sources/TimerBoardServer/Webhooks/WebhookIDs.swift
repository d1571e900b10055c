import Foundation

/// The random names of webhooks: an endpoint's id and signing secret, and each message's id.
enum WebhookIDs {
    /// `wh_` and 16 base-62 characters (95 bits): unguessable, so one board's owner cannot name
    /// another board's endpoint.
    static func endpoint() -> String { "wh_" + base62(16) }

    /// `msg_` and 24 base-62 characters: the `webhook-id` of one event to one endpoint.
    static func message() -> String { "msg_" + base62(24) }

    /// `whsec_` and the base64 of 24 random bytes, as Standard Webhooks' libraries read it.
    static func secret() -> String {
        var generator = SystemRandomNumberGenerator()
        let key = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "whsec_" + Data(key).base64EncodedString()
    }

    private static func base62(_ count: Int) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
