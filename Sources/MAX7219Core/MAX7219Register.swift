/// The MAX7219's register addresses (datasheet Table 2).
public enum MAX7219Register: UInt8, Sendable {
  case noOp = 0x0
  case digit0 = 0x1
  case decodeMode = 0x9
  case intensity = 0xA
  case scanLimit = 0xB
  case shutdown = 0xC
  case displayTest = 0xF
}
