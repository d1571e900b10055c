import PropertyBased
import TestSupport
import Testing

@testable import TimerBoardServer

@Suite struct FirstInOrderTests {
    /// Whatever the input (ties, already sorted, reversed), it keeps what a stable sort's
    /// prefix would: the same elements, in the same order.
    @Test func keepsWhatSortingEverythingWouldKeep() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededGenerator(seed: seed)
            let limit = Int.random(in: 1...12, using: &rng)
            let count = Int.random(in: 0...40, using: &rng)
            let keys = (0..<count).map { _ in Int.random(in: 0...8, using: &rng) }
            var elements = Array(keys.enumerated()).map { (key: $0.element, offered: $0.offset) }
            switch Int.random(in: 0...2, using: &rng) {
            case 0: elements.sort { $0.key < $1.key }
            case 1: elements.sort { $0.key > $1.key }
            default: break
            }
            var first = FirstInOrder<(key: Int, offered: Int)>(limit: limit) { $0.key < $1.key }
            for element in elements { first.offer(element) }
            let expected = elements.enumerated()
                .sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
                .prefix(limit).map(\.element)
            #expect(first.elements.map(\.offered) == expected.map(\.offered), "seed \(seed)")
        }
    }
}
