#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the file system says of a path (`stat`).
public struct FileStatus: Sendable, Equatable {
  public var device: UInt64
  public var inode: UInt64
  public var size: Int64
  /// Last modification, in whole seconds of Unix time.
  public var modified: Int
  /// The permission bits and the kind (`st_mode`).
  public var mode: UInt32

  /// The status of `path` (links followed); nil when it cannot be had (`errno` says why).
  public init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    modified = Int(info.st_mtim.tv_sec)
    mode = UInt32(info.st_mode)
  }

  /// Whether it is a folder.
  public var isFolder: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
  /// Whether it is a regular file.
  public var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
  /// The permission bits (`0o755`).
  public var permissions: UInt32 { mode & 0o7777 }
  /// Whether its group or everyone else may write it.
  public var othersMayWrite: Bool { mode & UInt32(S_IWGRP | S_IWOTH) != 0 }
}

/// The file system's calls on paths that the package makes: remove, move, resolve, check.
public enum FileSystem {
  /// Removes the file at `path`; whether it did.
  @discardableResult
  public static func removeFile(_ path: String) -> Bool {
    unlink(path) == 0
  }

  /// Renames `path` to `target` (replacing it, on one file system); whether it did.
  @discardableResult
  public static func move(_ path: String, to target: String) -> Bool {
    rename(path, target) == 0
  }

  /// Whether this process may read (and, with `write`, write) `path`.
  public static func mayAccess(_ path: String, write: Bool = false) -> Bool {
    access(path, R_OK | (write ? W_OK : 0)) == 0
  }

  /// The path with links, `.` and `..` resolved, or nil if it does not exist.
  public static func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// This process's id.
  public static var processID: Int32 { getpid() }
}
