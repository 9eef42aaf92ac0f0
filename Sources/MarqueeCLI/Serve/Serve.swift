#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Drivers
import HTTP
import Marquee
import MatrixCore
import SignService

/// `marquee serve`: the sign, on any display, with the HTTP server beside it in the same
/// process. Updates over HTTP go through the same feed as `--stdin` lines; the frame loop
/// shares each frame through a ``FrameTap`` and never waits on the network.
enum Serve {
  static func run(_ options: RunOptions, arguments: [String], stop: StopFlag) throws {
    var options = options
    let board = try MarqueeCommand.resolveBoard(&options)
    guard let address = ListenAddress(options.listen) else { throw UsageError("'--listen \(options.listen)' is not an address") }
    let token = try options.tokenFile.map(TokenFile.load)
    options.clockStart = options.clockStart ?? SignPlan.now()
    let fonts = FontCache()
    let (controller, zones) = try SignPlan.makeSign(options, stop: stop, fonts: fonts)
    options.colorRegions = zip(controller.sign.zones, zones).compactMap { zone, spec in
      spec.options.ledColor == options.ledColor ? nil
        : ColorRegion(x: zone.x, y: zone.y, width: zone.width, height: zone.height, color: LEDColor.rgb(spec.options.ledColor))
    }
    // Over HTTP, fonts are the names the sign offers, never paths of a request's choosing.
    let feed = Feed(
      zones: zones, sizes: SignPlan.zoneSizes(controller), stop: stop, fonts: fonts,
      fontAccess: FontCache.offered(startingWith: zones.flatMap(\.options.fonts)))
    let frames = FrameTap(width: options.width, height: options.height, fps: options.fps)
    let places = controller.sign.zones.map { SignAPI.ZonePlace(name: $0.name, x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    let api = SignAPI(
      feed: feed, frames: frames, zones: places, width: options.width, height: options.height, fps: options.fps,
      stop: stop, reload: options.configPath.map { path in reloader(path: path, arguments: arguments, feed: feed) })
    let server: HTTPServer
    do {
      server = try HTTPServer(
        address: address, responder: api.responder(hosts: HostNames(extra: options.allowHosts), token: token),
        shouldStop: { stop.isSet }, onTick: { api.tick() })
    } catch {
      throw RuntimeError(error.description)
    }
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
          options.hasZones ? try SignPlan.zoneSpecs(options).map { ($0.name, $0.options) } : [("main", options)]
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
