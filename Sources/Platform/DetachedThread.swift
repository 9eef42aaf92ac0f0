import Dispatch

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
