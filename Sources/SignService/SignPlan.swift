import Platform
import BitmapFonts
import Drivers
import Marquee
import MatrixCore
import SimpleJSON

/// A sign built from options, ready to play: what ``SignPlan/build(_:stop:now:)`` makes.
public struct BuiltSign: Sendable {
  /// The options, completed: the clock's start fixed, the colour regions and, with `loops`,
  /// the frame count set.
  public let options: RunOptions
  public let controller: SignController
  /// The sign's zones: where each is, and its options.
  public let zones: [ZoneSpec]
  /// The update queue of the zones (content documents from a feed or an API, applied at the
  /// next frame); it reads nothing itself (``Feed/handle(_:)`` takes a line).
  public let feed: Feed
  /// What the player draws: the sign, with the feed's updates applied before each frame.
  public var timeline: FedSign { FedSign(controller: controller, feed: feed) }
}

/// Turns options into a sign: its zones and their content, one zone or the zones of a
/// layout or config file, with each zone's font chain from one shared cache. A plain run,
/// `serve` and a reload all build through it.
public enum SignPlan {
  /// Builds the sign `options` describe: its zones, their content and the feed that
  /// updates them; the sign's clock starts at `now` (Unix time) unless the options fix it.
  ///
  /// - Throws: ``UsageError`` for a bad value (naming the option, file or field),
  ///   ``SignFailure`` for a file or font that cannot be read.
  ///
  /// `saved` holds zones' content documents to start with instead of the options' (what a
  /// state file kept); one that no longer checks is skipped with a warning.
  public static func build(
    _ options: RunOptions, stop: StopFlag, now: Double? = nil, fontAccess: FontCache.Access = .any,
    saved: [(zone: String, document: JSONValue)] = [], clock: SignClock = .system, reports: SignReports = .inMemory()
  ) throws -> BuiltSign {
    let now = now ?? clock.wall()
    var options = options
    // The sign's t = 0 in Unix time, fixed once: every zone and every update share it.
    options.clockStart = options.clockStart ?? now
    let fonts = FontCache(icons: try FontCache.icons(folder: options.iconsPath, reports: reports), reports: reports)
    // The sources read from files are read now, so the first frame shows them.
    let values = LiveValues()
    values.declaredSources = options.sources.map(\.name)
    for source in options.sources where source.isFile {
      var fetcher = SourceFetcher()
      if case .items(let items)? = try? fetcher.fetch(source) { values.setSource(source.name, items: items, received: clock.monotonic()) }
    }
    let (controller, zones) = try makeSign(options, stop: stop, fonts: fonts, saved: saved, reports: reports, values: values)
    // RGB boards light a zone of another colour in its own.
    options.colorRegions = zip(controller.sign.zones, zones).compactMap { zone, spec in
      spec.options.ledColor == options.zone.ledColor ? nil
        : ColorRegion(x: zone.x, y: zone.y, width: zone.width, height: zone.height, color: (LEDColor(spec.options.ledColor) ?? .red).rgb)
    }
    if let loops = options.loops {
      // Nothing moves: one frame shows it all.
      let loop = controller.sign.loopDuration ?? 0
      let frames = (Double(loops) * loop * options.fps - 1e-9).rounded(.up)
      // As many frames as --frames takes at most: a speed near 0 makes a loop last for ever.
      guard frames <= Double(Int32.max) else {
        throw UsageError("\(loops == 1 ? "'--once'" : "'--loops \(loops)'") at this speed lasts \(secondsText(Double(loops) * loop)): more than \(Int32.max) frames; raise '--speed'.")
      }
      options.frames = max(1, Int(saturating: frames))
    }
    let access: FontCache.Access
    if case .offered = fontAccess { access = FontCache.offered(startingWith: zones.flatMap(\.options.fonts)) } else { access = .any }
    let feed = Feed(
      zones: zones, clockStart: options.clockStart, spritePath: options.spritePath, stop: stop, onEnd: options.onEndOfInput, fonts: fonts, fontAccess: access,
      clock: clock, reports: reports, values: values)
    // The names `{source:NAME}` may use; a message naming another would never show it.
    let declared = values.declaredSources
    for zone in zones {
      for message in zone.options.messages {
        for name in LiveValues.sourceNames(in: message) where !declared.contains(name) {
          throw UsageError(
            "\(options.configPath ?? options.layoutPath ?? "the messages"): zone '\(zone.name)': {source:\(name)} names no source"
              + (declared.isEmpty ? " (the config has no \"sources\")" : " (the sources are \(declared.joined(separator: ", ")))"))
        }
      }
    }
    return BuiltSign(options: options, controller: controller, zones: zones, feed: feed)
  }

  /// Each zone's name and options: the zones of a layout or config file (the messages on
  /// the command line are the first zone's), or one zone, `main`.
  package static func zoneOptions(_ options: RunOptions) throws -> [ZoneSpec] {
    guard options.hasZones else {
      return [ZoneSpec(place: ZonePlace(name: "main", x: 0, y: 0, width: options.width, height: options.height), options: options.zone)]
    }
    var specs = try zoneSpecs(options)
    if !options.zone.messages.isEmpty { specs[0].options.messages = options.zone.messages }
    return specs
  }

