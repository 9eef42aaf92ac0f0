import LiveData
import SimpleJSON

/// `marquee sources`: each source of a config fetched once, for setting a sign up.
package enum SourceCheck {
  /// What one source gave.
  package struct Result: Sendable, Equatable {
    package var name: String
    package var items: [String]
    package var error: String?
  }

  /// Fetches each of `sources` once, in order.
  package static func run(_ sources: [LiveSource]) -> [Result] {
    sources.map { source in
      var fetcher = SourceFetcher()
      do throws(SourceFailure) {
        switch try fetcher.fetch(source) {
        case .items(let items): return Result(name: source.name, items: items)
        case .unchanged: return Result(name: source.name, items: [])
        }
      } catch {
        return Result(name: source.name, items: [], error: error.description)
      }
    }
  }

  /// A line per item, `NAME: TEXT`, or `NAME: error: REASON`; `NAME: (no items)` for a
  /// source that gave none. What the network sent is written with its control characters
  /// made visible, for a terminal.
  package static func text(_ results: [Result]) -> String {
    if results.isEmpty { return "The config has no \"sources\".\n" }
    return results.map { result in
      if let error = result.error { return "\(result.name): error: \(error.controlsMadeVisible)\n" }
      if result.items.isEmpty { return "\(result.name): (no items)\n" }
      return result.items.map { "\(result.name): \($0.controlsMadeVisible)\n" }.joined()
    }.joined()
  }

  /// `[{"name": …, "items": […], "error": null}, …]`.
  package static func json(_ results: [Result]) -> String {
    JSONValue.array(results.map { result in
      .object([("name", .string(result.name)), ("items", .array(result.items.map { .string($0) })), ("error", result.error.map { .string($0) } ?? .null)])
    }).text + "\n"
  }
}
