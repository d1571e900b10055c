/// The first `limit` elements of a sequence in an order, kept sorted while the sequence is read
/// once: a presence list names 100 of 10,000 users every flush, and sorting all 10,000 for it
/// was a tenth of the server's time during a crowd's arrival (docs/performance.md). Most
/// elements cost one comparison with the current last.
struct FirstInOrder<Element> {
    let limit: Int
    let areInIncreasingOrder: (Element, Element) -> Bool
    /// The first elements offered so far, in order; at most `limit`.
    private(set) var elements: [Element] = []

    init(limit: Int, by areInIncreasingOrder: @escaping (Element, Element) -> Bool) {
        precondition(limit > 0, "a list of none is not a list")
        self.limit = limit
        self.areInIncreasingOrder = areInIncreasingOrder
        elements.reserveCapacity(limit)
    }

    mutating func offer(_ element: Element) {
        if elements.count == limit {
            guard areInIncreasingOrder(element, elements[limit - 1]) else { return }
            elements.removeLast()
        }
        // After every element it does not come before: equal ones keep the order offered.
        var low = 0, high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if areInIncreasingOrder(element, elements[middle]) { high = middle } else { low = middle + 1 }
        }
        elements.insert(element, at: low)
    }
}
