import HTTP
import LiveData
import Platform

/// Fetches a live source's document once: over HTTP (with the validators of the last
/// answer) or from a file, within the source's time and size limits, and reads its items.
package struct SourceFetcher: Sendable {
  /// What one fetch gave: new items, or the same document as last time.
  package enum Outcome: Sendable, Equatable {
    case items([String])
    case unchanged
  }

  /// The validators of the last document (`ETag`, `Last-Modified`).
  package var entityTag: String?
  package var lastModified: String?

  package init() {}

  /// Fetches `source` once.
  ///
  /// - Throws: ``SourceFailure`` with the reason in words (the address, and what happened).
  package mutating func fetch(_ source: LiveSource) throws(SourceFailure) -> Outcome {
    let bytes: [UInt8]
    if source.isFile {
      let path = source.url.hasPrefix("file://") ? String(source.url.dropFirst("file://".count)) : source.url
      do {
        bytes = try FileBytes.read(path, limit: source.maximumBytes, regularOnly: true)
      } catch {
        throw SourceFailure(error.tooLarge ? "\(path): the file is larger than \(source.maximumBytes) bytes (the source's \"maxBytes\")" : "\(error)")
      }
    } else {
      let answer: HTTPFetch.Answer
      do {
        answer = try HTTPFetch.get(source.url, limit: source.timeout, maximumBytes: source.maximumBytes, entityTag: entityTag, lastModified: lastModified)
      } catch {
        throw SourceFailure(error.description)
      }
      (entityTag, lastModified) = (answer.entityTag, answer.lastModified)
      if answer.status == 304 { return .unchanged }
      bytes = answer.body
    }
    do {
      return .items(try source.items(from: bytes))
    } catch {
      // A document that cannot be read is not kept as the one to compare with.
      (entityTag, lastModified) = (nil, nil)
      throw SourceFailure("\(source.url): \(error)")
    }
  }
}

/// Why a source's fetch failed, in words for a person.
package struct SourceFailure: Error, Sendable, Equatable, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
