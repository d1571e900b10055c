/// Running timers that are due, earliest deadline first (a binary min-heap): a catch-up takes
/// the next instant from here instead of scanning the whole board for it at every hand-over.
///
/// Entries are not removed when a timer changes; whoever pops one checks that the timer still
/// has that deadline, so a stale or repeated entry costs one lookup.
struct DeadlineQueue {
    struct Entry: Comparable {
        let deadline: Int64
        let id: EntityID

        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.deadline, lhs.id) < (rhs.deadline, rhs.id) }
    }

    private var heap: [Entry] = []

    var first: Entry? { heap.first }

    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left] < heap[smallest] { smallest = left }
            if right < heap.count, heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
