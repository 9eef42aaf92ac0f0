import Platform
import Drivers
import MatrixCore
import SimpleJSON

/// What a person changed through the API (each zone's content and options, pauses, the
/// brightness), kept in a file so it survives a restart or a power cut (`--state FILE`).
///
/// The config file stays what the owner wrote; the state file holds what was changed since,
/// and is applied over the config at the start, before the first frame. Writes are atomic:
/// a new file beside the old one is written, flushed to the disk, renamed over the old one,
/// and the folder flushed, so at any moment the file is the old state or the new one.
/// Live data (feed lines, MQTT values) is never written: SD cards wear.
public struct SignState: Sendable, Equatable {
  /// Each zone's content document (the keys `GET /api/state` shows), by zone.
  public var zones: [(name: String, document: JSONValue)] = []
  public var paused: [String: Bool] = [:]
  /// The brightness step asked (0...15), if one was.
  public var brightness: Int?
  /// Whether a person turned the sign off (`POST /api/power`).
  public var poweredOff = false
  /// The programs as last set over the API (they replace the config's), if they were.
  public var programs: JSONValue?
  /// The location, brightness schedule and off periods as last set over the API
  /// (`{"brightness": […], "off": […]}`, replacing the config's), if they were.
  public var schedule: JSONValue?
  /// Until when (Unix time) each zone's kept content holds: a change made while a program
  /// plays holds until that program's stretch ends. A zone not named holds until changed.
  public var zonesUntil: [String: Double] = [:]
  /// A program a person chose, and until when (Unix time) it plays.
  public var chosen: ChosenProgram?
  /// The live data sources as last set over the API (they replace the config's), as
  /// written, if they were.
  public var sources: JSONValue?

  /// A program chosen over the API or MQTT, and the end of its stretch.
  public struct ChosenProgram: Sendable, Equatable {
    public var name: String
    public var until: Double

    public init(name: String, until: Double) {
      self.name = name
      self.until = until
    }
  }

  public init() {}

  /// The zones' kept content that still holds at Unix time `now`.
  public func zones(holdingAt now: Double) -> [(name: String, document: JSONValue)] {
    zones.filter { zone in zonesUntil[zone.name].map { now < $0 } ?? true }
  }

  /// Sets a zone's content document, keeping the zones' order.
  public mutating func set(zone: String, _ document: JSONValue) {
    if let index = zones.firstIndex(where: { $0.name == zone }) {
      zones[index].document = document
    } else {
      zones.append((zone, document))
    }
  }

  /// Sets a zone's content document and until when it holds (nil: until changed).
  public mutating func set(zone: String, _ document: JSONValue, until: Double?) {
    set(zone: zone, document)
    zonesUntil[zone] = until
  }

  public static func == (a: SignState, b: SignState) -> Bool {
    a.paused == b.paused && a.brightness == b.brightness && a.poweredOff == b.poweredOff && a.programs == b.programs && a.schedule == b.schedule && a.zonesUntil == b.zonesUntil && a.chosen == b.chosen && a.sources == b.sources && a.zones.count == b.zones.count
      && zip(a.zones, b.zones).allSatisfy { $0.name == $1.name && $0.document == $1.document }
  }

  /// The state as the file holds it.
  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [("version", .number(1))]
    members.append(("zones", .object(zones.map { ($0.name, $0.document) })))
    members.append(("paused", .object(paused.sorted { $0.key < $1.key }.map { ($0.key, .bool($0.value)) })))
    if let brightness { members.append(("brightness", .number(Double(brightness)))) }
    if poweredOff { members.append(("on", .bool(false))) }
    if let programs { members.append(("programs", programs)) }
    if let schedule { members.append(("schedule", schedule)) }
    if !zonesUntil.isEmpty { members.append(("until", .object(zonesUntil.sorted { $0.key < $1.key }.map { ($0.key, .number($0.value)) }))) }
    if let chosen { members.append(("program", .object([("name", .string(chosen.name)), ("until", .number(chosen.until))]))) }
    if let sources { members.append(("sources", sources)) }
    return .object(members)
  }

  /// Reads a state document.
  public init(json text: String) throws {
    let fields = try JSONFields(try JSONParser.parse(text))
    try fields.rejectUnknownKeys(["version", "zones", "paused", "brightness", "on", "programs", "schedule", "until", "program", "sources"])
    guard try fields.integer("version", in: 1...1) != nil else { throw fields.missing("version") }
    if let zones = try fields.object("zones"), case .object(let members) = zones.value {
      for member in members {
        _ = try JSONFields(member.value, path: zones.name(member.key))
        self.zones.append((member.key, member.value))
      }
    }
    if let paused = try fields.object("paused"), case .object(let members) = paused.value {
      for member in members { self.paused[member.key] = try paused.bool(member.key) ?? false }
    }
    brightness = try fields.integer("brightness", in: BrightnessLevel.range)
    poweredOff = try fields.bool("on") == false
    if let list = fields.optional("programs") {
      guard case .array = list else { throw JSONFieldError(field: "programs", reason: "expected an array of programs") }
      programs = list
    }
    if let written = try fields.object("schedule") {
      try written.rejectUnknownKeys(["location", "brightness", "off"])
      schedule = written.value
    }
    if let until = try fields.object("until"), case .object(let members) = until.value {
      for member in members {
        guard let time = try until.number(member.key, in: 0...1e12) else { continue }
        zonesUntil[member.key] = time
      }
    }
    if let program = try fields.object("program") {
      try program.rejectUnknownKeys(["name", "until"])
      guard let name = try program.string("name") else { throw program.missing("name") }
      guard let until = try program.number("until", in: 0...1e12) else { throw program.missing("until") }
      chosen = ChosenProgram(name: name, until: until)
    }
    if let list = fields.optional("sources") {
      guard case .array = list else { throw JSONFieldError(field: "sources", reason: "expected an array of sources") }
      sources = list
    }
  }
}

