import Testing
import TimerBoardConcurrency

/// "Drain a queue, then end" as bookkeeping: who starts the task, when the producer pauses and
/// resumes, and that a task ends only on an empty batch.
@Suite struct DrainQueueTests {
    @Test func theFirstItemStartsATaskAndItemsQueuedMeanwhileGoInTheNextBatch() {
        var queue = DrainQueue<Int>()
        #expect(queue.append(1) == (startTask: true, keepProducing: true))
        #expect(queue.append(2) == (startTask: false, keepProducing: true), "a task is already at work")
        #expect(queue.takeBatch().batch == [1, 2])
        #expect(queue.append(3).startTask == false, "the task is still at work until it takes an empty batch")
        #expect(queue.takeBatch().batch == [3])
        #expect(queue.takeBatch().batch == [] && !queue.isBusy, "an empty batch ends the task")
        #expect(queue.append(4).startTask, "the next item starts another")
    }

    @Test func theProducerPausesAtTheLimitAndResumesWhenABatchIsTaken() {
        var queue = DrainQueue<Int>()
        #expect(queue.append(1, pauseAt: 2).keepProducing)
        #expect(queue.append(2, pauseAt: 2).keepProducing == false)
        let (batch, resume) = queue.takeBatch()
        #expect(batch == [1, 2] && resume)
        #expect(queue.takeBatch().resumeProducer == false, "told to resume once")
    }

    @Test func discardingForgetsWhatWaitsButNotTheTaskAtWork() {
        var queue = DrainQueue<Int>()
        _ = queue.append(1)
        _ = queue.append(2)
        #expect(queue.discardWaiting() == [1, 2])
        #expect(queue.isBusy && queue.takeBatch().batch == [])
    }
}
