import SimpleJSON

/// Reads a sign's programs, brightness schedule, off periods and location from a config
/// document (`programs`, `brightness`, `off`, `location`), with field-path errors
/// (`programs[1].times[0]: …`).
package enum ScheduleFile {
  /// The config keys it reads.
  package static let keys = ["programs", "brightness", "off", "location", "untilClockSet"]

  /// Whether `brightness` is a schedule (a list of levels at times); as a number it is the
  /// board's full brightness, an option.
  package static func schedulesBrightness(_ fields: JSONFields) -> Bool {
    if case .array? = fields.value["brightness"] { return true }
    return false
  }

  /// The keys of a program besides the content keys of a zone.
  static let programKeys = ["name", "days", "times", "dates", "seconds", "passes", "default", "priority", "zones"]

  /// The schedule in `fields`, or nil when it has none of the keys. Each program's content
  /// is checked against the option model from `base` (the sign's own options), and each
  /// zone it names against `zones`.
  package static func read(_ fields: JSONFields, base: RunOptions, zones: [String]) throws(JSONFieldError) -> SignSchedule? {
    let scheduled = schedulesBrightness(fields)
    guard keys.contains(where: { $0 == "brightness" ? scheduled : fields.optional($0) != nil }) else { return nil }
    var schedule = SignSchedule()
    schedule.location = try readLocation(fields)
    schedule.programs = try programs(try fields.objects("programs") ?? [], base: base, zones: zones)
    if scheduled { try readBrightness(try fields.objects("brightness") ?? [], into: &schedule) }
    try readOff(try fields.objects("off") ?? [], into: &schedule)
    if let held = try fields.string("untilClockSet") {
      guard schedule.programs.contains(where: { $0.name == held }) else {
        let names = schedule.programs.map(\.name)
        throw JSONFieldError(
          field: fields.name("untilClockSet"),
          reason: "no program named '\(held)'" + (names.isEmpty ? "" : " (programs: \(names.joined(separator: ", ")))"))
      }
      schedule.holdUntilClockSet = held
    }
    return schedule
  }

  /// The sign's `location` (`{"latitude": 52.52, "longitude": 13.40}`), for sunrise and
  /// sunset; nil when absent.
  static func readLocation(_ fields: JSONFields) throws(JSONFieldError) -> Location? {
    guard let location = try fields.object("location") else { return nil }
    try location.rejectUnknownKeys(["latitude", "longitude"])
    guard let latitude = try location.number("latitude", in: -90...90) else { throw location.missing("latitude") }
    guard let longitude = try location.number("longitude", in: -180...180) else { throw location.missing("longitude") }
    return Location(latitude: latitude, longitude: longitude)
  }

  /// What a person sets of the night and off hours (`PUT /api/schedule`, and the state
  /// file that keeps it): the `location`, the `brightness` schedule and the `off` periods,
  /// each optional, read over `schedule` (the location first: sunset rules need it).
  package static func readNightAndOff(_ fields: JSONFields, into schedule: inout SignSchedule) throws(JSONFieldError) {
    try fields.rejectUnknownKeys(["location", "brightness", "off"])
    if fields.optional("location") != nil { schedule.location = try readLocation(fields) }
    if fields.optional("brightness") != nil { try readBrightness(try fields.objects("brightness") ?? [], into: &schedule) }
    if fields.optional("off") != nil { try readOff(try fields.objects("off") ?? [], into: &schedule) }
  }

  /// The night and off hours of `schedule` as written: what the state file keeps.
  package static func nightAndOff(_ schedule: SignSchedule) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = []
    if let location = schedule.location {
      members.append(("location", .object([("latitude", .number(location.latitude)), ("longitude", .number(location.longitude))])))
    }
    return .object(members + [("brightness", .array(schedule.brightnessSource)), ("off", .array(schedule.offSource))])
  }

  /// The brightness schedule: levels at times of day or at sunrise and sunset (which need
  /// the schedule's location), kept as written too.
  package static func readBrightness(_ points: [JSONFields], into schedule: inout SignSchedule) throws(JSONFieldError) {
    schedule.brightness = []
    schedule.brightnessSource = points.map(\.value)
    for point in points {
      try point.rejectUnknownKeys(["at", "offset", "level"])
      let at = try point.requiredString("at")
      let moment: BrightnessPoint.Moment
      switch at {
      case "sunrise": moment = .sunrise
      case "sunset": moment = .sunset
      default:
        guard let minute = TimeWindow.minute(Substring(at)) else {
          throw JSONFieldError(field: point.name("at"), reason: "expected HH:MM, \"sunrise\" or \"sunset\", got \"\(at)\"")
        }
        moment = .time(minute)
      }
      if (moment == .sunrise || moment == .sunset) && schedule.location == nil {
        throw JSONFieldError(field: point.name("at"), reason: "\(at) needs the sign's \"location\" (latitude and longitude)")
      }
      schedule.brightness.append(BrightnessPoint(
        at: moment, offset: try point.integer("offset", in: -720...720) ?? 0, level: try point.requiredInteger("level", in: BrightnessLevel.range)))
    }
  }

  /// The off periods, kept as written too.
  package static func readOff(_ periods: [JSONFields], into schedule: inout SignSchedule) throws(JSONFieldError) {
    schedule.off = []
    schedule.offSource = periods.map(\.value)
    for period in periods {
      try period.rejectUnknownKeys(["days", "times", "dates"])
      schedule.off.append(try recurrence(period))
    }
  }

  /// A list of programs as the API and the state file hold it (`programs[0]`, … in errors).
  package static func programs(_ values: [JSONValue], zones: [String]) throws(JSONFieldError) -> [Program] {
    var list: [JSONFields] = []
    for (index, value) in values.enumerated() { list.append(try JSONFields(value, path: "programs[\(index)]")) }
    return try programs(list, base: RunOptions(), zones: zones)
  }

  /// A list of programs: names unique, at most one default.
  package static func programs(_ list: [JSONFields], base: RunOptions, zones: [String]) throws(JSONFieldError) -> [Program] {
    var names: Set<String> = []
    var programs: [Program] = []
    for fields in list {
      let read = try program(fields, base: base, zones: zones)
      guard names.insert(read.name).inserted else {
        throw JSONFieldError(field: fields.name("name"), reason: "two programs are named '\(read.name)'")
      }
      programs.append(read)
    }
    if programs.filter(\.isDefault).count > 1 {
      let path = list.first.map { String($0.path.prefix { $0 != "[" }) } ?? ""
      throw JSONFieldError(field: path.isEmpty ? "programs" : path, reason: "more than one program is the default")
    }
    return programs
  }

  package static func program(_ fields: JSONFields, base: RunOptions, zones: [String]) throws(JSONFieldError) -> Program {
    try fields.rejectUnknownKeys(programKeys + LayoutFile.contentKeys)
    let name = try fields.requiredString("name")
    guard !name.isEmpty, !name.contains("/") else {
      throw JSONFieldError(field: fields.name("name"), reason: "a program's name must be non-empty and without '/'")
    }
    // Content: the program's own keys are its first zone's; "zones" names others. ("seconds"
    // is the program's turn; "duration" stays the transitions' own, as in a zone.)
    var parts: [Program.Part] = []
    if case .object(let members) = fields.value, members.contains(where: { LayoutFile.contentKeys.contains($0.key) }) {
      parts.append(Program.Part(zone: nil, document: .object(members.filter { LayoutFile.contentKeys.contains($0.key) }), path: fields.path))
    }
    for zone in try fields.objects("zones") ?? [] {
      try zone.rejectUnknownKeys(["zone"] + LayoutFile.contentKeys)
      let zoneName = try zone.requiredString("zone")
      guard zones.contains(zoneName) else {
        throw JSONFieldError(field: zone.name("zone"), reason: "no zone named '\(zoneName)' (zones: \(zones.joined(separator: ", ")))")
      }
      guard case .object(let members) = zone.value else { continue }
      parts.append(Program.Part(zone: zoneName, document: .object(members.filter { $0.key != "zone" }), path: zone.path))
    }
    guard !parts.isEmpty else {
      throw JSONFieldError(field: fields.name("messages"), reason: "a program needs content: messages (and options) or zones")
    }
    // Checked now against the option model, so a bad program is refused at the start.
    for part in parts {
      var options = base.zone
      let documentFields = try JSONFields(part.document, path: part.path)
      try LayoutFile.apply(documentFields, to: &options)
      try LayoutFile.checkCycleOnly(documentFields, options)
      // A program replaces what its zones show: its messages say what.
      guard try documentFields.strings("messages") != nil else { throw documentFields.missing("messages") }
    }
    let isDefault = try fields.bool("default") ?? false
    let hasWhen = ["days", "times", "dates"].contains { fields.optional($0) != nil }
    var length = Program.Length.seconds(30)
    if let seconds = try fields.number("seconds", in: 1...86_400) { length = .seconds(seconds) }
    if let passes = try fields.integer("passes", in: 1...10_000) {
      guard fields.optional("seconds") == nil else {
        throw JSONFieldError(field: fields.name("passes"), reason: "give 'seconds' or 'passes', not both")
      }
      length = .passes(passes)
    }
    var program = Program(
      name: name, zones: parts, when: hasWhen || !isDefault ? try recurrence(fields) : nil, length: length, isDefault: isDefault)
    program.priority = try fields.integer("priority", in: 0...9) ?? 0
    program.source = fields.value
    return program
  }

  /// `days`, `times` and `dates` of a program or off period.
  static func recurrence(_ fields: JSONFields) throws(JSONFieldError) -> Recurrence {
    var when = Recurrence()
    for (index, day) in (try fields.strings("days") ?? []).enumerated() {
      guard let weekday = Weekday(rawValue: day.lowercased()) else {
        throw JSONFieldError(field: "\(fields.name("days"))[\(index)]", reason: "expected one of mon, tue, wed, thu, fri, sat, sun, got \"\(day)\"")
      }
      when.days.insert(weekday)
    }
    for (index, text) in (try fields.strings("times") ?? []).enumerated() {
      guard let window = TimeWindow(text) else {
        throw JSONFieldError(field: "\(fields.name("times"))[\(index)]", reason: "expected HH:MM-HH:MM (24-hour), got \"\(text)\"")
      }
      when.windows.append(window)
    }
    if let dates = try fields.string("dates") {
      let parts = dates.split(separator: "/")
      guard parts.count == 2, let first = LocalDate(parts[0]), let last = LocalDate(parts[1]) else {
        throw JSONFieldError(field: fields.name("dates"), reason: "expected FIRST/LAST as YYYY-MM-DD/YYYY-MM-DD, got \"\(dates)\"")
      }
      guard first <= last else {
        throw JSONFieldError(field: fields.name("dates"), reason: "the last date, \(parts[1]), is before the first, \(parts[0])")
      }
      when.dates = first...last
    }
    return when
  }
}
