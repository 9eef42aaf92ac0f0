@preconcurrency import Platform
import Marquee
import MatrixCore
import SignService

/// Catches SIGINT, SIGTERM and SIGHUP and turns them into a stop request, so the run loop
/// can blank the sign and restore the terminal before the process exits.
///
/// Create it first thing, before any device is opened. From then on a stop signal is never
/// lost: it is caught by a handler (not ignored and polled), it interrupts a system call
/// that blocks (opening a FIFO, writing to a pipe whose reader stopped), and a thread of
/// its own passes it to the ``StopFlag``. SIGPIPE and SIGXFSZ are ignored, so a reader
/// that goes away or a file size limit becomes an error with a message, not a silent death.
public final class SignalTrap: Sendable {
  /// The signals that stop the sign.
  public static let stoppingSignals: [Int32] = [StopSignal.interrupt, StopSignal.terminate, StopSignal.hangUp]

  /// Starts catching `signals`; each sets `stop` with its number.
  public nonisolated init(stop: StopFlag, signals: [Int32] = SignalTrap.stoppingSignals) {
    StopSignal.ignoreWriteSignals()
    let wake = StopSignal.install(signals)
    TerminalResize.install()
    if StopSignal.pending != 0 { stop.set(signal: StopSignal.pending) }
    guard wake >= 0 else { return }
    DetachedThread.start {
      var byte: UInt8 = 0
      while true {
        let count = withUnsafeMutableBytes(of: &byte) { Descriptor.read(wake, into: $0) }
        if count <= 0 { return }
        // A resize wakes the player to redraw; a stop signal stops it.
        if StopSignal.pending != 0 { stop.set(signal: StopSignal.pending) }
        stop.wake()
      }
    }
  }
}

/// Standard input, output and error as the program found them.
enum StandardDescriptors {
  /// Which of descriptors 0, 1 and 2 were closed when the program started.
  nonisolated(unsafe) static var closed: Set<Int32> = []

  /// Opens /dev/null on any of descriptors 0-2 that is closed, so nothing the program opens
  /// later takes its number (frames written to "standard output" would land in a device or a
  /// dump file), and remembers which were closed.
  static func secure() {
    for descriptor: Int32 in 0...2 where !Descriptor.isOpen(descriptor) {
      // open() takes the lowest free number: this one. Left open across exec, as the
      // descriptor it stands for would be.
      let opened = Descriptor.open("/dev/null", descriptor == 0 ? OpenFlag.readOnly : OpenFlag.writeOnly, keepOnExec: true)
      if opened == descriptor { closed.insert(descriptor) }
    }
  }
}
