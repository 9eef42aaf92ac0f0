// The C library as the rest of Platform calls it. Platform is the package's one door to the
// C library: it does not pass the library on (no `@_exported import`), and what the other
// modules need from the kernel (descriptors, sleeps, ioctls, sockets, the environment) is
// offered here as Swift, with failures as `errno`. PlatformBoundaryTests keeps it so.
#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// A thread's handle as `pthread_create` fills it in.
#if canImport(Darwin)
  public typealias ThreadHandle = pthread_t?
#else
  public typealias ThreadHandle = pthread_t
#endif

/// The C library's calls whose names Swift code also uses for its own methods (`read`,
/// `write`, `open`, `send`...), so a type's method can call the system's without naming
/// the library.
enum LibC {
  #if canImport(Glibc)
    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
    public static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Glibc.open(path, flags, mode) }
    public static func send(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int { Glibc.send(fd, buffer, count, flags) }
    public static func recv(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int { Glibc.recv(fd, buffer, count, flags) }
    public static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 { Glibc.connect(fd, address, length) }
    public static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(fd, backlog) }
    public static func close(_ fd: Int32) -> Int32 { Glibc.close(fd) }
    public static func pipe(_ ends: inout [Int32]) -> Int32 { Glibc.pipe(&ends) }
    public static func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 { Glibc.ioctl(fd, request, argument) }
  #elseif canImport(Musl)
    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Musl.read(fd, buffer, count) }
    public static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Musl.write(fd, buffer, count) }
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Musl.open(path, flags, mode) }
    public static func send(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int { Musl.send(fd, buffer, count, flags) }
    public static func recv(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int { Musl.recv(fd, buffer, count, flags) }
    public static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 { Musl.connect(fd, address, length) }
    public static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 { Musl.listen(fd, backlog) }
    public static func close(_ fd: Int32) -> Int32 { Musl.close(fd) }
    public static func pipe(_ ends: inout [Int32]) -> Int32 { Musl.pipe(&ends) }
    public static func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 { Musl.ioctl(fd, request, argument) }
  #endif
}