  /// Builds the sign the options describe: one zone, or the zones of a layout file.
  package static func makeSign(
    _ options: RunOptions, stop: StopFlag, fonts: FontCache = FontCache(), saved: [(zone: String, document: JSONValue)] = [],
    reports: SignReports = .inMemory(), values: LiveValues = LiveValues()
  ) throws -> (SignController, [ZoneSpec]) {
    func content(_ zone: ZoneOptions) throws -> ZoneContent {
      try makeContent(zone, epoch: options.clockStart, sprite: options.spritePath, fonts: fonts.chain(zone.fonts).chain, values: values)
    }
    do {
      var specs = try zoneOptions(options)
      for (zone, document) in saved {
        guard let index = specs.firstIndex(where: { $0.name == zone }) else { continue }
        do {
          var restored = specs[index].options
          let fields = try JSONFields(document, path: "zones.\(zone)")
          try LayoutFile.apply(fields, to: &restored)
          if let messages = try fields.strings("messages") { restored.messages = messages }
          _ = try content(restored).makeTimeline(width: specs[index].place.width, height: specs[index].place.height)
          specs[index].options = restored
        } catch {
          reports.warning("the saved state of zone '\(zone)': \(error); it starts from the config")
        }
      }
      let zones = try specs.map { spec in
        try Zone(place: spec.place, content: content(spec.options))
      }
      for spec in specs {
        warnUnjoined(spec.options, fonts: try fonts.chain(spec.options.fonts).chain, zone: options.hasZones ? spec.name : nil, reports: reports)
      }
      let sign = try Sign(width: options.width, height: options.height, zones: zones)
      return (SignController(sign: sign, wake: stop), specs)
    } catch let error as SignFailure {
      throw error
    } catch let error as UsageError {
      throw error
    } catch let error as Sign.LayoutError {
      // A zone that does not fit is a bad value in the file named on the command line.
      throw UsageError("\(options.layoutPath ?? options.configPath ?? "layout"): \(error)")
    } catch MarqueeError.unknownIcon(let unknown) {
      // A message's icon name is a bad value where the message was written.
      throw UsageError(unknown.description)
    } catch {
      throw SignFailure("\(error)")
    }
  }

  /// Says, once at the start, which Arabic letters of a zone's messages are drawn unjoined:
  /// those no font of its chain has the joined forms of, and those Unicode has none for.
  static func warnUnjoined(_ options: ZoneOptions, fonts: FontChain, zone: String?, reports: SignReports) {
    let renderer = TextRenderer(fonts: fonts, direction: options.textDirection)
    var letters: [Unicode.Scalar] = []
    for message in options.messages {
      for letter in renderer.readingOrder(message).unshaped where !letters.contains(letter) { letters.append(letter) }
    }
    let hasNoForms: (Unicode.Scalar) -> Bool = {
      UnicodeTables.presentationForm(of: $0, .final) == nil && UnicodeTables.presentationForm(of: $0, .initial) == nil
    }
    let where_ = zone.map { "zone '\($0)': " } ?? ""
    func list(_ letters: [Unicode.Scalar]) -> String {
      letters.prefix(8).map { letter in
        let hex = String(letter.value, radix: 16, uppercase: true)
        return "\(Character(letter)) (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
      }.joined(separator: ", ")
        + (letters.count > 8 ? " and \(letters.count - 8) more" : "")
    }
    let missing = letters.filter { !hasNoForms($0) }
    if !missing.isEmpty {
      reports.warning(
        "\(where_)no font has the joined forms of \(list(missing)): they are drawn unjoined; "
          + "a font with Arabic presentation forms can follow yours: --font \(options.fonts.joined(separator: ",")),unifont")
    }
    let formless = letters.filter(hasNoForms)
    if !formless.isEmpty {
      reports.warning("\(where_)Unicode has no joined forms of \(list(formless)) for a bitmap font to draw: they are drawn unjoined")
    }
  }

  /// The zones of a layout file or of the config file's `zones`.
  package static func zoneSpecs(_ options: RunOptions) throws -> [ZoneSpec] {
    if let path = options.layoutPath {
      return try LayoutFile.parse(try TextFile.read(path), path: path, base: options)
    }
    do {
      return try LayoutFile.zones(options.configZones, base: options)
    } catch {
      throw UsageError("\(options.configPath ?? "config"): \(error)")
    }
  }

  /// The content of one zone from its options, placeholders of MQTT topics filled in from
  /// `values` (without them, with their defaults); `epoch` is the sign's t = 0 in Unix time
  /// and `sprite` the sprite effect's file (the sign's own options).
  static func makeContent(
    _ options: ZoneOptions, epoch: Double?, sprite: String?, fonts: FontChain, values: LiveValues = LiveValues()
  ) throws -> ZoneContent {
    let transition = Transition(
      entry: try EffectCatalog.parse(options.entry),
      exit: try options.exit.map(EffectCatalog.parse),
      duration: options.duration, easing: options.easing)
    let ribbon = ZoneContent.Ribbon(speed: options.speed, gap: options.gap, direction: options.direction)
    let motion: ZoneContent.Motion
    switch options.mode {
    case .auto: motion = .auto(ribbon)
    case .scroll: motion = .scroll(ribbon)
    case .cycle: motion = .cycle(ZoneContent.Cycle(dwell: options.dwell, speed: options.speed))
    case .pages:
      motion = .cycle(ZoneContent.Cycle(dwell: options.dwell, speed: options.speed, pages: ZoneContent.Pages(lineSpacing: options.lineSpacing)))
    }
    let style = ZoneContent.Style(
      renderer: TextRenderer(fonts: fonts, letterSpacing: options.letterSpacing, direction: options.textDirection), alignment: options.alignment,
      verticalAlignment: options.verticalAlignment, presentation: options.presentation, fit: options.fit)
    var content = ZoneContent(
      messages: options.messages.flatMap(values.expand), motion: motion, style: style, transition: transition, seed: options.seed,
      sprite: try sprite.map(loadSprite) ?? .pacman)
    content.epoch = epoch
    return content
  }

  /// Reads a sprite file, naming the file in any error.
  static func loadSprite(_ path: String) throws -> Sprite {
    let text = try TextFile.read(path)
    do {
      return try Sprite(text: text)
    } catch {
      throw SignFailure("\(path): \(error)")
    }
  }
}
