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
    if broker != nil { hidePasswordsInArguments() }
    if let statePath = options.statePath { try StateFile.checkFolder(of: statePath) }
    // Over HTTP, fonts are the names the sign offers, never paths of a request's choosing.
    // What was changed over the API before a restart or a power cut, over the config.
    let saved = try options.statePath.flatMap(StateFile.load)
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
      statePath: options.statePath, pump: pump, controller: controller,
      valueFilters: broker != nil && token == nil ? valueFilters(options, prefix: broker!.1) : nil)
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
      MQTTBridge(
        api: api, address: address, prefix: prefix, discovery: options.haDiscovery,
        clientID: clientID(prefix: prefix, listen: "\(server.address)", state: options.statePath),
        valueFilters: valueFilters(options, prefix: prefix))
    }
    bridge?.start()
    defer {
      bridge?.stop()
      stop.set()
      server.join()
    }
    try MarqueeCommand.present(built.timeline, board: board, options: options, stop: stop, tap: frames)
  }

  /// Overwrites, in this process's own argument memory, the password of an `mqtt://` URL
  /// with `*`: `/proc/PID/cmdline` (ps, top) then no longer shows it. Someone who read it
  /// in the moment before is not helped: `--mqtt-password-file` keeps it off the line.
  static func hidePasswordsInArguments() {
    for index in 0..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index] else { continue }
      let text = String(cString: argument)
      guard text.contains("://"), text.contains("@") else { continue }
      let hidden = MQTTAddress.redacted(text)
      guard hidden != text, let start = hidden.utf8.firstIndex(of: UInt8(ascii: "*")) else { continue }
      let from = hidden.utf8.distance(from: hidden.utf8.startIndex, to: start)
      let length = text.utf8.count - (hidden.utf8.count - 3) // the password's bytes
      for offset in from..<(from + length) { argument[offset] = CChar(UInt8(ascii: "*")) }
    }
  }

  /// The broker and topic prefix of `--mqtt` and `--mqtt-topic`, checked before anything
  /// starts (usage errors, exit 64).
  static func mqttBroker(_ options: RunOptions) throws(UsageError) -> (MQTTAddress, String)? {
    guard let url = options.mqttURL else {
      if options.haDiscovery { throw UsageError("'--ha-discovery' needs '--mqtt <mqtt://[user:password@]host[:port]>'.") }
      if options.mqttTopic != nil { throw UsageError("'--mqtt-topic' needs '--mqtt <mqtt://[user:password@]host[:port]>'.") }
      return nil
    }
    var address: MQTTAddress
    do {
      address = try MQTTAddress(url)
    } catch {
      throw UsageError("--mqtt: \(error)")
    }
    // A password from a file or the environment keeps it out of the process list.
    let environment = getenv("MARQUEE_MQTT_PASSWORD").map { String(cString: $0) }
    if let file = options.mqttPasswordFile {
      guard address.password == nil else { throw UsageError("'--mqtt-password-file' and a password in '--mqtt' both give the password: give it once.") }
      do {
        let bytes = try FileBytes.read(file, limit: 4096, regularOnly: true)
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        address.password = String(line.hasSuffix("\r") ? line.dropLast() : line)
      } catch {
        throw UsageError("'--mqtt-password-file \(file)': \(error.reason).")
      }
    } else if let environment, address.password == nil {
      address.password = environment
    }
    if address.password != nil && address.username == nil {
      throw UsageError("--mqtt: '\(MQTTAddress.redacted(url))' gives a password but no user name: mqtt://user@host with the password in --mqtt-password-file or MARQUEE_MQTT_PASSWORD.")
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

extension Serve {
  /// The topic filters placeholders may read in content from MQTT (and from the API
  /// without a token): `--mqtt-values`, or the sign's own topics.
  static func valueFilters(_ options: RunOptions, prefix: String) -> [String] {
    options.mqttValues.isEmpty ? [prefix + "/#"] : options.mqttValues
  }

  /// The sign's MQTT client ID: `marquee-PREFIX-HASH`, the hash of this machine's ID, the
  /// listen address and the state file, so that two signs never share one (a broker drops
  /// the older connection of a client ID that connects twice) while a restarted sign
  /// takes over its own.
  static func clientID(prefix: String, listen: String, state: String?) -> String {
    let machine = (try? FileBytes.read("/etc/machine-id", limit: 256, regularOnly: true)) ?? Array(MQTTBridge.defaultPrefix().utf8)
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in machine + Array("\u{0}\(listen)\u{0}\(state ?? "")".utf8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let digits = String(hash & 0xFFFF_FFFF, radix: 16)
    return "marquee-" + String(prefix.map { $0 == "/" ? "-" : $0 }) + "-" + String(repeating: "0", count: 8 - digits.count) + digits
  }
}
