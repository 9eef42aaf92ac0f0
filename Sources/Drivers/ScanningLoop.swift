import Platform

/// The warning for a panel's scanning loop (`loop`) that did not get real-time priority:
/// `code` is the `errno` of the attempt.
func realTimeWarning(_ loop: String, _ code: Int32) -> String {
  "\(loop) runs without real-time priority (SCHED_FIFO: \(SystemError(code: code, operation: "").reason)): "
    + "the panels may flicker when the machine is busy. Run as root, give the binary CAP_SYS_NICE (setcap cap_sys_nice+ep), or set LimitRTPRIO=10 in the service's unit."
}
