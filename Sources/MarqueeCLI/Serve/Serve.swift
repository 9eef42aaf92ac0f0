#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Drivers
import Marquee
import MatrixCore

/// `marquee serve`: the sign, on any display, with the HTTP server beside it in the same
/// process. Updates over HTTP go through the same feed as `--stdin` lines; the frame loop
/// shares each frame through a ``FrameBoard`` and never waits on the network.
enum Serve {
  static func run(_ options: RunOptions, arguments: [String], stop: StopFlag) throws {
    var options = options
    let board = try MarqueeCommand.resolveBoard(&options)
    guard let address = ListenAddress(options.listen) else { throw UsageError("'--listen \(options.listen)' is not an address") }
    let token = try options.tokenFile.map(TokenFile.load)
    options.clockStart = options.clockStart ?? MarqueeCommand.now()
    let (controller, zones) = try MarqueeCommand.makeSign(options, stop: stop)
    options.colorRegions = zip(controller.sign.zones, zones).compactMap { zone, spec in
      spec.options.ledColor == options.ledColor ? nil
        : ColorRegion(x: zone.x, y: zone.y, width: zone.width, height: zone.height, color: LEDColor.rgb(spec.options.ledColor))
    }
    let feed = Feed(zones: zones, stop: stop)
    let frames = FrameBoard(width: options.width, height: options.height, fps: options.fps)
    let places = controller.sign.zones.map { SignAPI.ZonePlace(name: $0.name, x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    let api = SignAPI(
      feed: feed, frames: frames, zones: places, width: options.width, height: options.height, fps: options.fps,
      token: token, stop: stop, reload: options.configPath.map { path in reloader(path: path, arguments: arguments, feed: feed) })
    let server = try SignServer(address: address, api: api, stop: stop)
    server.start()
    printError("Serving the sign at http://\(server.address)/ (the API under /api/; Ctrl-C stops)")
    defer {
      stop.set()
      server.join()
    }
    try MarqueeCommand.present(FedSign(controller: controller, feed: feed), board: board, options: options, stop: stop, tap: frames)
  }

  /// SIGHUP: the config file and the command line read again, and each zone's content and
  /// options replaced; a config that fails to load (or changes the zones) changes nothing.
  static func reloader(path: String, arguments: [String], feed: Feed) -> @Sendable () -> String? {
    { () -> String? in
      do {
        let base = try ConfigFile.load(path)
        guard case .run(let options) = try CommandLineParser.parse(arguments, base: base.options, baseGiven: base.given) else {
          return "the command line no longer runs the sign"
        }
        var zones: [(name: String, options: RunOptions)] =
          options.hasZones ? try MarqueeCommand.zoneSpecs(options).map { ($0.name, $0.options) } : [("main", options)]
        // Messages on the command line are the first zone's, as at the start.
        if options.hasZones && !options.messages.isEmpty { zones[0].options.messages = options.messages }
        try feed.reset(to: zones)
        return nil
      } catch let error as UsageError {
        return error.message
      } catch {
        return "\(error)"
      }
    }
  }
}
