import Platform

/// Whether `condition` holds within `seconds` (looked at every 20 ms): a test waits for what
/// it expects, with a bound, instead of sleeping on luck.
public func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
  for _ in 0..<Int(seconds / 0.02) {
    if condition() { return true }
    SignClock.kernelSleep(0.02)
  }
  return condition()
}
