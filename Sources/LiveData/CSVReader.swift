/// Comma-separated values as RFC 4180 writes them (and GTFS uses): a header row naming the
/// columns, fields in double quotes when they hold commas, quotes (doubled) or line breaks,
/// CRLF or LF line ends, a UTF-8 byte order mark skipped.
public enum CSVReader {
  /// Calls `row` with each record after the header, as the values of the columns asked for
  /// (`columns`, by name; "" for a column the file does not have), stopping when it returns
  /// false. The header's names are trimmed of spaces.
  public static func rows(_ bytes: [UInt8], columns: [String], _ row: ([String]) -> Bool) {
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var header: [Int]?
    var fields: [String] = []
    var field: [UInt8] = []
    var quoted = false
    var atFieldStart = true
    func endRecord() -> Bool {
      fields.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
      defer { fields.removeAll(keepingCapacity: true) }
      if fields.count == 1 && fields[0].isEmpty { return true }  // a blank line
      guard let positions = header else {
        let names = fields.map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
        header = columns.map { names.firstIndex(of: $0) ?? -1 }
        return true
      }
      return row(positions.map { $0 >= 0 && $0 < fields.count ? fields[$0] : "" })
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if quoted {
        if byte == UInt8(ascii: "\"") {
          if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
            field.append(byte)
            index += 1
          } else {
            quoted = false
          }
        } else {
          field.append(byte)
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\"") where atFieldStart:
        quoted = true
        atFieldStart = false
      case UInt8(ascii: ","):
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
        atFieldStart = true
      case 0x0D where index < bytes.count && bytes[index] == 0x0A:
        continue
      case 0x0A:
        if !endRecord() { return }
        atFieldStart = true
      default:
        field.append(byte)
        atFieldStart = false
      }
    }
    if !field.isEmpty || !fields.isEmpty { _ = endRecord() }
  }
}
