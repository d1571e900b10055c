import Testing

@testable import TimerBoardServer

@Suite struct SharedEditBudgetsTests {
    @Test func manyAddressesShareOneBoardsBudgetAndAnotherBoardHasItsOwn() {
        let budgets = SharedEditBudgets(addressEditsPerSecond: 100, addressBurst: 100, boardEditsPerSecond: 1, boardBurst: 4)
        let admitted = (0..<8).filter { budgets.takeEdit(address: "10.0.0.\($0)", board: "busy", now: 0) == nil }
        #expect(admitted.count == 4)
        #expect(budgets.takeEdit(address: "10.0.0.9", board: "busy", now: 0) == 1_000)
        #expect(budgets.takeEdit(address: "10.0.0.9", board: "quiet", now: 0) == nil)
        #expect(budgets.takeEdit(address: "10.0.0.9", board: "busy", now: 1_000) == nil)
    }

    @Test func joinsTakeNothingOfABoardsBudget() {
        let budgets = SharedEditBudgets(addressEditsPerSecond: 100, addressBurst: 100, boardEditsPerSecond: 1, boardBurst: 1)
        #expect((0..<50).allSatisfy { budgets.takeJoin(address: "10.0.0.\($0)", now: 0) == nil })
        #expect(budgets.takeEdit(address: "10.0.0.1", board: "b", now: 0) == nil)
    }

    @Test func anAddressOverItsOwnBudgetSpendsNothingOfTheBoards() {
        let budgets = SharedEditBudgets(addressEditsPerSecond: 1, addressBurst: 1, boardEditsPerSecond: 1, boardBurst: 2)
        #expect(budgets.takeEdit(address: "greedy", board: "b", now: 0) == nil)
        #expect((0..<10).allSatisfy { _ in budgets.takeEdit(address: "greedy", board: "b", now: 0) != nil })
        #expect(budgets.takeEdit(address: "polite", board: "b", now: 0) == nil)
    }

    @Test func anEditTheBoardRefusesLeavesTheAddressItsToken() {
        let budgets = SharedEditBudgets(addressEditsPerSecond: 1, addressBurst: 2, boardEditsPerSecond: 1, boardBurst: 1)
        #expect(budgets.takeEdit(address: "a", board: "busy", now: 0) == nil)
        // Refused by the board, again and again: the address spends nothing on them.
        #expect((0..<5).allSatisfy { _ in budgets.takeEdit(address: "a", board: "busy", now: 0) == 1_000 })
        #expect(budgets.takeEdit(address: "a", board: "quiet", now: 0) == nil)
    }
}
