import SignService
import SimpleJSON

extension MQTTBridge {
  /// What wins when the sign's own topics and its groups' (`--mqtt-group`) disagree, so
  /// that the outcome depends on what each source last said, never on the order the broker
  /// delivers it (a reconnect hands the retained messages again, in any order):
  ///
  /// - **Content** (`content`, `message`): each source's documents are merged (later fields
  ///   over earlier ones, zone by zone); the sign shows the groups' content in the order the
  ///   groups are listed, each over the one before, with its own on top. A field the sign's
  ///   own topic sets is never overridden by a group; a field only a group sets is the
  ///   group's. With no group, a content document is applied as it comes.
  /// - **Settings** (`brightness`, `pause`, `power`, `program`): once the sign's own topic
  ///   has given one (since it started, or retained), the groups' are not taken; until
  ///   then the newest wins.
  /// - **Refusals** leave every layer as it was: a command is made from a copy of the
  ///   layers, and the copy is kept only when the sign takes the command.
  /// - **Notifications and dismissals** are events: every one plays (or ends), from any
  ///   source, queued by the notification queue's rules. A notification a group left
  ///   retained is not played again at a reconnect (a notice is news once).
  struct Layers {
    /// One source's content: each zone's fields so far ("" for the first zone), in the order
    /// the zones first came.
    struct Content: Equatable {
      var zones: [String] = []
      var fields: [String: JSONValue] = [:]
    }

    /// Each source's content so far (nil: the sign's own; else a group's index), as the sign
    /// took it.
    var content: [Int?: Content] = [:]
    /// The settings the sign's own topics have given, by kind.
    var ownSettings: Set<String> = []
    /// How many groups there are.
    var groupCount = 0

    /// The command to perform for `command` from `source` with these layers, which take
    /// it; nil when the sign's own topic overrides it (or it is a stale notice). The bridge
    /// calls it on a copy and keeps the copy only if the sign accepts the command.
    mutating func take(_ command: SignCommand, from source: Int?, retained: Bool) -> SignCommand? {
      switch command {
      case .content(let document, let replacing):
        guard groupCount > 0, let zones = Layers.zoneDocuments(document) else { return command }
        var layer = content[source] ?? Content()
        for (zone, fields) in zones {
          if layer.fields[zone] == nil { layer.zones.append(zone) }
          layer.fields[zone] = Layers.merge(layer.fields[zone], fields)
        }
        content[source] = layer
        return .content(merged(), replacing: replacing)
      case .notify:
        return source != nil && retained ? nil : command
      case .dismiss:
        return command
      default:
        if source == nil {
          ownSettings.insert(command.kind)
          return command
        }
        return ownSettings.contains(command.kind) ? nil : command
      }
    }

    /// Two content documents of one source as one (`newer` over `older`, zone by zone), or
    /// nil when either is not of the forms the API takes or together they name more zones
    /// than any sign has: then they wait apart.
    static func combined(_ older: JSONValue, _ newer: JSONValue) -> JSONValue? {
      guard let first = zoneDocuments(older), let second = zoneDocuments(newer) else { return nil }
      var layer = Content()
      for (zone, fields) in first + second {
        if layer.fields[zone] == nil { layer.zones.append(zone) }
        layer.fields[zone] = merge(layer.fields[zone], fields)
      }
      guard layer.zones.count <= 32 else { return nil }
      return Layers(content: [nil: layer]).merged()
    }

    /// Every zone any source has content for: the groups' fields in their order, the sign's
    /// own over them, as one `{"zones": [...]}` document.
    func merged() -> JSONValue {
      var order: [String] = []
      var fields: [String: JSONValue] = [:]
      for source in (0..<groupCount).map(Int?.some) + [nil] {
        guard let layer = content[source] else { continue }
        for zone in layer.zones {
          if fields[zone] == nil { order.append(zone) }
          fields[zone] = Layers.merge(fields[zone], layer.fields[zone]!)
        }
      }
      return .object([("zones", .array(order.map { zone in
        guard case .object(let members) = fields[zone]! else { return fields[zone]! }
        return .object((zone.isEmpty ? [] : [("zone", .string(zone))]) + members)
      }))])
    }

    /// A content document as its zones' fields ("" for the first zone), or nil when it is
    /// not an object of the forms the API takes (the sign refuses it as it is).
    static func zoneDocuments(_ document: JSONValue) -> [(zone: String, fields: JSONValue)]? {
      func split(_ value: JSONValue) -> (String, JSONValue)? {
        guard case .object(let members) = value else { return nil }
        var zone = ""
        if let named = members.first(where: { $0.key == "zone" }) {
          guard case .string(let name) = named.value else { return nil }
          zone = name
        }
        // `message` is one of the `messages`: written so, a later spelling of either
        // replaces an earlier one, whatever the source.
        let fields = members.filter { $0.key != "zone" }.map { member in
          member.key == "message" ? (key: "messages", value: JSONValue.array([member.value])) : member
        }
        return (zone, .object(fields))
      }
      guard case .object(let members) = document else { return nil }
      if let zones = members.first(where: { $0.key == "zones" }) {
        guard members.count == 1, case .array(let items) = zones.value else { return nil }
        var documents: [(zone: String, fields: JSONValue)] = []
        for item in items {
          guard let (zone, fields) = split(item) else { return nil }
          documents.append((zone, fields))
        }
        return documents
      }
      return split(document).map { [($0.0, $0.1)] }
    }

    /// `top` over `base`: objects merged member by member (recursively), anything else
    /// replaced.
    static func merge(_ base: JSONValue?, _ top: JSONValue) -> JSONValue {
      guard case .object(let over) = top, case .object(var members)? = base else { return top }
      for (key, value) in over {
        if let index = members.firstIndex(where: { $0.key == key }) {
          members[index].value = merge(members[index].value, value)
        } else {
          members.append((key, value))
        }
      }
      return .object(members)
    }
  }
}