/// Reads and writes the state file.
public enum StateFile {
  /// The largest state file, in bytes: a change that would make it larger is refused, and
  /// a larger file found at the start is set aside. One limit, on both sides.
  public static let limit = 1 << 20

  /// Why a change cannot be kept: the state would be larger than ``limit``.
  public struct TooLarge: Error, Sendable, CustomStringConvertible {
    public var bytes: Int
    public var description: String {
      "the sign's saved state would be \(bytes) bytes, over its limit of \(StateFile.limit) (1 MiB): shorten messages or remove programs"
    }
  }

  /// The state in `path`: nil when there is none yet. A file that is broken or larger than
  /// ``limit`` is moved aside (`FILE.broken-UNIXTIME`, never deleted) with a warning naming
  /// the file and the place, and the sign starts from its config.
  ///
  /// - Throws: ``SignFailure`` when the file exists but cannot be read (no permission, an
  ///   I/O error, not a regular file): the sign does not start rather than overwrite what a
  ///   person changed with its next write.
  public static func load(_ path: String, reports: SignReports = .inMemory(), now: Double = LocalTime.now()) throws -> SignState? {
    try StateFile.read(path, reports: reports, now: now).state
  }

  /// What ``load(_:reports:now:)`` found: the state, or why the file was set aside.
  public static func read(_ path: String, reports: SignReports, now: Double) throws -> (state: SignState?, setAside: String?) {
    if !FileBytes.exists(path) && Errno.current == Errno.noSuchFileOrDirectory { return (nil, nil) }
    let bytes: [UInt8]
    do {
      bytes = try FileBytes.read(path, limit: limit, regularOnly: true)
    } catch {
      guard error.tooLarge else {
        throw SignFailure("\(path): the state file cannot be read (\(error.reason)); the sign does not start, so that what was changed is not overwritten. Let marquee read it, or move it away to start from the config.")
      }
      return (nil, setAside(path, because: error.reason, reports: reports, now: now))
    }
    do {
      return (try SignState(json: String(decoding: bytes, as: UTF8.self)), nil)
    } catch {
      return (nil, setAside(path, because: "\(error)", reports: reports, now: now))
    }
  }

  /// Moves a state file the sign cannot use aside, saying so; what it said (the sign
  /// starts from its config).
  static func setAside(_ path: String, because reason: String, reports: SignReports, now: Double) -> String {
    let aside = "\(path).broken-\(Int(saturating: now))"
    let moved = FileSystem.move(path, to: aside)
    let said = "\(path): \(reason); \(moved ? "kept aside as \(aside)" : "left in place"), starting from the config"
    reports.warning(said)
    return said
  }

  /// Refuses a state file in a folder others may write to: they could put a link or a file
  /// of their own where the sign writes.
  ///
  /// - Throws: ``SignFailure`` naming the folder and its mode.
  public static func checkFolder(of path: String) throws {
    let folder = DurableFile.folder(of: path)
    // A folder that is not there yet: each write then says why it cannot be made.
    guard let info = FileStatus(path: folder) else { return }
    if info.othersMayWrite {
      let mode = String(info.permissions, radix: 8)
      throw SignFailure("\(folder): the state file's folder may be written by others (mode \(mode)); give '--state' a file in a folder only the sign's user may write (chmod go-w, or /var/lib/marquee)")
    }
  }

  /// Writes `state` to `path` atomically and durably: only when this returns is the change
  /// on the disk. The new file is made beside the old one under a name of its own, never
  /// through a link (`O_EXCL | O_NOFOLLOW`).
  ///
  /// - Throws: ``TooLarge`` for a state over ``limit`` (nothing written); ``SignFailure``
  ///   naming the file and what failed.
  public static func save(_ state: SignState, to path: String) throws {
    let bytes = Array((state.json.text + "\n").utf8)
    guard bytes.count <= limit else { throw TooLarge(bytes: bytes.count) }
    do {
      try DurableFile.write(bytes, to: path, what: "the state")
    } catch {
      throw SignFailure(error.description)
    }
  }
}
