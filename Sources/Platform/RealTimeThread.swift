import CPlatform
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A joinable thread for a loop that keeps LEDs lit (a panel's scan): at real-time priority
/// (SCHED_FIFO) when the process may have it, at the normal priority otherwise.
public enum RealTimeThread {
  final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts `body` at SCHED_FIFO `priority`, or at the normal priority when that is refused,
  /// on a thread called `name` (as `top -H` and `ps -L` show it; at most 15 bytes kept).
  ///
  /// - Returns: the thread to join, and the `errno` of the attempt at real-time priority
  ///   (0: it runs at SCHED_FIFO).
  /// - Throws: ``SystemError`` when no thread can be started at all.
  public static func start(
    priority: Int32, name: String = "marquee-scan", _ body: @escaping @Sendable () -> Void
  ) throws(SystemError) -> (thread: JoinableThread, realTimeError: Int32) {
    let body: @Sendable () -> Void = {
      _ = marquee_name_calling_thread(name)
      body()
    }
    let run: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
      Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
      return nil
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED))
    pthread_attr_setschedpolicy(&attributes, SCHED_FIFO)
    var parameters = sched_param()
    parameters.sched_priority = priority
    pthread_attr_setschedparam(&attributes, &parameters)
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = ThreadHandle()
    let realTimeError = pthread_create(&thread, &attributes, run, context)
    if realTimeError != 0 {
      let result = pthread_create(&thread, nil, run, context)
      if result != 0 {
        Unmanaged<Box>.fromOpaque(context).release()
        throw SystemError(code: result, operation: "start a thread")
      }
    }
    return (JoinableThread(handle: thread), realTimeError)
  }
}

extension RealTimeThread {
  /// The CPUs the kernel keeps free of other tasks (`isolcpus=` on its command line), as
  /// `/sys/devices/system/cpu/isolated` lists them (`3`, `2-3`, `1,3`), in order.
  public static func isolatedCPUs(_ list: String) -> [Int] {
    list.split(whereSeparator: { $0 == "," || $0 == "\n" || $0 == " " }).flatMap { part -> [Int] in
      let bounds = part.split(separator: "-").compactMap { Int($0) }
      guard let first = bounds.first, bounds.count <= 2, let last = bounds.last, first <= last, last < 1024 else { return [] }
      return Array(first...last)
    }
  }

  /// The last isolated CPU of this machine, if the kernel isolates any.
  public static func isolatedCPU() -> Int? {
    guard let bytes = try? FileBytes.read("/sys/devices/system/cpu/isolated", limit: 4096) else { return nil }
    return isolatedCPUs(String(decoding: bytes, as: UTF8.self)).last
  }

  /// Keeps the calling thread on `cpu`; returns whether the kernel agreed.
  @discardableResult
  public static func pinCallingThread(to cpu: Int) -> Bool {
    marquee_pin_calling_thread(Int32(clamping: cpu)) == 0
  }
}
