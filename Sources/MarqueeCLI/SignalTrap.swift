#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif
import Dispatch
import Marquee

/// Catches SIGINT, SIGTERM and SIGHUP and turns them into a stop request, so the run loop
/// can blank the sign and restore the terminal before the process exits.
///
/// Create it first thing, before any device is opened. It must be created outside main-actor
/// code: a Dispatch handler that inherits main-actor isolation traps when it fires.
public final class SignalTrap {
  /// The signals that stop the sign.
  public static let stoppingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  private var sources: [any DispatchSourceSignal] = []

  /// Starts catching `signals`; each sets `stop` with its number.
  public nonisolated init(stop: StopFlag, signals: [Int32] = SignalTrap.stoppingSignals) {
    // A reader that goes away must not kill us mid-frame: writes report EPIPE instead.
    signal(SIGPIPE, SIG_IGN)
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { stop.set(signal: number) }
      source.resume()
      sources.append(source)
    }
  }

  deinit {
    for source in sources { source.cancel() }
  }
}
