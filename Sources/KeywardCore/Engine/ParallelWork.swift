import Foundation

/// Runs work items on a fixed number of threads with large stacks (deeply nested code makes
/// deep syntax trees, and visitors recurse).
///
/// With a time limit, an item that runs longer is given up: its result becomes
/// `onTimeout(index)`, a fresh thread takes over the remaining items, and the stuck thread is left
/// to finish (or die with the process) without its result being used. Nothing can stop a thread
/// from outside, so this is the only way one pathological file cannot stall a whole scan.
public enum ParallelWork {
  public static let stackSize = 64 * 1024 * 1024

  public static func map<T: Sendable>(
    count: Int, jobs: Int, timeLimit: Double? = nil,
    onTimeout: @escaping @Sendable (Int) -> T = { _ in
      fatalError("a time limit needs onTimeout")
    },
    _ body: @escaping @Sendable (Int) -> T
  ) -> [T] {
    guard count > 0 else { return [] }
    let workers = max(1, min(jobs > 0 ? jobs : ProcessInfo.processInfo.activeProcessorCount, count))
    let state = SharedState<T>(count: count)
    for _ in 0..<workers { startWorker(state, body) }
    while !state.waitUntilDone(pollingEvery: timeLimit == nil ? nil : min(0.05, timeLimit! / 4)) {
      guard let timeLimit else { continue }
      for index in state.giveUpItems(runningLongerThan: timeLimit) {
        if state.store(onTimeout(index), at: index) { startWorker(state, body) }
      }
    }
    return state.results()
  }

  /// `map` over items that are still being listed: `list` runs on this thread and calls `add`
  /// once for each new item (numbered from 0 in the order added), while the workers already
  /// work through those added so far. For a scan, listing the files overlaps reading them.
  public static func mapWhileListing<T: Sendable>(
    jobs: Int, timeLimit: Double? = nil,
    onTimeout: @escaping @Sendable (Int) -> T = { _ in
      fatalError("a time limit needs onTimeout")
    },
    list: (_ add: @escaping () -> Void) -> Void,
    _ body: @escaping @Sendable (Int) -> T
  ) -> [T] {
    let workers = max(1, jobs > 0 ? jobs : ProcessInfo.processInfo.activeProcessorCount)
    let state = SharedState<T>(count: 0, listing: true)
    for _ in 0..<workers { startWorker(state, body) }
    list { state.add() }
    state.finishListing()
    while !state.waitUntilDone(pollingEvery: timeLimit == nil ? nil : min(0.05, timeLimit! / 4)) {
      guard let timeLimit else { continue }
      for index in state.giveUpItems(runningLongerThan: timeLimit) {
        if state.store(onTimeout(index), at: index) { startWorker(state, body) }
      }
    }
    return state.results()
  }

  private static func startWorker<T>(_ state: SharedState<T>, _ body: @escaping @Sendable (Int) -> T) {
    let thread = Thread {
      while let index = state.nextIndex() {
        let result = body(index)
        // An item given up on already has its result, and a replacement thread took over.
        guard state.store(result, at: index) else { return }
      }
    }
    thread.stackSize = stackSize
    thread.start()
  }

  private final class SharedState<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private var filled = 0
    private var count: Int
    private var slots: [T?]
    /// When each running item started, by index.
    private var started: [Int: Date] = [:]
    /// Whether more items may still be added (`mapWhileListing`).
    private var listing: Bool
    /// Workers waiting for an item to be added.
    private var waiting = 0

    init(count: Int, listing: Bool = false) {
      self.count = count
      self.slots = Array(repeating: nil, count: count)
      self.listing = listing
    }

    func add() {
      condition.lock()
      defer { condition.unlock() }
      count += 1
      slots.append(nil)
      if waiting > 0 { condition.signal() }
    }

    func finishListing() {
      condition.lock()
      defer { condition.unlock() }
      listing = false
      condition.broadcast()
    }

    func nextIndex() -> Int? {
      condition.lock()
      defer { condition.unlock() }
      while next >= count && listing {
        waiting += 1
        condition.wait()
        waiting -= 1
      }
      guard next < count else { return nil }
      next += 1
      started[next - 1] = Date()
      return next - 1
    }

    /// Stores a result unless the slot is already filled; returns whether it was stored.
    @discardableResult
    func store(_ value: T, at index: Int) -> Bool {
      condition.lock()
      defer { condition.unlock() }
      guard slots[index] == nil else { return false }
      slots[index] = value
      started[index] = nil
      filled += 1
      // Only the waiter for the whole batch listens; waking it per item costs a context switch
      // per file on cores the workers need (with a time limit it polls anyway).
      if filled == count && !listing { condition.broadcast() }
      return true
    }

    /// Waits until every slot is filled (true) or the polling interval passes (false).
    func waitUntilDone(pollingEvery interval: Double?) -> Bool {
      condition.lock()
      defer { condition.unlock() }
      if filled < count || listing {
        if let interval {
          condition.wait(until: Date(timeIntervalSinceNow: interval))
        } else {
          condition.wait()
        }
      }
      return filled == count && !listing
    }

    func giveUpItems(runningLongerThan limit: Double) -> [Int] {
      condition.lock()
      defer { condition.unlock() }
      let now = Date()
      let overdue = started.filter { now.timeIntervalSince($0.value) > limit }.map(\.key).sorted()
      for index in overdue { started[index] = nil }
      return overdue
    }

    func results() -> [T] {
      condition.lock()
      defer { condition.unlock() }
      return slots.map { $0! }
    }
  }
}
