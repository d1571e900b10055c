import BoardCore
import Foundation
import PropertyBased
import TestSupport
import Testing

@Suite struct OrderKeyTests {
    @Test func aKeyBetweenTwoKeysSortsStrictlyBetweenThem() async {
        await propertyCheck(count: 1_000, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            // Build two keys by random insertions so they have realistic shapes.
            var keys: [OrderKey] = [OrderKey.between(nil, nil)]
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                let index = Int.random(in: 0...keys.count, using: &rng)
                let lower = index > 0 ? keys[index - 1] : nil
                let upper = index < keys.count ? keys[index] : nil
                let key = OrderKey.between(lower, upper)
                if let lower { #expect(lower < key) }
                if let upper { #expect(key < upper) }
                #expect(OrderKey(key.rawValue) != nil, "a generated key is a valid key")
                #expect(key.isCanonical, "a generated key has the server's form")
                keys.insert(key, at: index)
            }
            #expect(keys == keys.sorted())
            #expect(Set(keys).count == keys.count)
        }
    }

    /// The integer part grows with the logarithm of the count: the bug this replaces added a
    /// character every six prepends, past the 128-character limit after about 800.
    @Test func prependingOrAppendingAHundredThousandTimesKeepsKeysAtFourCharacters() {
        var first = OrderKey.between(nil, nil)
        var last = first
        for _ in 0..<100_000 {
            let before = OrderKey.between(nil, first)
            let after = OrderKey.between(last, nil)
            #expect(before < first && last < after)
            first = before
            last = after
        }
        #expect(first.rawValue.count <= 4, "first key after 100,000 prepends: \(first)")
        #expect(last.rawValue.count <= 4, "last key after 100,000 appends: \(last)")
    }

    @Test func aSequenceIsAscendingCanonicalAndShort() {
        let keys = OrderKey.sequence(count: 10_000)
        #expect(keys == keys.sorted())
        #expect(Set(keys).count == keys.count)
        #expect(keys.allSatisfy { $0.isCanonical })
        #expect(keys.map(\.rawValue.count).max() == 4)
        #expect(keys.prefix(3).map(\.rawValue) == ["a0", "a1", "a2"])
    }

    @Test(arguments: [
        ("a0", true), ("a0V", true), ("Zz", true), ("b00", true), ("zzzz", false), ("a", false), ("a00", false),
        ("V", false), ("Vk", false), ("", false), ("a0-", false), ("A" + String(repeating: "0", count: 26), false),
        ("a0" + String(repeating: "V", count: 127), false),
    ])
    func canonicalKeysHaveAnIntegerPartAndAFractionNotEndingInZero(_ text: String, _ canonical: Bool) {
        #expect(OrderKey(stored: text).isCanonical == canonical)
    }

    @Test(arguments: ["", "0", "A0", "a b", "ü", String(repeating: "z", count: 129)])
    func invalidKeysAreRefused(_ text: String) {
        #expect(OrderKey(text) == nil)
    }

    /// The table the browser's order.js is tested against too: client and server make the same keys.
    @Test func keysMatchTheSharedTable() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/order-keys.json")
        let rows = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [[String: Any]]
        #expect(rows.count > 10)
        for row in rows {
            let lower = (row["lower"] as? String).map { OrderKey(stored: $0) }
            let upper = (row["upper"] as? String).map { OrderKey(stored: $0) }
            #expect(OrderKey.between(lower, upper).rawValue == row["between"] as? String, "\(row)")
        }
    }

    @Test func digitsSortInByteOrder() {
        #expect(OrderKey.digits == OrderKey.digits.sorted())
    }
}
