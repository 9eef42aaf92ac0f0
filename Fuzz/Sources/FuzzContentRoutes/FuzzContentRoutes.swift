import Marquee
import SignService
import SimpleJSON

/// One sign for every input, as a served sign on MQTT without a token takes commands.
let session = try! SignSession(RunOptions(), stop: StopFlag(), reports: .inMemory())
/// What the source may read.
let allowed = ["station/#", "shop/+/price"]
let source = CommandSource(keeps: false, valueFilters: allowed)

/// Topics a placeholder may name: allowed ones, and spellings near them that are not.
let topics = [
  "station/next", "station/a/b", "shop/x/price", "home/alarm/code", "station", "Station/next", "shop/x/y/price", "shop/price",
  "station/../home/alarm/code", "shop//price", "home/alarm/code|station/next", "station/next}{mqtt:home/alarm/code",
]
/// The topics no placeholder the sign takes may name (`shop//price` is allowed: `+` takes an
/// empty level, and `station/#` takes `station` itself).
let denied = ["home/alarm/code", "Station/next", "shop/x/y/price", "shop/price"]

/// libFuzzer entry point: the bytes choose commands of every kind that carries content
/// (content, a notification, programs, one program, its zones), each with placeholders
/// from `topics`, sent as a filtered source sends them. Whatever the sign accepts, nothing
/// it shows, keeps or plays names a topic the filters deny.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var index = 0
  while index + 2 < bytes.count {
    let message = JSONValue.string("at {mqtt:\(topics[Int(bytes[index + 1]) % topics.count])|-} and {mqtt:\(topics[Int(bytes[index + 2]) % topics.count])}")
    let content = JSONValue.object([("messages", .array([.string("plain"), message]))])
    let command: SignCommand
    switch bytes[index] % 7 {
    case 0: command = .content(content, replacing: false)
    case 1: command = .content(.object([("zones", .array([content]))]), replacing: true)
    case 2: command = .notify(.object([("messages", .array([message])), ("duration", .number(1))]))
    case 3: command = .putProgram(name: "p\(bytes[index + 1] % 3)", content)
    case 4: command = .programs([.object([("name", .string("z")), ("zones", .array([content]))])])
    case 5: command = .chooseProgram("p\(bytes[index + 2] % 3)")
    default: command = .programs([.object([("name", .string("d")), ("default", .bool(true)), ("messages", .array([message]))])])
    }
    _ = session.perform(command, from: source)
    index += 3
  }
  let shown = session.state().text + JSONValue.array(session.programSources).text + session.notifications().text
  for topic in denied where shown.contains("{mqtt:" + topic) { fatalError("the sign took {mqtt:\(topic)} from a source that may not read it") }
  return 0
}
