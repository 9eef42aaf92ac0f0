import Drivers
import MatrixCore
import Platform

extension Doctor {
  /// The refresh the sign will get: the board's refresh loop run for `seconds` on this
  /// machine with the panel dark (OE never lit), a picture of text-like stripes (a third of
  /// the LEDs) at the board's depth, and its rate and timing held against the board's floor.
  /// `nil` without a HUB75 or HUB12 board, off a Pi, or for 0 seconds.
  func refresh(seconds: Double) -> Finding? {
    guard seconds > 0, let board, case .success(let pi) = pi else { return nil }
    let frame = Frame(pixels: .textLikeStripes(width: board.width, height: board.height))
    do {
      if let hub75 = board.family as? HUB75Board { return try refresh(hub75, pi: pi, frame: frame, seconds: seconds) }
      if let hub12 = board.family as? HUB12Board { return try refresh(hub12, frame: frame, seconds: seconds) }
    } catch {
      return Finding(
        check: "refresh", verdict: .problem, found: "the refresh could not start: \(error)",
        why: "the sign cannot drive the panel until it can", fix: "the problems above (GPIO access, the panel's pins) first")
    }
    return nil
  }

  /// The HUB75 refresh loop, dark, on the registers the sign maps (under the doctor's root
  /// when one is given).
  func refresh(_ board: HUB75Board, pi: RaspberryPi, frame: Frame, seconds: Double) throws -> Finding {
    let mapped = root.isEmpty || board.device != nil ? board : try board.with(device: root + pi.gpioDevice)
    var encoder = HUB75Encoder(board: mapped, color: RGBColor(red: 255, green: 255, blue: 255))
    var program = HUB75Program()
    encoder.encode(frame, into: &program)
    let scanner = try HUB75Scanner(board: mapped, pi: pi, dark: true)
    try scanner.send(program)
    SystemClock.sleep(until: SystemClock.monotonicNanoseconds() + Int64(seconds * 1e9))
    try scanner.finish()
    let figures = scanner.statistics
    let floor = board.refreshHz ?? HUB75Board.flickerFloorHz
    let shortest = Double(board.pulseNanoseconds(plane: 0)) / 1000
    let found =
      "\(Int(figures.refreshHz)) Hz over \(Doctor.seconds(seconds)) (floor \(floor) Hz) at \(board.colorDepth) bitplanes, \(figures.writesPerRefresh) register writes a refresh; "
      + "pulses lit too long by \(Doctor.micro(figures.pulseLateP99)) µs at p99, \(Doctor.micro(figures.pulseLateMax)) µs at worst "
      + "(the shortest is \(Doctor.micro(shortest)) µs)" + (figures.realTime ? "" : "; not at real-time priority")
    return verdict(
      found: found, rate: figures.refreshHz, floor: floor, realTime: figures.realTime, late: figures.pulseLateP99 > shortest,
      lower: "lower 'colorDepth' or 'lsbNanoseconds' in the board file, use parallel chains instead of a long chain, or lower 'slowdown'")
  }

  /// The HUB12 scanning loop, dark, on the board's SPI device and GPIO lines.
  func refresh(_ board: HUB12Board, frame: Frame, seconds: Double) throws -> Finding {
    var encoder = HUB12Encoder(board: board)
    var cycle = HUB12Cycle()
    encoder.encode(frame, into: &cycle)
    let scanner = try HUB12Scanner(board: board, dark: true)
    try scanner.send(cycle)
    SystemClock.sleep(until: SystemClock.monotonicNanoseconds() + Int64(seconds * 1e9))
    try scanner.finish()
    let figures = scanner.statistics
    let floor = min(board.refreshHz, HUB75Board.flickerFloorHz)
    let found =
      "\(Int(figures.refreshHz)) Hz over \(Doctor.seconds(seconds)) (the board's \(board.refreshHz) Hz, floor \(floor) Hz), "
      + "row slots late by \(Doctor.micro(figures.lateP99)) µs at p99, \(Doctor.micro(figures.lateMax)) µs at worst "
      + "(a slot is \(Doctor.micro(figures.slotMicroseconds)) µs), \(figures.overruns) cycles skipped"
      + (figures.realTime ? "" : "; not at real-time priority")
    return verdict(
      found: found, rate: figures.refreshHz, floor: Int(Double(floor) * 0.9), realTime: figures.realTime,
      late: figures.overruns > 0 || figures.lateP99 > figures.slotMicroseconds / 4,
      lower: "lower 'refreshHz' or 'speedHz' in the board file, or use fewer panels on one chain")
  }

  /// The finding from a measured refresh: a problem below the floor, a note when it was
  /// not at real-time priority or its timing slipped, ok otherwise.
  func verdict(found: String, rate: Double, floor: Int, realTime: Bool, late: Bool, lower: String) -> Finding {
    if rate < Double(floor) {
      return Finding(
        check: "refresh", verdict: .problem, found: found, why: "below the floor most people see the panel flicker",
        fix: lower + "; and fix the problems above")
    }
    if !realTime {
      return Finding(
        check: "refresh", verdict: .note, found: found, why: "at normal priority any busy moment of the machine shows as a flicker",
        fix: "LimitRTPRIO=10 in the unit (Docs/deploy.md), or run as a user allowed real-time priority")
    }
    if late {
      return Finding(
        check: "refresh", verdict: .note, found: found, why: "the timing slips: the lowest bitplanes or row slots come out uneven",
        fix: "an isolated core, the performance governor and no desktop (the checks above)")
    }
    return Finding(check: "refresh", verdict: .ok, found: found)
  }

  static func micro(_ value: Double) -> String {
    value >= 10 ? "\(Int(value.rounded()))" : "\(Double(Int((value * 10).rounded())) / 10)"
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}
