import MQTT
import MarqueeCLI

/// libFuzzer entry point: the bytes as what signs published, split into retained messages
/// (a status, then states) under `signs/`, read by `marquee fleet`'s view. It never traps
/// (numbers of any size), the table holds no byte that steers a terminal, and each line is
/// bounded whatever a state holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var messages: [MQTTPacket.Message] = []
  for (index, part) in bytes.split(separator: 0x1F, omittingEmptySubsequences: false).enumerated() {
    let name = "signs/s\(index % 3)"
    messages.append(MQTTPacket.Message(topic: name + "/status", payload: Array("online".utf8)))
    messages.append(MQTTPacket.Message(topic: name + (index % 4 == 3 ? "/status" : "/state"), payload: Array(part)))
  }
  let table = MarqueeCLI.FleetCommand.table(under: "signs", messages: messages)
  for scalar in table.unicodeScalars where scalar != "\n" {
    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value) {
      fatalError("the fleet table writes U+\(String(scalar.value, radix: 16))")
    }
  }
  for line in table.split(separator: "\n") where line.unicodeScalars.count > 4_000 { fatalError("a line of \(line.unicodeScalars.count) characters") }
  return 0
}
