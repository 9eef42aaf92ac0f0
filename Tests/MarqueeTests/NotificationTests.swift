import MatrixCore
import Testing

@testable import Marquee
@testable import TimelineCore

/// Notifications: which shows when (a pure function of the queue and the time), and on a
/// sign, that each shows over its zone or the whole sign and the sign then goes on from
/// where it was.
@Suite struct NotificationTests {
  func note(_ text: String, zone: String? = "main", priority: Int = 0, seconds: Double = 5) -> Notification {
    Notification(zone: zone, content: ZoneContent(messages: [text]), length: .seconds(seconds), priority: priority)
  }

  func stretches(_ queue: NotificationQueue) -> [[Double]] {
    queue.plan.map { [Double($0.id), $0.start, $0.end] }
  }

  @Test func aHigherPriorityInterruptsAndTheInterruptedOneShowsAgainWhole() throws {
    var queue = NotificationQueue()
    let first = queue.add(note("A"), seconds: 5, at: 0)
    let second = queue.add(note("B", priority: 1), seconds: 2, at: 1)
    let a = try #require(first), b = try #require(second)
    #expect(stretches(queue) == [[Double(a), 0, 1], [Double(b), 1, 3], [Double(a), 3, 8]])
    // Equal priorities queue in order of arrival; a lower one waits.
    let added = queue.add(note("C"), seconds: 1, at: 2)
    let c = try #require(added)
    #expect(stretches(queue).last == [Double(c), 8, 9])
    // Dismissed while showing: it ends at once; dismissed while waiting: it never shows.
    queue.dismiss(c, at: 2.5)
    queue.dismiss(b, at: 2.5)
    #expect(stretches(queue) == [[Double(a), 0, 1], [Double(b), 1, 2.5], [Double(a), 2.5, 7.5]])
    let unknown = queue.dismiss(99, at: 3)
    let all = queue.dismiss(nil, at: 4)
    #expect(!unknown && all)
    #expect(queue.isEmpty && stretches(queue).last == [Double(a), 2.5, 4])
    // Targets queue apart: a zone's notification does not wait for another zone's.
    var two = NotificationQueue()
    _ = two.add(note("X", zone: "left"), seconds: 4, at: 0)
    _ = two.add(note("Y", zone: "right"), seconds: 4, at: 1)
    #expect(two.plan.map { [$0.start, $0.end] } == [[0, 4], [1, 5]])
  }

  @Test func theQueueIsBounded() throws {
    var queue = NotificationQueue()
    for index in 0..<NotificationQueue.capacity {
      let id = queue.add(note("\(index)"), seconds: 1, at: 0)
      #expect(id != nil)
    }
    let refused = queue.add(note("one too many"), seconds: 1, at: 0)
    #expect(refused == nil)
  }

  /// Passes that would last past a day (a speed near 0) are refused with the field, not
  /// queued for a time no clock holds.
  @Test func passesLongerThanADayAreRefused() throws {
    var sign = try Sign(width: 32, height: 8, content: ZoneContent(messages: ["Open"]))
    let slow = ZoneContent(messages: ["A long enough message to scroll"], motion: .scroll(.init(speed: 1e-6)))
    #expect(throws: Sign.NotificationError.self) { try sign.notify(Notification(content: slow, length: .passes(100)), at: 0) }
    let one = #expect(throws: Sign.NotificationError.self) { try sign.notify(Notification(content: slow, length: .passes(1)), at: 0) }
    #expect(one.map { "\($0)" }?.hasPrefix("passes: 1 passes of this content last") == true, "\(String(describing: one))")
    #expect(sign.notifications.isEmpty)
    let fine = ZoneContent(messages: ["A long enough message to scroll"], motion: .scroll(.init(speed: 20)))
    #expect(try sign.notify(Notification(content: fine, length: .passes(100)), at: 0) == 1)
  }

  /// A scrolling ticker interrupted for two seconds takes up exactly where it stopped.
  @Test func theZoneGoesOnFromWhereItWas() throws {
    let ticker = ZoneContent(messages: ["A ticker that scrolls on and on"], motion: .scroll(.init(speed: 20)))
    let plain = try Sign(width: 32, height: 8, content: ticker)
    var notified = plain
    _ = try notified.notify(note("No 42", seconds: 2), at: 1)
    let order = try Sign(width: 32, height: 8, content: ZoneContent(messages: ["No 42"])).frame(at: 0)
    for t in stride(from: 0.0, to: 1, by: 0.25) { #expect(notified.frame(at: t).pixels == plain.frame(at: t).pixels) }
    for t in stride(from: 1.0, to: 3, by: 0.25) { #expect(notified.frame(at: t).pixels == order.pixels, "at \(t)") }
    for t in stride(from: 3.0, to: 6, by: 0.25) {
      #expect(notified.frame(at: t).pixels == plain.frame(at: t - 2).pixels, "at \(t)")
    }
    #expect(notified.nextChange(after: 1.5) == 3, "nothing changes under a still notification until it ends")
  }

  /// Over the whole sign: both zones wait under it and go on after.
  @Test func aWholeSignNotificationCoversEveryZone() throws {
    let left = try Zone(name: "left", x: 0, y: 0, width: 16, height: 8, content: ZoneContent(messages: ["Left side scrolling"], motion: .scroll()))
    let right = try Zone(name: "right", x: 16, y: 0, width: 16, height: 8, content: ZoneContent(messages: ["12:00"]))
    let plain = try Sign(width: 32, height: 8, zones: [left, right])
    var notified = plain
    _ = try notified.notify(note("TRAIN", zone: nil, seconds: 1), at: 2)
    let train = try Sign(width: 32, height: 8, content: ZoneContent(messages: ["TRAIN"])).frame(at: 0)
    #expect(notified.frame(at: 2.5).pixels == train.pixels)
    #expect(notified.frame(at: 3.5).pixels == plain.frame(at: 2.5).pixels)
    #expect(throws: Sign.NotificationError.noSuchZone("middle", zones: ["left", "right"])) {
      try notified.notify(note("x", zone: "middle"), at: 4)
    }
  }

  /// Passes of a cycling notification, and effects in and out over the zone's picture.
  @Test func passesAndEntryAndExitEffects() throws {
    let still = ZoneContent(messages: ["Welcome"])
    var sign = try Sign(width: 32, height: 8, content: still)
    let cycling = ZoneContent(messages: ["One", "Two"], motion: .cycle(.init(dwell: 1)))
    let loop = try #require(try Zone(name: "n", x: 0, y: 0, width: 32, height: 8, content: cycling).loopDuration)
    var notification = Notification(zone: "main", content: cycling, length: .passes(2))
    let push = Transition(entry: [ScrollEffect.all[0]], duration: 0.5)
    notification.entering = push
    notification.leaving = push
    _ = try sign.notify(notification, at: 0)
    let stretch = try #require(sign.notifications.plan.first)
    #expect(abs(stretch.end - (2 * loop + 1)) < 1e-9, "two passes and the two effects")
    let welcome = try Sign(width: 32, height: 8, content: still).frame(at: 0).pixels
    let one = try Sign(width: 32, height: 8, content: ZoneContent(messages: ["One"])).frame(at: 0).pixels
    let middle = sign.frame(at: 0.25).pixels
    #expect(middle != welcome && middle != one && !middle.isBlank, "halfway through the entry")
    #expect(sign.frame(at: 0.5).pixels == one)
    #expect(sign.frame(at: stretch.end).pixels == welcome)
    #expect(sign.frame(at: stretch.end - 0.25).pixels != welcome)
  }
}
