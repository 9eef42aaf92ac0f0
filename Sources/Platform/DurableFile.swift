#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing a file so that a power cut leaves the old one or the new one, whole: a new file
/// beside it under a name of its own (never through a link: `O_EXCL | O_NOFOLLOW`, mode
/// 0600), flushed, renamed over the old, and the folder flushed. Only when ``write(_:to:what:)``
/// returns is the change on the disk. The state file and uploaded icons are written so.
public enum DurableFile {
  /// Why a file could not be written: the file and the step that failed, in words.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Writes `bytes` to `path`; `what` names the file's kind in errors ("the state").
  ///
  /// - Throws: ``Failure`` naming the file and what failed (nothing replaced).
  public static func write(_ bytes: [UInt8], to path: String, what: String) throws(Failure) {
    var temporary = ""
    var descriptor: Int32 = -1
    for attempt in 0..<16 where descriptor < 0 {
      temporary = "\(path).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      descriptor = Descriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
      if descriptor < 0 && (errno != EEXIST || attempt == 15) {
        throw Failure(description: "\(temporary): cannot write \(what): \(SystemError.last("open").reason)")
      }
    }
    guard Descriptor.writeAll(descriptor, bytes) else {
      let reason = SystemError.last("write").reason
      Descriptor.close(descriptor)
      unlink(temporary)
      throw Failure(description: "\(temporary): cannot write \(what): \(reason)")
    }
    guard fsync(descriptor) == 0 else {
      let code = errno
      Descriptor.close(descriptor)
      unlink(temporary)
      throw Failure(description: "\(temporary): cannot flush \(what) to the disk: \(String(cString: strerror(code)))")
    }
    Descriptor.close(descriptor)
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw Failure(description: "\(path): cannot replace \(what): \(String(cString: strerror(code)))")
    }
    // The rename is on the disk once the folder is.
    let directory = Descriptor.open(folder(of: path), O_RDONLY | O_DIRECTORY)
    if directory >= 0 {
      _ = fsync(directory)
      Descriptor.close(directory)
    }
  }

  /// The folder a file is in ("." for a bare name, "/" for a file at the root).
  public static func folder(of path: String) -> String {
    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    return folder.isEmpty ? "/" : folder
  }

  /// Removes what writes cut short left in `folder` (a SIGKILL or a power cut between the
  /// new file's creation and its rename): files named as ``write(_:to:what:)`` names its
  /// new files, `NAME.new-PID-NUMBER`, for the names `belongs` accepts. Returns how many.
  @discardableResult
  public static func removeLeftovers(in folder: String, of belongs: (String) -> Bool) -> Int {
    var removed = 0
    for entry in FileBytes.entries(of: folder) {
      guard let marker = entry.ranges(of: ".new-").last else { continue }
      let numbers = entry[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
      guard numbers.count == 2, numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
        belongs(String(entry[..<marker.lowerBound]))
      else { continue }
      if unlink(folder + "/" + entry) == 0 { removed += 1 }
    }
    return removed
  }
}
