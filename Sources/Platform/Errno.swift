#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's error numbers that the package tells apart, by name, and the one a
/// failed call just left: what a device's advice or a server's loop compares a
/// ``SystemError/code`` with, without naming the C library.
public enum Errno {
  /// The error number of the call that just failed (`errno`).
  public static var current: Int32 { errno }

  public static let noSuchFileOrDirectory = ENOENT
  public static let permissionDenied = EACCES
  public static let notPermitted = EPERM
  public static let resourceBusy = EBUSY
  public static let invalidArgument = EINVAL
  /// ENOTTY: the device does not know the ioctl (not the kind of node it was taken for).
  public static let inappropriateControl = ENOTTY
  public static let ioError = EIO
  /// ENOTSUP, which is EOPNOTSUPP on Linux.
  public static let notSupported = ENOTSUP
  public static let remoteIOError = EREMOTEIO
  public static let noSuchDeviceOrAddress = ENXIO
  public static let noSuchDevice = ENODEV
  public static let timedOut = ETIMEDOUT
  public static let tryAgain = EAGAIN
  public static let shutDown = ESHUTDOWN
  public static let messageTooLong = EMSGSIZE
  public static let brokenPipe = EPIPE
  public static let interrupted = EINTR
  public static let fileExists = EEXIST
  public static let badDescriptor = EBADF
  public static let cancelled = ECANCELED
  public static let addressInUse = EADDRINUSE
}

/// The flags of ``Descriptor/open(_:_:mode:keepOnExec:)`` and ``FileDescriptor``, by name
/// (combine them with `|`).
public enum OpenFlag {
  public static let readOnly = O_RDONLY
  public static let writeOnly = O_WRONLY
  public static let readWrite = O_RDWR
  public static let create = O_CREAT
  public static let exclusive = O_EXCL
  public static let truncate = O_TRUNC
  public static let nonBlocking = O_NONBLOCK
  public static let directory = O_DIRECTORY
  public static let noFollow = O_NOFOLLOW
  public static let synchronous = O_SYNC
  public static let closeOnExec = O_CLOEXEC
}
