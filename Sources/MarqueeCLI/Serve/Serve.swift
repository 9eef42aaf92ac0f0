import Platform
import Drivers
import HTTP
import Marquee
import MQTT
import MatrixCore
import SignService
import SimpleJSON

/// `marquee serve`: the sign, on any display, with the HTTP server beside it in the same
/// process. Updates over HTTP go through the same feed as `--stdin` lines; the frame loop
/// shares each frame through a ``FrameTap`` and never waits on the network.
enum Serve {
  static func run(_ options: RunOptions, arguments: [String], stop: StopFlag) throws {
    var options = options
    let board = try MarqueeCommand.resolveBoard(&options)
    guard let address = ListenAddress(options.listen) else { throw UsageError("'--listen \(options.listen)' is not an address") }
    let token = try options.tokenFile.map(TokenFile.load)
    let broker = try mqttBroker(options)
    // Over HTTP, fonts are the names the sign offers, never paths of a request's choosing.
    // What was changed over the API before a restart or a power cut, over the config.
    let saved = options.statePath.flatMap(StateFile.load)
    let built = try SignPlan.build(options, stop: stop, fontAccess: .offered(folders: [], started: []), saved: saved?.zones.map { (zone: $0.name, document: $0.document) } ?? [])
    options = built.options
    let (controller, feed) = (built.controller, built.feed)
    let frames = FrameTap(width: options.width, height: options.height, fps: options.fps)
    // Programs set over the API before a restart replace the config's.
    var schedule = options.schedule ?? SignSchedule()
    if case .array(let list)? = saved?.programs {
      do {
        schedule.programs = try ScheduleFile.programs(list, zones: controller.sign.zones.map(\.name))
      } catch {
        printError("Warning: \(options.statePath ?? "state"): \(error); the config's programs play")
      }
    }
    if let written = saved?.schedule {
      do {
        let fields = try JSONFields(written, path: "schedule")
        var restored = schedule
        if fields.optional("brightness") != nil { try ScheduleFile.readBrightness(try fields.objects("brightness") ?? [], into: &restored) }
        if fields.optional("off") != nil { try ScheduleFile.readOff(try fields.objects("off") ?? [], into: &restored) }
        schedule = restored
      } catch {
        printError("Warning: \(options.statePath ?? "state"): \(error); the config's brightness schedule and off periods play")
      }
    }
    // Always a pump in serve, so programs can be set over the API even without a schedule.
    let pump = SchedulePump(schedule: schedule, feed: feed, frames: frames, stop: stop)
    pump.start()
    let places = controller.sign.zones.map { SignAPI.ZonePlace(name: $0.name, x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    let api = SignAPI(
      feed: feed, frames: frames, zones: places, width: options.width, height: options.height, fps: options.fps,
      stop: stop, reload: options.configPath.map { path in reloader(path: path, arguments: arguments, feed: feed, pump: pump) },
      statePath: options.statePath, pump: pump, controller: controller)
    if let saved { api.restore(saved) }
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
    let bridge = broker.map { address, prefix in
      MQTTBridge(api: api, address: address, prefix: prefix, discovery: options.haDiscovery, clientID: "marquee-" + prefix.replacingSlashes)
    }
    bridge?.start()
    defer {
      bridge?.stop()
      stop.set()
      server.join()
    }
    try MarqueeCommand.present(built.timeline, board: board, options: options, stop: stop, tap: frames)
  }

  /// The broker and topic prefix of `--mqtt` and `--mqtt-topic`, checked before anything
  /// starts (usage errors, exit 64).
  static func mqttBroker(_ options: RunOptions) throws(UsageError) -> (MQTTAddress, String)? {
    guard let url = options.mqttURL else {
      if options.haDiscovery { throw UsageError("'--ha-discovery' needs '--mqtt <mqtt://[user:password@]host[:port]>'.") }
      if options.mqttTopic != nil { throw UsageError("'--mqtt-topic' needs '--mqtt <mqtt://[user:password@]host[:port]>'.") }
      return nil
    }
    let address: MQTTAddress
    do {
      address = try MQTTAddress(url)
    } catch {
      throw UsageError("--mqtt: \(error)")
    }
    let prefix = options.mqttTopic ?? MQTTBridge.defaultPrefix()
    guard !prefix.isEmpty, !prefix.hasPrefix("/"), !prefix.hasSuffix("/"), !prefix.contains("+"), !prefix.contains("#"), !prefix.contains("//") else {
      throw UsageError("'--mqtt-topic \(prefix)' is not a topic prefix: use names joined by '/', like marquee/shop, without '+', '#' or a '/' at either end.")
    }
    return (address, prefix)
  }

  /// SIGHUP: the config file and the command line read again, each zone's content and
  /// options replaced, and the programs, brightness schedule and off periods with them; a
  /// config that fails to load (or changes the zones) changes nothing.
  static func reloader(path: String, arguments: [String], feed: Feed, pump: SchedulePump) -> @Sendable () -> String? {
    { () -> String? in
      do {
        let base = try ConfigFile.load(path)
        guard case .run(let options) = try CommandLineParser.parse(arguments, base: base.options, baseGiven: base.given) else {
          return "the command line no longer runs the sign"
        }
        let zones = try SignPlan.zoneOptions(options).map { ($0.name, $0.options) }
        try feed.reset(to: zones)
        pump.replace(schedule: options.schedule ?? SignSchedule())
        return nil
      } catch let error as UsageError {
        return error.message
      } catch {
        return "\(error)"
      }
    }
  }
}

extension String {
  /// The text with '/' as '-' (an MQTT client ID from a topic prefix).
  var replacingSlashes: String { String(map { $0 == "/" ? "-" : $0 }) }
}
