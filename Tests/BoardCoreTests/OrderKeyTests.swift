import BoardCore
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
                keys.insert(key, at: index)
            }
            #expect(keys == keys.sorted())
            #expect(Set(keys).count == keys.count)
        }
    }

    @Test func insertingAtTheFrontAThousandTimesKeepsKeysShort() {
        var first = OrderKey.between(nil, nil)
        for _ in 0..<1_000 {
            let key = OrderKey.between(nil, first)
            #expect(key < first)
            first = key
        }
        // Each new front key halves the gap; a character of base 62 holds about six halvings.
        #expect(first.rawValue.count < 200)
    }

    @Test(arguments: ["", "0", "A0", "a b", "ü", String(repeating: "z", count: 129)])
    func invalidKeysAreRefused(_ text: String) {
        #expect(OrderKey(text) == nil)
    }

    @Test func digitsSortInByteOrder() {
        #expect(OrderKey.digits == OrderKey.digits.sorted())
    }
}
