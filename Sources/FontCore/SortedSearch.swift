/// Binary searches over the ascending arrays of the built-in tables (fonts, Unicode data),
/// which are constant data searched in place.
enum SortedSearch {
  /// The position of `key` in the ascending `keys`, or `nil`.
  static func index<Key: FixedWidthInteger>(of key: Key, in keys: [Key]) -> Int? {
    var low = 0, high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low < keys.count && keys[low] == key ? low : nil
  }

  /// The run that holds `code` in a table of runs: the last start at or below it (the
  /// first start is 0).
  static func run(of code: UInt32, in starts: [UInt32]) -> Int {
    var low = 0, high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= code { low = middle } else { high = middle - 1 }
    }
    return low
  }
}
