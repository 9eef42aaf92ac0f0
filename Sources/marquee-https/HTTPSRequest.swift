import Platform

/// What the sign asks `marquee-https` for, read from its arguments.
struct HTTPSRequest {
  var url: String
  /// Seconds for the whole exchange.
  var limit: Double = 10
  /// The largest document taken: more is an error, not a cut.
  var maximumBytes = 1_048_576
  var entityTag: String?
  var lastModified: String?
  /// A PEM file of a certificate authority trusted for this fetch besides the system's.
  var certificateAuthority: String?

  /// A word of the arguments that is wrong.
  struct UsageError: Error, CustomStringConvertible {
    var description: String
  }

  init(arguments: [String]) throws(UsageError) {
    var url: String?
    var index = 0
    func value(_ name: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let word = arguments[index]
      switch word {
      case "--limit":
        guard let seconds = Double(try value(word)), seconds > 0, seconds <= 3600 else { throw UsageError(description: "--limit takes seconds from 0 to 3600") }
        limit = seconds
      case "--max-bytes":
        guard let bytes = Int(try value(word)), bytes > 0, bytes <= 1 << 30 else { throw UsageError(description: "--max-bytes takes a count from 1 to 1073741824") }
        maximumBytes = bytes
      case "--if-none-match": entityTag = try value(word)
      case "--if-modified-since": lastModified = try value(word)
      case "--ca": certificateAuthority = try value(word)
      default:
        guard url == nil, !word.hasPrefix("-") else { throw UsageError(description: "unexpected '\(word)'") }
        url = word
      }
      index += 1
    }
    guard let url else { throw UsageError(description: "usage: marquee-https URL [--limit SECONDS] [--max-bytes N] [--if-none-match TAG] [--if-modified-since DATE] [--ca FILE]") }
    guard url.lowercased().hasPrefix("https://") else { throw UsageError(description: "\(url): not an https:// address") }
    self.url = url
  }

  /// Writes `reason` as one line to standard error and exits with `status`.
  static func fail(_ reason: String, status: Int32) -> Never {
    let line = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
    Descriptor.writeAll(2, Array((line + "\n").utf8))
    Environment.exitProcess(status)
  }
}
