import Dispatch
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread of its own for a loop that runs as long as the sign does (a reader blocked on a
/// descriptor, a watcher that sleeps between looks).
///
/// Such loops must not run on Dispatch's global queue: its workers are as many as the
/// machine's cores, and each loop holds one for good, so on a one- or two-core board the
/// next loop waits about a second for Dispatch to add a worker, and the one after that
/// longer (an MQTT connection, a schedule, a lifetime watcher, each late).
public enum DetachedThread {
  final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts `body` on a new detached thread; returns whether the thread started (when it
  /// cannot, `body` runs on Dispatch's global queue instead, late rather than never).
  @discardableResult
  public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = ThreadHandle()
    let started = pthread_create(&thread, &attributes, { context in
      let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
      box.body()
      return nil
    }, context) == 0
    if !started {
      // Only when the system is out of threads: better late than never.
      let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
      DispatchQueue.global().async { box.body() }
    }
    return started
  }
}

/// A thread another waits for: started with a body, joined once it is told to end (a
/// server's loop, which closes its sockets as it ends).
public final class JoinableThread: @unchecked Sendable {
  var handle = ThreadHandle()
  var joined = false

  /// The thread `pthread_create` started.
  init(handle: ThreadHandle) { self.handle = handle }

  /// Starts `body` on a new thread; nil when the system has no thread to give.
  public init?(_ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(DetachedThread.Box(body)).toOpaque()
    let started = pthread_create(&handle, nil, { context in
      let box = Unmanaged<DetachedThread.Box>.fromOpaque(context!).takeRetainedValue()
      box.body()
      return nil
    }, context) == 0
    guard started else {
      Unmanaged<DetachedThread.Box>.fromOpaque(context).release()
      return nil
    }
  }

  /// Waits until the body has returned (once; later calls return at once). Not thread-safe:
  /// one owner joins.
  public func join() {
    guard !joined else { return }
    joined = true
    #if canImport(Darwin)
      if let handle { pthread_join(handle, nil) }
    #else
      pthread_join(handle, nil)
    #endif
  }
}
