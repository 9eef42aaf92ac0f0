import LiveData

/// libFuzzer entry point: any bytes as what a live data source sends. The first byte picks
/// the reader (a feed, a GTFS-Realtime feed, a GTFS zip, CSV, an iCalendar file or a TZif
/// zone, a JSON value through a path and a format); the rest is the document. Each must refuse what it cannot read, never
/// crash, never read out of bounds, never give more items than asked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let first = bytes.first else { return 0 }
  let document = Array(bytes.dropFirst())
  switch first % 6 {
  case 0:
    if let items = try? FeedReader.items(document) {
      for item in items { precondition(!item.title.contains("\n")) }
    }
  case 1:
    if let feed = try? GTFSRealtimeFeed(document) {
      let board = DepartureBoard.departures(
        schedule: nil, realtime: feed, stop: "S1", now: 1_796_400_000, days: [.init(date: 20_261_205, weekday: 5, start: 1_796_400_000)], count: 3)
      precondition(board.count <= 3)
    }
  case 2:
    if let archive = try? ZipArchive(document) {
      for entry in archive.entries.prefix(8) { _ = try? archive.content(of: entry, limit: 1 << 20) }
    }
    _ = try? GTFSSchedule(zip: document, stop: "S1")
  case 3:
    var rows = 0
    CSVReader.rows(document, columns: ["a", "b"]) { row in
      precondition(row.count == 2)
      rows += 1
      return rows < 10_000
    }
  case 4:
    if let calendar = try? CalendarFile(document), let zone = try? TimeZoneRules(tzif: Array("TZif".utf8) + [UInt8](repeating: 0, count: 40)) {
      _ = calendar.occurrences(from: 1_796_400_000, to: 1_796_400_000 + 86_400 * 31, zone: { _ in nil }, local: zone)
    }
    _ = try? TimeZoneRules(tzif: document)
  default:
    let source = LiveSource(name: "x", url: "/x", every: 60, reading: .json(try! JSONPath("/a/0"), format: try! NumberFormat("{0:.2f} u")))
    if let items = try? source.items(from: document) { precondition(items.count <= LiveSource.maximumItems) }
  }
  return 0
}
