import Platform
import Drivers
import HTTP
import Marquee
import MQTT
import MatrixCore
import SignService
import SimpleJSON
import MarqueeServe

/// `marquee serve`: the sign, on any display, served over HTTP (and MQTT) in the same
/// process. The command line reads its arguments and the board; the sign session (the
/// service layer) runs the sign and ``ServedSign`` (MarqueeServe) serves it; the frame loop
/// shares each frame through the session's lights and never waits on the network.
enum Serve {
  static func run(_ options: RunOptions, arguments: [String], stop: StopFlag) throws {
    var options = options
    let board = try MarqueeCommand.resolveBoard(&options)
    guard let address = ListenAddress(options.listen) else { throw UsageError("'--listen \(options.listen)' is not an address") }
    let reports = SignReports.standardError()
    let token = try options.tokenFile.map { try TokenFile.load($0, reports: reports) }
    let broker = try mqttBroker(options)
    if broker != nil { hidePasswordsInArguments() }
    // Over HTTP, fonts are the names the sign offers, never paths of a request's choosing.
    var reload: (@Sendable () throws -> RunOptions)?
    if let path = options.configPath { reload = { try reloadedOptions(path: path, arguments: arguments) } }
    let session = try SignSession(options, stop: stop, reports: reports, fontAccess: .offered(folders: [], started: []), reload: reload)
    let statePath = options.statePath
    let mqtt = broker.map { address, prefix in
      var settings = ServedSign.MQTTSettings(
        address: address, prefix: prefix, discovery: options.haDiscovery, valueFilters: valueFilters(options, prefix: prefix),
        clientID: { listening in clientID(prefix: prefix, listen: listening, state: statePath) })
      settings.groups = options.mqttGroups
      return settings
    }
    let desk = try finderDesk(board, options: options, clock: session.clock)
    let served: ServedSign
    do {
      served = try ServedSign(
        session: session, listen: address, hosts: HostNames(extra: options.allowHosts), token: token, mqtt: mqtt,
        version: HelpText.version, stop: stop, finder: desk)
    } catch {
      throw SignFailure("\(error)")
    }
    if options.stdin && StandardDescriptors.closed.contains(0) {
      throw SignFailure("standard input is closed, and '--stdin' reads from it")
    }
    served.start()
    // Lines on standard input are commands to the same session as the API's and MQTT's.
    if options.stdin { LineFeed.start(session) }
    printError("Serving the sign at http://\(served.address)/ (the API under /api/; Ctrl-C stops)")
    defer {
      stop.set()
      served.finish()
    }
    guard let desk, let board else {
      try MarqueeCommand.present(session.timeline, board: board, options: session.options, stop: stop, tap: session.lights)
      return
    }
    // A HUB75 panel can be lent to the page's finder, and comes back with its settings.
    try desk.runDisplay(board, stop: stop, heartbeat: session.lights.heartbeat) { board, segment in
      try MarqueeCommand.present(session.timeline, board: board, options: session.options, stop: segment, tap: session.lights)
    }
  }

  /// The page's panel finder, for a sign on a HUB75 board that drives a panel (or emulates
  /// one): its board file is written with the settings found when it is the owner's own.
  static func finderDesk(_ board: SignBoard?, options: RunOptions, clock: SignClock) throws -> PanelFinderDesk? {
    guard let hub75 = board?.family as? HUB75Board, let value = options.boardPath, !options.dumps.contains(where: { $0.bus == .gpio }) else {
      return nil
    }
    let file = try BoardFiles.resolve(value)
    return PanelFinderDesk(
      board: hub75, boardFile: file, writable: BoardFiles.isPath(value), simulated: options.simulate, clock: clock
    ) { path in
      var reading = options
      reading.boardPath = path
      guard let board = try MarqueeCommand.resolveBoard(&reading) else { throw SignFailure("\(path): no board") }
      return board
    }
  }

  /// SIGHUP: the config file and the command line read again: the options a restart would
  /// run with.
  static func reloadedOptions(path: String, arguments: [String]) throws -> RunOptions {
    let base = try ConfigFile.load(path)
    guard case .run(let options) = try CommandLineParser.parse(arguments, base: base.options, baseGiven: base.given) else {
      throw SignFailure("the command line no longer runs the sign")
    }
    return options
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
      if !options.mqttGroups.isEmpty { throw UsageError("'--mqtt-group' needs '--mqtt <mqtt://[user:password@]host[:port]>'.") }
      return nil
    }
    var address: MQTTAddress
    do {
      address = try MQTTAddress(url)
    } catch {
      throw UsageError("--mqtt: \(error)")
    }
    // A password from a file or the environment keeps it out of the process list.
    let environment = Environment.value("MARQUEE_MQTT_PASSWORD")
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
    guard MQTTTopic.prefixProblem(prefix) == nil else {
      throw UsageError("'--mqtt-topic \(prefix)' is not a topic prefix: use names joined by '/', like marquee/shop, without '+', '#' or a '/' at either end.")
    }
    if options.mqttGroups.contains(prefix) {
      throw UsageError("'--mqtt-group \(prefix)' is the sign's own prefix: a group is a prefix other signs share.")
    }
    return (address, prefix)
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
