import BitmapFonts
import Marquee
import Platform
import SimpleJSON

/// What front ends read of a running sign, without reaching into its parts (the feed, the
/// schedule pump, the lights, the controller), which are its own.
extension SignSession {
  /// The program playing now (nil: none).
  public var programPlaying: String? { pump.current?.program }

  /// The programs' names, in order.
  public var programNames: [String] { pump.schedule.programs.map(\.name) }

  /// One program as written, or nil when there is none of that name.
  public func program(named name: String) -> JSONValue? {
    pump.schedule.programs.first { $0.name == name }?.source
  }

  /// The icons messages can show: the built-in set and the sign's icon folder.
  public var icons: IconSet { feed.fonts.icons }

  /// Whether icons can be added from a phone (the sign has an icon folder).
  public var hasIconFolder: Bool { options.iconsPath != nil }

  /// Why the LEDs are dark, in words (`turned off`, `off hours`), or nil while they are lit.
  public var darkReason: String? {
    switch lights.darkness {
    case nil: nil
    case .turnedOff?: "turned off"
    case .offPeriod?: "off hours"
    }
  }

  /// What the frame loop is doing, for a watchdog.
  public var heartbeat: Heartbeat { lights.heartbeat }

  /// A value an MQTT topic took, for the messages whose placeholders name it.
  public func take(topic: String, payload: String) {
    feed.take(topic: topic, payload: payload)
  }

  /// The topics the sign's messages name in placeholders now (what MQTT subscribes to).
  public func placeholderTopics() -> [String] { feed.placeholderTopics().topics }

  /// Whether any zone's messages show the time (what it says moves every minute).
  public var showsTime: Bool { feed.currentOptions.values.contains { $0.messages.contains { TextTemplate($0).isDynamic } } }
}

extension SignSession {
  /// What the state a front end publishes moves with, read without making anything: the
  /// session's changes, the feed's updates, the brightness, the power and the program.
  /// A publisher woken by the change signal compares these before it makes the state.
  public struct Marks: Sendable, Equatable {
    public var version: Int, updates: Int, level: Int, off: Bool, program: String?
  }

  /// The marks now.
  public var marks: Marks {
    Marks(version: version, updates: feed.updateCount, level: lights.level, off: lights.off, program: pump.current?.program)
  }
}
