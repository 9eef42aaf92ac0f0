import Marquee
import MatrixCore

/// A sign fed by a ``Feed``: before each frame, the updates waiting are applied at that
/// frame's time.
public struct FedSign: Timeline {
  let controller: SignController
  let feed: Feed

  package init(controller: SignController, feed: Feed) {
    self.controller = controller
    self.feed = feed
  }
  public var width: Int { controller.width }
  public var height: Int { controller.height }

  public func render(at t: Double, into frame: inout Frame, workspace: inout FrameWorkspace) {
    for (zone, pending) in feed.drain() {
      do {
        if let content = pending.content {
          try controller.replaceContent(content, inZone: zone, at: t, immediately: pending.immediately)
        }
        if let pause = pending.pause {
          if pause { try controller.pause(zone: zone, at: t) } else { try controller.resume(zone: zone, at: t) }
        }
      } catch {
        feed.reports.warning("zone '\(zone)': \(error), update skipped")
      }
    }
    for notice in feed.drainNotices() {
      do {
        if let notification = notice.notification {
          let id = try controller.notify(notification, at: t)
          if notice.wakes, let end = controller.sign.notifications.plan.last(where: { $0.id == id })?.end {
            feed.tap.withLock { $0 }?.wake(forSeconds: end - t)
          }
        } else {
          controller.dismiss(notification: notice.dismiss, at: t)
        }
      } catch {
        feed.reports.warning("notification: \(error), not shown")
      }
    }
    controller.render(at: t, into: &frame, workspace: &workspace)
  }

  public func nextChange(after t: Double) -> Double? {
    controller.nextChange(after: t)
  }
}
