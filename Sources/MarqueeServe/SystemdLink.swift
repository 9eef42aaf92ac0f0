import Platform
import Marquee
import SignService
import Synchronization

/// The sign's side of systemd's `Type=notify-reload` protocol: `READY=1` once the first
/// frame is shown (not before), `RELOADING=1` and `READY=1` around a SIGHUP reload,
/// `STOPPING=1` on the way out, `STATUS=` lines for `systemctl status`, and, with a
/// watchdog, `WATCHDOG=1` at half its interval only while the frame loop is alive: resting
/// between frames (or through an off period), or working on a frame for less than half the
/// interval. A loop stuck in a frame stops the pings and systemd restarts the sign.
final class SystemdLink: Sendable {
  let notifier: SystemdNotifier
  /// The watchdog's interval, in seconds, if systemd set one.
  let watchdog: Double?
  let session: SignSession
  let stats: ServeStats
  let stop: StopFlag
  /// Whether `STOPPING=1` went: it is said once, by whoever comes first, and is the last
  /// word (sends hold this lock, so no status or ping follows it).
  let stoppingSaid = Mutex<Bool>(false)

  init(notifier: SystemdNotifier, watchdog: Double?, session: SignSession, stats: ServeStats, stop: StopFlag) {
    self.notifier = notifier
    self.watchdog = watchdog
    self.session = session
    self.stats = stats
    self.stop = stop
  }

  /// Waits for the first frame, says ready, then pings and reports until the stop.
  func start() {
    DetachedThread.start { [self] in run() }
  }

  func run() {
    let heartbeat = session.heartbeat
    while !stop.isSet && heartbeat.framesShown == 0 { SignClock.kernelSleep(0.01) }
    if stop.isSet {
      stopping()
      return
    }
    // READY=1 in a datagram of its own: nothing a person named can keep systemd from it.
    notify("READY=1")
    var said = status()
    notify("STATUS=" + said)
    let step = min(1.0, (watchdog ?? 2) / 2)
    let clock = session.clock
    var next = clock.monotonic()
    var seen = session.changes.count
    var told = seen
    let waiter = ChangeSignal.Waiter()
    while !stop.isSet {
      let now = clock.monotonic()
      var stepped = false
      if now >= next {
        next = now + step
        stepped = true
        // The heartbeat is stamped by the player on the kernel's monotonic clock: read on the same.
        if let watchdog, heartbeat.isAlive(at: SystemClock.monotonicNanoseconds(), limit: Int64(saturating: watchdog * 5e8)) {
          notify("WATCHDOG=1")
        }
      }
      // The status is made again after a change to the sign, and once a step (at most a
      // second) for MQTT's connection, which changes without one.
      if seen != told || stepped {
        told = seen
        let line = status()
        if line != said {
          said = line
          notify("STATUS=" + line)
        }
      }
      // Woken by a change (the status follows it at once), else at the next ping; the way
      // out signals a change too, so a stop is seen at once.
      seen = session.changes.wait(after: seen, timeout: max(0, next - clock.monotonic()), as: waiter)
    }
    stopping()
  }

  /// The sign is on its way out (said once; the shutdown path says it before the sign goes
  /// dark, whatever this thread is doing).
  func stopping() {
    stoppingSaid.withLock { said in
      guard !said else { return }
      said = true
      notifier.send("STOPPING=1")
    }
  }

  /// Sends `message` unless `STOPPING=1` went already.
  func notify(_ message: String) {
    stoppingSaid.withLock { said in
      if !said { notifier.send(message) }
    }
  }

  /// A SIGHUP reload begins (`MONOTONIC_USEC`: when, as `Type=notify-reload` asks).
  func reloading() {
    // systemd compares it with its own CLOCK_MONOTONIC: the kernel's, whatever the session's is.
    notify("RELOADING=1\nMONOTONIC_USEC=\(SystemClock.monotonicNanoseconds() / 1000)")
  }

  /// The reload ended (done, or refused with the old config still running).
  func reloaded() {
    notify("READY=1")
    notify("STATUS=" + status())
  }

  /// One line a person reads in `systemctl status`: the program, lit or dark, what each
  /// zone shows and why (`main: person until 18:00`), MQTT, and the last refusal of a
  /// command from MQTT.
  func status() -> String {
    var parts: [String] = []
    if let program = session.programPlaying { parts.append("program \(program)") }
    parts.append(session.darkReason.map { "dark: \($0)" } ?? "lit")
    parts.append(session.whySummary(at: session.clock.wall()))
    let counts = stats.counts.withLock { $0 }
    if counts.broker != nil {
      parts.append(counts.connected ? "MQTT connected" : "MQTT not connected" + (counts.lastError.map { ": \($0)" } ?? ""))
    }
    if let refusal = counts.lastRefusal { parts.append("last refusal: \(refusal)") }
    return SystemdNotifier.statusLine(parts.joined(separator: "; "))
  }
}
