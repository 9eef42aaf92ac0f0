import HTTP
import Marquee
import SimpleJSON
import SignService

/// Notifications over the API: `POST /api/notify` shows one over a zone or the whole sign,
/// `GET /api/notify` lists those waiting and showing, `DELETE /api/notify[/ID]` dismisses.
extension SignAPI {
  /// `POST /api/notify`: `{"messages": ["Order 42 ready"], "duration": 5}` or `"passes": 2`,
  /// with an optional `zone` (none: the whole sign), `priority`, `in` and `out` effects and
  /// `wake` (light the sign in an off period while it shows). Checked whole; nothing is
  /// queued when it fails.
  func notify(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      guard let controller else { throw HTTPRequestError(status: 404, message: "this sign takes no notifications") }
      let fields = try body(request)
      if let valueFilters { try LiveValues.checkTopics(in: fields.value, allowed: valueFilters) }
      let (notification, wakes) = try feed.notification(fields)
      let id: Int
      do {
        id = try controller.notify(notification)
      } catch let error as Sign.NotificationError {
        throw HTTPRequestError(status: error == .full ? 503 : 400, message: error.description)
      }
      if wakes, let end = controller.sign.notifications.plan.last(where: { $0.id == id })?.end {
        frames.wake(forSeconds: end - controller.currentTime)
      }
      changed()
      stop.wake()
      return .json(.object([("id", .number(Double(id))), ("notifications", notifications())]))
    }
  }

  /// The notifications waiting and showing, in the order they came.
  func notifications() -> JSONValue {
    guard let controller else { return .array([]) }
    let sign = controller.sign
    let now = controller.currentTime
    let plan = sign.notifications.plan
    // Those still to show or showing (one that ended is forgotten at the next change).
    let live = sign.notifications.notifications.filter { notification in plan.contains { $0.id == notification.id && $0.end > now } }
    return .array(live.map { notification in
      let showing = plan.contains { $0.id == notification.id && $0.start <= now && now < $0.end }
      let length: (String, JSONValue)
      switch notification.length {
      case .seconds(let seconds): length = ("duration", .number(seconds))
      case .passes(let passes): length = ("passes", .number(Double(passes)))
      }
      func effects(_ transition: Transition?) -> JSONValue { transition.map { .string($0.entry.map(\.name).joined(separator: "+")) } ?? .null }
      return .object([
        ("id", .number(Double(notification.id))), ("zone", notification.zone.map { .string($0) } ?? .null),
        ("messages", .array(notification.content.messages.map { .string($0) })), length,
        ("priority", .number(Double(notification.priority))), ("in", effects(notification.entering)),
        ("out", effects(notification.leaving)), ("showing", .bool(showing)),
      ])
    })
  }

  /// `DELETE /api/notify` (every one) and `DELETE /api/notify/ID`.
  func dismiss(_ request: HTTPRequest) -> HTTPResponse {
    answering {
      guard let controller else { throw HTTPRequestError(status: 404, message: "this sign takes no notifications") }
      var id: Int?
      if request.path != "/api/notify" {
        let text = request.path.dropFirst("/api/notify/".count)
        guard let number = Int(text) else { throw HTTPRequestError(status: 404, message: "no notification '\(text)'") }
        id = number
      }
      guard controller.dismiss(notification: id) || id == nil else {
        throw HTTPRequestError(status: 404, message: "no notification \(id!) is waiting or showing")
      }
      changed()
      stop.wake()
      return .json(.object([("notifications", notifications())]))
    }
  }
}
