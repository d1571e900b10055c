import Crypto
import Foundation

/// Standard Webhooks' signature: `v1,` and the base64 of HMAC-SHA256, keyed by the secret's
/// bytes (the base64 after `whsec_`), of `webhook-id.webhook-timestamp.body`.
enum WebhookSignature {
    /// The `webhook-signature` header's value, or nil when `secret` is not `whsec_` and base64.
    static func sign(secret: String, messageID: String, timestamp: Int64, body: [UInt8]) -> String? {
        guard secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst("whsec_".count))), !key.isEmpty else {
            return nil
        }
        var signed = Data("\(messageID).\(timestamp).".utf8)
        signed.append(contentsOf: body)
        let code = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key))
        return "v1," + Data(code).base64EncodedString()
    }
}
