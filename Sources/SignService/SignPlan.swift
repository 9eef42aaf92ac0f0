#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import BitmapFonts
import Drivers
import Marquee
import MatrixCore

/// Turns options into a sign: its zones and their content, one zone or the zones of a
/// layout or config file, with each zone's font chain from one shared cache. A plain run,
/// `serve` and a reload all build through it.
package enum SignPlan {
  /// Builds the sign the options describe: one zone, or the zones of a layout file.
  package static func makeSign(
    _ options: RunOptions, stop: StopFlag, fonts: FontCache = FontCache()
  ) throws -> (SignController, [(name: String, options: RunOptions)]) {
    func content(_ options: RunOptions) throws -> ZoneContent {
      try makeContent(options, fonts: fonts.chain(options.fonts).chain)
    }
    var zones: [Zone] = []
    var zoneOptions: [(name: String, options: RunOptions)] = []
    do {
      if options.hasZones {
        for (index, var spec) in try zoneSpecs(options).enumerated() {
          if index == 0 && !options.messages.isEmpty { spec.options.messages = options.messages }
          zoneOptions.append((spec.name, spec.options))
          zones.append(try Zone(
            name: spec.name, x: spec.x, y: spec.y, width: spec.width, height: spec.height,
            content: content(spec.options)))
        }
        return (SignController(sign: try Sign(width: options.width, height: options.height, zones: zones), wake: stop), zoneOptions)
      }
      zones = [try Zone(name: "main", x: 0, y: 0, width: options.width, height: options.height, content: content(options))]
      return (SignController(sign: try Sign(width: options.width, height: options.height, zones: zones), wake: stop), [("main", options)])
    } catch let error as RuntimeError {
      throw error
    } catch let error as UsageError {
      throw error
    } catch let error as Sign.LayoutError {
      // A zone that does not fit is a bad value in the file named on the command line.
      throw UsageError("\(options.layoutPath ?? options.configPath ?? "layout"): \(error)")
    } catch {
      throw RuntimeError("\(error)")
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

  /// The current Unix time.
  package static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  /// The content of one zone from its options.
  static func makeContent(_ options: RunOptions, fonts: FontChain) throws -> ZoneContent {
    let renderer = TextRenderer(fonts: fonts, letterSpacing: options.letterSpacing)
    let sprite = try options.spritePath.map(loadSprite) ?? .pacman
    let transition = Transition(
      entry: try EffectCatalog.parse(options.entry),
      exit: try options.exit.map(EffectCatalog.parse),
      duration: options.duration, easing: options.easing)
    let cycle = CycleSettings(
      dwell: options.dwell, transition: transition, speed: options.marquee.speed,
      alignment: options.marquee.alignment, verticalAlignment: options.marquee.verticalAlignment,
      presentation: options.marquee.presentation, seed: options.seed, sprite: sprite)
    var content = ZoneContent(messages: options.messages, mode: options.mode, renderer: renderer, marquee: options.marquee, cycle: cycle)
    content.epoch = options.clockStart
    return content
  }

  /// Each zone's size, by name.
  package static func zoneSizes(_ controller: SignController) -> [String: Feed.Size] {
    Dictionary(uniqueKeysWithValues: controller.sign.zones.map { ($0.name, Feed.Size(width: $0.width, height: $0.height)) })
  }

  /// Reads a sprite file, naming the file in any error.
  static func loadSprite(_ path: String) throws -> Sprite {
    let text = try TextFile.read(path)
    do {
      return try Sprite(text: text)
    } catch {
      throw RuntimeError("\(path): \(error)")
    }
  }
}
