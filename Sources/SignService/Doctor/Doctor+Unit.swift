import Drivers
import Platform

extension Doctor {
  /// The installed unit (`/etc/systemd/system/marquee.service`) against the board: the
  /// device nodes its `DevicePolicy` lets through, the real-time priority the refresh takes,
  /// and the groups of the nodes. `nil` without a panel board that needs them, or without
  /// the unit.
  func unit() -> Finding? {
    guard let board, let text = text("/etc/systemd/system/marquee.service") else { return nil }
    let gpioDevice = (try? pi.get())?.gpioDevice ?? "/dev/gpiomem"
    let needs: (nodes: [(allow: [String], node: String)], group: String)
    if let hub75 = board.family as? HUB75Board {
      let node = hub75.device ?? gpioDevice
      needs = ([([node], node)], "gpio")
    } else if let hub12 = board.family as? HUB12Board {
      let chips = Set(hub12.lines.values.map(\.chip)).sorted()
      needs = ([(["char-spi", hub12.device], hub12.device)] + chips.map { (["char-gpiochip", $0], $0) }, "gpio")
    } else {
      return nil
    }
    // Each setting's values, in order (a key may come more than once).
    var settings: [String: [String]] = [:]
    for line in text.split(separator: "\n") {
      let trimmed = line.trimmingWhitespace
      guard !trimmed.hasPrefix("#"), !trimmed.hasPrefix(";"), let equals = trimmed.firstIndex(of: "=") else { continue }
      settings[String(trimmed[..<equals]).trimmingWhitespace, default: []].append(String(trimmed[trimmed.index(after: equals)...]).trimmingWhitespace)
    }
    var missing: [String] = []
    let policy = settings["DevicePolicy"]?.last ?? "auto"
    if policy == "closed" || policy == "strict" {
      let allowed = (settings["DeviceAllow"] ?? []).compactMap { $0.split(separator: " ").first.map(String.init) }
      for need in needs.nodes where !need.allow.contains(where: allowed.contains) { missing.append("DeviceAllow=\(need.node) rw") }
    }
    let priority = settings["LimitRTPRIO"]?.last
    if priority != "infinity" && (priority.flatMap { Int($0) } ?? 0) < 10 { missing.append("LimitRTPRIO=10") }
    if settings["RestrictRealtime"]?.last == "yes" { missing.append("RestrictRealtime=no") }
    let user = settings["User"]?.last ?? "root"
    let groups = (settings["SupplementaryGroups"] ?? []).flatMap { $0.split(separator: " ").map(String.init) }
    if user != "root" && !groups.contains(needs.group) { missing.append("SupplementaryGroups=\(needs.group)") }
    guard missing.isEmpty else {
      return Finding(
        check: "unit", verdict: .problem, found: "marquee.service lacks \(missing.joined(separator: ", "))",
        why: "under the unit the sign cannot open the panel's device nodes or take real-time priority",
        fix: "add " + missing.joined(separator: " and ") + " to /etc/systemd/system/marquee.service, then sudo systemctl daemon-reload && sudo systemctl restart marquee")
    }
    return Finding(check: "unit", verdict: .ok, found: "marquee.service lets the panel's device nodes through and gives real-time priority")
  }
}
