import Foundation
import MQTT
import Platform
import SimpleJSON
import TestSupport
import Synchronization
import Testing

/// The second attack on `marquee serve` (issue 34), one test per finding: each is the
/// sequence the attack sent, against the real binary, checking what a user would see (the
/// sign alive and answering, its memory, the bytes it sends the broker, the state file).
/// Run against the binary before the fixes (`MARQUEE_TEST_BINARY=…`), each of these fails.
@Suite(.offThePool) struct SecondAttackTests {
  final class Folder {
    let path = NSTemporaryDirectory() + "marquee-attack2-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  func state(_ sign: ServedSign) -> JSONValue? { try? ServeTests.json(sign.client.request("GET", "/api/state")) }
  func zone(_ sign: ServedSign) -> JSONValue? { state(sign)?["zones"]?.arrayValue?.first }
  func alive(_ sign: ServedSign) -> Bool { sign.client.request("GET", "/api/state")?.status == 200 }

  // MARK: 1. Numbers at the ends of their ranges

  /// Every value inside its documented range: the sign answers (a refusal naming the
  /// field, or 200) and keeps running. Before, each of these ended it with SIGILL.
  @Test func extremeNumbersInANotificationOrContentNeverKillTheSign() throws {
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "Open"])
    let long = #"["A long enough message to scroll"]"#
    let refused = sign.client.request("POST", "/api/notify", body: #"{"messages": \#(long), "passes": 100, "speed": 1e-6, "wake": true}"#)
    #expect(refused?.status == 400 && refused?.text.contains(#"{"error":"passes: 100 passes of this content last"#) == true, "\(refused?.text ?? "no answer")")
    let tiny = sign.client.request("POST", "/api/notify", body: #"{"messages": \#(long), "passes": 1, "speed": 1e-300}"#)
    #expect(tiny?.status == 400 && tiny?.text.contains("passes") == true, "\(tiny?.text ?? "no answer")")
    for speed in ["1e-300", "5e-324", "100000", "0"] {
      let answer = sign.client.request("PATCH", "/api/content", body: #"{"messages": \#(long), "speed": \#(speed)}"#)
      #expect(answer?.status == 200, "speed \(speed): \(answer?.text ?? "no answer")")
      #expect(alive(sign), "speed \(speed) ended the sign: \(sign.child.errorSoFar)")
    }
    let cycle = sign.client.request(
      "PATCH", "/api/content", body: #"{"messages": ["One", "Two"], "mode": "cycle", "speed": 1e-300, "dwell": 86400, "duration": 86400, "in": "scroll-up"}"#)
    #expect(cycle?.status == 200, "\(cycle?.text ?? "no answer")")
    let wide = sign.client.request("POST", "/api/notify", body: #"{"messages": ["x"], "duration": 86400, "wake": true, "priority": 100}"#)
    #expect(wide?.status == 200, "\(wide?.text ?? "no answer")")
    usleep(300_000)
    #expect(alive(sign), "\(sign.child.errorSoFar)")
    #expect(sign.stop().status == 128 + SIGTERM)
    // A recording of one loop that would last for ever is a usage error, not a hang.
    let once = try BinaryRunner.run(["--once", "--gif", "/dev/null", "--speed", "1e-300", "A long enough message to scroll"])
    #expect(once.status == 64 && once.stderr.contains("'--once' at this speed lasts"), "\(once.stderr)")
  }

  // MARK: 2. MQTT floods

  /// A broker floods `PREFIX/brightness` and `PREFIX/content`: only the newest of each waits,
  /// memory stays flat, the API's writes are answered in their normal time, and the last
  /// command is the one that shows. Before, memory grew by 1.7 GB and writes timed out.
  @Test func aFloodOfMQTTCommandsIsCoalescedAndTheAPIKeepsAnswering() throws {
    let broker = try FakeBroker()
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "--mqtt", broker.url, "--mqtt-topic", "shop/sign", "Start"])
    try #require(broker.waitForSign(), "\(sign.child.errorSoFar)")
    let before = sign.residentKB
    var burst: [UInt8] = []
    for level in 0..<2_000 {
      burst += FakeBroker.publish("shop/sign/brightness", "\(level % 16)")
      burst += FakeBroker.publish("shop/sign/content", #"{"messages": ["Flood \#(level)"]}"#)
    }
    final class Flag: Sendable { let value = Atomic<Bool>(true) }
    let flooding = Flag()
    let bytes = burst
    Thread.detachNewThread {
      let end = Date().addingTimeInterval(3)
      while Date() < end && broker.send(bytes) {}
      flooding.value.store(false, ordering: .releasing)
    }
    var slowest = 0.0, peak = before
    var writes = 0
    while flooding.value.load(ordering: .acquiring) && writes < 200 {
      let start = Date()
      let answer = sign.client.request("POST", "/api/pause", body: #"{}"#)
      slowest = max(slowest, Date().timeIntervalSince(start))
      #expect(answer?.status == 200)
      peak = max(peak, sign.residentKB)
      writes += 1
    }
    #expect(writes > 0)
    // The flood's bytes and the last commands must not interleave on the one connection.
    #expect(eventually(within: 30) { !flooding.value.load(ordering: .acquiring) })
    #expect(slowest < 2, "an API write took \(slowest) s during the flood")
    #expect(peak - before < 48 * 1024, "resident memory went from \(before) KiB to \(peak) KiB during the flood")
    broker.send(FakeBroker.publish("shop/sign/brightness", "7") + FakeBroker.publish("shop/sign/content", #"{"messages": ["Last"]}"#))
    #expect(eventually(within: 30) { state(sign)?["brightness"] == .number(7) && zone(sign)?["messages"] == .array([.string("Last")]) },
            "\(String(describing: state(sign)?["brightness"])) \(String(describing: zone(sign)?["messages"])) \(sign.child.errorSoFar.suffix(500))")
    let stats = try ServeTests.json(sign.client.request("GET", "/api/stats"))["mqtt"]
    #expect((stats?["replaced"]?.numberValue ?? 0) > 0, "\(String(describing: stats))")
    _ = sign.stop()
  }

  // MARK: 3. One small input that expands

  /// An icon 4,096 pixels wide named 4,000 times in a 44 KB body: refused with the field,
  /// memory flat. Before, 17 of them took 2.1 GB.
  @Test func anIconRepeatedInAMessageIsBoundedInPixels() throws {
    let folder = try Folder()
    var pbm = Array("P4\n4096 16\n".utf8)
    pbm += [UInt8](repeating: 0xAA, count: 4096 / 8 * 16)
    _ = FileManager.default.createFile(atPath: folder.path + "/wide.pbm", contents: Data(pbm))
    let sign = try ServedSign(["--output", "ascii", "--width", "64", "--height", "16", "--icons", folder.path, "Start"])
    let before = sign.residentKB
    let message = String(repeating: "{icon:wide}", count: 4_000)
    for _ in 0..<5 {
      let answer = sign.client.request("POST", "/api/notify", body: #"{"messages": ["\#(message)"], "duration": 60}"#)
      #expect(answer?.status == 400 && answer?.text.contains("pixels; a zone's content may hold at most") == true, "\(answer?.text.prefix(300) ?? "no answer")")
      let patch = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["\#(message)"]}"#)
      #expect(patch?.status == 400 && patch?.text.contains("messages") == true)
    }
    // A few of them still show.
    #expect(sign.client.request("PATCH", "/api/content", body: #"{"messages": ["{icon:wide}{icon:wide}"]}"#)?.status == 200)
    #expect(sign.residentKB - before < 32 * 1024, "resident memory went from \(before) KiB to \(sign.residentKB) KiB")
    _ = sign.stop()
  }

  // MARK: 4. The state file's limit and a file that cannot be read

  /// Programs that would take the state file past 1 MiB are refused (413) and the file
  /// stays one the next start reads; a state file that exists and cannot be read stops
  /// the start with the reason; one over the limit is set aside, not overwritten.
  @Test func theStateFileLimitHoldsOnWriteAndOnRead() throws {
    let folder = try Folder()
    let state = folder.path + "/sign.state"
    let sign = try ServedSign(["--state", state, "--output", "ascii", "--width", "32", "Start"])
    let text = String(repeating: "x", count: 60_000)
    var refused = 0
    for index in 0..<20 {
      let answer = sign.client.request("PUT", "/api/programs/p\(index)", body: #"{"days": ["mon"], "messages": ["\#(text)"]}"#)
      if answer?.status == 413 {
        refused += 1
        #expect(answer?.text.contains("over its limit of 1048576") == true, "\(answer?.text ?? "")")
      } else {
        #expect(answer?.status == 200, "\(answer?.text.prefix(200) ?? "no answer")")
      }
    }
    #expect(refused > 0)
    let size = (try FileManager.default.attributesOfItem(atPath: state)[.size] as? Int) ?? 0
    #expect(size <= 1 << 20, "the state file is \(size) bytes")
    let kept = try ServeTests.json(sign.client.request("GET", "/api/programs"))["programs"]?.arrayValue?.count ?? 0
    _ = sign.stop()
    // The next start reads every program that was acknowledged.
    let again = try ServedSign(["--state", state, "--output", "ascii", "--width", "32", "Start"])
    #expect(try ServeTests.json(again.client.request("GET", "/api/programs"))["programs"]?.arrayValue?.count == kept)
    _ = again.stop()
    // A state file that cannot be read (a folder where the file should be): no start.
    let blocked = folder.path + "/blocked.state"
    try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: true)
    let refusedStart = try BinaryRunner.run(["serve", "--listen", "127.0.0.1:0", "--state", blocked, "--output", "ascii", "--frames", "1", "X"])
    #expect(refusedStart.status == 1 && refusedStart.stderr.contains("the state file cannot be read"), "\(refusedStart.stderr)")
    // One over the limit is set aside, never replaced by the next write.
    let big = folder.path + "/big.state"
    try String(repeating: " ", count: (1 << 20) + 10).write(toFile: big, atomically: true, encoding: .utf8)
    let fresh = try ServedSign(["--state", big, "--output", "ascii", "--width", "32", "Start"])
    #expect(fresh.child.errorSoFar.contains("kept aside as \(big).broken-"), "\(fresh.child.errorSoFar)")
    _ = fresh.stop()
  }

  // MARK: 5, 7. Placeholder topics

  /// A placeholder topic MQTT does not allow is refused at the field; topics no content
  /// names are unsubscribed from; the 257th topic in use is refused where it is named.
  @Test func placeholderTopicsAreCheckedSubscribedAndForgotten() throws {
    let broker = try FakeBroker()
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "--mqtt", broker.url, "--mqtt-topic", "shop/sign", "--mqtt-values", "#", "Start"])
    try #require(broker.waitForSign(), "\(sign.child.errorSoFar)")
    let control = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["{mqtt:a\u0001b|-}"]}"#)
    #expect(control?.status == 400 && control?.text.contains("messages[0]") == true && control?.text.contains("U+0001") == true, "\(control?.text ?? "")")
    // A topic of 80,002 bytes (more than an HTTP body takes): over MQTT's content topic.
    let huge = String(repeating: "é", count: 40_001)
    broker.send(FakeBroker.publish("shop/sign/content", #"{"messages": ["{mqtt:\#(huge)}"]}"#))
    #expect(eventually { sign.child.errorSoFar.contains("a topic of 80002 bytes; MQTT allows 65535") }, "\(sign.child.errorSoFar.suffix(300))")
    #expect(sign.client.request("PATCH", "/api/content", body: #"{"messages": ["T {mqtt:room/temp|-}"]}"#)?.status == 200)
    #expect(eventually { broker.seen.withLock { $0.subscribed.contains("room/temp") } })
    #expect(sign.client.request("PATCH", "/api/content", body: #"{"messages": ["H {mqtt:room/humidity|-}"]}"#)?.status == 200)
    #expect(eventually { broker.seen.withLock { $0.unsubscribed.contains("room/temp") && $0.subscribed.contains("room/humidity") } })
    // No subscription the broker would drop the connection for was ever sent.
    #expect(broker.seen.withLock { $0.subscribed.allSatisfy { MQTTTopic.problem($0, filter: true) == nil } })
    let many = (0..<257).map { "{mqtt:t/\($0)}" }.joined()
    let past = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["\#(many)"]}"#)
    #expect(past?.status == 400 && past?.text.contains("257th placeholder topic") == true, "\(past?.text.prefix(200) ?? "")")
    #expect(broker.seen.withLock { $0.connects.count } == 1)
    _ = sign.stop()
  }

  // MARK: 6. Oversized packets

  /// A retained message over 256 KiB on the content topic, and a 1 MB value on a
  /// placeholder topic: each skipped and counted, the connection kept, the next values shown.
  @Test func anOversizedMessageIsSkippedAndTheConnectionKept() throws {
    let broker = try FakeBroker()
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "--mqtt", broker.url, "--mqtt-topic", "shop/sign", "Start {mqtt:shop/sign/v|-}"])
    try #require(broker.waitForSign(), "\(sign.child.errorSoFar)")
    broker.send(FakeBroker.publish("shop/sign/content", [UInt8](repeating: 0x20, count: 300 * 1024), retain: true, qos: 1))
    broker.send(FakeBroker.publish("shop/sign/v", [UInt8](repeating: 0x41, count: 1 << 20)))
    broker.send(FakeBroker.publish("shop/sign/v", "42"))
    #expect(eventually { zone(sign)?["showing"] == .array([.string("Start 42")]) }, "\(sign.child.errorSoFar)")
    #expect(sign.child.errorSoFar.contains("over the limit of 256 KiB; skipped"))
    #expect(try ServeTests.json(sign.client.request("GET", "/api/stats"))["mqtt"]?["oversized"] == .number(2))
    #expect(broker.seen.withLock { $0.connects.count } == 1, "the sign reconnected: \(sign.child.errorSoFar)")
    _ = sign.stop()
  }

  // MARK: 8. Live data is never kept

  /// A person's PATCH, MQTT content, then a person's `{"speed": 35}`: the state file holds
  /// the person's messages at speed 35, and a restart shows them, not MQTT's.
  @Test func liveDataIsNeverWrittenWhateverTheOrder() throws {
    let folder = try Folder()
    let stateFile = folder.path + "/sign.state"
    let broker = try FakeBroker()
    let arguments = ["--state", stateFile, "--output", "ascii", "--width", "32", "--mqtt", broker.url, "--mqtt-topic", "shop/sign", "Start"]
    let sign = try ServedSign(arguments)
    try #require(broker.waitForSign())
    #expect(sign.client.request("PATCH", "/api/content", body: #"{"messages": ["Person"]}"#)?.status == 200)
    broker.send(FakeBroker.publish("shop/sign/content", #"{"messages": ["Live"]}"#))
    #expect(eventually { zone(sign)?["messages"] == .array([.string("Live")]) })
    let answer = try ServeTests.json(sign.client.request("PATCH", "/api/content", body: #"{"speed": 35}"#))
    #expect(answer["kept"] == .bool(true))
    sign.child.send(SIGKILL)
    _ = sign.child.wait(timeout: 10)
    let again = try ServedSign(arguments)
    #expect(zone(again)?["messages"] == .array([.string("Person")]) && zone(again)?["speed"] == .number(35), "\(String(describing: zone(again)))")
    _ = again.stop()
  }

  // MARK: 9. A reload runs what a restart would

  @Test func afterSIGHUPPauseBrightnessAndPowerAreWhatARestartWouldShow() throws {
    let folder = try Folder()
    let config = folder.path + "/sign.json"
    try #"{"messages": ["Config"], "width": 32}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let stateFile = folder.path + "/sign.state"
    let sign = try ServedSign(["--config", config, "--state", stateFile, "--output", "ascii"])
    #expect(sign.client.request("POST", "/api/pause", body: "{}")?.status == 200)
    #expect(sign.client.request("POST", "/api/brightness", body: #"{"brightness": 3}"#)?.status == 200)
    #expect(sign.client.request("POST", "/api/power", body: #"{"on": false}"#)?.status == 200)
    sign.child.send(SIGHUP)
    #expect(eventually { sign.child.errorSoFar.contains("SIGHUP: the config was reloaded") })
    #expect(eventually {
      let now = state(sign)
      return now?["paused"] == .bool(false) && now?["brightness"] == .number(15) && now?["on"] == .bool(true)
    }, "\(String(describing: state(sign)))")
    _ = sign.stop()
  }

  // MARK: 10. A confused deputy

  /// Content over MQTT (and from the API without a token) may name only the topics the
  /// owner allows; a token holder and the config may name any.
  @Test func placeholdersFromMQTTReadOnlyTopicsTheOwnerAllows() throws {
    let broker = try FakeBroker()
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "--mqtt", broker.url, "--mqtt-topic", "shop/sign", "--mqtt-values", "station/#", "Start"])
    try #require(broker.waitForSign())
    broker.send(FakeBroker.publish("shop/sign/content", #"{"messages": ["{mqtt:home/alarm/code}"]}"#))
    #expect(eventually { sign.child.errorSoFar.contains("{mqtt:home/alarm/code} names a topic this source may not read") }, "\(sign.child.errorSoFar)")
    let api = sign.client.request("PATCH", "/api/content", body: #"{"zones": [{"messages": ["{mqtt:home/alarm/code}"]}]}"#)
    #expect(api?.status == 400 && api?.text.contains("zones[0].messages[0]") == true, "\(api?.text ?? "")")
    broker.send(FakeBroker.publish("shop/sign/content", #"{"messages": ["Next {mqtt:station/next|-}"]}"#))
    #expect(eventually { zone(sign)?["messages"] == .array([.string("Next {mqtt:station/next|-}")]) })
    #expect(!broker.seen.withLock { $0.subscribed.contains("home/alarm/code") })
    _ = sign.stop()
  }

  // MARK: 11. The password

  @Test func theMQTTPasswordIsNeverShown() throws {
    let folder = try Folder()
    let broker = try FakeBroker()
    let usage = try BinaryRunner.run(["serve", "--mqtt", "mqtt://sign:s3cret@127.0.0.1:99999", "x"])
    #expect(usage.status == 64 && !usage.stderr.contains("s3cret") && usage.stderr.contains("sign:***@"), "\(usage.stderr)")
    let encoding = try BinaryRunner.run(["serve", "--mqtt", "mqtt://sign:s3%zzcret@127.0.0.1", "x"])
    #expect(encoding.status == 64 && !encoding.stderr.contains("s3%zzcret"), "\(encoding.stderr)")
    let inline = try ServedSign(["--output", "ascii", "--mqtt", "mqtt://sign:s3cret@127.0.0.1:\(broker.port)", "x"])
    try #require(broker.waitForSign())
    let line = (try? String(contentsOfFile: "/proc/\(inline.child.pid)/cmdline", encoding: .utf8)) ?? ""
    #expect(!line.contains("s3cret") && line.contains("sign:******@"), "\(line)")
    #expect(broker.seen.withLock { $0.connects.last?.password } == "s3cret")
    _ = inline.stop()
    let file = folder.path + "/password"
    try "fr0m-file\n".write(toFile: file, atomically: true, encoding: .utf8)
    let second = try FakeBroker()
    let fromFile = try ServedSign(["--output", "ascii", "--mqtt", "mqtt://sign@127.0.0.1:\(second.port)", "--mqtt-password-file", file, "x"])
    try #require(second.waitForSign())
    #expect(second.seen.withLock { $0.connects.last?.password } == "fr0m-file")
    _ = fromFile.stop()
    let third = try FakeBroker()
    let fromEnvironment = try ServedSign(["--output", "ascii", "--mqtt", "mqtt://sign@127.0.0.1:\(third.port)", "x"], environment: ["MARQUEE_MQTT_PASSWORD": "env-secret"])
    try #require(third.waitForSign())
    #expect(third.seen.withLock { $0.connects.last?.password } == "env-secret")
    _ = fromEnvironment.stop()
  }

  // MARK: 12. The state file's folder

  @Test func theStateFileNeverFollowsALinkNorLivesInAFolderOthersWrite() throws {
    let folder = try Folder()
    let open = folder.path + "/open"
    try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
    chmod(open, 0o777)
    let refused = try BinaryRunner.run(["serve", "--listen", "127.0.0.1:0", "--state", open + "/sign.state", "--frames", "1", "--output", "ascii", "x"])
    #expect(refused.status == 1 && refused.stderr.contains("may be written by others (mode 777)"), "\(refused.stderr)")
    let target = folder.path + "/target"
    try "untouched".write(toFile: target, atomically: true, encoding: .utf8)
    let stateFile = folder.path + "/sign.state"
    symlink(target, stateFile + ".new")
    let sign = try ServedSign(["--state", stateFile, "--output", "ascii", "x"])
    #expect(sign.client.request("PATCH", "/api/content", body: #"{"messages": ["Changed"]}"#)?.status == 200)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched")
    #expect(try String(contentsOfFile: stateFile, encoding: .utf8).contains("Changed"))
    _ = sign.stop()
  }

  // MARK: 13. Reconnect storms and client IDs

  /// A broker that accepts and drops at once gets connects 0.5, 1, 2 s apart or more, not
  /// every 0.5 s; two signs with one prefix use two client IDs.
  @Test func aBrokerThatDropsTheSignGetsBackedOffAndClientIDsAreUnique() throws {
    let dropping = try FakeBroker(dropsAfterConnect: true)
    let sign = try ServedSign(["--output", "ascii", "--mqtt", dropping.url, "--mqtt-topic", "same", "x"])
    // Four connects, waited for with a bound (a loaded machine only makes the pauses longer);
    // each pause at least the one before it doubled, from 0.5 s.
    #expect(eventually(within: 60) { dropping.seen.withLock { $0.connects.count >= 4 } }, "fewer than four connects in 60 s")
    let connects = dropping.seen.withLock { $0.connects.map(\.at) }
    let gaps = zip(connects.dropFirst(), connects).map { $0 - $1 }
    #expect(gaps.count >= 3 && zip(gaps, [0.5, 1, 2]).allSatisfy { $0 >= $1 * 0.9 }, "gaps \(gaps)")
    _ = sign.stop()
    let broker = try FakeBroker()
    let one = try ServedSign(["--output", "ascii", "--mqtt", broker.url, "--mqtt-topic", "same", "x"])
    let two = try ServedSign(["--output", "ascii", "--mqtt", broker.url, "--mqtt-topic", "same", "y"])
    #expect(eventually { broker.seen.withLock { $0.connects.count } >= 2 })
    let ids = broker.seen.withLock { $0.connects.map(\.clientID) }
    #expect(Set(ids).count == ids.count && ids.allSatisfy { $0.hasPrefix("marquee-same-") }, "\(ids)")
    _ = one.stop()
    _ = two.stop()
  }

  // MARK: 14. What is kept is said

  @Test func theAnswerSaysWhetherAChangeIsKept() throws {
    let folder = try Folder()
    let sign = try ServedSign(["--state", folder.path + "/sign.state", "--output", "ascii", "x"])
    let live = try ServeTests.json(sign.client.request("PATCH", "/api/content", body: #"{"messages": ["Live"], "lifetime": 60}"#))
    #expect(live["kept"] == .bool(false))
    let person = try ServeTests.json(sign.client.request("PATCH", "/api/content", body: #"{"messages": ["Mine"]}"#))
    #expect(person["kept"] == .bool(true))
    _ = sign.stop()
  }

  // MARK: 15. marquee notify's deadline

  /// A server that sends one byte every 2 s: `marquee notify` gives up after its 10 s.
  @Test(.timeLimit(.minutes(1))) func marqueeNotifyHasATotalDeadline() throws {
    let (listener, port) = try #require(LoopbackListener.open(backlog: 1))
    defer { close(listener) }
    Thread.detachNewThread {
      let fd = accept(listener, nil, nil)
      guard fd >= 0 else { return }
      for byte in Array("HTTP/1.1 200 OK\r\nX: ".utf8) + [UInt8](repeating: 0x61, count: 20) {
        guard TCPConnection.write([byte], to: fd) else { break }
        usleep(2_000_000)
      }
      close(fd)
    }
    let start = Date()
    let result = try BinaryRunner.run(["notify", "http://127.0.0.1:\(port)", "Hello"])
    let took = Date().timeIntervalSince(start)
    #expect(result.status == 1 && result.stderr.contains("did not answer within 10 s"), "\(result.stderr)")
    #expect(took < 14, "it waited \(took) s")
  }

  // MARK: A bad file in the icon folder

  /// One truncated PNG among good icons: the sign starts, says which file and why, and
  /// refuses only the messages that name it.
  @Test func aBrokenIconFileIsLeftOutAndTheSignStarts() throws {
    let folder = try Folder()
    _ = FileManager.default.createFile(atPath: folder.path + "/good.pbm", contents: Data(Array("P1\n3 3\n1 0 1\n0 1 0\n1 0 1\n".utf8)))
    _ = FileManager.default.createFile(atPath: folder.path + "/bad.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]))
    let sign = try ServedSign(["--output", "ascii", "--width", "32", "--icons", folder.path, "{icon:good}"])
    #expect(sign.child.errorSoFar.contains("Warning: \(folder.path)/bad.png"), "\(sign.child.errorSoFar)")
    let bad = sign.client.request("PATCH", "/api/content", body: #"{"messages": ["{icon:bad}"]}"#)
    #expect(bad?.status == 400 && bad?.text.contains("the icon 'bad' cannot be shown: \(folder.path)/bad.png") == true, "\(bad?.text ?? "")")
    #expect(sign.client.request("PATCH", "/api/content", body: #"{"messages": ["{icon:good} ok"]}"#)?.status == 200)
    _ = sign.stop()
    let listing = try BinaryRunner.run(["icons", "--icons", folder.path])
    #expect(listing.status == 0 && listing.stdout.contains("bad.png") && listing.stdout.contains("good"), "\(listing.stdout)")
  }
}
