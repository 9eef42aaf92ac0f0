import SimpleJSON

/// A change to a running sign, as every front end asks for it: the page and the API, MQTT,
/// a feed, the command line. ``SignSession/perform(_:from:)`` checks it whole, keeps it on
/// disk when it is a person's change, applies it at the next frame and answers.
public enum SignCommand: Sendable, Equatable {
  /// Zones' content and options: one content document or `{"zones": [document, …]}`;
  /// `replacing` starts each zone from its starting options (`PUT`), else merges (`PATCH`).
  case content(JSONValue, replacing: Bool)
  /// Pauses (`true`) or resumes one zone, or every zone (nil).
  case pause(zone: String?, Bool)
  /// The full brightness, in 16 steps (0...15) of the board's own.
  case brightness(Int)
  /// Turns the sign off (dark until turned on) or on (which also wakes it from an off
  /// period of the schedule until that period ends).
  case power(on: Bool)
  /// A notification document (`{"messages": […], "duration": 5}`).
  case notify(JSONValue)
  /// Ends one notification, or every one (nil).
  case dismiss(id: Int?)
  /// Plays a program now, until its stretch ends; nil goes back to the schedule.
  case chooseProgram(String?)
  /// The whole list of programs, as the config writes them.
  case programs([JSONValue])
  /// One program, created or replaced in its place.
  case putProgram(name: String, JSONValue)
  /// Removes a program.
  case deleteProgram(String)
  /// The brightness schedule and off periods, `{"brightness": […], "off": […]}`.
  case schedule(JSONValue)
  /// The live data sources, as the config writes them (`http://` and `https://` only):
  /// they replace the config's.
  case sources([JSONValue])
  /// The config read again (SIGHUP): what was changed over the API goes.
  case reload

  /// The commands that replace one another while they wait (the newest of each counts):
  /// every kind but notifications and dismissals, which queue.
  public var coalesces: Bool {
    switch self {
    case .notify, .dismiss: false
    default: true
    }
  }

  /// The documents the command carries, each with the field path its refusals name
  /// (`programs[2]`, `zones[0]`): every way content enters a sign, for the rules that apply
  /// to content whatever its route (``SignSession`` checks the topics a source may read here).
  public var documents: [(path: String, value: JSONValue)] {
    switch self {
    case .content(let document, _), .notify(let document), .putProgram(_, let document): [("", document)]
    case .programs(let list): list.enumerated().map { ("programs[\($0.offset)]", $0.element) }
    case .schedule(let document): [("", document)]
    case .pause, .brightness, .power, .dismiss, .chooseProgram, .deleteProgram, .sources, .reload: []
    }
  }

  /// The name of the command's kind (what a waiting command of the same kind replaces).
  public var kind: String {
    switch self {
    case .content: "content"
    case .pause: "pause"
    case .brightness: "brightness"
    case .power: "power"
    case .notify: "notify"
    case .dismiss: "dismiss"
    case .chooseProgram: "program"
    case .programs, .putProgram, .deleteProgram: "programs"
    case .schedule: "schedule"
    case .sources: "sources"
    case .reload: "reload"
    }
  }
}

/// Who sent a command: whether it is a person's change to keep, and which topics its
/// placeholders may read.
public struct CommandSource: Sendable, Equatable {
  /// A person's change: kept in the state file before it is answered.
  public var keeps: Bool
  /// The topic filters placeholders in its content may read (`{mqtt:TOPIC}`); nil: any.
  public var valueFilters: [String]?

  public init(keeps: Bool = true, valueFilters: [String]? = nil) {
    self.keeps = keeps
    self.valueFilters = valueFilters
  }

  /// A person, trusted to name any topic (a token holder, the command line).
  public static let person = CommandSource()
}

/// What a command did, for the front end to show.
public enum SignAnswer: Sendable, Equatable {
  /// The sign's state changed; for content, whether the change is kept and until when
  /// (nil: until it is changed again).
  case changed(kept: Bool?, until: Double?)
  /// A notification was queued with this number.
  case notified(id: Int)
  /// Notifications were dismissed.
  case dismissed
  /// The schedule or the program playing changed.
  case scheduled
  /// The programs are now these, as written.
  case programs([JSONValue])
  /// The live data sources are now these, as written.
  case sources([JSONValue])
  /// The config was read again.
  case reloaded
}
