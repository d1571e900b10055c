import BoardStore
import Foundation
import Testing

@testable import TimerBoardServer

/// The plain parts of webhooks: which URLs and addresses are accepted, the signature, the
/// payload's timestamp and the retry schedule.
@Suite struct WebhookPartsTests {
    @Test(arguments: [
        ("https://hooks.example.com/in?x=1", "hooks.example.com", 443),
        ("HTTP://Hooks.Example.com:8080/", "hooks.example.com", 8080),
        ("http://[2001:db8::1]:81/p", "2001:db8::1", 81),
        ("http://127.0.0.1/", "127.0.0.1", 80),
    ])
    func aURLIsReadForItsHostAndPort(_ text: String, _ host: String, _ port: Int) throws {
        let url = try WebhookURL(text)
        #expect(url.host == host && url.port == port)
    }

    @Test(arguments: [
        ("ftp://example.com/", "http or https"),
        ("https://user:secret@example.com/", "user name or password"),
        ("https://user@example.com/", "user name or password"),
        ("https://example.com/#fragment", "fragment"),
        ("/relative/path", "absolute"),
        ("https:///nohost", "host"),
        ("https://example.com/a b", "spaces"),
        ("https://example.com:0/", "port"),
        ("https://example.com/" + String(repeating: "x", count: 2_030), "2048 bytes"),
    ])
    func aBadURLIsRefusedSayingWhy(_ text: String, _ why: String) {
        #expect { try WebhookURL(text) } throws: { ($0 as? WebhookURL.Problem)?.description.contains(why) == true }
    }

    @Test func aPlainHTTPSendIsPinnedToTheCheckedAddressAndKeepsItsHostHeader() throws {
        let url = try WebhookURL("http://hooks.example:8080/in?x=1")
        #expect(url.pinned(to: IPAddress("192.0.2.7")!) == "http://192.0.2.7:8080/in?x=1")
        #expect(url.pinned(to: IPAddress("2001:db8::7")!) == "http://[2001:db8:0:0:0:0:0:7]:8080/in?x=1")
        #expect(url.hostHeader == "hooks.example:8080")
        #expect(try WebhookURL("https://hooks.example/").hostHeader == "hooks.example")
    }

    @Test(arguments: [
        "127.0.0.1", "127.255.0.1", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.0.1", "169.254.169.254", "100.64.0.1",
        "0.0.0.0", "224.0.0.251", "239.255.255.250", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1",
        "ff02::1", "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::10.1.2.3", "64:ff9b::a00:1", "2002:c0a8:101::1", "2001:db8::1",
    ])
    func addressesInsideTheServersNetworkAreRefused(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(WebhookAddressPolicy.refusal(for: address) != nil)
    }

    @Test(arguments: [
        "93.184.215.14", "8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:1.1.1.1", "64:ff9b::808:808",
    ])
    func addressesOnTheInternetAreAccepted(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(WebhookAddressPolicy.refusal(for: address) == nil)
    }

    @Test func aNameIsResolvedAndEveryAddressChecked() async throws {
        let local = try WebhookURL("http://localhost:9/")
        guard case .failure(let problem) = await WebhookTarget.check(local, allowPrivate: false) else {
            Issue.record("localhost was accepted")
            return
        }
        #expect(problem.description.contains("loopback"))
        let addresses = try await WebhookTarget.resolve("localhost", port: 9)
        #expect(addresses.contains(IPAddress("127.0.0.1")!) || addresses.contains(IPAddress("::1")!))
        guard case .success = await WebhookTarget.check(local, allowPrivate: true) else {
            Issue.record("the operator allowed private targets")
            return
        }
    }

    /// The example of Standard Webhooks' specification, which its libraries are tested with.
    @Test func theSignatureIsStandardWebhooks() {
        let signature = WebhookSignature.sign(
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            messageID: "msg_p5jXN8AQM9LWM0D4loKWxJek",
            timestamp: 1_614_265_330,
            body: Array(#"{"test": 2432232314}"#.utf8)
        )
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(WebhookSignature.sign(secret: "not-a-secret", messageID: "m", timestamp: 1, body: []) == nil)
    }

    @Test func aMintedSecretIsTwentyFourRandomBytes() throws {
        let secret = WebhookIDs.secret()
        let key = try #require(Data(base64Encoded: String(secret.dropFirst("whsec_".count))))
        #expect(secret.hasPrefix("whsec_") && key.count == 24 && secret != WebhookIDs.secret())
        #expect(WebhookIDs.endpoint().count == 19 && WebhookIDs.message().count == 28)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_763_740_805_250, "2025-11-21T16:00:05.250Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (4_102_444_799_999, "2099-12-31T23:59:59.999Z"),
    ])
    func timestampsAreISO8601InUTC(_ milliseconds: Int64, _ text: String) {
        #expect(WebhookTimestamp.iso8601(milliseconds: milliseconds) == text)
    }

    @Test func retriesFollowTheScheduleThenTheDeliveryFailsAndALongFailureDisables() {
        let policy = WebhookRetryPolicy(schedule: WebhookRetryPolicy.standardSchedule, disableAfter: 86_400_000)
        var now: Int64 = 0
        var outcomes: [WebhookAttemptOutcome] = []
        for attempts in 0...7 {
            let outcome = policy.outcome(succeeded: false, attemptsBefore: attempts, now: now)
            outcomes.append(outcome)
            if case .retry(let at) = outcome { now = at }
        }
        #expect(outcomes.last == .failed && outcomes.count == 8)
        #expect(now == 99_305_000, "5 s + 5 min + 30 min + 2 h + 5 h + 10 h + 10 h: about a day")
        #expect(policy.outcome(succeeded: true, attemptsBefore: 3, now: 5) == .delivered)
        #expect(!policy.disables(failingSince: 0, now: 86_399_999) && policy.disables(failingSince: 0, now: 86_400_000))
    }
}
